// Reading an ordered index in the order a query needs instead of sorting, after
// PostgreSQL's pathkeys (an index scan satisfies ORDER BY) and planagg.c (MIN/MAX as the
// first row of an index walk). Both rewrite plans the statement planner has just built.
#pragma once
#include "compiler/plan/plan.h"

namespace duet::planner {

// `sort` is Sort(Project(Filter?(scan))). When its keys follow the key order of an ordered
// index range after the range's equality prefix (all ascending NULLS LAST or all
// descending NULLS FIRST), returns the Sort's child with the range walking in that
// direction; otherwise returns `sort` unchanged. A TableScan counts as an unbounded range
// of any ordered index of its table when `limited` (a LIMIT follows: the walk stops early).
plan::NodePtr sortFromIndex(plan::NodePtr sort, bool limited);

// `aggregate` is an Aggregate node. When it has no groups and one MIN or MAX of a column
// that an ordered index range under it (Filter?(IndexRange), or a TableScan of a table
// with an index led by that column) yields in order, its input becomes the first non-NULL
// row of that walk: Limit 1 over Filter(column IS NOT NULL ...) over the range.
void minMaxFromIndex(plan::Node& aggregate);

}  // namespace duet::planner
