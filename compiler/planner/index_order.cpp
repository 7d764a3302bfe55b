// Index order instead of sorting (see index_order.h).
#include "compiler/planner/index_order.h"

#include <cstring>

#include "engine/storage/index.h"
#include "engine/storage/table.h"

namespace duet::planner {

using plan::ExprKind;
using plan::Node;
using plan::NodeKind;
using plan::NodePtr;

namespace {

// The scan under an optional Filter, when it is an index range or a table scan.
NodePtr* scanSlot(NodePtr& input) {
  NodePtr* slot = &input;
  if ((*slot)->kind == NodeKind::Filter) slot = &(*slot)->children[0];
  NodeKind k = (*slot)->kind;
  return k == NodeKind::IndexRange || k == NodeKind::TableScan ? slot : nullptr;
}

// Position of table column `column` in the index's key, or -1.
int keyPosition(const Index& index, int column) {
  const auto& key = index.columns();
  for (size_t p = 0; p < key.size(); ++p)
    if (static_cast<int>(key[p]) == column) return static_cast<int>(p);
  return -1;
}

// A table scan turned into the unbounded range of `index` (walkIndex sets its direction).
NodePtr wholeIndex(const Node& scan, Index* index) {
  auto n = std::make_unique<Node>(NodeKind::IndexRange);
  n->table = scan.table;
  n->index = index;
  n->outputTypes = scan.outputTypes;
  return n;
}

// The column of the scanned table that expression e reads plainly, or -1.
int tableColumn(const plan::Expr& e, const Node& scan) {
  if (e.kind != ExprKind::Column) return -1;
  return e.column < static_cast<int>(scan.table->columns().size()) ? e.column : -1;
}

// Whether `columns` (table columns, each with its direction) come out of a walk of `index`
// whose first `pinned` key columns are fixed, in index order, all in one direction; sets
// `descending` to that direction.
struct OrderedColumn {
  int column;
  bool descending;
  bool nullsFirst;
};
bool followsIndex(const Index& index, size_t pinned, const std::vector<OrderedColumn>& columns, bool& descending) {
  size_t next = pinned;
  bool directionSet = false;
  for (const OrderedColumn& c : columns) {
    if (c.column < 0) return false;
    int p = keyPosition(index, c.column);
    if (p < 0) return false;
    if (static_cast<size_t>(p) < pinned) continue;  // one value throughout the walk
    if (static_cast<size_t>(p) != next) return false;
    // The index keeps NULLs last, so walking backwards gives them first.
    if (c.nullsFirst != c.descending) return false;
    if (directionSet && c.descending != descending) return false;
    descending = c.descending;
    directionSet = true;
    ++next;
  }
  return true;
}

// The index (and pinned prefix length) of the scan that yields `columns` in order: the
// range's own index, or for a table scan when `anyIndex`, the first ordered index that
// does. Null when none.
Index* orderingIndex(const Node& scan, const std::vector<OrderedColumn>& columns, bool anyIndex, bool& descending) {
  if (scan.kind == NodeKind::IndexRange)  // a key set's values come one after another, not in one walk
    return scan.keySet < 0 && followsIndex(*scan.index, scan.keys.size(), columns, descending) ? scan.index : nullptr;
  if (!anyIndex) return nullptr;
  for (const auto& index : scan.table->indexes())
    if (index->kind() == IndexKind::Ordered && followsIndex(*index, 0, columns, descending)) return index.get();
  return nullptr;
}

void walkIndex(NodePtr& slot, Index* index, bool descending) {
  if (slot->kind == NodeKind::TableScan) slot = wholeIndex(*slot, index);
  slot->descending = descending;
}

plan::ExprPtr int8Constant(int64_t v) {
  auto e = std::make_unique<plan::Expr>(ExprKind::Const, SqlType{TypeId::Int8, -1});
  std::memcpy(e->constant, &v, sizeof v);
  return e;
}

}  // namespace

NodePtr sortFromIndex(NodePtr sort, bool limited) {
  Node& project = *sort->children[0];
  if (project.kind != NodeKind::Project) return sort;
  NodePtr* slot = scanSlot(project.children[0]);
  if (!slot) return sort;
  std::vector<OrderedColumn> columns;
  for (const plan::SortKey& k : sort->sortKeys)
    columns.push_back({tableColumn(*project.exprs[k.column], **slot), k.descending, k.nullsFirst});
  bool descending = false;
  Index* index = orderingIndex(**slot, columns, limited, descending);
  if (!index) return sort;
  walkIndex(*slot, index, descending);
  return std::move(sort->children[0]);
}

void minMaxFromIndex(Node& aggregate) {
  if (!aggregate.exprs.empty() || !aggregate.groupingSets.empty() || aggregate.aggs.size() != 1) return;
  const plan::AggSpec& agg = aggregate.aggs[0];
  if ((agg.kind != plan::AggKind::Min && agg.kind != plan::AggKind::Max) || agg.distinct || agg.filter) return;
  NodePtr& input = aggregate.children[0];
  NodePtr* slot = scanSlot(input);
  if (!slot) return;
  int column = tableColumn(*agg.arg, **slot);
  // MIN is the first row of an ascending walk (NULLS LAST), MAX the first of a descending one.
  bool max = agg.kind == plan::AggKind::Max;
  bool descending = false;
  Index* index = orderingIndex(**slot, {{column, max, max}}, true, descending);
  if (!index) return;
  walkIndex(*slot, index, descending);

  auto notNull = std::make_unique<plan::Expr>(ExprKind::IsNull, SqlType{TypeId::Bool, -1});
  notNull->negated = true;
  notNull->args.push_back(plan::cloneExpr(*agg.arg));
  NodePtr scan = std::move(input);
  auto filter = std::make_unique<Node>(NodeKind::Filter);
  filter->outputTypes = scan->outputTypes;
  if (scan->kind == NodeKind::Filter) {
    auto both = std::make_unique<plan::Expr>(ExprKind::And, SqlType{TypeId::Bool, -1});
    both->args.push_back(std::move(notNull));
    both->args.push_back(std::move(scan->predicate));
    filter->predicate = std::move(both);
    filter->children.push_back(std::move(scan->children[0]));
  } else {
    filter->predicate = std::move(notNull);
    filter->children.push_back(std::move(scan));
  }
  auto limit = std::make_unique<Node>(NodeKind::Limit);
  limit->outputTypes = filter->outputTypes;
  limit->limit = int8Constant(1);
  limit->children.push_back(std::move(filter));
  input = std::move(limit);
}

}  // namespace duet::planner
