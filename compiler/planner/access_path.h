// How one table is read: a unique-index lookup when equality conjuncts pin a whole key, an
// ordered-index range when they pin a prefix of one, else a full scan.
#pragma once
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "compiler/binder/binder.h"
#include "compiler/plan/plan.h"

namespace duet {
class Index;
class Table;
}  // namespace duet

namespace duet::planner {

// A scan of one table, using a unique index when `conjuncts` (over this table's own row)
// pin every key column to a value that reads no column (used conjuncts are removed), else
// an ordered index range when they pin a prefix of its key (all conjuncts stay). One key
// column may be pinned to a set of such values instead, `column = ANY (array)` or `column
// IN (list)`: the index is then probed once per distinct value (Node::keySet).
plan::NodePtr accessPath(const TableBinding& binding, std::vector<plan::ExprPtr>& conjuncts, binder::Binder& b);

// The index a single-table access (as accessPath and filter build it) walks by range, or
// probes for one value after another (a key set), or null: an UPDATE that sets its key
// could meet a row it moved.
const Index* rangeIndex(const plan::Node& n);

// A key equality among `conjuncts`: the conjunct comparing column `column` (of type `type`,
// not through a cast) with a value `valueOk` accepts. Returns {conjunct, side of the
// value}, or nullopt.
std::optional<std::pair<size_t, int>> keyEquality(const std::vector<plan::ExprPtr>& conjuncts, int column, TypeId type,
                                                  const std::function<bool(const plan::Expr&)>& valueOk);

// Whether `e` reads no column (a constant or parameter per statement).
bool isConstantValue(const plan::Expr& e);

// An index join that walks an ordered index range per left row (HammerDB's Stock-Level:
// the order lines of the last 20 orders of a district read from the district row): an
// ordered index of `table` whose leading key columns equalities pin - to constants (`local`,
// conjuncts over the table's own row) or to values of the left side (`rest`, over the join
// row, where the table's columns start at `offset`; fromLeft says what a value may read) -
// and whose next column a bound limits (or that pin a whole key, or a unique key but its last
// column: HammerDB's Delivery, the order lines of each order delivered), at least one of
// them read from the left side.
// Returns the IndexJoin node, keys and bounds set, without children and output types, or
// null. The conjuncts all stay: the caller filters on them.
plan::NodePtr indexRangeJoin(Table& table, const std::vector<plan::ExprPtr>& local,
                             const std::vector<plan::ExprPtr>& rest, int offset,
                             const std::function<bool(const plan::Expr&)>& fromLeft);

}  // namespace duet::planner
