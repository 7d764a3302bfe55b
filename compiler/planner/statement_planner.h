// The statement planner: one bound statement (SELECT, VALUES, INSERT, UPDATE, DELETE,
// CALL) to a physical plan. Private to compiler/planner; the rest of the compiler calls
// planTree (planner.h). Its parts are one file each: the statement kinds and parameter
// types (statement_planner.cpp), FROM and joins (from_planner.cpp), the SELECT list,
// ordering and VALUES (select_planner.cpp), and the writing statements (dml_planner.cpp).
// Plans are simple and predictable: left-deep joins (inner joins in a greedy order, hash
// joins on equality conjuncts), single-table conjuncts pushed to their scan, index access
// as access_path.h chooses it.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/binder/binder.h"
#include "compiler/planner/join_order.h"
#include "compiler/planner/planner.h"

namespace duet {
struct ColumnStatistics;
}

namespace duet::planner {

using binder::Binder;
using binder::CastContext;
using binder::columnRange;
using binder::commonType;
using binder::exprEquals;
using binder::Scope;
using binder::ScopeEntry;
using plan::ExprKind;
using plan::ExprPtr;
using plan::Node;
using plan::NodeKind;
using plan::NodePtr;

// Whether `e` reads an OuterRef (also in the arguments of subqueries in it, not in their
// plans, whose OuterRefs are their own captures).
bool readsOuter(const plan::Expr& e);
// Whether `n` or anything under it reads an OuterRef (inside subqueries' arguments, not
// their own plans, whose OuterRefs are their own captures).
bool planReadsOuter(const Node& n);
// `e` of a correlated subquery, read from a join's row instead: the outer row's
// `outerWidth` columns, then the subquery's. OuterRef i becomes what it captured, capture i.
ExprPtr onJoinedRow(const plan::Expr& e, int outerWidth, const std::vector<ExprPtr>& captures);

// Makes a semi join planned by planSemiJoin filter `outer`, estimated to keep `share` of it;
// it hashes the outer rows when they are estimated fewer than the subquery's.
void attachSemiJoin(NodePtr& outer, NodePtr join, double share);
// Moves a planned semi join's columns: the outer row's by `outerShift`, the build side's
// (from `fromWidth` on) to start at `toWidth`.
void moveSemiJoinColumns(Node& join, int fromWidth, int outerShift, int toWidth);

// The FROM items (scope entries) `e` reads, as a bit set.
uint64_t itemsRead(const Scope& scope, const plan::Expr& e);
// Moves `e`'s column references from FROM order to the join's layout, where item i's
// columns start at offset[i].
void relayColumns(const Scope& scope, const std::vector<int>& offset, plan::Expr& e);

// The share of rows a conjunct keeps, by rules of thumb (join_estimates.cpp): an equality
// with a constant a tenth, a range a third, a LIKE by its pattern (PostgreSQL's
// like_selectivity), an AND or OR by its arguments', anything else a half. With `table`
// (the conjunct is over its row), what its statistics say first, where they say something.
double conjunctSelectivity(const plan::Expr& conjunct, const Table* table = nullptr);
// `table`'s statistics of its column `column`, when it has been analysed; else null.
const ColumnStatistics* columnStatistics(const Table& table, int column);
// The distinct values of an analysed column, scaled to the table's rows now when they grow
// with it (PostgreSQL's negative n_distinct); 0 when it has no statistics.
double columnDistinct(const Table& table, int column);
// Fills Node::estimatedRows where the planner left it unset, bottom up, subplans included
// (row_estimates.cpp); returns the root's.
double estimateRows(Node& root);
// Sets Node::filtersGroups on the hash joins over a grouped probe side (plan::groupedProbe)
// whose table is estimated at most a tenth of the aggregation's input rows, subplans
// included (group_filter.cpp); after estimateRows.
void markGroupFilters(Node& root);
// Moves what a projection or aggregation computes from one inner hash join's build-side
// columns alone onto that build side (a Project under the join, Node::computedFrom), so the
// join table stores the result instead of the columns it reads (build_side_exprs.cpp);
// only expressions that can neither fail nor change anything, as the build side's rows
// include those no probe row meets. After estimateRows; subplans included. `paramClasses`:
// the binder's, for sharing equal expressions.
void computeOnBuildSides(Node& root, const std::vector<int>& paramClasses);
// Whether a join table of `tableRows` is worth looking an aggregation's `inputRows` up in.
bool worthFilteringGroups(double tableRows, double inputRows);
// Whether `keys` that are plain columns (of a row holding `table`'s columns from `offset`
// on) cover one of the table's unique indexes (join_estimates.cpp).
bool keysCoverUniqueIndex(const Table& table, const std::vector<ExprPtr>& keys, int offset);

// Where a query's column `c` is written, for errors about it: its expression in the
// (leftmost) SELECT list, as PostgreSQL reports it.
uint32_t columnLocation(const sql::SelectStmt& query, size_t c);

// FROM's rows and the names they bind.
struct FromPlan {
  NodePtr node;
  Scope scope;
};

class StatementPlanner {
 public:
  explicit StatementPlanner(const PlanRequest& r) : req_(r), b_(r) {
    b_.setSubqueryPlanner(
        [this](const sql::SelectStmt& s, std::vector<OutputColumn>& columns) { return planSubquery(s, columns); });
  }

  PlannedStatement run();

 private:
  // --- cursor_planner.cpp

  // A cursor's query (PlanRequest::cursorQuery): the row ids WHERE CURRENT OF reads added
  // past root's columns (PreparedPlan::cursorRowIds).
  void keepCursorRowIds(Node& root, const sql::SelectStmt& s, PreparedPlan& out);

  // --- statement_planner.cpp

  // Parameters whose type was decided after a reference was bound still carry Unknown.
  void fixExpr(plan::Expr& e);
  void fixParamTypes(Node& n);
  // A table's scope entry: its columns, then the hidden rowid no name reaches.
  ScopeEntry entryFor(const TableBinding& t, const std::string& alias, int offset);
  const TableBinding& resolve(const sql::QualifiedName& name);

  // --- from_planner.cpp

  // A USING or NATURAL join over the items [leftBegin, rightBegin) and [rightBegin,
  // rightEnd) of the flattened FROM list (scope entries once mapped by entryRange).
  struct MergingJoin {
    const sql::JoinRef* join;
    size_t leftBegin, rightBegin, rightEnd;
  };
  // A condition on the FROM list's rows: WHERE's (deadline: none) or an inner join's ON
  // (deadline: the item that completes its join, before any later outer join nulls its
  // tables). `argumentOf` names it in type errors: "WHERE", "AND" (one of WHERE's
  // conjuncts) or "JOIN/ON".
  struct FromCondition {
    const sql::Expr* expr;
    size_t deadline;
    const char* argumentOf;
  };
  static constexpr size_t kNoDeadline = SIZE_MAX;
  // How each FROM item joins the items before it: inner, or the LEFT or RIGHT outer join
  // whose right side it is, with that join's ON condition.
  struct JoinStep {
    sql::JoinType type = sql::JoinType::Inner;
    const sql::Expr* on = nullptr;
  };
  // A FROM clause flattened (collectFrom): its items, joined left-deep in this order when
  // an outer join is among them, and what joins them.
  struct FromItems {
    std::vector<const sql::TableRef*> items;  // tables, subqueries, functions, join units
    std::vector<FromCondition> conditions;
    std::vector<MergingJoin> merging;
    std::vector<JoinStep> steps;      // per item
    std::vector<std::string> hidden;  // a join unit's: the enclosing FROM's tables (Scope::hidden)
  };

  FromPlan planFrom(const std::vector<sql::TableRefPtr>& from, const sql::Expr* where);
  // `target`: the first item is this table, the target of an UPDATE ... FROM or DELETE ...
  // USING (never a WITH query of its name).
  FromPlan planFrom(const std::vector<const sql::TableRef*>& from, const sql::Expr* where,
                    const TableBinding* target = nullptr);
  // The items joined, then WHERE applied (its subqueries as semi joins where they can be).
  // `lift`: where a subquery planned as a semi join's build side collects its WHERE
  // conjuncts that read the outer query (else null).
  FromPlan joinItems(FromItems& from, const sql::Expr* where, const TableBinding* target, std::vector<ExprPtr>* lift);
  // UPDATE ... FROM, DELETE ... USING: the target table (columns, then rowid) joined with
  // `items`, each of its rows once (with the first joined row that matched it).
  FromPlan planTargetJoin(const TableBinding& t, const sql::QualifiedName& name, const std::string& alias,
                          uint32_t location, const std::vector<sql::TableRefPtr>& items, const sql::Expr* where);
  // Flattens a join into FROM items, to be joined left-deep (in that order when an outer
  // join is among them): inner joins' ON conditions are collected with the WHERE
  // conjuncts, an outer join's stays with the item it joins (its right side). USING/NATURAL
  // joins are recorded inner ones first, for mergeJoinColumns once the items are in scope.
  void collectFrom(const sql::TableRef& ref, FromItems& from);
  // One side of a join, or a FROM list entry (`right`: the right side of a join of type
  // `parent`), collected: flattened into it, or one item when it is a join that must be
  // planned as a unit (a join unit): one with an alias (it hides its tables' names), one on
  // the right of an outer join (its rows are matched or nulled together), one on the right
  // holding a RIGHT or FULL join (which would null the items before it outside the unit).
  void collectItem(const sql::TableRef& ref, FromItems& from, bool right, sql::JoinType parent);
  // A join unit's plan; its scope entries and join columns are appended to `into` (one
  // entry named by its alias when it has one, the columns `*` would list).
  NodePtr joinUnitItem(const sql::JoinRef& j, Scope& into);
  // Names a NATURAL join merges: the left side's visible column names that the right side
  // also has, in left order.
  std::vector<std::string> naturalColumns(const Scope& scope, const MergingJoin& m);
  // Applies a USING/NATURAL join: each named column must exist once on each side; the two
  // become one join column (for unqualified references and SELECT *) and their equality a
  // join condition, compared in the common type as PostgreSQL does.
  void mergeJoinColumns(Scope& scope, const MergingJoin& m, int joinNumber, std::vector<ExprPtr>& conjuncts);
  // A call's arguments bound (no columns in scope) and its routine resolved; the full,
  // coerced argument list is left in boundArgs_.
  const RoutineCandidate& resolveCall(const sql::FuncCall& call, bool procedure);
  static NodePtr functionScan(const RoutineCandidate& r, std::vector<ExprPtr>& args);
  // The scan of FROM f(args) and its scope entry: the function's result columns, renamed
  // by an alias list, or for a function returning record the column definition list,
  // which PostgreSQL requires there and allows nowhere else (42601, as
  // addRangeTableEntryForFunction). The routine checks its rows against that list.
  NodePtr functionItem(const sql::RangeFunction& f, ScopeEntry& e);
  NodePtr routineFunctionItem(const sql::RangeFunction& f, ScopeEntry& e);  // without ORDINALITY
  // FROM f(args) of a built-in set-returning function (regexp_matches): its one column is
  // named after the function, or the alias. Null when f is none (built-ins come first, as
  // pg_catalog does in PostgreSQL's search path).
  NodePtr builtinFunctionItem(const sql::RangeFunction& f, ScopeEntry& e);
  NodePtr recordColumns(NodePtr scan, const sql::RangeFunction& f, ScopeEntry& e);
  // FROM pg_options_to_table(options) (options_table.cpp).
  NodePtr optionsTableItem(const sql::RangeFunction& f, ScopeEntry& e);
  // FROM (SELECT ...) AS alias [(columns)]: its plan and scope entry. It sees the queries
  // this one is a subquery of, but not the other FROM items beside it (no LATERAL).
  NodePtr subqueryItem(const sql::RangeSubquery& r, ScopeEntry& e);
  // FROM f(args) [AS alias [(columns)]] as the only FROM item (a shape direct calls know).
  FromPlan planFunctionFrom(const sql::RangeFunction& f, const sql::Expr* where);
  // Joins table `t` (its columns from `offset` on) to the rows on its left through a
  // unique index when every key column is equated with a value known per left row (a
  // join conjunct in `rest`) or per statement (a conjunct in `local`): one probe per left
  // row instead of a scan of the table. Consumed conjuncts are removed; the table's other
  // local conjuncts filter the joined rows. Null when no index fits. `outer`: a LEFT JOIN
  // whose right side this table is, `rest` its ON conjuncts, which must all be key
  // equalities (and `local` empty): a left row without a match goes on with NULLs.
  template <class EntryOf>
  NodePtr indexJoin(FromPlan& fp, const TableBinding& binding, int offset, std::vector<ExprPtr>& local,
                    std::vector<ExprPtr>& rest, const EntryOf& entryOf, size_t t, bool outer = false);
  // The equalities that equalities of plain columns imply between FROM items (a.x = b.y
  // and b.y = c.z: a.x = c.z, PostgreSQL's equivalence classes), added where the later of
  // their items joins, so that the join order may join a and c directly (TPC-H Q5's
  // customer and nation). Items already joined by an equality of a class get no other.
  void addImpliedEqualities(std::vector<std::vector<ExprPtr>>& atStep, const std::function<int(int)>& itemOf);
  // Joins `right` (an item whose columns start at `rightOffset`) to `left` (the items
  // before it) by `type`, on `conditions`: equalities between the two sides become hash
  // keys, the rest a residual predicate; with no equality, a nested loop. An outer join's
  // preserved side drives it - a hash join's probe side, a nested loop's outer side - and
  // the joined row still lists the left items' columns first.
  // `buildRight`: an inner hash join hashes `right` (estimated smaller) instead of `left`.
  NodePtr joinStep(NodePtr left, NodePtr right, int rightOffset, sql::JoinType type, std::vector<ExprPtr>& conditions,
                   bool buildRight = false);
  // A LATERAL item `right` joined to the items before it (`left`): a nested loop running it
  // per left row, its OuterRefs reading `reads` (over the left row).
  NodePtr lateralJoin(NodePtr left, NodePtr right, std::vector<ExprPtr> reads, sql::JoinType type,
                      std::vector<ExprPtr>& conditions);
  // The greedy join order of an inner-join FROM list (join_order.h), from estimated item
  // sizes (left in `itemRows`: their own filters', times `itemShare`, what the semi joins
  // pushed down to them keep) and the join conjuncts in `atStep`.
  JoinOrder chooseJoinOrder(const Scope& scope, const std::vector<const TableBinding*>& bound,
                            const std::vector<std::vector<ExprPtr>>& local,
                            const std::vector<std::vector<ExprPtr>>& atStep, const std::vector<double>& itemShare,
                            std::vector<double>& itemRows);

  // --- semi_join_planner.cpp

  // The sublink of a WHERE conjunct that can be a semi or anti join, and which: EXISTS,
  // NOT EXISTS, IN, NOT IN over a subquery (= ANY counts as IN). Null for any other.
  static const sql::SubLink* semiJoinLink(const sql::Expr& conjunct, plan::SemiJoin& kind);
  // The subquery of `link` as a hash semi or anti join of the rows `scope` binds
  // (`outerWidth` columns): a HashJoin with its build side (children[0]) alone, its keys
  // and predicate over the outer row followed by the build side's; attachSemiJoin adds the
  // outer rows. Null `join` where that is not possible (no equality to hash on, a
  // correlation the subquery's plan cannot lose, NOT IN over a correlated subquery): the
  // caller then binds the conjunct as an expression.
  struct SemiJoinPlan {
    NodePtr join;
    double innerRows = 0;       // the subquery's estimated rows
    double innerKeyShare = -1;  // when its keys are unique in the table it reads: the share of that table it holds
  };
  SemiJoinPlan planSemiJoin(const Scope& scope, int outerWidth, const sql::SubLink& link, plan::SemiJoin kind);

  // --- aggregate_unnesting.cpp

  // Whether a WHERE conjunct compares a value with a scalar subquery that aggregates (the
  // form unnestAggregate may turn into a join).
  static bool aggregateComparison(const sql::Expr& conjunct);
  // Filters outer.node by `conjunct`, x op (SELECT aggregate FROM ... WHERE correlated
  // equalities), as a join with the subquery grouped by its correlated columns; false,
  // with nothing changed, where the subquery does not have that form.
  bool unnestAggregate(FromPlan& outer, const sql::Expr& conjunct);

  // --- with_planner.cpp

  // A WITH list in scope: the statement that has it, how many of its queries a reference
  // may see (all of them, but the earlier ones only inside a non-recursive query's own
  // body), and how many enclosing queries its statement could read (Binder::outerDepth).
  struct WithFrame {
    const sql::WithList* owner;
    size_t visible;
    size_t outerDepth;
    std::vector<int> reads;  // per query: the FROM items of the statement naming it
  };
  // Pops the WITH frames pushed after it was made.
  struct WithGuard {
    std::vector<WithFrame>& frames;
    size_t size;
    ~WithGuard() { frames.resize(size); }
  };
  // Brings the WITH queries of `stmt` (`s`, the same statement) into scope (42712 for a
  // name given twice).
  void pushWith(const sql::Stmt& stmt, const sql::WithList& s);
  // The WITH query an unqualified table name means, innermost first, and its frame; null
  // for none.
  const sql::CommonTableExpr* findWith(const sql::QualifiedName& name, size_t& frame) const;
  // FROM withQuery [AS alias [(columns)]]: its query planned where it is read (inlined, as
  // PostgreSQL does with a WITH query read once), seeing the WITH queries and enclosing
  // queries its definition sees. A WITH RECURSIVE query that reads itself: 0A000 for now.
  NodePtr dataModifyingWith(const sql::CommonTableExpr& cte, const sql::WithList& owner, uint32_t location,
                            std::vector<OutputColumn>& columns);
  // After the statement: every data-modifying WITH query of its own list was read.
  void checkDataModifyingWithRead(const sql::WithList& top);
  NodePtr withItem(size_t frame, const sql::CommonTableExpr& cte, const std::optional<sql::Alias>& alias,
                   uint32_t location, ScopeEntry& e);
  void nameWithColumns(const sql::CommonTableExpr& cte, const std::optional<sql::Alias>& alias,
                       const std::vector<OutputColumn>& columns, ScopeEntry& e);
  NodePtr recursiveUnion(const sql::CommonTableExpr& cte, std::vector<OutputColumn>& columns);
  // The WITH RECURSIVE queries whose recursive term is being planned: what their work
  // table holds and how often the term reads it.
  struct WorkTable {
    const sql::CommonTableExpr* cte;
    int id;
    std::vector<OutputColumn> columns;
    int reads;
  };

  // --- view_planner.cpp

  // FROM view [AS alias [(columns)]]: the view's stored query parsed and planned where it
  // is read, as a subquery in FROM (PostgreSQL's rewriter inlines views the same way). It
  // sees neither the WITH queries nor the enclosing queries of the statement, nor a
  // routine's variables: only the catalog, as at CREATE VIEW. 42P17 for a view that
  // reads itself (through OR REPLACE).
  NodePtr viewItem(const TableBinding& view, const std::optional<sql::Alias>& alias, uint32_t location, ScopeEntry& e);
  // The view's query parsed; it lives as long as the planner.
  const sql::SelectStmt& viewQuery(const TableBinding& view);
  // Runs `work`, which binds the view's query, where that query is bound (as above).
  void insideView(const TableBinding& view, uint32_t location, const std::function<void()>& work);

  // --- set_op_planner.cpp

  // UNION / INTERSECT / EXCEPT [ALL] of s.left and s.right (without s's ORDER BY and
  // LIMIT); `columns` gets the result's names and types.
  NodePtr planSetOp(const sql::SelectStmt& s, std::vector<OutputColumn>& columns);
  // An operand: a set operation of the same tree, or a query of its own.
  NodePtr planSetOperand(const sql::SelectStmt& s, std::vector<OutputColumn>& columns);
  // ORDER BY over a set operation's result: positions and result column names only.
  std::vector<plan::SortKey> setOpOrder(const sql::SelectStmt& s, const std::vector<OutputColumn>& columns);

  // --- select_planner.cpp

  NodePtr planSelect(const sql::SelectStmt& s, std::vector<OutputColumn>& columns);
  // A subquery in an expression or in FROM: planned like a SELECT of its own, its unknown
  // literals made text (unless `resolveUnknowns` is false: a set operation's operand)
  // whatever the statement around it does with its own.
  NodePtr planSubquery(const sql::SelectStmt& s, std::vector<OutputColumn>& columns, bool resolveUnknowns = true);
  // The join columns SELECT * lists just before scope entry `entry`'s own columns.
  static std::vector<int> joinColumnsListedAt(const Scope& scope, int entry);
  // What `*` (qualified: `t.*`) lists of scope entry i, appended to exprs and columns
  // (and, when `spelled` is set, spelled out as references there).
  void starEntryColumns(const Scope& scope, size_t i, bool qualified, binder::AggContext* agg, uint32_t location,
                        std::vector<ExprPtr>& exprs, std::vector<OutputColumn>& columns, std::string* spelled);
  // Column c of entry e, as `*` lists it: by position, for a derived table may repeat a
  // name; over an aggregation, the GROUP BY item it is (42803 if none).
  ExprPtr starColumn(const ScopeEntry& e, size_t c, binder::AggContext* agg, uint32_t location);
  // Expands * and t.* in a target list into (name, expression) pairs.
  void expandTargets(const std::vector<sql::ResTarget>& targets, const Scope& scope, binder::AggContext* agg,
                     std::vector<ExprPtr>& exprs, std::vector<OutputColumn>& columns);
  static bool hasColumn(const Scope& scope, const std::string& name);
  // GROUP BY (group_by_planner.cpp): binds the keys into agg.groupExprs and returns the
  // grouping sets (lists of keys) of GROUPING SETS, ROLLUP and CUBE; empty for a plain
  // GROUP BY.
  std::vector<std::vector<int>> bindGroupBy(const sql::SelectStmt& s, const Scope& scope, binder::AggContext& agg);
  int groupKey(const sql::Expr& item, const sql::SelectStmt& s, const Scope& scope, binder::AggContext& agg);
  std::vector<std::vector<int>> groupingSetsOf(const sql::Expr& item, const sql::SelectStmt& s, const Scope& scope,
                                               binder::AggContext& agg);
  std::vector<plan::SortKey> valuesOrder(const sql::SelectStmt& s, const std::vector<OutputColumn>& columns);
  // "ORDER BY 2" / "GROUP BY -1": an integer literal names an output column by position
  // (1-based); the parser keeps a folded minus in the literal text. Any other bare constant,
  // including integers beyond int4, is an error as in PostgreSQL. Returns the 0-based index.
  size_t positionIndex(const sql::Expr& e, size_t count, const char* clause);
  // 42883 for a sort, DISTINCT or GROUP BY key of a type without the operator it needs
  // (json has neither equality nor ordering).
  void requireKeyOperator(SqlType type, bool ordering, uint32_t location);
  static plan::SortKey sortKey(const sql::SortBy& o, int column);
  // ORDER BY items: output positions, output names, or expressions (added as hidden
  // target columns when not already in the list).
  std::vector<plan::SortKey> bindOrderBy(const sql::SelectStmt& s, const Scope& scope, binder::AggContext* agg,
                                         std::vector<ExprPtr>& targets, const std::vector<OutputColumn>& columns);
  // The target column an ORDER BY or DISTINCT ON item names: a position, an output name, or
  // an expression (added as a hidden target when not already among them).
  int targetColumn(const sql::Expr& e, const char* clause, const sql::SelectStmt& s, const Scope& scope,
                   binder::AggContext* agg, std::vector<ExprPtr>& targets, const std::vector<OutputColumn>& columns);
  // DISTINCT ON's key columns; `order` (ORDER BY's keys) must begin with them (42P10), and
  // becomes them when empty.
  std::vector<int> bindDistinctOn(const sql::SelectStmt& s, const Scope& scope, binder::AggContext* agg,
                                  std::vector<ExprPtr>& targets, const std::vector<OutputColumn>& columns,
                                  std::vector<plan::SortKey>& order);
  // VALUES lists: each column's type is the common type of its entries (or the target
  // column types for INSERT).
  NodePtr planValues(const std::vector<std::vector<sql::ExprPtr>>& rows, const std::vector<SqlType>& targetTypes,
                     std::vector<OutputColumn>& columns);

  // --- window_planner.cpp

  // Window nodes over `node` (the FROM row or the aggregation's output) computing the calls
  // `windows` collected; `targets`' WindowResults become the columns holding their values.
  NodePtr planWindows(NodePtr node, binder::WindowContext& windows, std::vector<ExprPtr>& targets);

  // --- dml_target.cpp

  // The relation an INSERT, UPDATE or DELETE names: a table, or a view that PostgreSQL
  // updates automatically (one table or such view in FROM; no DISTINCT, GROUP BY, HAVING,
  // set operation, WITH, LIMIT/OFFSET, aggregate or window function), seen as its table
  // with the view's columns and WHERE as expressions over the table's row.
  struct DmlTarget {
    const TableBinding* table = nullptr;  // the table written
    std::string name;                     // the relation the statement names, for messages
    bool view = false;
    std::vector<std::string> names;  // its columns as the statement sees them
    std::vector<SqlType> types;
    std::vector<ExprPtr> values;      // a view's: each column's value over the table's row
    std::vector<int> baseColumns;     // per column: the table column it is, or -1
    std::vector<ExprPtr> conditions;  // a view's WHERE (and its views') over the table's row, split at AND
  };
  // 55000 for a view PostgreSQL would not update, with its reason.
  DmlTarget dmlTarget(const sql::QualifiedName& name, sql::StmtKind command);
  // Columns of the target as table columns: 0A000 for a view column computed from them.
  std::vector<int> baseColumns(const DmlTarget& d, const std::vector<int>& columns, const char* verb);
  // What the statement's expressions see: the table's scope entry; for a view, a nameless
  // entry for the table's row (+ rowid) and the view's columns after it, which
  // inlineViewColumns then replaces by their values over the table's row.
  Scope targetScope(const DmlTarget& d, const std::string& alias);
  static void inlineViewColumns(const DmlTarget& d, ExprPtr& e);
  ExprPtr bindOverTarget(const DmlTarget& d, const sql::Expr& e, const Scope& scope);
  // The target's rows matching WHERE and its views' conditions: the table's row (+ rowid).
  // With `currentOf` (WHERE CURRENT OF, in place of WHERE), the row the cursor stands on.
  FromPlan planTarget(const DmlTarget& d, const std::string& alias, const sql::Expr* where,
                      const sql::ColumnRef* currentOf);
  // CURRENT OF's cursor: a PL/pgSQL refcursor variable of that name, whose value names the
  // portal (PostgreSQL's transformCurrentOfExpr), else the name itself (text).
  ExprPtr cursorName(const sql::ColumnRef& cursor);

  // --- dml_planner.cpp

  NodePtr planInsert(const sql::InsertStmt& s, std::vector<OutputColumn>& columns);
  // SET (a, b) = (SELECT x, y ...): per target column, a scalar subquery reading its column
  // of the sub-SELECT (planned once per column, so run once per column and row where
  // PostgreSQL runs it once per row: the same answer unless it calls volatile functions).
  // RETURNING of UPDATE ... FROM or DELETE ... USING, over the joined row `fp` (the target's
  // columns - the new values for UPDATE - then the other items'): the columns of that row
  // after the target's are appended to the DML node's input `row`, whose values after its
  // rowid then line up with fp's scope.
  std::vector<ExprPtr> bindJoinedReturning(const std::vector<sql::ResTarget>& returning, const FromPlan& fp,
                                           size_t tableWidth, std::vector<ExprPtr>& row,
                                           std::vector<OutputColumn>& columns);
  std::vector<ExprPtr> subSelectColumns(const DmlTarget& d, const sql::SubLink& link, const Scope& scope, size_t count);
  // SET's values per table column (null where SET leaves the column), bound over `scope`;
  // `verb` names the change refused for a view's computed column ("update", "insert into").
  std::vector<ExprPtr> bindSetClauses(const DmlTarget& d, const std::vector<sql::SetClause>& clauses,
                                      const Scope& scope, const char* verb);
  NodePtr planUpdate(const sql::UpdateStmt& s, std::vector<OutputColumn>& columns);
  NodePtr planDelete(const sql::DeleteStmt& s, std::vector<OutputColumn>& columns);
  // A column's DEFAULT expression, bound with no row in scope, or NULL.
  ExprPtr defaultFor(const TableBinding& t, size_t column);
  // 428C9 when a value is given for a GENERATED ALWAYS identity column (by INSERT without
  // OVERRIDING SYSTEM VALUE, or by UPDATE), as PostgreSQL refuses it.
  void checkIdentityAssigned(const TableBinding& t, size_t column, bool update);
  // The table's CHECK constraints bound over its row, into an Insert or Update node.
  void bindChecks(const TableBinding& t, Node& node);
  std::vector<ExprPtr> bindReturning(const std::vector<sql::ResTarget>& returning, const DmlTarget& d,
                                     const std::string& alias, std::vector<OutputColumn>& columns,
                                     const std::vector<std::string>& hidden = {});

  // --- on_conflict_planner.cpp

  // INSERT ... ON CONFLICT: the arbiters and DO UPDATE's row of the Insert node `insert`.
  void planOnConflict(const sql::InsertStmt& s, const DmlTarget& d, Node& insert);
  // The unique indexes that decide the clause's conflicts (PostgreSQL's
  // infer_arbiter_indexes): the constraint it names, the unique indexes over exactly its
  // columns, or with neither every unique index (DO NOTHING only).
  std::vector<Index*> arbiterIndexes(const sql::OnConflictClause& c, const DmlTarget& d, const std::string& alias);

  const PlanRequest& req_;
  Binder b_;
  std::vector<ExprPtr> boundArgs_;  // of the last resolveCall
  std::vector<std::unique_ptr<TableBinding>> bindings_;
  bool resolveUnknowns_ = true;  // unknown-typed outputs become text
  // Set while semiJoin plans a subquery's FROM: that planFrom moves the conjuncts that read
  // the outer query (OuterRefs) here instead of placing them.
  std::vector<ExprPtr>* correlated_ = nullptr;
  // While a WHERE subquery is planned as one side of a join (semiJoin, unnestAggregate):
  // its unknown-typed outputs resolved, no select-list set-returning call collected; after
  // it, these and correlated_ as they were.
  class JoinSidePlanning {
   public:
    explicit JoinSidePlanning(StatementPlanner& p)
        : p_(p), lift_(p.correlated_), resolve_(p.resolveUnknowns_), setReturning_(p.b_.collectSetReturning(nullptr)) {
      p.resolveUnknowns_ = true;
    }
    ~JoinSidePlanning() {
      p_.correlated_ = lift_;
      p_.resolveUnknowns_ = resolve_;
      p_.b_.collectSetReturning(setReturning_);
    }
    JoinSidePlanning(const JoinSidePlanning&) = delete;
    JoinSidePlanning& operator=(const JoinSidePlanning&) = delete;

   private:
    StatementPlanner& p_;
    std::vector<ExprPtr>* lift_;
    bool resolve_;
    Binder::SetReturningCall* setReturning_;
  };
  std::vector<WithFrame> with_;                                    // innermost last
  std::vector<const sql::CommonTableExpr*> planningWith_;          // WITH queries being planned
  std::map<const sql::CommonTableExpr*, int> dataModifyingReads_;  // references planned so far
  std::map<const sql::CommonTableExpr*, int> sharedWith_;          // CteScan workTable numbers
  std::vector<WorkTable> workTables_;
  int nextWorkTable_ = 0;
  // The views being expanded (innermost last), and the parsed text of every view read:
  // the plan's nodes were bound from those trees, which live as long as the planner.
  std::vector<uint32_t> expandingViews_;
  std::vector<std::unique_ptr<sql::Stmt>> viewQueries_;
};

}  // namespace duet::planner
