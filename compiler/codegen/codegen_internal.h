// Shared by the expression and plan code generators (compiler/codegen only).
#pragma once
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/codegen/sql_value.h"
#include "compiler/codegen/statement_generator.h"
#include "compiler/plan/used_columns.h"

namespace duet::codegen {

// The types of a list of expressions: the layout of the tuple they are stored in.
inline std::vector<SqlType> typesOf(const std::vector<plan::ExprPtr>& exprs) {
  std::vector<SqlType> t;
  for (const auto& e : exprs) t.push_back(e->type);
  return t;
}

// Expressions and plans to IR, over the SQL values of ValueBuilder.
class Codegen : public ValueBuilder {
 public:
  Codegen(llvm::LLVMContext& ctx, llvm::Module& module, CompiledQuery& out) : ValueBuilder(ctx, module, out) {}
  // The generator's files (and compileQuery) share its state freely; PL/pgSQL sees only
  // ValueBuilder and StatementGenerator.
  using ValueBuilder::b_;
  using ValueBuilder::compareValues;
  using ValueBuilder::ctx_;
  using ValueBuilder::entry_;
  using ValueBuilder::fn_;
  using ValueBuilder::i64Ty_;
  using ValueBuilder::module_;
  using ValueBuilder::out_;
  using ValueBuilder::ptrTy_;
  using ValueBuilder::qctx_;

  // --- expressions (expr_codegen.cpp) ---------------------------------------------------
  // The value of `e` over `row`, of the binder's type e.type.
  SqlValue expr(const plan::Expr& e, const Row& row);
  SqlValue exprValue(const plan::Expr& e, const Row& row);
  // Statement-invariant expressions, computed on first use per execution
  // (invariant_codegen.cpp): whether `e` is one worth keeping, and its kept value.
  bool computedOncePerExecution(const plan::Expr& e) const;
  // `finish` (if any) brings the value to the form its use wants, once too.
  SqlValue invariantValue(const plan::Expr& e, const Row& row, const std::function<SqlValue(SqlValue)>& finish = {});
  SqlValue scaledOperand(const plan::Expr& side, const plan::Expr& other, const Row& row);
  SqlValue constant(const plan::Expr& e);
  SqlValue inList(const plan::Expr& e, const Row& row);
  SqlValue greatest(const plan::Expr& e, const Row& row);
  SqlValue andOr(const plan::Expr& e, const Row& row);
  SqlValue caseOrCoalesce(const plan::Expr& e, const Row& row);
  SqlValue routineCall(const plan::Expr& e, const Row& row);
  SqlValue arrayBuild(const plan::Expr& e, const Row& row);
  SqlValue recordBuild(const plan::Expr& e, const Row& row);
  SqlValue fieldSelect(const plan::Expr& e, const Row& row);
  SqlValue functionCall(const plan::Expr& e, const Row& row);
  // An array element check or fixed-width read generated inline; null for other calls.
  llvm::Value* inlineArrayCall(const std::string& function, TypeId resultType, const std::vector<SqlValue>& args);

  // --- quantified arrays and lists as sets (lookup_codegen.cpp) -------------------------
  SqlValue arrayCompare(const plan::Expr& e, const Row& row);
  // Element `index` (i64, below `count`, the array's i32 element count) of `array`.
  SqlValue arrayElement(llvm::Value* array, llvm::Value* count, llvm::Value* index, SqlType element);
  // x IN (items) as a ValueSet probe when the items are many constants or parameters;
  // nothing (and no code) otherwise. caseAsLookup likewise for CASE x WHEN c THEN r ...
  std::optional<SqlValue> inListAsSet(const plan::Expr& e, const Row& row);
  std::optional<SqlValue> caseAsLookup(const plan::Expr& e, const Row& row);
  // A list of expressions that is data for a whole execution: parameters (and NULLs),
  // read through tables of their offsets in the parameter tuple; or constants, as one
  // constant array (an array of `from`, when each item is the same cast of a constant of
  // type `from`, which dataListArray casts at run time).
  struct DataList {
    uint64_t size = 0;
    SqlType type;                         // the items' type
    llvm::Value* valueOffsets = nullptr;  // parameters: uint32 offset tables
    llvm::Value* nullOffsets = nullptr;   // (kNullCell: a NULL item)
    llvm::Value* constants = nullptr;     // constants: the array
    SqlType constantsType;
    const plan::Expr* cast = nullptr;  // the cast of each constant, if any
  };
  std::optional<DataList> dataList(const std::vector<const plan::Expr*>& items);
  llvm::Value* dataListArray(const DataList& list);  // constants only
  // Item `index` (i64) of the list, read as `type`; `array` is dataListArray's value.
  SqlValue dataListItem(const DataList& list, llvm::Value* array, llvm::Value* index, SqlType type);
  // Refills the set `previous` (null: a new one) with the list's items, of type `type`.
  llvm::Value* fillValueSet(const DataList& list, llvm::Value* previous, TypeId type);
  // A ValueSet (or another runtime set: ChangedRows) for the current place in the code,
  // filled by `fill` (given the set it filled last time, or null) once per execution of the
  // statement; returns it.
  llvm::Value* valueSetOnce(const std::function<llvm::Value*(llvm::Value* previous)>& fill);
  // x IN the set: true, false, or NULL as ValueSet::probe says.
  SqlValue probeValueSet(llvm::Value* set, const SqlValue& x);
  // Constant expressions of type `element` as one array value owned by the compiled query.
  llvm::Value* constantArray(TypeId element, const std::vector<const plan::Expr*>& items);
  // A constant table of uint32 offsets (into the parameter tuple) in the module.
  llvm::Value* offsetTable(const std::vector<uint32_t>& offsets, const char* name);

  // --- key hashes (key_hash_codegen.cpp) ------------------------------------------------
  // hashTuple of the key tuple at `tuple`, for the group and join tables.
  llvm::Value* keyHash(llvm::Value* tuple, const TupleLayout& layout);

  // --- subqueries (subquery_codegen.cpp) ------------------------------------------------
  SqlValue subquery(const plan::Expr& e, const Row& row);
  // Emits flag = false where each execution of the current statement begins.
  void resetPerStatement(llvm::AllocaInst* flag);

  // --- aggregation (aggregate_codegen.cpp) ----------------------------------------------
  struct AggregateCode;
  void produceAggregate(const plan::Node& node, const Consumer& consume);
  void produceParallelAggregate(const plan::Node& node, const Consumer& consume);
  // `groups`: a group table to aggregate into (a parallel run's first partial) instead of
  // a new one.
  AggregateCode beginAggregate(const plan::Node& node, bool table, llvm::Value* groups = nullptr);
  void accumulateRow(AggregateCode& a, llvm::Value* state, Row& row);
  // One aggregate call's state, shared by GROUP BY and window aggregates: a zeroed block of
  // aggregateStateSize bytes holds the states of a list of calls; k is a call's place in it.
  uint32_t aggregateStateSize(std::span<const plan::AggSpec> aggs);
  void accumulateAggregate(const plan::AggSpec& agg, size_t k, llvm::Value* state, const Row& row);
  SqlValue aggregateResult(const plan::AggSpec& agg, size_t k, llvm::Value* state);
  void foldAggregate(const plan::AggSpec& agg, size_t k, llvm::Value* state, llvm::Value* value, bool widen);
  void mergeAggregates(const plan::Node& node, llvm::Value* into, llvm::Value* from);
  void emitAggregates(AggregateCode& a, const Consumer& consume);
  llvm::Value* aggSlot(llvm::Value* state, size_t k, size_t offset);
  // A call's argument values (its first argument, then extraArgs) over `row`, and whether
  // they make the call skip the row (a NULL the aggregate does not take).
  std::vector<SqlValue> aggregateArgs(const plan::AggSpec& agg, const Row& row);
  llvm::Value* skipsRow(const plan::AggSpec& agg, const std::vector<SqlValue>& args);
  // Folds a row whose arguments are `args` (not skipped) into call k's state.
  void foldRow(const plan::AggSpec& agg, size_t k, llvm::Value* state, const std::vector<SqlValue>& args,
               const Row& row);
  // A call that keeps its rows in a buffer (Collected, or with ORDER BY): the buffer's row
  // layout - ORDER BY keys, then the arguments - and sort keys; for a call that is not
  // Collected, the call replayed over the sorted rows (its arguments read from them).
  struct CollectedRows {
    const TupleLayout* layout;
    const rt::SortSpec* keys;
    uint32_t keyCount;
    std::unique_ptr<plan::AggSpec> replay;
  };
  const CollectedRows& collectedRows(const plan::AggSpec& agg);
  SqlValue collectedResult(const plan::AggSpec& agg, size_t k, llvm::Value* state);
  // grouping(): its value for the rows of grouping set `set` (i32) of `node`.
  SqlValue groupingValue(const plan::Node& node, const plan::AggSpec& agg, llvm::Value* set);

  // --- parallel pipelines (parallel_codegen.cpp) ----------------------------------------
  // Emits a parallel run of the pipeline `input` (its driving scan marked for morsels) on
  // `threads` threads and returns the run (ParallelRun*), whose partials the caller merges.
  // In each worker, `begin` makes the worker's partial result, `consume` adds a row to it,
  // and `end` (if set) finishes it. The hash joins `input` probes are built first.
  llvm::Value* runParallel(const plan::Node& input, uint32_t threads, const std::function<llvm::Value*()>& begin,
                           const std::function<void(llvm::Value* part, Row& row)>& consume,
                           const std::function<void(llvm::Value* part)>& end = nullptr);
  // The statement's output pipeline `root` (marked gatherThreads) run by workers that
  // stream its rows in batches to this thread, which passes them to `consume`.
  void produceGathered(const plan::Node& root, const Consumer& consume);
  // A worker function of a parallel run: `body` emits its code with qctx_ the worker's
  // context; the generator's per-function state is set aside meanwhile.
  llvm::Function* workerFunction(const std::function<void()>& body);
  // Builds the tables of the hash joins along the pipeline `n` (down its probe sides) in the
  // leader and shares them for the workers of the run that follows (joinSlots_).
  void shareJoinTables(const plan::Node& n);

  // --- plans (plan_codegen.cpp) ---------------------------------------------------------
  // Generates `node`'s rows, calling `consume` for each: dispatches to the produce* below
  // (with EXPLAIN ANALYZE's counters around a node that instrument_ numbers).
  void produce(const plan::Node& node, const Consumer& consume);
  void dispatch(const plan::Node& node, const Consumer& consume);
  void produceCounted(const plan::Node& node, uint32_t number, const Consumer& consume);
  // produce() as a pipeline of its own: a LIMIT inside ends it, and code after the call
  // continues where it ends.
  void producePipeline(const plan::Node& node, const Consumer& consume);
  // Calls `consume` with each tuple of a runtime TupleBuffer of `layout`.
  void iterateBuffer(llvm::Value* buffer, const TupleLayout* layout, const Consumer& consume);
  // Calls `each` with a pointer to each tuple of a runtime TupleBuffer.
  void iterateTuples(llvm::Value* buffer, const std::function<void(llvm::Value* tuple)>& each);
  // How a node's rows are stored where they are kept for later (a hash join's build side, a
  // sort, a buffer): only the columns that are read later (plan::UsedColumns), then `extra`
  // fields of the storing operator's own (a join's matched flag).
  struct StoredRow {
    const TupleLayout* layout;
    std::vector<SqlType> types;  // the whole row's
    std::vector<size_t> kept;    // the columns of it the layout holds, in order
  };
  StoredRow storedRow(const std::vector<SqlType>& types, const std::vector<bool>& keep,
                      const std::vector<SqlType>& extra = {});
  // `node`'s rows stored with the columns that its parent reads.
  StoredRow storedRowsOf(const plan::Node& node);
  // Stores the kept columns of `row`, then `extra`, into `tuple`.
  void storeKept(llvm::Value* tuple, const StoredRow& shape, const Row& row, const Row& extra = {});
  // The whole row back from `tuple`, NULL in the columns not kept; and extra field `i`.
  Row loadKept(llvm::Value* tuple, const StoredRow& shape);
  SqlValue loadExtra(llvm::Value* tuple, const StoredRow& shape, size_t i);
  void storeExtra(llvm::Value* tuple, const StoredRow& shape, size_t i, const SqlValue& v);
  // A new runtime TupleBuffer holding all rows of `node` as `shape`, produced as a
  // pipeline of its own (Materialize, a nested loop join's inner side).
  llvm::Value* bufferRows(const plan::Node& node, const StoredRow& shape);
  void produceFilter(const plan::Node& node, const Consumer& consume);
  void produceProject(const plan::Node& node, const Consumer& consume);

  // --- scans (scan_codegen.cpp) ---------------------------------------------------------
  void produceTableScan(const plan::Node& node, const Consumer& consume);
  void produceIndexLookup(const plan::Node& node, const Consumer& consume);
  void produceCurrentOf(const plan::Node& node, const Consumer& consume);
  // An index access's keys, evaluated: `probe` runs once, or, with a key set (Node::keySet),
  // once per distinct element of its array other than NULL, in sorted order.
  void forEachIndexKey(const plan::Node& node, const std::function<void(const Row& keys)>& probe);
  void produceIndexRange(const plan::Node& node, const Consumer& consume);
  // The rows of node's ordered index range: `keys` pin its leading columns, low and high
  // bound the next one (node's inclusive flags), in key order (or reverse: node.descending).
  void walkIndexRange(const plan::Node& node, const Row& keys, const std::optional<SqlValue>& low,
                      const std::optional<SqlValue>& high, const Consumer& consume);
  // The live row `rowid` of `table` (known to exist), without its rowid.
  Row readRow(const Table& table, llvm::Value* rowid);

  // --- joins (join_codegen.cpp) ---------------------------------------------------------
  void produceIndexJoin(const plan::Node& node, const Consumer& consume);
  void produceIndexRangeJoin(const plan::Node& node, const Consumer& consume);
  void produceNestedLoopJoin(const plan::Node& node, const Consumer& consume);
  void produceLateralJoin(const plan::Node& node, const Consumer& consume);
  void produceHashJoin(const plan::Node& node, const Consumer& consume);
  void produceAppend(const plan::Node& node, const Consumer& consume);
  void produceRepeat(const plan::Node& node, const Consumer& consume);
  void produceRecursiveUnion(const plan::Node& node, const Consumer& consume);
  void produceWorkTableScan(const plan::Node& node, const Consumer& consume);
  void produceCteScan(const plan::Node& node, const Consumer& consume);
  // Walks the build rows of join table `table` whose key equals the tuple at `probeKey`
  // (`cursor`: the walk's position): `onHit(row, next, done)` runs per such row and must
  // end its block by branching to `next` (the next one) or `done` (stop); the insertion
  // point is after the walk then.
  // `filter`: the table's key filter (joinFilter), tested first when it has one.
  struct JoinFilter {
    llvm::Value* words;  // null (none tested) by default; null at run time: the table has none
    llvm::Value* mask;
  };
  JoinFilter joinFilter(llvm::Value* table);
  void forEachMatch(llvm::Value* table, llvm::Value* probeKey, const TupleLayout& keyLayout, llvm::Value* cursor,
                    const std::function<void(llvm::Value* row, llvm::BasicBlock* next, llvm::BasicBlock* done)>& onHit,
                    const JoinFilter& filter = {});
  void produceOuterBuiltSemiJoin(const plan::Node& node, const Consumer& consume);
  // A hash join's table layouts: its key tuples, and its build side's rows.
  struct JoinLayouts {
    const TupleLayout* key;
    StoredRow row;
  };
  void probeSemiJoin(const plan::Node& node, const JoinLayouts& layouts, llvm::Value* table, const JoinFilter& filter,
                     llvm::Value* probeKey, const Consumer& consume);
  // Whether some row of `table` has the key at `probeKey` (and, with `accepts`, one it
  // accepts): i1.
  llvm::Value* findsMatch(llvm::Value* table, llvm::Value* probeKey, const TupleLayout& keyLayout,
                          const JoinFilter& filter,
                          const std::function<llvm::Value*(llvm::Value* row)>& accepts = nullptr);
  // Puts a finished join table in the next slot of QueryContext::sharedJoins, where the
  // workers of a parallel run find it (duet_q_join_shared); returns the slot.
  uint32_t shareJoinTable(llvm::Value* table);
  Row nullRow(const std::vector<SqlType>& types);
  void emitMatch(const plan::Node& join, Row& joined, const std::function<void()>& onMatch, const Consumer& consume);
  void keepUnmatched(const plan::Node& join, const Row& driving, const std::vector<SqlType>& otherTypes,
                     const std::function<void(llvm::Value* matched)>& matches, const Consumer& consume);
  JoinLayouts joinLayouts(const plan::Node& join);
  void markMatched(llvm::Value* row, const StoredRow& shape);
  // A hash join's finished table of its build side's rows, built serially or, when the
  // join is marked parallel, by a parallel run.
  llvm::Value* buildJoinTable(const plan::Node& join, JoinLayouts layouts);
  llvm::Value* buildHashTable(const plan::Node& build, const std::vector<plan::ExprPtr>& keys,
                              const JoinLayouts& layouts, bool keepNullKeys, bool flagged, uint32_t threads);

  // --- set-returning routines (function_scan_codegen.cpp) -------------------------------
  void produceFunctionScan(const plan::Node& node, const Consumer& consume);
  void produceProjectSet(const plan::Node& node, const Consumer& consume);

  // --- sort, limit, distinct, materialise (sort_limit_codegen.cpp) ----------------------
  void produceSort(const plan::Node& node, const Consumer& consume);
  void produceLimit(const plan::Node& node, const Consumer& consume);
  void produceDistinct(const plan::Node& node, const Consumer& consume);
  void produceMaterialize(const plan::Node& node, const Consumer& consume);
  // offset + limit of a Limit node whose expressions are constants or parameters
  // (saturating; INT64_MAX for a NULL limit): how many rows a sort below it must keep.
  llvm::Value* limitBound(const plan::Node& limit);

  // --- window functions (window_codegen.cpp) -------------------------------------------
  void produceWindow(const plan::Node& node, const Consumer& consume);
  struct WindowCode;
  struct FrameExclusion;
  Row windowRowAt(WindowCode& w, llvm::Value* index);
  SqlValue windowArgAt(WindowCode& w, const plan::Expr& arg, llvm::Value* present, llvm::Value* index,
                       const SqlValue& otherwise);
  std::optional<SqlValue> windowFrameOffset(const plan::Expr* offset, plan::WindowFrame::Mode mode, bool start);
  llvm::Value* windowRangeBound(WindowCode& w, const SqlValue& offset, bool preceding, bool after);
  std::pair<llvm::Value*, llvm::Value*> windowFrameRows(WindowCode& w, size_t k);
  FrameExclusion windowExclusion(WindowCode& w, const plan::WindowFrame& f, llvm::Value* frameEnd);
  SqlValue windowCallValue(WindowCode& w, size_t k);

  // --- row changes (dml_codegen.cpp) ----------------------------------------------------
  void produceInsert(const plan::Node& node, const Consumer& consume);
  void produceUpdate(const plan::Node& node, const Consumer& consume);
  void produceDelete(const plan::Node& node, const Consumer& consume);
  // INSERT ... ON CONFLICT (on_conflict_codegen.cpp).
  void produceInsertOnConflict(const plan::Node& node, const Consumer& consume);

  // --- VALUES lists (values_codegen.cpp) ------------------------------------------------
  void produceValues(const plan::Node& node, const Consumer& consume);
  // A VALUES list of many rows that differ only in their parameters (lifted literals) as
  // one loop over tables of parameter offsets; false, generating nothing, for another
  // list, whose rows are generated one by one.
  bool produceValuesLoop(const plan::Node& values, const Consumer& consume);
  // One row of a VALUES list: its cells, cast to the list's column types.
  Row valuesRow(const plan::Node& values, const std::vector<const plan::Expr*>& cells);

  llvm::Value* params_ = nullptr;               // parameter tuple
  std::vector<llvm::BasicBlock*> pipelineEnd_;  // where a LIMIT jumps when satisfied
  Row paramRow_;                                // PL/pgSQL: the variables an embedded statement reads
  // A statement's parameters are read from params_ where used: loaded all at entry, a
  // 5,000-item IN list's values stayed live across the whole function, and unoptimised
  // code's register allocation grew quadratic in them.
  bool paramsInTuple_ = false;
  // While a VALUES loop generates its template cells: where each parameter or constant of
  // them is read for row `row` instead (its column of the list, as a DataList).
  static constexpr uint32_t kNullCell = UINT32_MAX;  // a DataList's NULL parameter item
  struct ValuesParams {
    std::map<const plan::Expr*, DataList> lists;
    llvm::Value* row = nullptr;
  };
  const ValuesParams* valuesParams_ = nullptr;
  bool inInvariant_ = false;  // generating the computation of a kept invariant value
  // The values captured by each enclosing subquery being generated, innermost last
  // (ExprKind::OuterRef reads the last).
  std::vector<Row> correlation_;
  // The values of the Lets (ExprKind::Let) whose bodies are being generated, innermost
  // last: a LetRef of depth d reads the (d+1)-th from the end.
  std::vector<SqlValue> lets_;
  // Where each execution of the statement being generated begins, when the function runs
  // several (a routine's embedded statements); null: the entry block.
  llvm::BasicBlock* statementStart_ = nullptr;
  // Generating a parallel run's worker function: scans marked `morsels` take their chunks
  // from the run, and the hash joins it probes read the tables the leader shared
  // (joinSlots_: join node -> slot in QueryContext::sharedJoins; sharedJoins_ counts them).
  bool inWorker_ = false;
  std::unordered_map<const plan::Node*, uint32_t> joinSlots_;
  // Per RecursiveUnion (its workTable number): the alloca holding the buffer of the rows
  // its last run produced, which its WorkTableScans read.
  std::unordered_map<int, llvm::Value*> workTables_;
  // Per shared WITH query (a CteScan's workTable number): the allocas of its buffer and of
  // whether this execution has filled it.
  std::unordered_map<int, std::pair<llvm::AllocaInst*, llvm::AllocaInst*>> withBuffers_;
  // Inside subquery runs whose state is freed after each run (how deep): a buffer filled
  // there would not outlive the run.
  int releasedRuns_ = 0;
  uint32_t sharedJoins_ = 0;
  uint32_t workers_ = 0;  // worker functions generated so far (their numbers)
  // Set by a Limit for the Sort right below it, which takes it: sort only what can pass.
  const plan::Node* sortLimit_ = nullptr;
  // The aggregations whose input rows a hash join above them looks up in its table first
  // (Node::filtersGroups): the slot the table is shared in (a parallel aggregation's workers
  // read it there), its key layout, which of the aggregation's group keys each join key is,
  // and the function that built the table with the table and its key filter there.
  struct GroupFilter {
    uint32_t slot;
    const TupleLayout* keyLayout;
    std::vector<size_t> groupKeys;
    llvm::Function* function;
    llvm::Value* table;
    JoinFilter filter;
  };
  std::unordered_map<const plan::Node*, GroupFilter> groupFilters_;
  // Which columns of each node's rows are read (set per statement plan; a node outside it
  // keeps all its columns wherever its rows are stored).
  plan::UsedColumns used_;
  // EXPLAIN ANALYZE: which nodes count their rows, under which numbers (none: no counters).
  Instrument instrument_;
  std::unordered_map<const plan::AggSpec*, CollectedRows> collectedRows_;  // see collectedRows
};

// Shared by the row changes (dml_codegen.cpp, on_conflict_codegen.cpp): the statement's
// undo log; one more row for the command tag; RETURNING's output row over `tableRow`.
llvm::Value* undoPtr(Codegen& cg);
void countAffected(Codegen& cg);
void emitReturning(Codegen& cg, const plan::Node& node, const Row& tableRow, const Consumer& consume);
// The table's CHECK constraints over a new row (stored in `tuple` already): 23514 for the
// first one false; and, after the last row, the foreign key checks left for the
// statement's end.
void emitChecks(Codegen& cg, const plan::Node& node, const Row& newRow, llvm::Value* tuple);
void settleForeignKeys(Codegen& cg, const plan::Node& node);

// The name of the statement function `entry`'s worker function `number` (in the order
// generated): the runtime finds a parallel run's worker in the optimised tier by that number.
std::string workerName(const std::string& entry, uint32_t number);

}  // namespace duet::codegen
