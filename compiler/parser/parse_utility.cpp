// Transaction control, SET/SHOW/RESET/DISCARD, VACUUM/ANALYZE, CREATE DATABASE/ROLE, COPY,
// PREPARE/EXECUTE/DEALLOCATE, EXPLAIN, LISTEN/UNLISTEN/NOTIFY, LOCK, and SQL cursors
// (DECLARE, FETCH, MOVE, CLOSE).
#include <charconv>

#include "compiler/parser/parser_impl.h"
#include "engine/error.h"

namespace duet::sql {

// ---- transactions ----

// Transaction modes, separated by commas or just spaces, as PostgreSQL accepts. Returns
// whether there was one.
bool Parser::parseTransactionModes(TransactionStmt& t) {
  bool any = false;
  while (true) {
    bool comma = any && acceptOp(",");
    if (acceptKw("isolation")) {
      expectKw("level");
      if (acceptKw("serializable")) {
        t.isolation = IsolationLevel::Serializable;
      } else if (acceptKw("repeatable")) {
        expectKw("read");
        t.isolation = IsolationLevel::RepeatableRead;
      } else {
        expectKw("read");
        if (acceptKw("committed"))
          t.isolation = IsolationLevel::ReadCommitted;
        else if (acceptKw("uncommitted"))
          t.isolation = IsolationLevel::ReadUncommitted;
        else
          syntaxError();
      }
    } else if (isKw("read") && (isKw("only", 1) || isKw("write", 1))) {
      advance();
      t.readOnly = advance().str() == "only";
    } else if (acceptKw("deferrable")) {
      t.deferrable = true;
    } else if (isKw("not") && isKw("deferrable", 1)) {
      advance();
      advance();
      t.deferrable = false;
    } else {
      if (comma) syntaxError();
      return any;
    }
    any = true;
  }
}

StmtPtr Parser::parseTransaction() {
  auto s = std::make_unique<TransactionStmt>();
  std::string w = advance().str();
  auto optWork = [&] {
    if (!acceptKw("work")) acceptKw("transaction");
  };
  auto optChain = [&] {
    if (acceptKw("and")) {
      s->chain = !acceptKw("no");
      expectKw("chain");
    }
  };
  if (w == "begin") {
    s->action = TransactionKind::Begin;
    optWork();
    parseTransactionModes(*s);
  } else if (w == "start") {
    expectKw("transaction");
    s->action = TransactionKind::Start;
    parseTransactionModes(*s);
  } else if (w == "commit" || w == "end") {
    s->action = TransactionKind::Commit;
    optWork();
    optChain();
  } else if (w == "rollback" || w == "abort") {
    s->action = TransactionKind::Rollback;
    optWork();
    if (w == "rollback" && acceptKw("to")) {
      acceptKw("savepoint");
      s->action = TransactionKind::RollbackTo;
      s->savepoint = parseColId();
    } else {
      optChain();
    }
  } else if (w == "savepoint") {
    s->action = TransactionKind::Savepoint;
    s->savepoint = parseColId();
  } else {  // release
    s->action = TransactionKind::Release;
    acceptKw("savepoint");
    s->savepoint = parseColId();
  }
  return s;
}

// ---- SET / SHOW / RESET / DISCARD ----

// A configuration parameter name: TIME ZONE (TimeZone), or ColId ('.' ColId)*.
std::string Parser::parseSettingName() {
  if (isKw("time") && isKw("zone", 1)) {
    advance();
    advance();
    return "timezone";
  }
  std::string name = parseColId();
  while (acceptOp(".")) name += "." + parseColId();
  return name;
}

DefElem Parser::parseSettingValue() {
  DefElem v;
  v.location = peek().offset;
  parseOptionValue(v, true);
  return v;
}

StmtPtr Parser::parseSet() {
  expectKw("set");
  // SET SESSION | LOCAL, which SESSION CHARACTERISTICS is not.
  bool local = false;
  auto sessionAuthorization = [&] { return isKw("session") && isKw("authorization", 1); };
  if ((isKw("session") || isKw("local")) && peek(1).kind == TokenKind::Word && !isKw("to", 1) &&
      !isKw("characteristics", 1) && !sessionAuthorization()) {
    local = advance().str() == "local";
  }
  if (isKw("transaction") || (isKw("session") && isKw("characteristics", 1))) return parseSetTransaction(local);
  if (isKw("constraints") && !isKw("to", 1) && !isOp("=", 1)) {
    advance();
    auto t = std::make_unique<TransactionStmt>();
    t->action = TransactionKind::SetConstraints;
    if (!acceptKw("all")) {
      do t->constraints.push_back(parseQualifiedName());
      while (acceptOp(","));
    }
    t->deferred = acceptKw("deferred");
    if (!t->deferred) expectKw("immediate");
    return t;
  }
  auto s = std::make_unique<SetStmt>();
  s->local = local;
  // SET ROLE name | NONE and SET SESSION AUTHORIZATION name | DEFAULT: the settings role
  // and session_authorization, with no TO/=.
  if (sessionAuthorization() || (isKw("role") && !isKw("to", 1) && !isOp("=", 1))) {
    s->name = sessionAuthorization() ? "session_authorization" : "role";
    if (s->name == "session_authorization") advance();
    advance();
    if (s->name == "session_authorization" && acceptKw("default")) {
      s->action = SetStmt::Action::SetDefault;
    } else {
      s->values.push_back(parseSettingValue());
    }
    return s;
  }
  // SET NAMES 'enc' (client_encoding) and SET TIME ZONE value take one value and no TO/=;
  // SET TIME ZONE LOCAL means DEFAULT.
  bool special = false;
  if (isKw("names") && !isKw("to", 1) && !isOp("=", 1)) {
    advance();
    s->name = "client_encoding";
    special = true;
  } else {
    special = isKw("time") && isKw("zone", 1);
    s->name = parseSettingName();
    if (!special && !acceptKw("to")) expectOp("=");
  }
  if (acceptKw("default") || (special && s->name == "timezone" && acceptKw("local"))) {
    s->action = SetStmt::Action::SetDefault;
    return s;
  }
  do s->values.push_back(parseSettingValue());
  while (!special && acceptOp(","));
  return s;
}

// SET TRANSACTION modes (of the running transaction) or SET SESSION CHARACTERISTICS AS
// TRANSACTION modes (the defaults of the next ones), with at least one mode.
StmtPtr Parser::parseSetTransaction(bool local) {
  auto t = std::make_unique<TransactionStmt>();
  t->action = TransactionKind::SetTransaction;
  if (acceptKw("session")) {
    expectKw("characteristics");
    expectKw("as");
    t->action = TransactionKind::SetSessionCharacteristics;
  }
  expectKw("transaction");
  if (!parseTransactionModes(*t)) syntaxError();
  t->local = local;
  return t;
}

StmtPtr Parser::parseShow() {
  expectKw("show");
  auto s = std::make_unique<ShowStmt>();
  if (isKw("transaction") && isKw("isolation", 1)) {
    advance();
    advance();
    expectKw("level");
    s->name = "transaction_isolation";
  } else if (acceptKw("all")) {
    s->name = "all";
  } else {
    s->name = parseSettingName();
  }
  return s;
}

StmtPtr Parser::parseReset() {
  expectKw("reset");
  auto s = std::make_unique<SetStmt>();
  s->action = SetStmt::Action::Reset;
  if (acceptKw("all")) {
    s->action = SetStmt::Action::ResetAll;
  } else if (isKw("session") && isKw("authorization", 1)) {
    advance();
    advance();
    s->name = "session_authorization";
  } else {
    s->name = parseSettingName();
  }
  return s;
}

StmtPtr Parser::parseDiscard() {
  expectKw("discard");
  auto s = std::make_unique<DiscardStmt>();
  if (acceptKw("all"))
    s->target = "all";
  else if (acceptKw("plans"))
    s->target = "plans";
  else if (acceptKw("sequences"))
    s->target = "sequences";
  else if (acceptKw("temp") || acceptKw("temporary"))
    s->target = "temp";
  else
    syntaxError();
  return s;
}

// ---- maintenance ----

StmtPtr Parser::parseVacuum(bool isAnalyze) {
  advance();  // VACUUM, ANALYZE or ANALYSE
  auto s = std::make_unique<VacuumStmt>();
  s->isAnalyze = isAnalyze;
  if (isOp("(")) {
    s->options = parseParenDefElems(false);
  } else {
    static const char* const kVacuumWords[] = {"full", "freeze", "verbose", "analyze", "analyse"};
    for (const char* w : kVacuumWords) {
      if (isAnalyze && std::string_view(w) != "verbose") continue;
      if (isKw(w)) {
        DefElem d;
        d.location = advance().offset;
        d.name = std::string_view(w) == "analyse" ? "analyze" : w;
        s->options.push_back(std::move(d));
      }
    }
  }
  if (!atStatementEnd()) {
    do {
      s->tables.push_back(parseQualifiedName());
      s->columns.push_back(isOp("(") ? parseParenNameList() : std::vector<std::string>{});
    } while (acceptOp(","));
  }
  return s;
}

// ---- databases and roles ----

StmtPtr Parser::parseCreateDatabase() {
  expectKw("database");
  auto s = std::make_unique<CreateDatabaseStmt>();
  s->name = parseColId();
  acceptKw("with");
  while (!atStatementEnd()) {
    DefElem d;
    d.location = peek().offset;
    d.name = parseColLabel();
    if (d.name == "connection") {
      expectKw("limit");
      d.name = "connection_limit";
    }
    acceptOp("=");
    parseOptionValue(d, true);
    s->options.push_back(std::move(d));
  }
  return s;
}

StmtPtr Parser::parseCreateRole(bool isUser) {
  advance();  // ROLE or USER
  auto s = std::make_unique<CreateRoleStmt>();
  s->isUser = isUser;
  s->name = parseColId();
  parseRoleOptions(s->options);
  return s;
}

StmtPtr Parser::parseAlterRole() {
  advance();  // ALTER
  advance();  // ROLE or USER
  auto s = std::make_unique<AlterRoleStmt>();
  s->name = parseColId();
  parseRoleOptions(s->options);
  return s;
}

StmtPtr Parser::parseGrantRole() {
  auto s = std::make_unique<GrantRoleStmt>();
  s->grant = advance().text == "grant";
  if (!s->grant && isKw("admin") && isKw("option", 1) && isKw("for", 2)) {
    advance();
    advance();
    advance();
    s->adminOption = true;
  }
  do {
    s->roles.push_back(parseColId());
  } while (acceptOp(","));
  // GRANT privileges ON objects: issue 24 (privileges).
  if (isKw("on"))
    errorAt(sqlstate::kFeatureNotSupported,
            std::string(s->grant ? "GRANT" : "REVOKE") + " on objects is not supported yet", peek().offset);
  expectKw(s->grant ? "to" : "from");
  do {
    acceptKw("group");
    s->members.push_back(parseColId());
  } while (acceptOp(","));
  if (s->grant && acceptKw("with")) {
    expectKw("admin");
    expectKw("option");
    s->adminOption = true;
  }
  if (acceptKw("granted")) {
    expectKw("by");
    parseColId();  // the grantor: every role may grant today (issue 24: privileges)
  }
  if (!s->grant && !acceptKw("cascade")) acceptKw("restrict");
  return s;
}

StmtPtr Parser::parseAlterDatabase() {
  advance();  // ALTER
  advance();  // DATABASE
  auto s = std::make_unique<AlterDatabaseStmt>();
  s->name = parseColId();
  if (!isKw("owner"))
    errorAt(sqlstate::kFeatureNotSupported, "ALTER DATABASE is supported only with OWNER TO", peek().offset);
  advance();
  expectKw("to");
  s->owner = parseColId();
  return s;
}

void Parser::parseRoleOptions(std::vector<DefElem>& options) {
  acceptKw("with");
  while (!atStatementEnd()) {
    DefElem d;
    d.location = peek().offset;
    d.name = parseColLabel();
    if (d.name == "password" || d.name == "encrypted") {
      if (d.name == "encrypted") expectKw("password");
      d.name = "password";
      if (acceptKw("null")) {
        d.valueKind = DefElem::ValueKind::None;
      } else if (peek().kind == TokenKind::String) {
        d.valueKind = DefElem::ValueKind::String;
        d.value = advance().str();
      } else {
        syntaxError();
      }
    } else if (d.name == "connection") {
      expectKw("limit");
      d.name = "connection_limit";
      int v = 0;
      if (!parseOptionalSignedInt(v)) syntaxError();
      d.valueKind = DefElem::ValueKind::Number;
      d.value = std::to_string(v);
    } else if (d.name == "valid") {
      expectKw("until");
      d.name = "valid_until";
      if (peek().kind != TokenKind::String) syntaxError();
      d.valueKind = DefElem::ValueKind::String;
      d.value = advance().str();
    }
    options.push_back(std::move(d));
  }
}

// ---- COPY ----

StmtPtr Parser::parseCopy() {
  expectKw("copy");
  auto s = std::make_unique<CopyStmt>();
  if (isOp("(")) {
    s->query = parseParenSubquery();
  } else {
    s->table = parseQualifiedName();
    if (isOp("(")) s->columns = parseParenNameList();
  }
  if (acceptKw("from"))
    s->isFrom = true;
  else
    expectKw("to");
  if (s->query && s->isFrom) syntaxError();
  if (peek().kind == TokenKind::String)
    s->file = advance().str();
  else if (!acceptKw(s->isFrom ? "stdin" : "stdout"))
    syntaxError();
  acceptKw("with");
  if (isOp("(")) {
    s->options = parseParenDefElems(false);
    return s;
  }
  // Old-style options, normalised to the names of the parenthesised form.
  while (!atStatementEnd()) {
    DefElem d;
    d.location = peek().offset;
    std::string w = parseColLabel();
    auto stringArg = [&](const char* name) {
      d.name = name;
      acceptKw("as");
      if (peek().kind != TokenKind::String) syntaxError();
      d.valueKind = DefElem::ValueKind::String;
      d.value = advance().str();
    };
    if (w == "csv" || w == "binary" || w == "text") {
      d.name = "format";
      d.valueKind = DefElem::ValueKind::Word;
      d.value = w;
    } else if (w == "header" || w == "freeze" || w == "oids") {
      d.name = w;
    } else if (w == "delimiter" || w == "null" || w == "quote" || w == "escape" || w == "encoding") {
      stringArg(w.c_str());
    } else if (w == "force") {
      if (acceptKw("not")) {
        expectKw("null");
        d.name = "force_not_null";
      } else if (acceptKw("null")) {
        d.name = "force_null";
      } else {
        expectKw("quote");
        d.name = "force_quote";
      }
      if (acceptOp("*")) {
        d.valueKind = DefElem::ValueKind::Word;
        d.value = "*";
      } else {
        std::string cols;
        do cols += (cols.empty() ? "" : ",") + parseColId();
        while (acceptOp(","));
        d.valueKind = DefElem::ValueKind::Word;
        d.value = cols;
      }
    } else {
      syntaxErrorAt(tokens_[pos_ - 1]);  // at the unknown option word
    }
    s->options.push_back(std::move(d));
  }
  return s;
}

// ---- prepared statements and EXPLAIN ----

StmtPtr Parser::parsePrepare() {
  expectKw("prepare");
  auto s = std::make_unique<PrepareStmt>();
  s->name = parseColId();
  if (acceptOp("(")) {
    do s->paramTypes.push_back(parseTypeName());
    while (acceptOp(","));
    expectOp(")");
  }
  expectKw("as");
  uint32_t begin = peek().offset;
  s->stmt = parsePreparable();
  s->stmt->begin = begin;
  s->stmt->end = lastEnd_;
  return s;
}

StmtPtr Parser::parseExecute() {
  expectKw("execute");
  auto s = std::make_unique<ExecuteStmt>();
  s->name = parseColId();
  if (acceptOp("(")) {
    do {
      uint32_t begin = peek().offset;
      s->args.push_back(parseExpr());
      s->argRanges.emplace_back(begin, lastEnd_);
    } while (acceptOp(","));
    expectOp(")");
  }
  return s;
}

StmtPtr Parser::parseDeallocate() {
  expectKw("deallocate");
  acceptKw("prepare");
  auto s = std::make_unique<DeallocateStmt>();
  if (acceptKw("all"))
    s->all = true;
  else
    s->name = parseColId();
  return s;
}

StmtPtr Parser::parseExplain() {
  expectKw("explain");
  auto s = std::make_unique<ExplainStmt>();
  if (isOp("(") && !startsSelect()) {
    s->options = parseParenDefElems(false);
  } else {
    if (isKw("analyze") || isKw("analyse")) {
      DefElem d;
      d.location = advance().offset;
      d.name = "analyze";
      s->options.push_back(std::move(d));
    }
    if (isKw("verbose")) {
      DefElem d;
      d.location = advance().offset;
      d.name = "verbose";
      s->options.push_back(std::move(d));
    }
  }
  uint32_t begin = peek().offset;
  s->stmt = parsePreparable();
  s->stmt->begin = begin;
  s->stmt->end = lastEnd_;
  return s;
}

// ---- LISTEN / NOTIFY, LOCK ----

StmtPtr Parser::parseListen() {
  expectKw("listen");
  auto s = std::make_unique<ListenStmt>();
  s->channel = parseColId();
  return s;
}

StmtPtr Parser::parseUnlisten() {
  expectKw("unlisten");
  auto s = std::make_unique<UnlistenStmt>();
  if (!acceptOp("*")) s->channel = parseColId();
  return s;
}

StmtPtr Parser::parseNotify() {
  expectKw("notify");
  auto s = std::make_unique<NotifyStmt>();
  s->channel = parseColId();
  if (acceptOp(",")) {
    if (peek().kind != TokenKind::String) syntaxError();
    s->payload = advance().str();
  }
  return s;
}

// LOCK [TABLE] [ONLY] name [*] [, ...] [IN lockmode MODE] [NOWAIT]
StmtPtr Parser::parseLock() {
  expectKw("lock");
  acceptKw("table");
  auto s = std::make_unique<LockStmt>();
  do {
    acceptKw("only");
    s->tables.push_back(parseQualifiedName());
    acceptOp("*");
  } while (acceptOp(","));
  s->mode = "access exclusive";
  if (acceptKw("in")) {
    if (acceptKw("access")) {
      s->mode = acceptKw("share") ? "access share" : (expectKw("exclusive"), "access exclusive");
    } else if (acceptKw("row")) {
      s->mode = acceptKw("share") ? "row share" : (expectKw("exclusive"), "row exclusive");
    } else if (acceptKw("share")) {
      if (acceptKw("update")) {
        expectKw("exclusive");
        s->mode = "share update exclusive";
      } else if (acceptKw("row")) {
        expectKw("exclusive");
        s->mode = "share row exclusive";
      } else {
        s->mode = "share";
      }
    } else {
      expectKw("exclusive");
      s->mode = "exclusive";
    }
    expectKw("mode");
  }
  s->nowait = acceptKw("nowait");
  return s;
}

// ---- SQL cursors ----

// DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [[NO] SCROLL] CURSOR [{WITH | WITHOUT} HOLD]
// FOR query
StmtPtr Parser::parseDeclareCursor() {
  expectKw("declare");
  auto s = std::make_unique<DeclareCursorStmt>();
  s->name = parseColId();
  while (!isKw("cursor")) {
    if (acceptKw("binary")) {
      s->binary = true;
    } else if (acceptKw("insensitive") || acceptKw("asensitive")) {
    } else if (acceptKw("scroll")) {
      s->scroll = true;
    } else if (isKw("no") && isKw("scroll", 1)) {
      advance();
      advance();
      s->noScroll = true;
    } else {
      syntaxError();
    }
  }
  expectKw("cursor");
  if (acceptKw("with")) {
    expectKw("hold");
    s->hold = true;
  } else if (acceptKw("without")) {
    expectKw("hold");
  }
  expectKw("for");
  if (!startsSelect() && !isOp("(")) syntaxError();
  uint32_t begin = peek().offset;
  s->query = parseSelect();
  s->query->begin = begin;
  s->query->end = lastEnd_;
  return s;
}

StmtPtr Parser::parseFetch() {
  auto s = std::make_unique<FetchStmt>();
  s->move = advance().str() == "move";
  using D = FetchStmt::Direction;
  auto count = [&](int64_t& out) {
    bool negative = false;
    if (isOp("-") || isOp("+")) negative = advance().str() == "-";
    if (peek().kind != TokenKind::Integer) syntaxError();
    // PostgreSQL's Iconst: what does not fit in 32 bits is no integer constant there.
    std::string digits = peek().str();
    int32_t value = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size()) syntaxError();
    advance();
    out = negative ? -int64_t(value) : value;
  };
  auto startsCount = [&] {
    return peek().kind == TokenKind::Integer || ((isOp("-") || isOp("+")) && peek(1).kind == TokenKind::Integer);
  };
  if (acceptKw("next")) {
  } else if (acceptKw("prior")) {
    s->direction = D::Backward;
  } else if (acceptKw("first")) {
    s->direction = D::Absolute;
  } else if (acceptKw("last")) {
    s->direction = D::Absolute;
    s->count = -1;
  } else if (acceptKw("absolute")) {
    s->direction = D::Absolute;
    count(s->count);
  } else if (acceptKw("relative")) {
    s->direction = D::Relative;
    count(s->count);
  } else if (acceptKw("all")) {
    s->count = FetchStmt::kAll;
  } else if (isKw("forward") || isKw("backward")) {
    s->direction = advance().str() == "forward" ? D::Forward : D::Backward;
    if (acceptKw("all")) {
      s->count = FetchStmt::kAll;
    } else if (startsCount()) {
      count(s->count);
    }
  } else if (startsCount()) {
    count(s->count);
  }
  // A negative count goes the other way (a count of 0 fetches the current row again).
  if ((s->direction == D::Forward || s->direction == D::Backward) && s->count < 0) {
    s->direction = s->direction == D::Forward ? D::Backward : D::Forward;
    s->count = -s->count;
  }
  if (!acceptKw("from")) acceptKw("in");
  s->name = parseColId();
  return s;
}

StmtPtr Parser::parseClosePortal() {
  expectKw("close");
  auto s = std::make_unique<ClosePortalStmt>();
  if (!acceptKw("all")) s->name = parseColId();
  return s;
}

}  // namespace duet::sql
