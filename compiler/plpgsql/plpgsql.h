// Entry points of the routine body front end: the PL/pgSQL parser and the check of
// LANGUAGE sql bodies. Both run at CREATE FUNCTION | PROCEDURE time and report errors as
// PostgreSQL's validators do, with positions inside the CREATE statement.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/plpgsql/plpgsql_ast.h"

namespace duet::plpgsql {

// Where the body came from: the whole query string and the byte range of the AS string
// token, so that an offset in the decoded body maps back to the query.
struct BodySource {
  std::string_view query;
  uint32_t tokenBegin = 0, tokenEnd = 0;
  std::string_view body;  // the decoded string

  // The query byte offset of a body offset. Dollar-quoted and plain '...' strings map
  // exactly; for E'...' strings the start of the string token stands in.
  uint32_t queryOffset(uint32_t bodyOffset) const;
  // A 1-based character position in the query, as SqlError reports it.
  int position(uint32_t bodyOffset) const;
};

struct RoutineParameter {
  std::string name;  // may be empty (then only $n reaches it)
  VarType type;
  bool input = true;
  bool output = false;
};

// The variable a routine argument is in the body, and the implicit FOUND: the same for
// PL/pgSQL and LANGUAGE sql bodies.
inline Variable parameterVariable(const RoutineParameter& p) {
  Variable v;
  v.name = p.name;
  v.type = p.type;
  v.parameter = true;
  v.output = p.output;
  return v;
}
inline Variable foundVariable() {
  Variable v;
  v.name = "found";
  v.type.scalar = SqlType{TypeId::Bool, -1};
  v.implicit = true;
  return v;
}

// What the body parser needs to know about the routine around it.
struct RoutineShape {
  std::string name;
  bool procedure = false;
  bool returnsSet = false;
  bool returnsVoid = false;  // functions returning void
  std::vector<RoutineParameter> params;
  bool hasOutputParams() const;
};

// A table's columns for %ROWTYPE and t.c%TYPE: the columns of the named (possibly
// qualified) table, or nullopt when there is no such table.
using TableColumns = std::vector<std::pair<std::string, SqlType>>;
using TableLookup = std::function<std::optional<TableColumns>(const std::vector<std::string>& name)>;

// Parses and checks a PL/pgSQL body the way PostgreSQL's plpgsql_validator compiles it:
// syntax, variable declarations and their types, assignment targets, labels, RAISE
// formats, condition names, and the syntax of every SQL expression and statement.
// Throws SqlError with PostgreSQL's SQLSTATE, message and position.
Function parsePlpgsqlBody(const RoutineShape& routine, const BodySource& source, const TableLookup& tables);

// LANGUAGE sql: the body's statements as a PL/pgSQL tree (see sql_body.cpp). Throws
// SqlError for syntax errors, statements that are not SELECT/INSERT/UPDATE/DELETE/CALL
// (0A000) and $n beyond the arguments (42P02).
Function parseSqlBody(const RoutineShape& routine, const BodySource& source);

}  // namespace duet::plpgsql
