// Parsing a whole CREATE FUNCTION ... $$body$$ statement's PL/pgSQL body in unit tests.
#pragma once
#include <string>

#include "compiler/plpgsql/plpgsql.h"

namespace duet::plpgsql::test {

// g(a int), the routine the tests' bodies belong to.
inline RoutineShape intFunction() {
  RoutineShape shape;
  shape.name = "g";
  RoutineParameter a;
  a.name = "a";
  a.type.scalar = SqlType{TypeId::Int4, -1};
  shape.params.push_back(a);
  return shape;
}

// The body between the statement's first and last "$$", parsed for `shape`, with
// positions counted from the start of `query` (as PostgreSQL reports them).
inline Function parseFunctionBody(const std::string& query, const RoutineShape& shape, const TableLookup& tables) {
  uint32_t open = static_cast<uint32_t>(query.find("$$"));
  uint32_t close = static_cast<uint32_t>(query.rfind("$$"));
  BodySource source{query, open, close + 2, std::string_view(query).substr(open + 2, close - open - 2)};
  return parsePlpgsqlBody(shape, source, tables);
}

}  // namespace duet::plpgsql::test
