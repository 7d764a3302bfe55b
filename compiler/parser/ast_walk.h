// Walking a statement tree for the column references in it (expressions, subqueries, FROM
// items, RETURNING lists), e.g. to find the PL/pgSQL variables an embedded statement uses;
// and an expression for the subqueries in it (where DEFAULT may hold none).
#pragma once
#include <functional>

#include "compiler/parser/ast.h"

namespace duet::sql {

void visitColumnRefs(const Stmt& stmt, const std::function<void(const ColumnRef&)>& visit);
void visitColumnRefs(const Expr& expr, const std::function<void(const ColumnRef&)>& visit);
// Every subquery in an expression (EXISTS, IN, scalar...), nested ones included.
void visitSubLinks(const Expr& expr, const std::function<void(const SubLink&)>& visit);

}  // namespace duet::sql
