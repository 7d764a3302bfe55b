// Token access, error reporting, shared name/option helpers, the statement loop and the
// bookkeeping for literal lifting and shape keys.
#include <algorithm>
#include <string>
#include <unordered_map>

#include "compiler/parser/lexer.h"
#include "compiler/parser/parser_impl.h"
#include "compiler/parser/source_position.h"
#include "engine/error.h"
#include "engine/limits/interrupts.h"

namespace duet::sql {

Parser::Parser(std::string_view query, const ParseOptions& options)
    : query_(query), options_(options), tokens_(tokenize(query, decodedTexts_)) {}

const Token& Parser::peek(int ahead) {
  size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
  const Token& t = tokens_[i];
  if (t.kind == TokenKind::Error) errorAt(sqlstate::kSyntaxError, t.str(), t.offset);
  return t;
}

const Token& Parser::advance() {
  const Token& t = peek();
  if (t.kind != TokenKind::End) {
    lastEnd_ = t.offset + t.length;
    ++pos_;
  }
  return t;
}

bool Parser::isKw(std::string_view word, int ahead) {
  const Token& t = peek(ahead);
  return t.kind == TokenKind::Word && !t.quoted && t.text == word;
}

bool Parser::acceptKw(std::string_view word) {
  if (!isKw(word)) return false;
  advance();
  return true;
}

void Parser::expectKw(std::string_view word) {
  if (!acceptKw(word)) syntaxError();
}

bool Parser::isOp(std::string_view op, int ahead) {
  const Token& t = peek(ahead);
  if (t.kind != TokenKind::Operator) return false;
  // Most operators the parser asks for are one character ('(', ',', ')'): no memcmp call.
  return op.size() == 1 ? t.text.size() == 1 && t.text[0] == op[0] : t.text == op;
}

bool Parser::acceptOp(std::string_view op) {
  if (!isOp(op)) return false;
  advance();
  return true;
}

void Parser::expectOp(std::string_view op) {
  if (!acceptOp(op)) syntaxError();
}

bool Parser::atStatementEnd() { return isOp(";") || peek().kind == TokenKind::End; }

void Parser::syntaxError() { syntaxErrorAt(peek()); }

void Parser::syntaxErrorAt(const Token& t) {
  if (t.kind == TokenKind::End) errorAt(sqlstate::kSyntaxError, "syntax error at end of input", t.offset);
  errorAt(sqlstate::kSyntaxError, "syntax error at or near \"" + std::string(query_.substr(t.offset, t.length)) + "\"",
          t.offset);
}

void Parser::errorAt(const char* sqlstate, const std::string& message, uint32_t offset) {
  throw SqlError(sqlstate, message, "", "", sqlPosition(query_, offset));
}

// ---- names ----

bool Parser::isColId(int ahead) {
  const Token& t = peek(ahead);
  return t.kind == TokenKind::Word &&
         (t.quoted || t.category == KeywordCategory::None || t.category == KeywordCategory::ColName);
}

bool Parser::isTypeFuncName(int ahead) {
  const Token& t = peek(ahead);
  return t.kind == TokenKind::Word &&
         (t.quoted || t.category == KeywordCategory::None || t.category == KeywordCategory::TypeFuncName);
}

std::string Parser::parseColId() {
  if (!isColId()) syntaxError();
  return advance().str();
}

std::string Parser::parseColLabel() {
  if (peek().kind != TokenKind::Word) syntaxError();
  return advance().str();
}

QualifiedName Parser::parseQualifiedName() {
  QualifiedName n;
  n.location = peek().offset;
  n.parts.push_back(parseColId());
  while (isOp(".")) {
    advance();
    n.parts.push_back(parseColLabel());
  }
  if (n.parts.size() > 3)
    errorAt(sqlstate::kSyntaxError, "improper qualified name (too many dotted names)", n.location);
  return n;
}

std::vector<QualifiedName> Parser::parseQualifiedNameList() {
  std::vector<QualifiedName> names;
  do names.push_back(parseQualifiedName());
  while (acceptOp(","));
  return names;
}

std::vector<std::string> Parser::parseParenNameList() {
  std::vector<std::string> names;
  expectOp("(");
  do names.push_back(parseColId());
  while (acceptOp(","));
  expectOp(")");
  return names;
}

DropBehavior Parser::parseDropBehavior() {
  if (acceptKw("cascade")) return DropBehavior::Cascade;
  if (acceptKw("restrict")) return DropBehavior::Restrict;
  return DropBehavior::Default;
}

bool Parser::acceptIfNotExists() {
  if (!isKw("if")) return false;
  advance();
  expectKw("not");
  expectKw("exists");
  return true;
}

bool Parser::parseOptionalSignedInt(int& value) {
  size_t save = pos_;
  bool negative = acceptOp("-");
  if (!negative) acceptOp("+");
  if (peek().kind != TokenKind::Integer) {
    pos_ = save;
    return false;
  }
  const Token& t = advance();
  long long v = t.text.size() > 10 ? (1LL << 40) : std::stoll(t.str());
  if (v > 0x7fffffffLL) errorAt(sqlstate::kSyntaxError, "syntax error at or near \"" + t.str() + "\"", t.offset);
  value = static_cast<int>(negative ? -v : v);
  return true;
}

// An option value: a word (any keyword too), a signed number or a string.
bool Parser::parseOptionValue(DefElem& d, bool required) {
  const Token& t = peek();
  if (t.kind == TokenKind::Word) {
    d.valueKind = DefElem::ValueKind::Word;
    d.value = advance().str();
  } else if (t.kind == TokenKind::String) {
    d.valueKind = DefElem::ValueKind::String;
    d.value = advance().str();
  } else if (t.kind == TokenKind::Integer || t.kind == TokenKind::Numeric ||
             ((isOp("-") || isOp("+")) && (peek(1).kind == TokenKind::Integer || peek(1).kind == TokenKind::Numeric))) {
    d.valueKind = DefElem::ValueKind::Number;
    d.value = isOp("-") ? "-" : "";
    if (t.kind == TokenKind::Operator) advance();
    d.value += advance().str();
  } else {
    if (required) syntaxError();
    return false;
  }
  return true;
}

DefElem Parser::parseDefElem(bool withEquals) {
  DefElem d;
  d.location = peek().offset;
  d.name = parseColLabel();
  while (withEquals && isOp(".")) {  // namespaced storage parameters: toast.fillfactor
    advance();
    d.name += "." + parseColLabel();
  }
  if (withEquals) {
    if (acceptOp("=")) parseOptionValue(d, true);
  } else if (acceptOp("*")) {  // COPY's force_quote *
    d.valueKind = DefElem::ValueKind::Word;
    d.value = "*";
  } else if (isOp("(")) {  // a column list, e.g. COPY's force_not_null (a, b): kept as "a,b"
    d.valueKind = DefElem::ValueKind::Word;
    for (const auto& c : parseParenNameList()) d.value += (d.value.empty() ? "" : ",") + c;
  } else if (!isOp(",") && !isOp(")")) {
    parseOptionValue(d, true);
  }
  return d;
}

std::vector<DefElem> Parser::parseParenDefElems(bool withEquals) {
  std::vector<DefElem> out;
  expectOp("(");
  do out.push_back(parseDefElem(withEquals));
  while (acceptOp(","));
  expectOp(")");
  return out;
}

// ---- statements ----

bool Parser::startsSelect(int ahead) {
  int i = ahead;
  while (isOp("(", i)) ++i;
  return isKw("select", i) || isKw("values", i) || isKw("with", i) || isKw("table", i);
}

bool Parser::startsParenSubquery(int ahead) {
  if (!isOp("(", ahead) || !startsSelect(ahead)) return false;
  int groups = 0;  // the parentheses before the SELECT: the query is inside all of them
  while (isOp("(", ahead + groups)) ++groups;
  // Each of them that closes must be followed by the next one's close or by what goes on
  // with a query (a set operation, ORDER BY, LIMIT, ...); an operator, a cast or a comma
  // makes the inner group an operand of an expression.
  int depth = groups, lowest = groups;
  for (int i = ahead + groups; peek(i).kind != TokenKind::End; ++i) {
    if (isOp("(", i)) ++depth;
    if (!isOp(")", i)) continue;
    if (--depth == 0) return true;
    if (depth >= lowest) continue;
    lowest = depth;
    if (isOp(")", i + 1)) continue;
    for (std::string_view word : {"union", "intersect", "except", "order", "limit", "offset", "fetch", "for"})
      if (isKw(word, i + 1)) return true;
    return false;
  }
  return true;  // unbalanced: the query's parser reports it
}

StmtPtr Parser::parsePreparable() {
  if (isKw("with")) {
    // WITH before a SELECT, or before an INSERT, UPDATE or DELETE that reads its queries.
    uint32_t begin = peek().offset;
    WithList with = parseWithList();
    StmtPtr s;
    if (isKw("insert")) {
      s = parseInsert();
      static_cast<WithList&>(s->as<InsertStmt>()) = std::move(with);
    } else if (isKw("update")) {
      s = parseUpdate();
      static_cast<WithList&>(s->as<UpdateStmt>()) = std::move(with);
    } else if (isKw("delete")) {
      s = parseDelete();
      static_cast<WithList&>(s->as<DeleteStmt>()) = std::move(with);
    } else {
      s = parseSelectAfterWith(std::move(with), begin);
    }
    return s;
  }
  if (isKw("insert")) return parseInsert();
  if (isKw("update")) return parseUpdate();
  if (isKw("delete")) return parseDelete();
  if (startsSelect()) return parseSelect();
  syntaxError();
}

StmtPtr Parser::parseStatement() {
  const Token& t = peek();
  if (t.kind != TokenKind::Word || t.quoted) {
    // '(' can only open a parenthesised SELECT, so an error is reported inside it.
    if (isOp("(")) return parseSelect();
    syntaxError();
  }
  std::string_view w = t.text;
  if (w == "select" || w == "values" || w == "with" || w == "table" || w == "insert" || w == "update" || w == "delete")
    return parsePreparable();
  if (w == "create") return parseCreate();
  if (w == "drop") return parseDrop();
  if (w == "alter" && isKw("sequence", 1)) return parseAlterSequence();
  if (w == "alter" && isKw("schema", 1)) {
    advance();
    advance();
    auto s = std::make_unique<AlterSchemaStmt>();
    s->name = parseColId();
    if (acceptKw("owner")) {
      expectKw("to");
      s->owner = parseColId();
    } else {
      expectKw("rename");
      expectKw("to");
      s->newName = parseColId();
    }
    return s;
  }
  if (w == "alter" && (isKw("function", 1) || isKw("procedure", 1) || isKw("routine", 1))) return parseAlterRoutine();
  if (w == "alter" && (isKw("role", 1) || isKw("user", 1))) return parseAlterRole();
  if (w == "alter" && isKw("database", 1)) return parseAlterDatabase();
  if (w == "grant" || w == "revoke") return parseGrantRole();
  if (w == "alter") return parseAlterTable();
  if (w == "truncate") return parseTruncate();
  if (w == "begin" || w == "start" || w == "commit" || w == "end" || w == "rollback" || w == "abort" ||
      w == "savepoint" || w == "release")
    return parseTransaction();
  if (w == "set") return parseSet();
  if (w == "show") return parseShow();
  if (w == "reset") return parseReset();
  if (w == "discard") return parseDiscard();
  if (w == "vacuum") return parseVacuum(false);
  if (w == "analyze" || w == "analyse") return parseVacuum(true);
  if (w == "checkpoint") {
    advance();
    return std::make_unique<CheckpointStmt>();
  }
  if (w == "copy") return parseCopy();
  if (w == "prepare") return parsePrepare();
  if (w == "execute") return parseExecute();
  if (w == "deallocate") return parseDeallocate();
  if (w == "explain") return parseExplain();
  if (w == "call") return parseCall();
  if (w == "listen") return parseListen();
  if (w == "unlisten") return parseUnlisten();
  if (w == "notify") return parseNotify();
  if (w == "lock") return parseLock();
  if (w == "comment") return parseComment();
  if (w == "declare") return parseDeclareCursor();
  if (w == "fetch" || w == "move") return parseFetch();
  if (w == "close") return parseClosePortal();
  syntaxError();
}

std::vector<ParsedStatement> Parser::parseAll() {
  std::vector<ParsedStatement> out;
  while (true) {
    if (isOp(";")) {
      ParsedStatement empty;
      empty.stmt = std::make_unique<EmptyStmt>();
      empty.stmt->begin = empty.stmt->end = peek().offset;
      out.push_back(std::move(empty));
      advance();
      continue;
    }
    if (peek().kind == TokenKind::End) {
      if (out.empty()) {
        ParsedStatement empty;
        empty.stmt = std::make_unique<EmptyStmt>();
        empty.stmt->begin = empty.stmt->end = peek().offset;
        out.push_back(std::move(empty));
      }
      break;
    }
    checkForInterrupts();  // a message may hold very many statements
    size_t first = pos_;
    uint32_t begin = peek().offset;
    lifting_ =
        options_.liftLiterals && (isKw("insert") || isKw("update") || isKw("delete") || isKw("call") || startsSelect());
    maxParam_ = 0;
    firstParam_ = -1;
    lifted_.clear();
    liftSites_.clear();
    constantRows_.clear();
    into_.reset();

    ParsedStatement ps;
    ps.stmt = parseStatement();
    if (!atStatementEnd()) syntaxError();
    if (into_) {
      ps.stmt = selectIntoAsCreateTable(std::move(ps.stmt), begin);
      lifting_ = false;
    }
    ps.stmt->begin = begin;
    ps.stmt->end = lastEnd_;
    ps.explicitParams = maxParam_;
    ps.firstParam = firstParam_;
    ps.firstParamLocation = firstParamLocation_;
    if (lifting_) finishLifting(ps, first, pos_);
    out.push_back(std::move(ps));
    if (!acceptOp(";")) break;
  }
  return out;
}

// Numbers the lifted parameters after the explicit ones and builds the shape key.
// Numeric constants written alike share one parameter, so that expressions PostgreSQL
// considers equal stay equal after lifting (`k % 2 ... GROUP BY k % 2`). String literals
// never share: their types come from context and may differ per occurrence. The shape key
// names each literal's parameter, so statements with a different sharing pattern
// (`k % 2 ... GROUP BY k % 3`) get different keys. A whole VALUES cell is no expression
// that another could need to equal: it gets a parameter of its own, so that bulk INSERTs
// whose rows repeat values in different places still share one plan, and its place in the
// key is its kind alone (its parameter is the next one). A run of VALUES rows of such cells
// with the same kinds is written once, with its length: a 10,000-row INSERT's key is short.
void Parser::finishLifting(ParsedStatement& out, size_t firstToken, size_t endToken) {
  // The parameters' literals replace lifted_'s in place: lifted_[0, slots) (a literal's
  // slot is never after it).
  size_t slots = 0;
  std::vector<size_t> uniqueIndex(lifted_.size());  // per lifted literal: its slot
  // By text (a numeric kind's byte first).
  std::unordered_map<std::string, size_t> numericSlot, firstStringSlot;
  for (size_t i = 0; i < lifted_.size(); ++i) {
    bool ownSlot = liftSites_[i].valuesCell();
    size_t j = slots;
    if (lifted_[i].kind != TypeId::Unknown && !ownSlot) {
      auto [it, added] = numericSlot.try_emplace(static_cast<char>(lifted_[i].kind) + lifted_[i].text, j);
      j = it->second;
    }
    if (j == slots) {
      if (j != i) lifted_[j] = std::move(lifted_[i]);
      lifted_[j].paramNumber = maxParam_ + static_cast<int>(j) + 1;
      ++slots;
    } else {
      ++lifted_[j].uses;
    }
    if (lifted_[j].kind == TypeId::Unknown && !ownSlot)
      lifted_[j].sameTextAs = static_cast<int>(firstStringSlot.try_emplace(lifted_[j].text, j).first->second);
    uniqueIndex[i] = j;
    liftSites_[i].param->number = lifted_[j].paramNumber;
    liftSites_[i].param->liftedIndex = static_cast<int>(j);
  }
  lifted_.resize(slots);
  const std::vector<LiftedLiteral>& unique = lifted_;
  auto kindOf = [&](size_t lifted) { return unique[uniqueIndex[lifted]].kind; };
  auto kindKey = [](TypeId kind) {
    switch (kind) {
      case TypeId::Int4: return "?int4";
      case TypeId::Int8: return "?int8";
      case TypeId::Numeric: return "?numeric";
      case TypeId::Bool: return "?bool";
      default: return "?unknown";
    }
  };
  auto sameKinds = [&](const ConstantRow& a, const ConstantRow& b) {
    if (a.cells != b.cells) return false;
    for (size_t c = 0; c < a.cells; ++c)
      if (kindOf(a.firstLifted + c) != kindOf(b.firstLifted + c)) return false;
    return true;
  };
  std::string key;
  size_t nextLifted = 0, nextRow = 0;
  for (size_t i = firstToken; i < endToken; ++i) {
    const Token& t = tokens_[i];
    if (!key.empty()) key += ' ';
    if (nextRow < constantRows_.size() && constantRows_[nextRow].openToken == i) {
      // The rows of the run are next to each other: one ',' token between two.
      const ConstantRow& row = constantRows_[nextRow];
      size_t last = nextRow;
      while (last + 1 < constantRows_.size() &&
             constantRows_[last + 1].openToken == constantRows_[last].closeToken + 2 &&
             sameKinds(row, constantRows_[last + 1]))
        ++last;
      key += '(';
      for (size_t c = 0; c < row.cells; ++c) {
        key += c ? " , " : " ";
        key += kindKey(kindOf(row.firstLifted + c));
      }
      key += " )";
      if (last > nextRow) key += "\x01" + std::to_string(last - nextRow + 1);  // no token holds \x01
      nextLifted = constantRows_[last].firstLifted + constantRows_[last].cells;
      i = constantRows_[last].closeToken;
      nextRow = last + 1;
      continue;
    }
    if (nextLifted < liftSites_.size() && liftSites_[nextLifted].firstToken == i) {
      size_t slot = uniqueIndex[nextLifted];
      key += kindKey(unique[slot].kind);
      if (!liftSites_[nextLifted].valuesCell()) {
        key += std::to_string(slot);
        // Equal strings must give equal keys only with the same pattern of equal texts.
        if (int same = unique[slot].sameTextAs; same >= 0 && static_cast<size_t>(same) != slot)
          key += "=" + std::to_string(same);
      }
      i = liftSites_[nextLifted].lastToken;
      ++nextLifted;
      continue;
    }
    switch (t.kind) {
      case TokenKind::Word:
        if (t.quoted) {
          key += '"';
          for (char c : t.text) key += c == '"' ? std::string("\"\"") : std::string(1, c);
          key += '"';
        } else {
          key += t.text;
        }
        break;
      case TokenKind::String:
        key += '\'';
        for (char c : t.text) key += c == '\'' ? std::string("''") : std::string(1, c);
        key += '\'';
        break;
      default: key += t.text; break;
    }
  }
  out.lifted = true;
  out.literals = std::move(lifted_);
  out.shapeKey = std::move(key);
}

std::vector<ParsedStatement> parseQuery(std::string_view query, const ParseOptions& options) {
  return Parser(query, options).parseAll();
}

TypeName Parser::parseStandaloneType() {
  TypeName t = parseTypeName();
  if (peek().kind != TokenKind::End) syntaxError();
  return t;
}

TypeName parseTypeNameText(std::string_view text) { return Parser(text, {}).parseStandaloneType(); }

}  // namespace duet::sql
