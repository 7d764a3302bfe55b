// An expression as PostgreSQL's ruleutils.c prints it back (pg_get_constraintdef,
// pg_get_expr): every operator application in parentheses, IN lists as = ANY (ARRAY[...]),
// BETWEEN as its two comparisons, string constants cast to text and negative numbers
// quoted and cast. Printed from the parse tree, so it does not know the operands' types:
// where PostgreSQL would show an implicit cast (a numeric column against an integer
// constant, a varchar column against a string), it shows none (docs/compatibility.md).
#pragma once
#include <optional>
#include <string>

#include "compiler/parser/ast.h"

namespace duet::sql {

// `pretty`: pg_get_constraintdef(oid, true)'s form, without the parentheses precedence
// makes redundant. nullopt for a form it does not print (subscripts, CASE, casts, ...).
std::optional<std::string> deparseExpr(const Expr& e, bool pretty);

}  // namespace duet::sql
