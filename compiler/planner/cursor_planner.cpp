// A cursor's query keeps, past its columns, the row ids WHERE CURRENT OF reads
// (PreparedPlan::cursorRowIds). PostgreSQL's execCurrentOf finds the current row of a table
// in the cursor's executor: from a FOR UPDATE/SHARE reference to the table (any query), or
// without one from the table's scan, found by descending through Limit and Result nodes
// only (a "simply updatable" scan: not under a join, an aggregate, DISTINCT or a sort).
// DuetDB's cursors keep their rows, so the ids travel in each row.
#include "compiler/planner/statement_planner.h"

#include <algorithm>

#include "engine/storage/table.h"

namespace duet::planner {
namespace {

bool isScan(const Node& n) {
  return n.kind == NodeKind::TableScan || n.kind == NodeKind::IndexLookup || n.kind == NodeKind::IndexRange;
}

// Nodes that pass on their input's rows, whole: a row id added to the input's columns
// can be added to theirs. `forUpdate`: a sort too (PostgreSQL locks rows above it).
bool passesRows(const Node& n, bool forUpdate) {
  switch (n.kind) {
    case NodeKind::Project:
    case NodeKind::Filter:
    case NodeKind::Limit: return true;
    case NodeKind::Sort:
    case NodeKind::Materialize: return forUpdate;
    default: return false;
  }
}

// The tables a FOR UPDATE/SHARE locks: their accesses (scans, an index join's table) in
// the query's own plan, not in its subqueries'.
void lockedAccesses(const Node& n, const sql::SelectStmt& s, std::vector<const Node*>& out) {
  if (isScan(n) || n.kind == NodeKind::IndexJoin)
    if (s.lockingAll || std::find(s.lockedItems.begin(), s.lockedItems.end(), n.alias) != s.lockedItems.end())
      out.push_back(&n);
  for (const auto& c : n.children) lockedAccesses(*c, s, out);
}

// The column of n's rows that holds the row id of `access`'s table (its row id comes last
// in the table's part of a row), or -1 when its rows do not carry it.
int rowIdColumn(const Node& n, const Node* access) {
  auto width = [](const Node& c) { return static_cast<int>(c.outputTypes.size()); };
  auto joined = [&](int side0, int side1, int width0, int width1) {
    if (n.rightFirst) return side1 >= 0 ? side1 : side0 >= 0 ? width1 + side0 : -1;
    return side0 >= 0 ? side0 : side1 >= 0 ? width0 + side1 : -1;
  };
  if (&n == access && isScan(n)) return static_cast<int>(n.table->columns().size());
  switch (n.kind) {
    case NodeKind::Filter:
    case NodeKind::Sort:
    case NodeKind::Limit:
    case NodeKind::Materialize: return rowIdColumn(*n.children[0], access);
    case NodeKind::Project: {
      int c = rowIdColumn(*n.children[0], access);
      for (size_t i = 0; c >= 0 && i < n.exprs.size(); ++i)
        if (n.exprs[i]->kind == ExprKind::Column && n.exprs[i]->column == c) return static_cast<int>(i);
      return -1;
    }
    case NodeKind::NestedLoopJoin:
    case NodeKind::HashJoin:
      if (n.semi != plan::SemiJoin::None) return rowIdColumn(*n.children[1], access);
      return joined(rowIdColumn(*n.children[0], access), rowIdColumn(*n.children[1], access), width(*n.children[0]),
                    width(*n.children[1]));
    case NodeKind::IndexJoin: {
      int tableWidth = static_cast<int>(n.table->columns().size()) + 1;
      int own = &n == access ? tableWidth - 1 : -1;
      return joined(rowIdColumn(*n.children[0], access), own, width(*n.children[0]), tableWidth);
    }
    default: return -1;
  }
}

// Adds the row id in column `column` of the rows under the chain of nodes that pass rows
// on, from `n` down to `base`, to each one's columns; returns its column in n's rows.
int carryUp(Node& n, const Node* base, int column) {
  if (&n == base) return column;
  int c = carryUp(*n.children[0], base, column);
  n.outputTypes.push_back({TypeId::Int8, -1});
  if (n.kind != NodeKind::Project) return c;
  n.exprs.push_back(plan::makeColumn(c, {TypeId::Int8, -1}));
  return static_cast<int>(n.exprs.size()) - 1;
}

}  // namespace

void StatementPlanner::keepCursorRowIds(Node& root, const sql::SelectStmt& s, PreparedPlan& out) {
  bool forUpdate = s.locking != sql::LockStrength::None;
  out.cursorForUpdate = forUpdate;
  Node* base = &root;
  while (passesRows(*base, forUpdate) && !base->children.empty()) base = base->children[0].get();
  std::vector<const Node*> accesses;
  if (forUpdate) {
    lockedAccesses(*base, s, accesses);
  } else if (isScan(*base)) {
    accesses.push_back(base);
  }
  for (const Node* access : accesses) {
    int column = rowIdColumn(*base, access);
    if (column < 0) continue;
    out.cursorRowIds.emplace_back(access->table, carryUp(root, base, column));
  }
}

}  // namespace duet::planner
