// PL/pgSQL statements (pl_gram.y's proc_stmt): control flow, assignments, RETURN, RAISE,
// GET DIAGNOSTICS and embedded SQL, with the checks PostgreSQL makes while compiling.
#include <fmt/format.h>

#include <cctype>
#include <charconv>

#include "compiler/plpgsql/body_parser.h"
#include "compiler/plpgsql/condition_names.h"
#include "engine/error.h"
#include "engine/limits/stack_depth.h"

namespace duet::plpgsql {
namespace {

constexpr const char* kDatatypeMismatch = "42804";

bool validSqlstate(std::string_view code) {
  if (code.size() != 5) return false;
  for (char c : code)
    if (!std::isdigit(static_cast<unsigned char>(c)) && !std::isupper(static_cast<unsigned char>(c))) return false;
  return true;
}

// The parameters a RAISE format consumes: each % not doubled.
size_t raisePlaceholders(const std::string& format) {
  size_t n = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    if (i + 1 < format.size() && format[i + 1] == '%')
      ++i;
    else
      ++n;
  }
  return n;
}

}  // namespace

StmtList BodyParser::parseStatements() {
  StmtList list;
  while (!(isKw("end") || isKw("elsif") || isKw("elseif") || isKw("else") || isKw("exception") || isKw("when"))) {
    if (peek().kind == sql::TokenKind::End) syntaxError();
    list.push_back(parseStatement());
  }
  return list;
}

StmtPtr BodyParser::parseStatement() {
  checkStackDepth();
  uint32_t loc = peek().offset;
  std::string label = optionalLabel();
  if (isKw("begin") || isKw("declare")) {
    StmtPtr block = parseBlock(label, loc);
    expectSemicolon();
    return block;
  }
  if (isKw("loop")) return parseLoop(StmtKind::Loop, label, loc);
  if (isKw("while")) return parseLoop(StmtKind::While, label, loc);
  if (acceptKw("for")) return parseFor(label, loc);
  if (acceptKw("foreach")) return parseForEach(label, loc);
  if (!label.empty()) syntaxError();
  if (acceptKw("if")) return parseIf(loc);
  if (acceptKw("case")) return parseCase(loc);
  if (isKw("exit") || isKw("continue")) return parseExit(loc);
  if (acceptKw("return")) return parseReturn(loc);
  if (acceptKw("raise")) return parseRaise(loc);
  if (acceptKw("get")) return parseGetDiagnostics(loc);
  if (acceptKw("perform")) {
    auto perform = std::make_unique<Perform>(loc);
    perform->query = readSql({";"}, ";", false).sql;
    checkExpression(perform->query);  // PERFORM x is run as SELECT x
    expectSemicolon();
    return perform;
  }
  if (isKw("null") && isOp(";", 1)) {
    advance();
    advance();
    return std::make_unique<Null>(loc);
  }
  if (isKw("commit") || isKw("rollback")) return parseTransactionControl(loc);
  if (isKw("open") || isKw("fetch") || isKw("move") || isKw("close")) return parseCursorStatement(loc);
  if (acceptKw("execute")) return parseExecute(loc);
  if (acceptKw("assert")) return parseAssert(loc);
  if (peek().kind == sql::TokenKind::Word) return parseAssignment(loc);
  return parseExecSql(loc);
}

// OPEN c [(arguments)]; FETCH [direction] [FROM | IN] c INTO target, ...; MOVE [direction]
// [FROM | IN] c; CLOSE c (of a bound cursor).
StmtPtr BodyParser::parseCursorStatement(uint32_t loc) {
  std::string verb = advance().str();
  StmtKind kind = verb == "open"    ? StmtKind::CursorOpen
                  : verb == "fetch" ? StmtKind::CursorFetch
                  : verb == "move"  ? StmtKind::CursorMove
                                    : StmtKind::CursorClose;
  auto st = std::make_unique<CursorStmt>(kind, loc);
  if (kind == StmtKind::CursorFetch || kind == StmtKind::CursorMove) st->direction = parseFetchDirection();
  const sql::Token& name = peek();
  std::string cursorName = variableWord();
  st->cursor = lookupCursor(cursorName);
  st->variable = st->cursor >= 0 ? fn_.cursors[st->cursor].variable : lookupVariable(cursorName);
  if (st->variable < 0)
    errorAt(sqlstate::kSyntaxError, fmt::format("\"{}\" is not a known variable", cursorName), name.offset);
  const VarType& type = fn_.variables[st->variable].type;
  if (type.kind != VarType::Kind::Scalar || type.scalar.alias != TypeAlias::RefCursor)
    errorAt(kDatatypeMismatch, fmt::format("variable \"{}\" must be of type cursor or refcursor", cursorName),
            name.offset);
  if (kind == StmtKind::CursorOpen) {
    if (st->cursor >= 0) {
      st->arguments = parseCursorArguments(st->cursor);
    } else {
      parseOpenFor(*st);
      return st;
    }
  }
  if (kind == StmtKind::CursorFetch) {
    expectKw("into");
    do st->targets.push_back(parseAssignableTarget());
    while (isOp(",") && (advance(), true));
  }
  expectSemicolon();
  if (kind == StmtKind::CursorFetch && st->direction.multipleRows)
    errorAt(sqlstate::kFeatureNotSupported, "FETCH statement cannot return multiple rows", loc);
  return st;
}

// OPEN c [[NO] SCROLL] FOR query; or FOR EXECUTE command [USING expression, ...]; (after
// the unbound cursor variable c; stmt_open).
void BodyParser::parseOpenFor(CursorStmt& open) {
  if (acceptKw("no")) {
    expectKw("scroll");
    open.scrollable = false;
  } else {
    acceptKw("scroll");
  }
  expectKw("for");
  if (acceptKw("execute")) {
    DynamicQuery query;
    query.command = expression({"using", ";"}, "USING or ;");
    if (acceptKw("using")) query.params = parseUsing({",", ";"}, ", or ;");
    open.dynamic = std::move(query);
  } else {
    open.query = readSql({";"}, ";", false).sql;
    checkStatement(*open.query);
  }
  expectSemicolon();
}

// COMMIT | ROLLBACK [AND [NO] CHAIN] (stmt_commit, stmt_rollback).
StmtPtr BodyParser::parseTransactionControl(uint32_t loc) {
  auto st = std::make_unique<TransactionControl>(loc);
  st->commit = advance().str() == "commit";
  if (acceptKw("and")) {
    bool no = acceptKw("no");
    expectKw("chain");
    st->chain = !no;
  }
  expectSemicolon();
  return st;
}

// target := expr (or = expr). A word that is no variable starts an SQL statement, unless
// an assignment follows it.
StmtPtr BodyParser::parseAssignment(uint32_t loc) {
  size_t save = pos_;
  Target target;
  if (!parseTarget(target, true) || !(isOp(":=") || isOp("="))) {
    pos_ = save;
    if (lookupVariable(peek().text) < 0 && (isOp(":=", 1) || isOp("[", 1)))
      errorAt(sqlstate::kSyntaxError, fmt::format("\"{}\" is not a known variable", peek().text), loc);
    return parseExecSql(loc);
  }
  checkAssignable(target);
  advance();
  auto assign = std::make_unique<Assign>(loc);
  assign->target = std::move(target);
  assign->value = expression({";"}, ";");
  expectSemicolon();
  return assign;
}

// make_execsql_stmt: everything up to ';'. An INTO at the top level (not INSERT INTO)
// names the targets; its text is blanked out of the statement, keeping every offset.
StmtPtr BodyParser::parseExecSql(uint32_t loc) {
  auto st = std::make_unique<ExecSql>(loc);
  st->call = isKw("call");
  size_t first = pos_;
  uint32_t intoBegin = 0, intoEnd = 0;
  bool afterInsert = false;
  while (!isOp(";")) {
    const sql::Token& t = peek();
    if (t.kind == sql::TokenKind::End) syntaxError("unexpected end of function definition");
    if (isKw("into") && !afterInsert) {
      if (st->into) syntaxError("INTO specified more than once");
      st->into = true;
      intoBegin = t.offset;
      advance();
      st->strict = acceptKw("strict");
      do {
        st->targets.push_back(parseAssignableTarget());
      } while (isOp(",") && (advance(), true));
      intoEnd = peek().offset;
      continue;
    }
    afterInsert = isKw("insert") || isKw("merge");
    advance();
  }
  if (pos_ == first) syntaxError("missing SQL statement");
  SqlText& text = st->statement;
  text.begin = tokens_[first].offset;
  text.end = tokens_[pos_ - 1].offset + tokens_[pos_ - 1].length;
  text.text = std::string(source_.body.substr(text.begin, text.end - text.begin));
  if (st->into) {
    for (uint32_t i = intoBegin; i < std::min(intoEnd, text.end); ++i) text.text[i - text.begin] = ' ';
    while (!text.text.empty() && text.text.back() == ' ') text.text.pop_back();
  }
  checkStatement(text);
  expectSemicolon();
  return st;
}

StmtPtr BodyParser::parseIf(uint32_t loc) {
  auto s = std::make_unique<If>(loc);
  do {
    If::Branch branch;
    branch.condition = expression({"then"}, "THEN");
    expectKw("then");
    branch.body = parseStatements();
    s->branches.push_back(std::move(branch));
  } while (acceptKw("elsif") || acceptKw("elseif"));
  if (acceptKw("else")) s->elseBody = parseStatements();
  expectKw("end");
  expectKw("if");
  expectSemicolon();
  return s;
}

StmtPtr BodyParser::parseCase(uint32_t loc) {
  auto s = std::make_unique<Case>(loc);
  if (!isKw("when")) s->subject = expression({"when"}, "WHEN");
  if (!isKw("when")) syntaxError();
  while (acceptKw("when")) {
    Case::When when;
    when.values = expression({"then"}, "THEN");  // a value list reads as a select list
    expectKw("then");
    when.body = parseStatements();
    s->whens.push_back(std::move(when));
  }
  if (acceptKw("else")) {
    s->hasElse = true;
    s->elseBody = parseStatements();
  }
  expectKw("end");
  expectKw("case");
  expectSemicolon();
  return s;
}

// The statements of a loop up to END LOOP [label]; the caller has pushed the loop's scope.
StmtList BodyParser::parseLoopBody(const std::string& label) {
  StmtList body = parseStatements();
  expectKw("end");
  expectKw("loop");
  checkEndLabel(label);
  expectSemicolon();
  scopes_.pop_back();
  return body;
}

StmtPtr BodyParser::parseLoop(StmtKind kind, std::string label, uint32_t loc) {
  auto s = std::make_unique<Loop>(kind, loc);
  s->label = label;
  if (acceptKw("while")) s->condition = expression({"loop"}, "LOOP");
  expectKw("loop");
  scopes_.push_back(Scope{label, true, {}, {}, {}});
  s->body = parseLoopBody(label);
  return s;
}

// FOR i IN [REVERSE] a .. b [BY c] LOOP, or FOR target IN query LOOP: which one is decided
// by whether the text after IN reaches ".." before LOOP, as in PostgreSQL.
StmtPtr BodyParser::parseFor(std::string label, uint32_t loc) {
  uint32_t varAt = peek().offset;
  std::vector<std::string> names;
  do names.push_back(variableWord());
  while (isOp(",") && (advance(), true));
  expectKw("in");
  if (acceptKw("execute")) return parseForExecute(std::move(label), loc, rowLoopTargets(names, varAt));
  if (peek().kind == sql::TokenKind::Word && lookupCursor(peek().text) >= 0)
    return parseForCursor(std::move(label), loc, names, varAt);
  bool reverse = acceptKw("reverse");
  Cut first = readSql({"..", "loop"}, "LOOP", true);
  if (isOp("..")) {
    if (names.size() != 1)
      errorAt(sqlstate::kSyntaxError, "integer FOR loop must have only one target variable", varAt);
    auto s = std::make_unique<ForInt>(loc);
    s->label = label;
    s->reverse = reverse;
    s->lower = std::move(first.sql);
    checkExpression(s->lower);
    advance();
    s->upper = readSql({"loop", "by"}, "LOOP", true).sql;
    checkExpression(s->upper);
    if (acceptKw("by")) s->step = expression({"loop"}, "LOOP");
    expectKw("loop");
    scopes_.push_back(Scope{label, true, {}, {}, {}});
    Variable v;
    v.name = names[0];
    v.type.scalar = SqlType{TypeId::Int4, -1};
    v.implicit = true;
    v.location = varAt;
    s->variable = declare(std::move(v));
    s->body = parseLoopBody(label);
    return s;
  }
  if (reverse) errorAt(sqlstate::kSyntaxError, "cannot specify REVERSE in query FOR loop", loc);
  auto s = std::make_unique<ForQuery>(loc);
  s->label = label;
  s->targets = rowLoopTargets(names, varAt);
  s->query = std::move(first.sql);
  checkStatement(s->query);
  expectKw("loop");
  scopes_.push_back(Scope{label, true, {}, {}, {}});
  s->body = parseLoopBody(label);
  return s;
}

std::vector<Target> BodyParser::rowLoopTargets(const std::vector<std::string>& names, uint32_t varAt) {
  std::vector<Target> targets;
  for (const std::string& name : names) {
    int v = lookupVariable(name);
    bool composite = v >= 0 && (fn_.variables[v].type.kind == VarType::Kind::Record ||
                                fn_.variables[v].type.kind == VarType::Kind::Row);
    if (v < 0 || (composite && names.size() > 1))
      errorAt(sqlstate::kSyntaxError,
              "loop variable of loop over rows must be a record variable or list of scalar variables", varAt);
    Target target;
    target.variable = v;
    target.location = varAt;
    checkAssignable(target);
    targets.push_back(std::move(target));
  }
  return targets;
}

StmtPtr BodyParser::parseExit(uint32_t loc) {
  auto s = std::make_unique<Exit>(loc);
  s->isContinue = advance().str() == "continue";
  const char* word = s->isContinue ? "CONTINUE" : "EXIT";
  if (peek().kind == sql::TokenKind::Word && !isKw("when")) {
    uint32_t labelAt = peek().offset;
    s->label = advance().str();
    auto scope = scopes_.rbegin();
    while (scope != scopes_.rend() && scope->label != s->label) ++scope;
    // The outermost scope is the routine's own namespace, not a block EXIT can leave.
    if (scope == scopes_.rend() || scope == std::prev(scopes_.rend()))
      errorAt(sqlstate::kSyntaxError,
              fmt::format("there is no label \"{}\" attached to any block or loop enclosing this statement", s->label),
              labelAt);
    if (s->isContinue && !scope->loop)
      errorAt(sqlstate::kSyntaxError, fmt::format("block label \"{}\" cannot be used in CONTINUE", s->label), labelAt);
  } else {
    bool inLoop = false;
    for (const Scope& scope : scopes_) inLoop = inLoop || scope.loop;
    if (!inLoop)
      errorAt(sqlstate::kSyntaxError,
              s->isContinue ? "CONTINUE cannot be used outside a loop"
                            : fmt::format("{} cannot be used outside a loop, unless it has a label", word),
              loc);
  }
  if (acceptKw("when")) s->when = expression({";"}, ";");
  expectSemicolon();
  return s;
}

// make_return_stmt and friends: what RETURN may carry depends on the routine's result.
StmtPtr BodyParser::parseReturn(uint32_t loc) {
  if (acceptKw("next")) {
    if (!routine_.returnsSet) errorAt(kDatatypeMismatch, "cannot use RETURN NEXT in a non-SETOF function", loc);
    auto s = std::make_unique<Return>(StmtKind::ReturnNext, loc);
    if (routine_.hasOutputParams()) {
      if (!isOp(";"))
        errorAt(kDatatypeMismatch, "RETURN NEXT cannot have a parameter in function with OUT parameters",
                peek().offset);
    } else {
      s->value = expression({";"}, ";");
    }
    expectSemicolon();
    return s;
  }
  if (acceptKw("query")) {
    if (!routine_.returnsSet) errorAt(kDatatypeMismatch, "cannot use RETURN QUERY in a non-SETOF function", loc);
    if (acceptKw("execute")) return parseReturnQueryExecute(loc);
    auto s = std::make_unique<Return>(StmtKind::ReturnQuery, loc);
    s->value = readSql({";"}, ";", false).sql;
    checkStatement(*s->value);
    expectSemicolon();
    return s;
  }
  auto s = std::make_unique<Return>(StmtKind::Return, loc);
  if (!isOp(";")) {
    uint32_t at = peek().offset;
    if (routine_.returnsSet)
      errorAt(kDatatypeMismatch, "RETURN cannot have a parameter in function returning set", at,
              "Use RETURN NEXT or RETURN QUERY.");
    if (routine_.procedure) errorAt(sqlstate::kSyntaxError, "RETURN cannot have a parameter in a procedure", at);
    if (routine_.returnsVoid)
      errorAt(kDatatypeMismatch, "RETURN cannot have a parameter in function returning void", at);
    if (routine_.hasOutputParams())
      errorAt(kDatatypeMismatch, "RETURN cannot have a parameter in function with OUT parameters", at);
  }
  if (!routine_.returnsSet && !routine_.procedure && !routine_.returnsVoid && !routine_.hasOutputParams())
    s->value = expression({";"}, ";");
  expectSemicolon();
  return s;
}

// WHEN's conditions and RAISE's: a condition name, OTHERS, or SQLSTATE 'xxxxx'.
ExceptionCondition BodyParser::parseCondition(bool allowOthers) {
  ExceptionCondition c;
  if (acceptKw("sqlstate")) {
    if (peek().kind != sql::TokenKind::String || !validSqlstate(peek().text)) syntaxError("invalid SQLSTATE code");
    c.sqlstates.push_back(advance().str());
    return c;
  }
  if (peek().kind != sql::TokenKind::Word) syntaxError();
  c.name = advance().str();
  if (allowOthers && c.name == "others") return c;
  c.sqlstates = conditionSqlstates(c.name);
  if (c.sqlstates.empty())
    errorNoPosition(sqlstate::kUndefinedObject, fmt::format("unrecognized exception condition \"{}\"", c.name));
  return c;
}

StmtPtr BodyParser::parseRaise(uint32_t loc) {
  auto s = std::make_unique<Raise>(loc);
  if (isOp(";")) {
    advance();
    s->reraise = true;
    return s;
  }
  static const std::pair<const char*, RaiseLevel> kLevels[] = {
      {"debug", RaiseLevel::Debug},   {"log", RaiseLevel::Log},         {"info", RaiseLevel::Info},
      {"notice", RaiseLevel::Notice}, {"warning", RaiseLevel::Warning}, {"exception", RaiseLevel::Exception}};
  for (const auto& [word, level] : kLevels)
    if (acceptKw(word)) {
      s->level = level;
      break;
    }
  if (peek().kind == sql::TokenKind::String) {
    s->format = advance().str();
    while (isOp(",")) {
      advance();
      s->args.push_back(expression({",", ";", "using"}, ";"));
    }
    size_t wanted = raisePlaceholders(*s->format);
    if (s->args.size() < wanted) errorNoPosition(sqlstate::kSyntaxError, "too few parameters specified for RAISE");
    if (s->args.size() > wanted) errorNoPosition(sqlstate::kSyntaxError, "too many parameters specified for RAISE");
  } else if (!isKw("using") && !isOp(";")) {
    s->condition = parseCondition(false);
  }
  if (acceptKw("using")) {
    static const std::pair<const char*, Raise::Option> kOptions[] = {
        {"errcode", Raise::Option::Errcode},   {"message", Raise::Option::Message},
        {"detail", Raise::Option::Detail},     {"hint", Raise::Option::Hint},
        {"column", Raise::Option::Column},     {"constraint", Raise::Option::Constraint},
        {"datatype", Raise::Option::Datatype}, {"table", Raise::Option::Table},
        {"schema", Raise::Option::Schema}};
    do {
      const Raise::Option* option = nullptr;
      for (const auto& [word, o] : kOptions)
        if (isKw(word)) option = &o;
      if (!option) syntaxError("unrecognized RAISE statement option");
      advance();
      if (!isOp("=") && !isOp(":=")) syntaxError("syntax error, expected \"=\"");
      advance();
      s->options.emplace_back(*option, expression({",", ";"}, ";"));
    } while (isOp(",") && (advance(), true));
  }
  expectSemicolon();
  return s;
}

// An INTO or GET DIAGNOSTICS target: a variable (or field) that may be assigned.
Target BodyParser::parseAssignableTarget() {
  Target target;
  if (!parseTarget(target, false)) {
    if (peek().kind == sql::TokenKind::Word)
      errorAt(sqlstate::kSyntaxError, fmt::format("\"{}\" is not a known variable", peek().text), peek().offset);
    syntaxError();
  }
  checkAssignable(target);
  return target;
}

StmtPtr BodyParser::parseGetDiagnostics(uint32_t loc) {
  auto s = std::make_unique<GetDiagnostics>(loc);
  s->stacked = acceptKw("stacked");
  if (!s->stacked) acceptKw("current");
  expectKw("diagnostics");
  using Item = GetDiagnostics::Item;
  static const std::pair<const char*, Item> kItems[] = {{"row_count", Item::RowCount},
                                                        {"pg_context", Item::PgContext},
                                                        {"returned_sqlstate", Item::ReturnedSqlstate},
                                                        {"message_text", Item::MessageText},
                                                        {"pg_exception_detail", Item::ExceptionDetail},
                                                        {"pg_exception_hint", Item::ExceptionHint},
                                                        {"pg_exception_context", Item::ExceptionContext},
                                                        {"column_name", Item::ColumnName},
                                                        {"constraint_name", Item::ConstraintName},
                                                        {"pg_datatype_name", Item::DatatypeName},
                                                        {"table_name", Item::TableName},
                                                        {"schema_name", Item::SchemaName}};
  do {
    Target target = parseAssignableTarget();
    if (!isOp("=") && !isOp(":=")) syntaxError();
    advance();
    const std::pair<const char*, Item>* found = nullptr;
    for (const auto& entry : kItems)
      if (isKw(entry.first)) found = &entry;
    if (!found) syntaxError("unrecognized GET DIAGNOSTICS item");
    // ROW_COUNT and PG_CONTEXT are the CURRENT items, the rest the STACKED ones.
    bool currentItem = found->second == Item::RowCount || found->second == Item::PgContext;
    if (currentItem == s->stacked) {
      std::string upper;
      for (char c : std::string(found->first)) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      errorAt(sqlstate::kSyntaxError,
              fmt::format("diagnostics item {} is not allowed in GET {} DIAGNOSTICS", upper,
                          s->stacked ? "STACKED" : "CURRENT"),
              peek().offset);
    }
    Item item = found->second;
    advance();
    s->items.emplace_back(std::move(target), item);
  } while (isOp(",") && (advance(), true));
  expectSemicolon();
  return s;
}

// FOREACH target [SLICE n] IN ARRAY expression LOOP ... END LOOP (stmt_foreach_a). As in
// PostgreSQL, a target that names no variable is reported once the loop is read, and
// whether the target suits the array (an array variable with SLICE, no array without) is
// checked where the loop runs.
StmtPtr BodyParser::parseForEach(std::string label, uint32_t loc) {
  auto s = std::make_unique<ForEach>(loc);
  s->label = label;
  uint32_t targetAt = peek().offset;
  bool known = parseForEachTargets(s->targets);
  if (acceptKw("slice")) {
    const sql::Token& n = peek();
    auto [end, error] = std::from_chars(n.text.data(), n.text.data() + n.text.size(), s->slice);
    if (n.kind != sql::TokenKind::Integer || error != std::errc() || end != n.text.data() + n.text.size())
      syntaxError();
    advance();
  }
  expectKw("in");
  expectKw("array");
  s->array = expression({"loop"}, "LOOP");
  expectKw("loop");
  scopes_.push_back(Scope{label, true, {}, {}, {}});
  s->body = parseLoopBody(label);
  if (!known)
    errorAt(sqlstate::kSyntaxError, "loop variable of FOREACH must be a known variable or list of variables", targetAt);
  if (s->targets.size() == 1) checkAssignable(s->targets[0]);
  return s;
}

// for_variable: a variable, or a list of scalar variables (each checked as it is read).
// False when the first word names no variable; an unknown word before a comma, or an
// unknown qualified name, is an error at once (word_is_not_variable).
bool BodyParser::parseForEachTargets(std::vector<Target>& targets) {
  auto notKnown = [&](const sql::Token& word) {
    errorAt(sqlstate::kSyntaxError, fmt::format("\"{}\" is not a known variable", word.text), word.offset);
  };
  Target first;
  if (!parseTarget(first, false)) {
    if (peek().kind != sql::TokenKind::Word) syntaxError();
    if (isOp(".", 1) || isOp(",", 1)) notKnown(peek());
    advance();
    return false;
  }
  targets.push_back(std::move(first));
  auto isScalar = [&](const Target& t) {
    VarType::Kind kind = fn_.variables[t.variable].type.kind;
    return !t.field.empty() || (kind != VarType::Kind::Record && kind != VarType::Kind::Row);
  };
  if (!isScalar(targets[0]) || !isOp(",")) return true;
  checkAssignable(targets[0]);
  while (isOp(",")) {
    advance();
    Target next;
    if (!parseTarget(next, false)) {
      if (peek().kind == sql::TokenKind::Word) notKnown(peek());
      syntaxError();
    }
    checkAssignable(next);
    if (!isScalar(next))
      errorAt(sqlstate::kSyntaxError, fmt::format("\"{}\" is not a scalar variable", fn_.variables[next.variable].name),
              next.location);
    targets.push_back(std::move(next));
  }
  return true;
}

// ASSERT condition [, message]; (stmt_assert).
StmtPtr BodyParser::parseAssert(uint32_t loc) {
  auto s = std::make_unique<Assert>(loc);
  s->condition = expression({",", ";"}, ";");
  if (isOp(",")) {
    advance();
    s->message = expression({";"}, ";");
  }
  expectSemicolon();
  return s;
}

}  // namespace duet::plpgsql
