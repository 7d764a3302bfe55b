// Which hash joins filter the input of the aggregation they probe with (Node::filtersGroups):
// those whose table is small beside that input, so that looking each input row up in it
// costs less than the groups it saves (TPC-H Q17 and Q20's unnested subqueries: the parts
// the outer query keeps, against all of lineitem; DuckDB and Umbra push such filters down
// from their joins too).
#include "compiler/planner/statement_planner.h"

namespace duet::planner {
namespace {

void markSubplans(const plan::Expr& e) {
  if (e.subplan) markGroupFilters(*e.subplan);
  for (const auto& a : e.args) markSubplans(*a);
}

}  // namespace

bool worthFilteringGroups(double tableRows, double inputRows) { return tableRows <= 0.1 * inputRows; }

void markGroupFilters(Node& n) {
  for (auto& c : n.children) markGroupFilters(*c);
  plan::forEachExpr(n, [](const plan::Expr& e) { markSubplans(e); });
  if (const Node* grouped = plan::groupedProbe(n))
    n.filtersGroups = worthFilteringGroups(n.children[0]->estimatedRows, grouped->children[0]->estimatedRows);
}

}  // namespace duet::planner
