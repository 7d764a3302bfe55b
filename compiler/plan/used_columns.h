// Which columns of each plan node's rows something reads: the nodes above it, its parent's
// own expressions, and (for the root) the client. The code generator keeps only those
// columns where it stores rows - a hash join's build side, a sort's buffer, a nested loop's
// inner side - so a join that needs one column of a sixteen-column table hashes one column
// (PostgreSQL gets the same from its targetlists, built per level by the planner).
#pragma once
#include <unordered_map>
#include <vector>

#include "compiler/plan/plan.h"

namespace duet::plan {

class UsedColumns {
 public:
  UsedColumns() = default;
  // Every node of the plan rooted at `root`, and of the subqueries in its expressions, all
  // of the root's columns read.
  explicit UsedColumns(const Node& root);
  // The plans of the subqueries in `e` (a PL/pgSQL expression's).
  explicit UsedColumns(const Expr& e);

  // Whether column `c` of `n`'s rows is read; true for a node outside the analysed plan.
  bool read(const Node& n, size_t c) const;
  // The columns of a hash join's stored side (children[0], or children[1] when it hashes the
  // outer rows of a semi join: Node::semiBuildsOuter) that are read once the row was found
  // by its key: by the join's residual predicate or above the join. All of them when the
  // join is outside the analysed plan.
  std::vector<bool> storedByHashJoin(const Node& join) const;

 private:
  void require(const Node& n, std::vector<bool> cols);
  void requireSubplans(const Expr& e);
  std::unordered_map<const Node*, std::vector<bool>> read_;
  std::unordered_map<const Node*, std::vector<bool>> hashStored_;
};

}  // namespace duet::plan
