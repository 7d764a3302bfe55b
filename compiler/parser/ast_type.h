// Type names as written in SQL (casts, column definitions, typed literals, PREPARE).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/types/type_id.h"

namespace duet::sql {

enum class SerialKind : uint8_t { None, Small, Normal, Big };

struct TypeName {
  // The name as written, folded, e.g. {"pg_catalog", "int4"}; grammar-keyword types use
  // PostgreSQL's internal names ("int4", "varchar", "timestamptz", "float8", ...).
  std::vector<std::string> names;
  std::vector<int32_t> modifiers;  // the numbers in "(p, s)", as written
  int arrayBounds = 0;             // number of [] (or ARRAY) suffixes
  uint32_t location = 0;           // byte offset of the type name
  // Written as a grammar keyword (integer, double precision, ...): PostgreSQL names such
  // types pg_catalog.int4 etc. where it echoes a type name as written (DROP ... IF EXISTS).
  bool keyword = false;
  // interval's fields (DAY TO SECOND, ...) as interval.h's range mask; -1 when none.
  int intervalFields = -1;

  // Set when the name is one DuetDB implements: `type` then carries PostgreSQL's typmod.
  // serial/smallserial/bigserial resolve to their integer type with `serial` set; only
  // column definitions accept them (the binder rejects them elsewhere, as PostgreSQL does).
  bool resolved = false;
  SqlType type;
  // A routine's `table.column%TYPE` (names: the table's, then the column's): CREATE takes
  // the column's type.
  bool columnType = false;
  SerialKind serial = SerialKind::None;

  // The type a resolved name stands for: `type`, or an array of it when arrayBounds > 0
  // (every number of [] is the same one-dimensional array type, as in PostgreSQL).
  SqlType sqlType() const { return arrayBounds > 0 ? SqlType::arrayOf(type) : type; }

  // The last name part, for messages like: type "x" does not exist.
  const std::string& name() const { return names.back(); }
};

}  // namespace duet::sql
