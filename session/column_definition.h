// A column definition as CREATE TABLE and ALTER TABLE ADD COLUMN take it: the catalog's
// ColumnDef, with the keys its PRIMARY KEY or UNIQUE make, and the checks PostgreSQL makes
// of it (an unknown type, a DEFAULT reading a column or holding a subquery).
#pragma once
#include <string_view>
#include <vector>

#include "compiler/compiler.h"
#include "engine/catalog/catalog.h"

namespace duet {

// A DEFAULT may read no column and hold no subquery (0A000, as PostgreSQL says at CREATE).
void checkColumnDefault(const sql::Expr& e, std::string_view query);

// `query`: the statement's text, whose DEFAULT expressions are kept as text; `table`: the
// table's name, for errors. Keys the
// column's constraints make are appended to `keys`; its CHECK and REFERENCES constraints
// are the caller's (ConstraintStatements, once the table exists). A SERIAL or identity column needs a
// sequence of its own (SequenceStatements), the caller's too: `identity` is set to its
// GENERATED ... AS IDENTITY constraint, or left null for SERIAL.
ColumnDef columnDefinition(const sql::ColumnDef& col, std::string_view query, std::vector<KeySpec>& keys,
                           std::string_view table, const sql::Constraint** identity);
// A column of a named composite type (CREATE TYPE ... AS, a table's row type), or an array
// of one, is not built yet: 0A000 saying so, rather than columnDefinition's 42704 for a type
// name it does not know. `resolve` finds the composite types.
void refuseCompositeColumn(const sql::TypeName& type, const TypeResolver& resolve, std::string_view query);
// Whether a column definition needs a sequence (SERIAL, or an identity constraint).
bool needsSequence(const sql::ColumnDef& col);

// The key a PRIMARY KEY or UNIQUE constraint makes of `columns`.
KeySpec keySpec(const sql::Constraint& c, std::vector<std::string> columns);

}  // namespace duet
