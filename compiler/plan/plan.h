// Physical plans: what the planner hands to the code generator. Each node produces rows
// whose columns are `outputTypes`; expressions in a node refer to the columns of its
// input (child 0, or for joins the left columns followed by the right columns).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/plan/expr.h"

namespace duet {
class Table;
class Index;
}  // namespace duet

namespace duet::plan {

enum class NodeKind : uint8_t {
  TableScan,       // all live rows of `table`; output: table columns + rowid (int8) last
  IndexLookup,     // rows of `table` whose unique-index key equals `keys`; same output
  IndexRange,      // rows of `table` in key order (`descending`: reverse) from ordered `index`
                   // whose first keys.size() key columns equal `keys` and whose next one lies
                   // within rangeLow / rangeHigh (either may be null: unbounded); same output
  CurrentOf,       // WHERE CURRENT OF: the row of `table` that cursor keys[0] (a refcursor:
                   // the portal's name) stands on, when it is still live (PostgreSQL's TID
                   // scan of a CurrentOfExpr); same output as TableScan
  Values,          // `rows` of constant/param expressions; no input
  Filter,          // rows of child 0 where `predicate` is true
  Project,         // `exprs` over child 0
  NestedLoopJoin,  // child 0 x child 1 where `predicate` (may be null). With `exprs`: a
                   // LATERAL join, child 1 run again per row of child 0, its OuterRef i
                   // reading exprs[i] (over child 0's row)
  HashJoin,        // child 0 (build) joined with child 1 (probe) on leftKeys = rightKeys,
                   // output: child 0 columns then child 1 columns; `predicate` is residual
  Aggregate,       // group by `exprs` (over child 0), aggregates `aggs`;
                   // output: group keys then aggregate results
  Sort,            // child 0 sorted by `sortKeys`
  Limit,           // child 0 after skipping `offset` rows, at most `limit` rows
  Distinct,        // child 0 without duplicate rows; with `exprs`, the first row of each
                   // distinct value of them (DISTINCT ON over sorted rows)
  Insert,          // child 0 rows (one value per table column) inserted into `table`
  Update,          // child 0 rows = [rowid, new values of every table column] applied
  Delete,          // child 0 rows = [rowid] deleted
  Materialize,     // child 0 fully consumed before anything is passed on
  FunctionScan,    // the rows routine `routine` returns for arguments `exprs` (no input)
  ProjectSet,      // per row of child 0, the values the set-returning calls `exprs` (over
                   // child 0's row) yield, in lockstep: child 0's columns, then one value
                   // per call (NULL past a call's last) - the select list's set functions
  Append,          // the rows of each child in turn, all of `outputTypes` (UNION ALL)
  RecursiveUnion,  // WITH RECURSIVE: the rows of child 0, then of child 1 run again and again
                   // over the rows the run before produced (its WorkTableScans of this node's
                   // `workTable`) until a run produces none; `distinct`: UNION, each row once
  WorkTableScan,   // the rows the enclosing RecursiveUnion `workTable` produced last
  CteScan,         // the rows of child 0, a WITH query `cteName` read more than once (or
                   // MATERIALIZED): computed on first use per execution into a buffer that
                   // every CteScan of the same `workTable` number then reads
  Repeat,          // each row of child 0, `exprs[0]` (int8, over the row) times: none when it
                   // is NULL or below 1 (INTERSECT ALL, EXCEPT ALL)
  IndexJoin,       // per row of child 0, the row of `table` whose unique `index` key equals
                   // `keys` (over child 0's row), if any; output: child 0 columns, then the
                   // table's columns + rowid
  Window,          // child 0's rows sorted by `sortKeys` (the first `partitionKeys` of them
                   // split the rows into partitions, the rest order each partition), each
                   // followed by the values of `windowCalls` for it
};

// How an aggregate call's state is kept and folded (compiler/functions/builtin_aggregates.h
// gives each aggregate's). The first ones are folded by generated code; Stepped states by
// precompiled step, final and merge functions; Collected calls keep their rows in a
// runtime buffer of the query's context, which a precompiled final function reads.
enum class AggKind : uint8_t {
  CountStar,
  Count,
  Sum,
  Avg,
  Min,
  Max,
  BoolAnd,
  BoolOr,
  Stepped,
  Collected,
  Grouping,  // grouping(keys): which keys the output row's grouping set leaves out
};

// ORDER BY inside an aggregate call, or an ordered-set aggregate's WITHIN GROUP.
struct AggOrder {
  ExprPtr expr;  // over the aggregate's input row
  bool descending = false;
  bool nullsFirst = false;
};

// One aggregate call. Its expressions are over the aggregate's input row.
struct AggSpec {
  AggKind kind;
  ExprPtr arg;  // the first argument (an ordered-set aggregate's WITHIN GROUP value); null for CountStar
  // The other arguments (string_agg's delimiter, regr_*'s X), or an ordered-set
  // aggregate's direct arguments (percentile_cont's fraction).
  std::vector<ExprPtr> extraArgs;
  SqlType resultType;
  bool distinct = false;
  ExprPtr filter;                 // FILTER (WHERE filter): rows where it is not true are skipped
  std::vector<AggOrder> orderBy;  // the rows are folded in this order
  uint16_t aggregate = 0;         // its row in builtinAggregates()
  std::string_view name;          // its SQL name as the binder found it (static); empty: aggName(kind)
  std::vector<int> groupingKeys;  // Grouping: the group keys (Node::exprs) its arguments are
};

// Window functions: the built-in ones, and an aggregate over the frame.
enum class WindowFunc : uint8_t {
  RowNumber,
  Rank,
  DenseRank,
  PercentRank,
  CumeDist,
  Ntile,
  Lag,
  Lead,
  FirstValue,
  LastValue,
  NthValue,
  Aggregate,
};

// Which rows of its partition a window call sees for a row: from `start` to `end`, less
// those `exclude` names. Offsets are over no row (constants, parameters); for Range they
// are added to and subtracted from the one ORDER BY key, for Rows and Groups they count
// rows and peer groups (int8).
struct WindowFrame {
  enum class Mode : uint8_t { Range, Rows, Groups };
  enum class Bound : uint8_t { UnboundedPreceding, Preceding, CurrentRow, Following, UnboundedFollowing };
  enum class Exclude : uint8_t { NoOthers, CurrentRow, Group, Ties };
  Mode mode = Mode::Range;
  Bound start = Bound::UnboundedPreceding, end = Bound::CurrentRow;
  ExprPtr startOffset, endOffset;
  Exclude exclude = Exclude::NoOthers;
};

struct WindowCall {
  WindowFunc func;
  std::vector<ExprPtr> args;  // over the Window node's input row
  AggSpec agg{};              // Aggregate: the aggregate call, its argument over the input row
  SqlType resultType;
  WindowFrame frame;
};

// A hash join that filters its probe side by the build side instead of joining them, for
// WHERE's [NOT] EXISTS (subquery) and [NOT] IN (subquery): each probe row goes on once,
// alone, when some build row matches (Semi), when none does (Anti), or, for NOT IN, when
// none does and the comparison could not be NULL (NotIn: a NULL probe key or a NULL build
// key decides nothing unless the build side is empty).
enum class SemiJoin : uint8_t { None, Semi, Anti, NotIn };

struct SortKey {
  int column;
  bool descending = false;
  bool nullsFirst = false;  // PostgreSQL default: NULLS LAST for ASC, FIRST for DESC
};

enum class OnConflict : uint8_t { None, Nothing, Update };

struct Node {
  NodeKind kind;
  std::vector<SqlType> outputTypes;
  std::vector<std::unique_ptr<Node>> children;

  Table* table = nullptr;
  Index* index = nullptr;
  uint32_t routine = 0;       // FunctionScan: the routine's oid
  std::string function;       // FunctionScan: a built-in set-returning
                              // function's runtime symbol, in place of `routine`
  bool ordinality = false;    // FunctionScan: WITH ORDINALITY, the row's number (int8) last
  std::vector<ExprPtr> keys;  // IndexLookup key values, IndexRange equality prefix
  // IndexLookup, IndexRange: keys[keySet] is an array, not a value: its distinct elements
  // other than NULL are each looked up in turn (`key = ANY (array)`, `key IN (list)`).
  int keySet = -1;
  ExprPtr rangeLow, rangeHigh;  // IndexRange bounds on the key column after `keys`
  bool lowInclusive = true, highInclusive = true;
  bool descending = false;  // IndexRange: rows in reverse key order
  // Insert ... ON CONFLICT: before each row is inserted, its key in each arbiter (a unique
  // index) is looked up; a row found there makes the new row skipped (DO NOTHING) or
  // updated instead (DO UPDATE: `exprs` are the updated row and `predicate` its WHERE, or
  // null, over the existing row and its rowid followed by the proposed row, EXCLUDED, and a
  // slot for its rowid).
  OnConflict onConflict = OnConflict::None;
  std::vector<Index*> arbiters;

  // NestedLoopJoin, HashJoin: the side that drives the join - a nested loop's children[0],
  // a hash join's probe side children[1] - keeps its rows without a match, the other
  // side's columns NULL (a LEFT, RIGHT or FULL outer join; the planner makes no outer
  // IndexJoin).
  bool outer = false;
  // HashJoin of a FULL JOIN: after the probe, the build side's rows that matched nothing
  // go on too, the probe side's columns NULL.
  bool keepBuildSide = false;
  // Joins: the joined row lists children[1]'s columns before children[0]'s (normally
  // children[0]'s come first; IndexJoin's index table is its second side). An outer join
  // whose preserved side must drive the join but comes second in the row sets it.
  bool rightFirst = false;
  // HashJoin: a semi or anti join (see SemiJoin). Its output is the probe side's row; the
  // residual predicate sees the probe row followed by the build row (rightFirst).
  SemiJoin semi = SemiJoin::None;
  // A Semi or Anti join that hashes children[1]'s rows (the outer ones, estimated fewer)
  // instead: each row of children[0] marks the rows it matches, then the marked (Semi) or
  // unmarked (Anti) ones go on. A pipeline break.
  bool semiBuildsOuter = false;
  // HashJoin whose probe side is grouped (groupedProbe): the rows the aggregation below
  // reads are first looked up by their group keys in this join's table, and those of a
  // group no build row matches are skipped - the join would drop the group anyway (a
  // "magic set": TPC-H Q17 groups the lineitems of its 200 parts, not all 6 million).
  // EXPLAIN: "Aggregate Input Filter". Set by the planner where the table is much smaller
  // than the aggregation's input.
  bool filtersGroups = false;
  // Project under a hash join's build side that computes, past its input's columns (from
  // this one on), what the nodes above would compute per probe row from the build side's
  // columns alone (planner/build_side_exprs.cpp); EXPLAIN: "Computed". -1: not such a one.
  int computedFrom = -1;
  // RecursiveUnion and its WorkTableScans: which recursion (numbered per statement).
  int workTable = -1;
  std::string cteName;                     // CteScan
  bool distinct = false;                   // RecursiveUnion: UNION rather than UNION ALL
  ExprPtr predicate;                       // Filter, joins
  std::vector<ExprPtr> exprs;              // Project, Aggregate group keys, HashJoin left keys,
                                           // a LATERAL NestedLoopJoin's captures
  std::vector<ExprPtr> rightKeys;          // HashJoin probe keys
  std::vector<std::vector<ExprPtr>> rows;  // Values
  std::vector<AggSpec> aggs;
  // Aggregate with GROUPING SETS, ROLLUP or CUBE: the sets, each the `exprs` it groups by
  // (the others NULL in its rows); empty for a plain GROUP BY.
  std::vector<std::vector<int>> groupingSets;
  std::vector<SortKey> sortKeys;
  int partitionKeys = 0;                // Window: how many of sortKeys are PARTITION BY's
  std::vector<WindowCall> windowCalls;  // Window
  ExprPtr limit, offset;                // Limit (either may be null)
  std::vector<ExprPtr> returning;       // Insert/Update/Delete: RETURNING over the new row
                                        // (Delete: over the old row); empty: count only
  // Insert/Update: the table's CHECK constraints over the new row, and their names; a row
  // for which one is false (not NULL) is refused with 23514.
  std::vector<ExprPtr> checks;
  std::vector<std::string> checkNames;
  // Aggregate, Sort: its input runs on this many threads, each aggregating or sorting apart,
  // then merged; HashJoin: the same for its build side (0 or 1: serially), or for a
  // semiBuildsOuter join the subquery's rows, each thread marking the shared outer rows.
  // TableScan: hands its chunks out to those threads (morsels).
  // Set by markParallel (compiler/planner/parallel.h).
  uint32_t parallelThreads = 0;
  // A semiBuildsOuter HashJoin: its hashed outer rows are collected on this many threads.
  uint32_t outerBuildThreads = 0;
  bool morsels = false;
  // The statement's root when its one pipeline (a scan through filters and join probes)
  // runs on this many threads that stream their rows to the statement's thread (a gather).
  uint32_t gatherThreads = 0;

  // EXPLAIN (compiler/plan/explain.h). The planner's estimate of the rows the node yields
  // (per run; filled by planTree, -1 until then).
  double estimatedRows = -1;
  // The FROM item a node yields the rows of, as EXPLAIN names it: a table's alias, a
  // function's or WITH query's name, a subquery's alias; and its columns' names (empty:
  // the table's, or none known). Set by the planner where it makes the item.
  std::string alias;
  std::vector<std::string> columnNames;

  explicit Node(NodeKind k) : kind(k) {}
};
using NodePtr = std::unique_ptr<Node>;

// A one-line outline of a plan tree, e.g. "Filter(IndexRange[t_ab: a = ?, b > ?])", for
// tests and diagnostics that need to see which access paths the planner chose. A node's
// subqueries follow it in braces: "Filter{IndexLookup[t_pkey]}(TableScan[o])".
std::string outline(const Node& node);

// The aggregation a hash join's probe keys are the group keys of: children[1] is, through
// projections and filters, an Aggregate (no grouping sets) whose group key groupKeys[k]
// (an index into its exprs, of the join key's type) each probe key k reads unchanged. Only
// for inner and semi joins that probe their table with children[1]'s rows. Null otherwise.
const Node* groupedProbe(const Node& join, std::vector<size_t>* groupKeys = nullptr);

// Whether an IndexJoin walks an ordered index range per left row (planner/access_path.h,
// indexRangeJoin) rather than probing a unique key.
bool walksRange(const Node& n);

// What a plan reads, for deciding where a read-only statement runs (snapshot routing,
// docs/snapshots.md): the tables whose rows it walks (scans and index ranges, in
// subqueries too: their cost grows with the table) and the user-defined routines it calls
// (which may write), and the built-in functions it calls (which may change the session's
// state: setseed). Point lookups cost one row and are left out.
struct ReadFootprint {
  bool writes = false;  // an INSERT, UPDATE or DELETE node (also under a SELECT's WITH)
  std::vector<const Table*> walked;
  std::vector<uint32_t> routines;
  std::vector<std::string> functions;  // the runtime symbols of the built-in functions it calls
};
ReadFootprint footprint(const Node& root);

// Calls `visit` on each expression a node holds (not its children's, nor the expressions
// inside them).
void forEachExpr(const Node& n, const std::function<void(const Expr&)>& visit);

}  // namespace duet::plan
