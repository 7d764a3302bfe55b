// The binder: resolves names against the FROM scope, decides types (with PostgreSQL's
// coercion rules and parameter type inference), and turns AST expressions into bound
// plan::Expr trees. Used by the statement planners in this folder.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/binder/plan_request.h"
#include "compiler/binder/type_rules.h"
#include "compiler/plan/plan.h"

namespace duet::binder {

// One FROM item: its columns occupy [offset, offset + names.size()) of the input row.
struct ScopeEntry {
  std::string alias;
  const TableBinding* table = nullptr;  // null for derived tables
  std::vector<std::string> names;
  std::vector<SqlType> types;
  // Per column: the USING/NATURAL join column that an unqualified reference (and SELECT *)
  // sees instead of this one, or -1.
  std::vector<int> joinColumn;
  int offset = 0;
};

// A column of a USING or NATURAL join: the equal columns of both sides merged into one,
// as PostgreSQL exposes it (inner joins: the left one, cast to the common type).
struct JoinColumn {
  std::string name;
  std::shared_ptr<const plan::Expr> value;  // over the FROM row
  int firstEntry = 0;                       // the join's first scope entry: SELECT * lists it just before it
  int join = 0;                             // which join (numbered inner joins first): outer ones list first
  int mergedInto = -1;                      // a later join's column that stands for this one, or -1
};

struct Scope {
  std::vector<ScopeEntry> entries;
  std::vector<JoinColumn> joinColumns;
  int width = 0;  // columns in the input row (including hidden rowids)
  // Tables of the same FROM that no reference here reaches: inside a join alias, or
  // outside the parenthesised join being planned (PostgreSQL's "invalid reference").
  std::vector<std::string> hidden;
};

// What an unqualified column name means among scope entries [first, end): a base column
// (entry, column) or a join column (join). `matches` counts distinct meanings: 0 unknown,
// more than 1 ambiguous.
struct ColumnMatch {
  int entry = -1, column = -1, join = -1;
  int matches = 0;
};
ColumnMatch findUnqualified(const Scope& scope, const std::string& name, size_t first, size_t end);
// The bound expression of a match (matches >= 1).
plan::ExprPtr matchValue(const Scope& scope, const ColumnMatch& m);

// Aggregation context: when set, expressions are bound over the aggregate's output.
struct AggContext {
  std::vector<plan::ExprPtr> groupExprs;  // bound over the FROM row
  std::vector<plan::AggSpec> aggs;
};

// The window function calls of a select list and its ORDER BY (Binder::collectWindows):
// the distinct windows they use, PARTITION BY and ORDER BY bound over the rows the windows
// see (the FROM row, or the aggregation's output), and each call; WindowResult k is
// calls[k].
struct WindowContext {
  const std::vector<sql::WindowDef>* named = nullptr;  // the SELECT's WINDOW clause
  struct Window {
    std::vector<plan::ExprPtr> partition;
    std::vector<plan::ExprPtr> order;
    std::vector<plan::SortKey> orderKeys;  // per order expression: direction and NULLs (column unused)
  };
  std::vector<Window> windows;
  struct Call {
    size_t window;
    plan::WindowCall call;
  };
  std::vector<Call> calls;
};

class Binder {
 public:
  explicit Binder(const PlanRequest& request);

  [[noreturn]] void fail(const char* code, std::string message, uint32_t location) const;
  [[noreturn]] void fail(const char* code, std::string message, uint32_t location, std::string detail,
                         std::string hint) const;
  // 42883 "operator does not exist: left op right", with PostgreSQL's hint.
  [[noreturn]] void failNoOperator(const std::string& left, const std::string& op, const std::string& right,
                                   uint32_t location) const;

  plan::ExprPtr bind(const sql::Expr& e, const Scope& scope, AggContext* agg = nullptr);
  // (x).* in a select list: each field of the composite value x, with its name.
  std::vector<std::pair<std::string, plan::ExprPtr>> expandFields(const sql::FieldSelect& f, const Scope& scope,
                                                                  AggContext* agg);
  // Runs `planInner`, which plans a subquery of the query whose names are `scope`, as a
  // subquery in an expression is planned: the subquery's references to `scope` become
  // OuterRefs. Returns what they read, OuterRef i the i-th (a Subquery's captures).
  std::vector<plan::ExprPtr> correlated(const Scope& scope, const std::function<void()>& planInner);
  // How many enclosing queries a subquery being planned now can read; withOuterDepth runs
  // `planInner` seeing only the first `depth` of them (a WITH query referenced inside a
  // subquery sees what its WITH clause saw).
  size_t outerDepth() const { return outer_.size(); }
  void withOuterDepth(size_t depth, const std::function<void()>& planInner);
  // Runs `planInner` with no PL/pgSQL variable in scope (a view's query, planned inside a
  // routine's statement, means the columns it meant at CREATE VIEW).
  void withoutVariables(const std::function<void()>& planInner);

  // Names the clause expressions are bound for while it lives, as PostgreSQL's
  // ParseExprKind does in "aggregate functions are not allowed in %s" (an aggregate bound
  // with no AggContext): "WHERE" unless set, "JOIN conditions", "GROUP BY", "VALUES", ...
  class Clause {
   public:
    Clause(Binder& b, const char* name) : b_(b), saved_(b.clause_) { b.clause_ = name; }
    ~Clause() { b_.clause_ = saved_; }
    Clause(const Clause&) = delete;
    Clause& operator=(const Clause&) = delete;

   private:
    Binder& b_;
    const char* saved_;
  };
  // A number literal converted to float4/float8, read as float directly (else nullptr, e kept).
  plan::ExprPtr numberLiteralAsFloat(plan::ExprPtr& e, SqlType target);
  // Marks the lifted literals in `e`, an operand about to be cloned into several comparisons
  // (x IN (...), x BETWEEN a AND b): one comparison must not give the literal's parameter a
  // type of its own (numberLiteralAsFloat), which the other clones would not share.
  void shareParams(const plan::Expr& e);
  // Converts to `target` (deciding unknown parameter types), or raises 42804 naming `what`.
  plan::ExprPtr coerce(plan::ExprPtr e, SqlType target, CastContext context, uint32_t location);
  plan::ExprPtr coerceToComposite(plan::ExprPtr e, SqlType target, CastContext context, uint32_t location);
  // 42846 (explicit) or 42804: `e` cannot become `target` in this context.
  [[noreturn]] void failCoercion(const plan::Expr& e, SqlType target, CastContext context, uint32_t location) const;
  plan::ExprPtr coerceToBool(plan::ExprPtr e, const char* what, uint32_t location);
  // Both operands to their common type, for comparisons and arithmetic.
  void unify(plan::ExprPtr& a, plan::ExprPtr& b, const std::string& op, uint32_t location);
  // a op b (a comparison operator) in their common type.
  plan::ExprPtr compare(plan::Op op, plan::ExprPtr a, plan::ExprPtr b, uint32_t location);
  SqlType resolveType(const sql::TypeName& t) const;

  // Column name PostgreSQL gives an unnamed target ("?column?", function name, ...).
  static std::string targetName(const sql::Expr& e);
  static bool containsAggregate(const sql::Expr& e);
  // A row constructor's fields, bound; any other expression as the one field.
  std::vector<plan::ExprPtr> bindRowFields(const sql::Expr& e, const Scope& scope, AggContext* agg = nullptr);
  // A call of a built-in aggregate (builtin_aggregates.h) or of grouping().
  static bool isAggregateCall(const sql::FuncCall& f);

  // Planning a subquery is the statement planner's work (FROM, GROUP BY, ORDER BY...): it
  // hands the binder this to call for each subquery in an expression. The subquery's
  // columns are returned in `columns`.
  using SubqueryPlanner = std::function<plan::NodePtr(const sql::SelectStmt&, std::vector<OutputColumn>& columns)>;
  void setSubqueryPlanner(SubqueryPlanner p) { planSubquery_ = std::move(p); }

  // Set-returning functions in a select list (PostgreSQL's ProjectSet): while the planner
  // binds a select list it sets `calls`; each call of a function returning a set of
  // scalars there is kept in `calls` and bound as column `firstColumn` + its place among
  // them of the row the planner's ProjectSet node makes (the FROM row, then their values).
  struct SetReturningCall {
    int firstColumn = 0;
    std::vector<plan::ExprPtr> calls;  // RoutineCalls and Calls over the FROM row
  };
  SetReturningCall* collectSetReturning(SetReturningCall* calls) { return std::exchange(setReturning_, calls); }

  // While set, window function calls are bound into `windows` (a select list and its
  // ORDER BY); elsewhere they raise 42P20 naming the clause.
  WindowContext* collectWindows(WindowContext* windows) { return std::exchange(windows_, windows); }
  class CollectWindows {
   public:
    CollectWindows(Binder& b, WindowContext* windows) : b_(b), saved_(b.collectWindows(windows)) {}
    ~CollectWindows() { b_.collectWindows(saved_); }
    CollectWindows(const CollectWindows&) = delete;
    CollectWindows& operator=(const CollectWindows&) = delete;

   private:
    Binder& b_;
    WindowContext* saved_;
  };

  std::vector<SqlType>& paramTypes() { return paramTypes_; }
  // Per parameter: its equality class for exprEquals (itself, or the first lifted string
  // literal of the same text).
  const std::vector<int>& paramClasses() const { return paramClass_; }
  const PlanRequest& request() const { return request_; }

 private:
  plan::ExprPtr bindColumn(const sql::ColumnRef& ref, const Scope& scope);
  plan::ExprPtr bindFunction(const sql::FuncCall& f, const Scope& scope, AggContext* agg);
  // aggregate_binder.cpp
  plan::ExprPtr bindAggregate(const sql::FuncCall& f, const Scope& scope, AggContext* agg);
  // An aggregate call, its argument bound over the rows `argContext` gives (null: the FROM row).
  plan::AggSpec aggregateSpec(const sql::FuncCall& f, const Scope& scope, AggContext* argContext);
  // An aggregate call's argument (or ORDER BY key): over the FROM row, where a further
  // aggregate is an error; a window aggregate's (argContext set) over the rows the window
  // sees, where the query's aggregates may appear.
  plan::ExprPtr bindAggregateInput(const sql::Expr& e, const Scope& scope, AggContext* argContext);
  plan::ExprPtr bindGrouping(const sql::FuncCall& f, const Scope& scope, AggContext* agg);
  // window_binding.cpp
  plan::ExprPtr bindWindowCall(const sql::FuncCall& f, const Scope& scope, AggContext* agg);
  const sql::WindowDef& namedWindow(const std::string& name, uint32_t location) const;
  size_t bindWindow(const sql::WindowDef& over, const Scope& scope, AggContext* agg, plan::WindowFrame& frame);
  plan::ExprPtr frameOffset(const sql::FrameBound& bound, plan::WindowFrame::Mode mode, SqlType keyType,
                            const Scope& scope, AggContext* agg);
  // ARRAY[...]; castTo, when it is the target of a cast, gives the element type.
  plan::ExprPtr bindArray(const sql::ArrayExpr& a, const Scope& scope, AggContext* agg, const SqlType* castTo);
  plan::ExprPtr bindSubscript(const sql::Subscript& s, const Scope& scope, AggContext* agg);
  // record_binding.cpp
  plan::ExprPtr bindRow(const sql::RowExpr& r, const Scope& scope, AggContext* agg);
  plan::ExprPtr bindFieldSelect(const sql::FieldSelect& f, const Scope& scope, AggContext* agg);
  plan::ExprPtr bindBinary(const std::string& op, plan::ExprPtr a, plan::ExprPtr b, uint32_t location);
  // bitwise_binding.cpp: & | # << >> on integers (null for other operators), prefix ~.
  plan::ExprPtr bindBitwise(const std::string& op, plan::ExprPtr& a, plan::ExprPtr& b, uint32_t location);
  plan::ExprPtr bindBitNot(plan::ExprPtr a, uint32_t location);
  plan::ExprPtr bindDatetimeArithmetic(plan::Op o, const std::string& op, plan::ExprPtr& a, plan::ExprPtr& b,
                                       uint32_t location);
  plan::ExprPtr inList(plan::ExprPtr arg, plan::ExprPtr equalities);
  plan::ExprPtr equalityRunsAsInLists(plan::ExprPtr any);
  plan::ExprPtr call(const std::string& fn, SqlType type, std::vector<plan::ExprPtr> args);
  // A PL/pgSQL variable the reference names (a parameter), or null; 42702 when a column
  // of the scope has the name too (plpgsql.variable_conflict = error).
  plan::ExprPtr routineCall(const RoutineCandidate& r, std::vector<plan::ExprPtr> args, uint32_t location);
  // A set-returning call of the select list kept in setReturning_, as the column that
  // stands for its value.
  plan::ExprPtr collectSetCall(plan::ExprPtr call, uint32_t location);
  // a || b where either is an array (binary()'s "||").
  plan::ExprPtr concatArrays(plan::ExprPtr a, plan::ExprPtr b, uint32_t location);
  plan::ExprPtr bindVariable(const sql::ColumnRef& ref, const Scope& scope);
  plan::ExprPtr bindLocalColumn(const sql::ColumnRef& ref, const Scope& scope);
  // `rowComparison`: the scalar subquery `s` is the right side of this row comparison.
  plan::ExprPtr bindSubLink(const sql::SubLink& s, const Scope& scope, AggContext* agg,
                            const sql::BinaryOp* rowComparison = nullptr);
  // Makes `e` compare `left` (one value, or a row's) with the subquery's `columns` by `op`
  // (kind Any, All or RowCompare), casting the subquery's columns in a projection over `sub`.
  void compareWithSubquery(plan::Expr& e, plan::Sublink kind, const std::string& op, std::vector<plan::ExprPtr> left,
                           const std::vector<OutputColumn>& columns, plan::NodePtr& sub, uint32_t location);
  // a IS NOT DISTINCT FROM b.
  plan::ExprPtr notDistinct(plan::ExprPtr a, plan::ExprPtr b, uint32_t location);
  // An expression that reads `value` more than once, `value` evaluated once (a plan Let
  // around it): `body` builds the expression, placing a read() wherever it uses the value.
  using LetReader = std::function<plan::ExprPtr()>;
  plan::ExprPtr evaluatedOnce(plan::ExprPtr value, const std::function<plan::ExprPtr(const LetReader& read)>& body);
  // row_binding.cpp: row constructors compared, tested for NULL, in IN lists.
  plan::ExprPtr bindRowOperator(const sql::BinaryOp& op, const Scope& scope, AggContext* agg);
  plan::ExprPtr rowComparison(const std::string& op, std::vector<plan::ExprPtr> left, std::vector<plan::ExprPtr> right,
                              uint32_t location);
  // 42883 for an operator between a row (on the left when rowLeft) and a single value.
  [[noreturn]] void failRecordOperator(const std::string& op, bool rowLeft, SqlType other, uint32_t location);
  [[noreturn]] void failRowOperator(const std::string& op, plan::ExprPtr left, plan::ExprPtr right, uint32_t location);
  plan::ExprPtr bindRowDistinct(const sql::DistinctFrom& d, const Scope& scope, AggContext* agg);
  plan::ExprPtr bindRowNullTest(const sql::NullTest& t, const Scope& scope, AggContext* agg);
  // `record IS [NOT] NULL` of a composite value: the row-wise test (row_binding.cpp).
  plan::ExprPtr recordNullTest(plan::ExprPtr record, bool isNot);
  plan::ExprPtr bindRowInList(const sql::InList& in, const Scope& scope, AggContext* agg);
  // array_op_binding.cpp: x op ANY|ALL (array)
  plan::ExprPtr bindArrayOp(const sql::ArrayOp& q, const Scope& scope, AggContext* agg);
  std::vector<plan::ExprPtr> correlatedIn(const Scope& scope, AggContext* agg, const std::function<void()>& planInner);
  // A reference that no column of the innermost query matches, resolved in the query that
  // encloses subquery `level` (outer_[level]) or further out; null if no query has it.
  plan::ExprPtr outerColumn(const sql::ColumnRef& ref, size_t level);

  // A subquery being bound: the scope (and aggregation) of the query it appears in, and
  // the values of that query it reads, in the order its OuterRefs number them.
  struct OuterLevel {
    const Scope* scope;
    AggContext* agg;
    std::vector<plan::ExprPtr> captures;
  };
  std::vector<OuterLevel*> outer_;  // innermost last
  SubqueryPlanner planSubquery_;
  SetReturningCall* setReturning_ = nullptr;
  bool bindingSetScan_ = false;         // builtinSetCall: FROM f(args)
  bool bindingAggregateInput_ = false;  // an aggregate call's arguments and ORDER BY
  WindowContext* windows_ = nullptr;
  bool bindingWindowCall_ = false;  // a window call's arguments and window: no window calls in them

 public:
  // Resolves a call among the catalog's routines (PostgreSQL's func_select_candidate,
  // reduced: exact argument types win over implicit casts; trailing defaults fill missing
  // arguments). Returns the routine and sets `args` to the full, coerced argument list;
  // null when no routine has the name. `procedure` is a CALL.
  // 42883 "function f(integer) does not exist" (or "procedure"), with PostgreSQL's hint.
  [[noreturn]] void failUndefinedRoutine(const std::string& name, const std::vector<plan::ExprPtr>& args,
                                         bool procedure, uint32_t location,
                                         const std::vector<std::string>& argNames = {}) const;
  [[noreturn]] void failAmbiguousRoutine(const std::string& name, const std::vector<plan::ExprPtr>& args,
                                         bool procedure, uint32_t location) const;
  // A call of the built-in function `name` (compiler/functions/builtin_functions.h) on
  // `args`, chosen among the rows of that name as routines are (CandidateScore); null when
  // no row takes these arguments. Coerces the arguments to the row's types.
  // `argNames`: the call's `name => value` names (FuncCall::argNames), for rows with named
  // parameters. `variadicArray`: the call says VARIADIC, its last argument is the array of
  // a VARIADIC "any" row's arguments (42804 when it is not an array).
  plan::ExprPtr builtinCall(const std::string& name, std::vector<plan::ExprPtr>& args, uint32_t location,
                            const std::vector<std::string>& argNames = {}, bool variadicArray = false);
  // builtinCall for FROM f(args), where a set-returning row may be chosen.
  static bool isBuiltinSetFunction(const std::string& name);
  plan::ExprPtr builtinSetCall(const std::string& name, std::vector<plan::ExprPtr>& args, uint32_t location);
  // unnest(a, b, ...) in FROM (two arrays or more): a call of duet_q_unnest_zip returning a
  // record per row, its fields named "unnest" of the arrays' element types; null when an
  // argument is not an array.
  plan::ExprPtr unnestZip(std::vector<plan::ExprPtr>& args, uint32_t location);
  // A value as its type's output function writes it (a "any" argument of concat, format).
  plan::ExprPtr outputText(plan::ExprPtr e, uint32_t location);
  // to_json(e) (jsonb: to_jsonb(e)): e's value as JSON, NULL for NULL (json_binding.cpp).
  plan::ExprPtr toJson(plan::ExprPtr e, bool jsonb, uint32_t location);
  // The json and jsonb operators (->, ->>, #>, #>>, @>, <@, ?, ?|, ?&, and || and - with a
  // jsonb operand) as calls of their functions, chosen as PostgreSQL chooses operators;
  // null when `op` is none of them.
  plan::ExprPtr bindJsonOperator(const std::string& op, plan::ExprPtr& a, plan::ExprPtr& b, uint32_t location);
  // A pattern match (operator `op` for messages): runtime function `function` on the string
  // args[0] (char(n) kept padded) and the others as text; 42883 for a non-string args[0].
  plan::ExprPtr patternMatch(const char* function, const char* op, std::vector<plan::ExprPtr>& args, uint32_t location);
  const RoutineCandidate* resolveRoutine(const sql::FuncCall& f, std::vector<plan::ExprPtr>& args, bool procedure);
  // A routine parameter's DEFAULT (its SQL text), bound with nothing in scope.
  plan::ExprPtr bindDefault(const std::string& text);

 private:
  std::vector<RoutineCandidate> routineCandidates_;  // of the last resolveRoutine
  int lets_ = 0;                  // evaluatedOnce's Lets so far, which number the references of each while it is built
  bool bindingDefault_ = false;   // a routine argument's DEFAULT or a view's query: no variables in scope
  const char* clause_ = "WHERE";  // see Clause
  const PlanRequest& request_;
  std::vector<SqlType> paramTypes_;
  std::vector<int> paramClass_;
  std::vector<int> sharedParams_;  // see shareParams
};

// A call's argument types as error messages list them: "integer, unknown", with the names
// of arguments given in named notation ("days => integer").
std::string argTypeList(const std::vector<plan::ExprPtr>& args, const std::vector<std::string>& names = {});
// The comparison operator `op` names (=, <>, <, <=, >, >=), or Op::None.
plan::Op comparisonOp(const std::string& op);
// Whether `name` is a built-in window function (window_binding.cpp).
bool isWindowFunctionName(const std::string& name);

// Structural equality; with paramClass, parameters of one class (lifted string literals of
// equal text) count as equal too.
bool exprEquals(const plan::Expr& a, const plan::Expr& b, const std::vector<int>* paramClass = nullptr);
// Shifts every column reference by delta (moving an expression onto a narrower row).
void shiftColumns(plan::Expr& e, int delta);
// The smallest and largest column an expression reads, or {-1, -1} for none.
std::pair<int, int> columnRange(const plan::Expr& e);

}  // namespace duet::binder
