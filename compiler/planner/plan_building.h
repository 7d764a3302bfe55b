// Small constructors of plan pieces the statement planner assembles: conjunct lists and
// the Filter, Project and Materialize nodes around a child.
#pragma once
#include <vector>

#include "compiler/plan/plan.h"

namespace duet {
class Table;
}

namespace duet::planner {

// A table's row as plans read it: its columns, then the hidden rowid (int8).
std::vector<SqlType> tableRowTypes(const Table& t);
// Appends the conjuncts of `e` (its AND arguments, recursively) to `out`.
void splitConjuncts(plan::ExprPtr e, std::vector<plan::ExprPtr>& out);
// `e` with the conjuncts that every branch of its OR shares taken out in front:
// (A AND B) OR (A AND C) is A AND (B OR C), in three-valued logic too; so a join condition
// repeated in each branch becomes a join key (PostgreSQL's find_duplicate_ors). Equality is
// binder::exprEquals with `paramClasses`. Anything but an OR comes back as it was.
plan::ExprPtr factorOr(plan::ExprPtr e, const std::vector<int>& paramClasses);
// What an OR over several FROM items requires of the one whose columns are [begin, end):
// the OR of each branch's conjuncts that read only that item, or null when a branch has
// none (or the OR is not safe to evaluate twice: a subquery, routine or volatile call).
// Implied by the OR, it may filter the item's scan while the OR stays a join condition
// (PostgreSQL's extract_restriction_or_clauses): CH Q7's two nations, Q19's items.
plan::ExprPtr orRestriction(const plan::Expr& any, int begin, int end);
// Splits the conditions of a join whose row has the left side's columns before
// `rightOffset` and the right side's from there: an equality between an expression of each
// side becomes a pair of hash keys (the right one moved onto the right side's own row),
// anything else goes to `residual`. `conditions` is left empty.
void splitJoinKeys(std::vector<plan::ExprPtr>& conditions, int rightOffset, std::vector<plan::ExprPtr>& leftKeys,
                   std::vector<plan::ExprPtr>& rightKeys, std::vector<plan::ExprPtr>& residual);
// The AND of `parts`; null for none.
plan::ExprPtr conjunction(std::vector<plan::ExprPtr> parts);
// `child` filtered by `predicate` (its conjuncts cheapest first, as evaluationCost counts);
// `child` itself when there is no predicate.
plan::NodePtr filter(plan::NodePtr child, plan::ExprPtr predicate);
plan::NodePtr project(plan::NodePtr child, std::vector<plan::ExprPtr> exprs);
// The table `plan` reads, when it is that table's access path (a scan or index access)
// under filters, so its rows are the table's; else null.
const Table* scannedTable(const plan::Node& plan);
// Reads all of `child` before passing its first row on.
plan::NodePtr materialize(plan::NodePtr child);

}  // namespace duet::planner
