// The PL/pgSQL parser's infrastructure: tokens, errors, scopes, cutting SQL text out of
// the body and checking it, declarations and blocks. Statements are in body_statements.cpp.
#include "compiler/plpgsql/body_parser.h"

#include <algorithm>

#include <fmt/format.h>

#include "compiler/parser/ast_walk.h"
#include "compiler/parser/lexer.h"
#include "compiler/parser/parser.h"
#include "compiler/plpgsql/sql_fragment.h"
#include "engine/error.h"

namespace duet::plpgsql {

bool RoutineShape::hasOutputParams() const {
  for (const RoutineParameter& p : params)
    if (p.output) return true;
  return false;
}

BodyParser::BodyParser(const RoutineShape& routine, const BodySource& source, const TableLookup& tables)
    : routine_(routine), source_(source), tables_(tables), tokens_(sql::tokenize(source.body, decodedTexts_)) {}

// ---- tokens and errors ------------------------------------------------------------------

const sql::Token& BodyParser::peek(int ahead) {
  const sql::Token& t = tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  if (t.kind == sql::TokenKind::Error) errorAt(sqlstate::kSyntaxError, t.str(), t.offset);
  return t;
}

const sql::Token& BodyParser::advance() {
  const sql::Token& t = peek();
  if (t.kind != sql::TokenKind::End) ++pos_;
  return t;
}

bool BodyParser::isKw(std::string_view word, int ahead) {
  const sql::Token& t = peek(ahead);
  return t.kind == sql::TokenKind::Word && !t.quoted && t.text == word;
}

bool BodyParser::acceptKw(std::string_view word) {
  if (!isKw(word)) return false;
  advance();
  return true;
}

void BodyParser::expectKw(std::string_view word) {
  if (!acceptKw(word)) syntaxError();
}

bool BodyParser::isOp(std::string_view op, int ahead) {
  const sql::Token& t = peek(ahead);
  return t.kind == sql::TokenKind::Operator && t.text == op;
}

void BodyParser::expectOp(std::string_view op) {
  if (!isOp(op)) syntaxError();
  advance();
}

void BodyParser::expectSemicolon() { expectOp(";"); }

// plpgsql_yyerror: "<what> at or near "<token>"", or "<what> at end of input".
void BodyParser::syntaxError(const char* what) {
  const sql::Token& t = peek();
  if (t.kind == sql::TokenKind::End) errorAt(sqlstate::kSyntaxError, fmt::format("{} at end of input", what), t.offset);
  errorAt(sqlstate::kSyntaxError, fmt::format("{} at or near \"{}\"", what, source_.body.substr(t.offset, t.length)),
          t.offset);
}

void BodyParser::errorAt(const char* code, const std::string& message, uint32_t offset, std::string hint) {
  throw SqlError(code, message, {}, std::move(hint), source_.position(offset));
}

// Errors PostgreSQL raises while compiling without a position (only a CONTEXT line).
void BodyParser::errorNoPosition(const char* code, const std::string& message) { throw SqlError(code, message); }

// ---- scopes and variables -----------------------------------------------------------------

int BodyParser::declare(Variable v) {
  fn_.variables.push_back(std::move(v));
  int index = static_cast<int>(fn_.variables.size()) - 1;
  scopes_.back().variables.push_back(index);
  return index;
}

int BodyParser::Scope::find(const std::vector<Variable>& all, std::string_view name) const {
  for (auto v = variables.rbegin(); v != variables.rend(); ++v)
    if (all[*v].name == name) return *v;
  for (const auto& [alias, variable] : aliases)
    if (alias == name) return variable;
  return -1;
}

int BodyParser::lookupVariable(std::string_view name) const {
  for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
    if (int v = s->find(fn_.variables, name); v >= 0) return v;
  return -1;
}

int BodyParser::lookupInBlock(std::string_view label, std::string_view name) const {
  for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
    if (s->label == label) return s->find(fn_.variables, name);
  return -1;
}

std::string BodyParser::variableWord() {
  const sql::Token& t = peek();
  if (t.kind != sql::TokenKind::Word || (!t.quoted && t.category == sql::KeywordCategory::Reserved)) syntaxError();
  return advance().str();
}

// A variable, label.variable or record.field (and arr[i] for assignments). Consumes
// nothing and returns false when the words do not name a variable in scope.
bool BodyParser::parseTarget(Target& t, bool assignment) {
  if (peek().kind != sql::TokenKind::Word) return false;
  t.location = peek().offset;
  int v = -1;
  if (isOp(".", 1) && peek(2).kind == sql::TokenKind::Word) {
    v = lookupInBlock(peek().text, peek(2).text);
    if (v >= 0) {
      advance();
      advance();
      advance();
    }
  }
  if (v < 0) {
    v = lookupVariable(peek().text);
    if (v < 0) return false;
    advance();
  }
  t.variable = v;
  VarType::Kind kind = fn_.variables[v].type.kind;
  if ((kind == VarType::Kind::Record || kind == VarType::Kind::Row) && isOp(".") &&
      peek(1).kind == sql::TokenKind::Word) {
    advance();
    t.field = advance().str();
  }
  if (assignment && isOp("[")) {
    advance();
    t.subscript = expression({"]"}, "]");
    expectOp("]");
  }
  return true;
}

void BodyParser::checkAssignable(const Target& t) {
  const Variable& v = fn_.variables[t.variable];
  if (v.constant) errorAt("22005", fmt::format("variable \"{}\" is declared CONSTANT", v.name), t.location);
}

// ---- SQL text -----------------------------------------------------------------------------

bool BodyParser::isTerminator(const sql::Token& t, std::initializer_list<std::string_view> until) const {
  for (std::string_view u : until) {
    bool word = u[0] >= 'a' && u[0] <= 'z';
    if (word ? (t.kind == sql::TokenKind::Word && !t.quoted && t.text == u)
             : (t.kind == sql::TokenKind::Operator && t.text == u))
      return true;
  }
  return false;
}

// read_sql_construct: the tokens up to a terminator at parenthesis depth 0, which stays
// unconsumed. A semicolon that is not a terminator means the terminator is missing.
BodyParser::Cut BodyParser::readSql(std::initializer_list<std::string_view> until, const char* expected,
                                    bool expression) {
  size_t first = pos_;
  int depth = 0;
  while (true) {
    const sql::Token& t = peek();
    if (depth == 0 && isTerminator(t, until)) break;
    if (t.kind == sql::TokenKind::End) syntaxError();
    if (isOp("(") || isOp("[")) {
      ++depth;
    } else if (isOp(")") || isOp("]")) {
      if (--depth < 0) syntaxError("mismatched parentheses");
    } else if (isOp(";")) {
      if (depth != 0) syntaxError("mismatched parentheses");
      errorAt(sqlstate::kSyntaxError,
              fmt::format("missing \"{}\" at end of SQL {}", expected, expression ? "expression" : "statement"),
              t.offset);
    }
    advance();
  }
  if (pos_ == first) syntaxError(expression ? "missing expression" : "missing SQL statement");
  Cut cut;
  cut.sql.begin = tokens_[first].offset;
  cut.sql.end = tokens_[pos_ - 1].offset + tokens_[pos_ - 1].length;
  cut.sql.text = std::string(source_.body.substr(cut.sql.begin, cut.sql.end - cut.sql.begin));
  cut.end = &peek();
  return cut;
}

SqlText BodyParser::expression(std::initializer_list<std::string_view> until, const char* expected) {
  SqlText e = readSql(until, expected, true).sql;
  checkExpression(e);
  return e;
}

void BodyParser::checkExpression(SqlText& e) {
  constexpr std::string_view kPrefix = "SELECT ";
  auto parsed = parseFragment(source_, e.begin, e.text, kPrefix);
  collectVariables(*parsed[0].stmt, e.begin, kPrefix.size(), e);
}

void BodyParser::checkStatement(SqlText& s) {
  auto parsed = parseFragment(source_, s.begin, s.text, "");
  collectVariables(*parsed[0].stmt, s.begin, 0, s);
}

// The column references that name variables in scope: x, label.x, rec.field (or rec.*).
void BodyParser::collectVariables(const sql::Stmt& stmt, uint32_t begin, size_t prefix, SqlText& into) {
  sql::visitColumnRefs(stmt, [&](const sql::ColumnRef& ref) {
    const auto& names = ref.names;
    if (names.empty()) return;
    VariableRef r;
    r.offset = begin + static_cast<uint32_t>(ref.location - prefix);
    if (names.size() >= 2 && (r.variable = lookupInBlock(names[0], names[1])) >= 0) {
      r.names = {names[0], names[1]};
      if (names.size() >= 3) r.field = names[2];
    } else if ((r.variable = lookupVariable(names[0])) >= 0) {
      r.names = {names[0]};
      if (names.size() >= 2) r.field = names[1];
    } else {
      return;
    }
    into.variables.push_back(std::move(r));
  });
}

// ---- declarations -------------------------------------------------------------------------

// read_datatype: var%TYPE, table.column%TYPE, table%ROWTYPE, RECORD, a table's name, or a
// type name read up to the end of the declaration's type part.
VarType BodyParser::parseDataType(uint32_t& typeLocation, bool argumentList) {
  typeLocation = peek().offset;
  size_t save = pos_;
  std::vector<std::string> names;
  if (peek().kind == sql::TokenKind::Word) {
    names.push_back(advance().str());
    while (isOp(".") && peek(1).kind == sql::TokenKind::Word) {
      advance();
      names.push_back(advance().str());
    }
    if (isOp("%") && (isKw("type", 1) || isKw("rowtype", 1))) {
      advance();
      bool rowtype = advance().str() == "rowtype";
      if (rowtype) {
        auto columns = tables_(names);
        if (!columns)
          errorNoPosition(sqlstate::kUndefinedTable, fmt::format("relation \"{}\" does not exist", names.back()));
        VarType row;
        row.kind = VarType::Kind::Row;
        row.table = names;
        row.columns = std::move(*columns);
        return row;
      }
      if (names.size() == 1) {
        if (int v = lookupVariable(names[0]); v >= 0) return fn_.variables[v].type;
      } else if (auto columns = tables_(std::vector<std::string>(names.begin(), names.end() - 1))) {
        for (const auto& [column, type] : *columns)
          if (column == names.back()) return VarType{VarType::Kind::Scalar, type, {}, {}};
      }
      // Otherwise PostgreSQL parses the words as a type name, which fails at the '%'.
    }
  }
  pos_ = save;
  size_t first = pos_;
  int depth = 0;
  while (true) {
    const sql::Token& t = peek();
    if (t.kind == sql::TokenKind::End) syntaxError();
    if (depth == 0 && (isOp(";") || isOp(":=") || isOp("=") || isKw("default") || isKw("collate") ||
                       (isKw("not") && isKw("null", 1))))
      break;
    if (argumentList && depth == 0 && (isOp(",") || isOp(")"))) break;
    if (isOp("(") || isOp("[")) ++depth;
    if (isOp(")") || isOp("]")) --depth;
    advance();
  }
  if (pos_ == first) syntaxError("missing data type declaration");
  uint32_t begin = tokens_[first].offset, end = tokens_[pos_ - 1].offset + tokens_[pos_ - 1].length;
  std::string_view text = source_.body.substr(begin, end - begin);
  sql::TypeName type;
  try {
    type = sql::parseTypeNameText(text);
  } catch (const SqlError& e) {
    if (e.position <= 0) throw;
    throw SqlError(e.code, e.what(), e.detail, e.hint, source_.position(begin + byteOffsetOf(text, e.position)));
  }
  VarType result;
  if (type.resolved && type.serial == sql::SerialKind::None) {
    result.kind = type.arrayBounds > 0 ? VarType::Kind::Array : VarType::Kind::Scalar;
    result.scalar = type.type;
    return result;
  }
  if (type.names.size() == 1 && type.name() == "record" && type.arrayBounds == 0) {
    result.kind = VarType::Kind::Record;
    return result;
  }
  if (type.arrayBounds == 0) {
    if (auto columns = tables_(type.names)) {
      result.kind = VarType::Kind::Row;
      result.table = type.names;
      result.columns = std::move(*columns);
      return result;
    }
  }
  std::string shown;
  for (const auto& n : type.names) shown += (shown.empty() ? "" : ".") + n;
  errorAt(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", shown), typeLocation);
}

// `name ALIAS FOR $n | variable;` (after ALIAS): $n is the routine's n-th parameter.
void BodyParser::parseAlias(const std::string& name) {
  expectKw("for");
  const sql::Token& target = peek();
  int variable = -1;
  std::string shown;
  if (target.kind == sql::TokenKind::Param) {
    shown = fmt::format("${}", target.number);
    if (target.number >= 1 && static_cast<size_t>(target.number) <= routine_.params.size())
      variable = target.number - 1;
    advance();
  } else {
    shown = variableWord();
    variable = lookupVariable(shown);
  }
  if (variable < 0)
    errorAt(sqlstate::kUndefinedObject, fmt::format("variable \"{}\" does not exist", shown), target.offset);
  expectSemicolon();
  scopes_.back().aliases.emplace_back(name, variable);
}

// `name [[NO] SCROLL] CURSOR [(argument type, ...)] FOR | IS query;` (after the name). Its
// query's variables are those in scope here and its arguments, read when OPEN runs it. The
// cursor is also a refcursor variable of its name, whose value names its portal: the name
// itself to begin with, as PostgreSQL's decl_statement gives it.
void BodyParser::parseCursorDeclaration(const std::string& name, uint32_t location, Block& block) {
  Cursor cursor;
  cursor.name = name;
  if (acceptKw("no")) {
    expectKw("scroll");
    cursor.scrollable = false;
  }
  acceptKw("scroll");
  expectKw("cursor");
  // The arguments live in a scope of their own, labelled with the cursor's name.
  scopes_.push_back(Scope{name, false, {}, {}, {}});
  if (isOp("(")) cursor.arguments = parseCursorParameters();
  if (!acceptKw("for")) expectKw("is");
  cursor.query = readSql({";"}, ";", false).sql;
  checkStatement(cursor.query);
  scopes_.pop_back();
  expectSemicolon();
  Variable v;
  v.name = name;
  v.type.scalar = SqlType::of(TypeAlias::RefCursor);
  v.location = location;
  cursor.variable = declare(std::move(v));
  SqlText initial;
  initial.begin = initial.end = location;
  initial.text = "'";
  for (char ch : name) initial.text += ch == '\'' ? std::string("''") : std::string(1, ch);
  initial.text += "'";
  block.declared.push_back(cursor.variable);
  block.defaults.push_back(std::move(initial));
  scopes_.back().cursors.emplace_back(name, static_cast<int>(fn_.cursors.size()));
  fn_.cursors.push_back(std::move(cursor));
}

// A scope's cursors come before its variables: a bound cursor is also a variable of its name.
int BodyParser::lookupCursor(std::string_view name) const {
  for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
    for (auto c = s->cursors.rbegin(); c != s->cursors.rend(); ++c)
      if (c->first == name) return c->second;
    if (s->find(fn_.variables, name) >= 0) return -1;
  }
  return -1;
}

// decl_statement, repeated up to BEGIN.
void BodyParser::parseDeclarations(Block& block) {
  while (!isKw("begin")) {
    if (acceptKw("declare")) continue;  // PostgreSQL allows useless extra DECLAREs
    if (isOp("<<"))
      errorAt(sqlstate::kSyntaxError, "block label must be placed before DECLARE, not after", peek().offset);
    Variable v;
    v.location = peek().offset;
    v.name = variableWord();
    if (scopes_.back().find(fn_.variables, v.name) >= 0 ||
        std::any_of(scopes_.back().cursors.begin(), scopes_.back().cursors.end(),
                    [&](const auto& c) { return c.first == v.name; }))
      errorAt(sqlstate::kSyntaxError, fmt::format("duplicate declaration at or near \"{}\"", v.name), v.location);
    if (acceptKw("alias")) {
      parseAlias(v.name);
      continue;
    }
    if (isKw("cursor") || isKw("scroll") || (isKw("no") && isKw("scroll", 1))) {
      parseCursorDeclaration(v.name, v.location, block);
      continue;
    }
    uint32_t constantAt = peek().offset;
    v.constant = acceptKw("constant");
    uint32_t typeAt = 0;
    v.type = parseDataType(typeAt);
    // COLLATE: of the collations DuetDB has (sql::knownCollation), all order as C does.
    uint32_t collateAt = peek().offset;
    if (acceptKw("collate")) {
      std::vector<std::string> collation{variableWord()};
      while (isOp(".")) advance(), collation.push_back(variableWord());
      if (!sql::knownCollation(collation))
        throw SqlError(sqlstate::kUndefinedObject,
                       fmt::format("collation \"{}\" for encoding \"UTF8\" does not exist", collation.back()));
      SqlType type = v.type.kind == VarType::Kind::Array ? SqlType::arrayOf(v.type.scalar) : v.type.scalar;
      bool composite = v.type.kind == VarType::Kind::Record || v.type.kind == VarType::Kind::Row;
      if (composite || !sql::isCollatable(type)) {
        std::string name = v.type.kind == VarType::Kind::Record ? "record"
                           : composite                          ? v.type.table.back()
                                                                : typeName(type);
        errorAt(sqlstate::kDatatypeMismatch, "collations are not supported by type " + name, collateAt);
      }
    }
    uint32_t notNullAt = peek().offset;
    if (isKw("not") && isKw("null", 1)) {
      advance();
      advance();
      v.notNull = true;
    }
    std::optional<SqlText> value;
    if (acceptKw("default") || isOp(":=") || isOp("=")) {
      if (peek().kind == sql::TokenKind::Operator) advance();
      value = expression({";"}, ";");
    }
    bool composite = v.type.kind == VarType::Kind::Record || v.type.kind == VarType::Kind::Row;
    if (composite && v.constant)
      errorAt(sqlstate::kFeatureNotSupported, "row or record variable cannot be CONSTANT", constantAt);
    if (composite && v.notNull)
      errorAt(sqlstate::kFeatureNotSupported, "row or record variable cannot be NOT NULL", notNullAt);
    // A row or record variable's default is assigned as `r := value` is.
    if (v.notNull && !value)
      errorAt("22004", fmt::format("variable \"{}\" must have a default value, since it's declared NOT NULL", v.name),
              notNullAt);
    expectSemicolon();
    block.declared.push_back(declare(std::move(v)));
    block.defaults.push_back(std::move(value));
  }
}

// ---- blocks -------------------------------------------------------------------------------

std::unique_ptr<Block> BodyParser::parseBlock(std::string label, uint32_t location) {
  auto block = std::make_unique<Block>(location);
  block->label = label;
  scopes_.push_back(Scope{label, false, {}, {}, {}});
  if (acceptKw("declare")) parseDeclarations(*block);
  expectKw("begin");
  block->body = parseStatements();
  if (acceptKw("exception")) {
    block->hasExceptions = true;
    // Handlers see SQLSTATE and SQLERRM, the caught error's code and message.
    scopes_.push_back(Scope{});
    for (const char* name : {"sqlstate", "sqlerrm"}) {
      Variable v;
      v.name = name;
      v.type.scalar = SqlType{TypeId::Text, -1};
      v.implicit = true;
      (name[3] == 's' ? block->sqlstateVariable : block->sqlerrmVariable) = declare(std::move(v));
    }
    do {
      expectKw("when");
      ExceptionHandler handler;
      handler.conditions.push_back(parseCondition(true));
      while (acceptKw("or")) handler.conditions.push_back(parseCondition(true));
      expectKw("then");
      handler.body = parseStatements();
      block->handlers.push_back(std::move(handler));
    } while (isKw("when"));
    scopes_.pop_back();
  }
  expectKw("end");
  checkEndLabel(label);
  scopes_.pop_back();
  return block;
}

// check_labels: an end label must repeat the block's or loop's own label.
void BodyParser::checkEndLabel(const std::string& label) {
  const sql::Token& t = peek();
  if (t.kind != sql::TokenKind::Word || isOp(";")) return;
  std::string end = advance().str();
  if (label.empty())
    errorAt(sqlstate::kSyntaxError, fmt::format("end label \"{}\" specified for unlabeled block", end), t.offset);
  if (end != label)
    errorAt(sqlstate::kSyntaxError, fmt::format("end label \"{}\" differs from block's label \"{}\"", end, label),
            t.offset);
}

std::string BodyParser::optionalLabel() {
  if (!isOp("<<")) return {};
  advance();
  std::string label = variableWord();
  expectOp(">>");
  return label;
}

Function BodyParser::parse() {
  // The routine's parameters and FOUND live in an outer scope labelled with its name.
  scopes_.push_back(Scope{routine_.name, false, {}, {}, {}});
  for (const RoutineParameter& p : routine_.params) declare(parameterVariable(p));
  fn_.found = declare(foundVariable());

  // Compiler options before the outer block: PostgreSQL's `#variable_conflict` and
  // `#print_strict_params` (the last one of each counts).
  while (isOp("#")) {
    advance();
    if (acceptKw("variable_conflict")) {
      if (acceptKw("error"))
        fn_.variableConflict = VariableConflict::Error;
      else if (acceptKw("use_variable"))
        fn_.variableConflict = VariableConflict::UseVariable;
      else if (acceptKw("use_column"))
        fn_.variableConflict = VariableConflict::UseColumn;
      else
        syntaxError();
    } else if (acceptKw("print_strict_params")) {
      if (acceptKw("on"))
        fn_.printStrictParams = PrintStrictParams::On;
      else if (acceptKw("off"))
        fn_.printStrictParams = PrintStrictParams::Off;
      else  // PostgreSQL's elog, an internal error
        throw SqlError(sqlstate::kInternalError, "unrecognized print_strict_params option " + peek().str());
    } else {
      syntaxError();
    }
  }
  uint32_t location = peek().offset;
  std::string label = optionalLabel();
  if (!isKw("declare") && !isKw("begin")) syntaxError();
  fn_.body = parseBlock(label, location);
  if (isOp(";")) advance();
  if (peek().kind != sql::TokenKind::End) syntaxError();
  return std::move(fn_);
}

Function parsePlpgsqlBody(const RoutineShape& routine, const BodySource& source, const TableLookup& tables) {
  return BodyParser(routine, source, tables).parse();
}

}  // namespace duet::plpgsql
