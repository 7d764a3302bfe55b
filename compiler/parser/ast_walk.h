// Walking a statement tree for the column references in it (expressions, subqueries, FROM
// items, RETURNING lists), e.g. to find the PL/pgSQL variables an embedded statement uses.
#pragma once
#include <functional>

#include "compiler/parser/ast.h"

namespace duet::sql {

void visitColumnRefs(const Stmt& stmt, const std::function<void(const ColumnRef&)>& visit);
void visitColumnRefs(const Expr& expr, const std::function<void(const ColumnRef&)>& visit);

}  // namespace duet::sql
