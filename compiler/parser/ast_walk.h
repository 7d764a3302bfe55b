// Walking a statement tree for the column references in it (expressions, subqueries, FROM
// items, RETURNING lists), e.g. to find the PL/pgSQL variables an embedded statement uses,
// or for the relations its FROM items name (how often a WITH query is read); and an
// expression for the subqueries in it (where DEFAULT may hold none).
#pragma once
#include <functional>

#include "compiler/parser/ast.h"

namespace duet::sql {

void visitColumnRefs(const Stmt& stmt, const std::function<void(const ColumnRef&)>& visit);
void visitColumnRefs(const Expr& expr, const std::function<void(const ColumnRef&)>& visit);
// Every FROM item naming a table, view or WITH query, in subqueries and WITH queries too.
void visitRangeTables(const Stmt& stmt, const std::function<void(const RangeTable&)>& visit);
// Every subquery in an expression (EXISTS, IN, scalar...), nested ones included.
void visitSubLinks(const Expr& expr, const std::function<void(const SubLink&)>& visit);

}  // namespace duet::sql
