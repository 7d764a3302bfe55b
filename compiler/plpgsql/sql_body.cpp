// LANGUAGE sql bodies as PL/pgSQL trees. A SQL function is a list of statements run in
// order whose last one gives the result, so it maps onto the statements the PL/pgSQL
// compiler already generates: every statement but the last runs with its rows dropped,
// and the last one is the RETURN (first row, or all rows for a set) — one compiler, one
// cache of compiled routines for both languages.
#include <fmt/format.h>

#include "compiler/parser/ast_walk.h"
#include "compiler/parser/lexer.h"
#include "compiler/plpgsql/plpgsql.h"
#include "compiler/plpgsql/sql_fragment.h"
#include "engine/error.h"

namespace duet::plpgsql {
namespace {

struct Piece {
  uint32_t begin = 0;
  std::string text;
  sql::ParsedStatement parsed;
};

// The body's statements, split at the semicolons the lexer sees (so not inside strings or
// comments) and parsed one by one, with errors at their places in the CREATE statement.
std::vector<Piece> splitStatements(const BodySource& source) {
  sql::DecodedTexts decoded;
  std::vector<sql::Token> tokens = sql::tokenize(source.body, decoded);
  std::vector<Piece> pieces;
  size_t first = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const sql::Token& t = tokens[i];
    bool end = t.kind == sql::TokenKind::End || t.kind == sql::TokenKind::Error;
    if (!end && !(t.kind == sql::TokenKind::Operator && t.text == ";")) continue;
    // A lexical error belongs to the rest of the body: parsing it reports the error.
    uint32_t stop = t.kind == sql::TokenKind::Error ? static_cast<uint32_t>(source.body.size()) : t.offset;
    if (i > first || t.kind == sql::TokenKind::Error) {
      Piece p;
      p.begin = tokens[first].offset;
      p.text = std::string(source.body.substr(p.begin, stop - p.begin));
      std::vector<sql::ParsedStatement> parsed = parseFragment(source, p.begin, p.text, "");
      if (!parsed.empty() && parsed[0].stmt->kind != sql::StmtKind::Empty) {
        p.parsed = std::move(parsed[0]);
        pieces.push_back(std::move(p));
      }
    }
    if (end) break;
    first = i + 1;
  }
  return pieces;
}

}  // namespace

Function parseSqlBody(const RoutineShape& routine, const BodySource& source) {
  Function fn;
  // The arguments a body may name: a function's inputs, all of a procedure's arguments
  // (PostgreSQL's sql_fn_parser_setup sees proargtypes, which has OUT arguments only for
  // procedures). $n counts the same list.
  for (const RoutineParameter& p : routine.params) fn.variables.push_back(parameterVariable(p));
  auto nameable = [&](int v) { return routine.procedure || routine.params[v].input; };
  auto lookup = [&](const std::string& name) {
    for (size_t v = 0; v < routine.params.size(); ++v)
      if (!name.empty() && routine.params[v].name == name && nameable(static_cast<int>(v))) return static_cast<int>(v);
    return -1;
  };
  fn.found = static_cast<int>(fn.variables.size());
  fn.variables.push_back(foundVariable());
  fn.sqlBody = true;
  for (size_t v = 0; v < routine.params.size(); ++v)
    if (nameable(static_cast<int>(v))) fn.numberedParams.push_back(static_cast<int>(v));
  bool result = !routine.returnsVoid && (!routine.procedure || routine.hasOutputParams());

  fn.body = std::make_unique<Block>(0);
  std::vector<Piece> pieces = splitStatements(source);
  for (size_t i = 0; i < pieces.size(); ++i) {
    Piece& p = pieces[i];
    const sql::Stmt& stmt = *p.parsed.stmt;
    if (stmt.kind != sql::StmtKind::Select && stmt.kind != sql::StmtKind::Insert &&
        stmt.kind != sql::StmtKind::Update && stmt.kind != sql::StmtKind::Delete && stmt.kind != sql::StmtKind::Call)
      throw SqlError(sqlstate::kFeatureNotSupported,
                     "only SELECT, INSERT, UPDATE, DELETE and CALL are supported in LANGUAGE sql routines yet", {}, {},
                     source.position(p.begin));
    if (p.parsed.explicitParams > static_cast<int>(fn.numberedParams.size()))
      throw SqlError(sqlstate::kUndefinedParameter, fmt::format("there is no parameter ${}", p.parsed.explicitParams));
    SqlText text;
    text.begin = p.begin;
    text.end = p.begin + static_cast<uint32_t>(p.text.size());
    text.text = std::move(p.text);
    // Argument names: `x` or `f.x`, and a field of a composite argument: `x.a` or
    // `f.x.a`. A table column of the same name wins when the statement is bound
    // (PostgreSQL's SQL functions resolve parameters after columns).
    auto isRow = [&](int v) { return v >= 0 && fn.variables[v].type.kind == VarType::Kind::Row; };
    sql::visitColumnRefs(stmt, [&](const sql::ColumnRef& ref) {
      const std::vector<std::string>& names = ref.names;
      if (names.empty()) return;  // *
      VariableRef r;
      r.offset = p.begin + ref.location;
      size_t used = 0;  // name parts that name the argument
      if (names.size() >= 2 && names[0] == routine.name) {
        r.variable = lookup(names[1]);
        used = 2;
      }
      if (r.variable < 0 || (names.size() > used && !isRow(r.variable))) {
        r.variable = lookup(names[0]);
        used = 1;
      }
      if (r.variable < 0 || names.size() > used + (isRow(r.variable) ? 1 : 0)) return;
      r.names.assign(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(used));
      if (names.size() > used) r.field = names[used];
      text.variables.push_back(std::move(r));
    });
    if (i + 1 == pieces.size() && result) {
      auto ret = std::make_unique<Return>(routine.returnsSet ? StmtKind::ReturnQuery : StmtKind::Return, p.begin);
      ret->value = std::move(text);
      ret->finalStatement = true;
      fn.body->body.push_back(std::move(ret));
    } else {
      auto exec = std::make_unique<ExecSql>(p.begin);
      exec->statement = std::move(text);
      exec->discardRows = true;
      fn.body->body.push_back(std::move(exec));
    }
  }
  // A function without statements still has to say what it returns.
  if (pieces.empty() && result) {
    auto ret = std::make_unique<Return>(StmtKind::Return, 0);
    ret->finalStatement = true;
    fn.body->body.push_back(std::move(ret));
  }
  return fn;
}

}  // namespace duet::plpgsql
