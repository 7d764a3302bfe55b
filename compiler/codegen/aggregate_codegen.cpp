// GROUP BY, GROUPING SETS and plain aggregates, serially or in parallel. Each group's
// state is a block of kAggregateSlot bytes per aggregate call in a GroupTable (or, for a
// plain aggregate, on the stack); compiler/functions/builtin_aggregates.h says how each
// call keeps its slot:
// - folded here (count, sum, avg, min, max, bool_and, bool_or): [0,16) value, [16,24)
//   count, [24] has value;
// - Stepped: the state its precompiled functions fold;
// - Collected, and any call with ORDER BY inside: [0,8) the runtime buffer of its rows
//   (created on the first row), read sorted for the result: by the call's final function,
//   or, for a call folded here or Stepped, by replaying its rows in order into a fresh state.
// A zeroed slot is an empty state of every kind.
//
// With grouping sets, a group's key tuple starts with the number of its set (the keys the
// set leaves out NULL), and each input row is folded into one group per set.
//
// In parallel (a node marked by compiler/planner/parallel.h, in a snapshot process), each
// worker of a parallel run (parallel_codegen.cpp) aggregates its morsels of the input into
// a group table of its own. The leader then folds those partial states into one table and
// emits the groups as the serial plan does.
#include <algorithm>
#include <optional>
#include <string>

#include "compiler/codegen/codegen_internal.h"
#include "compiler/functions/builtin_aggregates.h"

namespace duet::codegen {

using plan::AggKind;
using plan::Node;

namespace {

constexpr uint32_t kAggSlot = kAggregateSlot;

// The accumulator type of SUM/AVG over `arg`: wide enough to not overflow where
// PostgreSQL does not.
TypeId accumulatorType(AggKind kind, TypeId arg, TypeId result) {
  if (kind == AggKind::Avg) {
    if (arg == TypeId::Int2 || arg == TypeId::Int4) return TypeId::Int8;
    if (arg == TypeId::Float4 || arg == TypeId::Float8) return TypeId::Float8;
    return TypeId::Numeric;
  }
  return result;
}

const BuiltinAggregate& rowOf(const plan::AggSpec& agg) { return builtinAggregates()[agg.aggregate]; }

// Whether the call's rows go to a buffer first.
bool collects(const plan::AggSpec& agg) { return agg.kind == AggKind::Collected || !agg.orderBy.empty(); }

}  // namespace

// The generated-code handles of one aggregation's state.
struct Codegen::AggregateCode {
  const Node& node;
  const TupleLayout* keyLayout;
  uint32_t stateSize;
  bool single;                    // no groups, no DISTINCT: one state on the stack
  llvm::Value* groups = nullptr;  // GroupTable* (null for the single state)
  llvm::Value* key = nullptr;     // the group key being looked up
  llvm::Value* isNew = nullptr;   // its "new group" flag
  llvm::Value* singleState = nullptr;
  // agg(DISTINCT x): a set of seen (group keys, x) per such aggregate; x counts only the
  // first time its group sees it.
  std::vector<llvm::Value*> seenSets{}, seenKeys{};
  std::vector<const TupleLayout*> seenLayouts{};
  // Grouping sets: the key tuple's first column is the set's number.
  bool sets = false;
};

llvm::Value* Codegen::aggSlot(llvm::Value* state, size_t k, size_t offset) {
  return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), state, kAggSlot * k + offset);
}

// Sets up the state of `node` in the function being generated; `table` asks for a group
// table even for a plain aggregate (a parallel worker's partial state).
Codegen::AggregateCode Codegen::beginAggregate(const Node& node, bool table, llvm::Value* groups) {
  bool sets = !node.groupingSets.empty();
  std::vector<SqlType> keyTypes = typesOf(node.exprs);
  if (sets) keyTypes.insert(keyTypes.begin(), SqlType{TypeId::Int4, -1});
  AggregateCode a{
      .node = node,
      .keyLayout = out_.layouts.add(TupleLayout::of(keyTypes)),
      .stateSize = aggregateStateSize(node.aggs),
      .single = node.exprs.empty() && !sets &&
                std::none_of(node.aggs.begin(), node.aggs.end(), [](const plan::AggSpec& s) { return s.distinct; }),
      .sets = sets};
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  if (a.single && !table) {
    auto* state = eb.CreateAlloca(llvm::ArrayType::get(b_.getInt8Ty(), a.stateSize));
    state->setAlignment(llvm::Align(16));
    b_.CreateMemSet(state, b_.getInt8(0), a.stateSize, llvm::Align(16));
    a.singleState = state;
  } else {
    a.groups =
        groups ? groups : call("duet_q_groups_new", ptrTy_, {qctx_, ptrConst(a.keyLayout), b_.getInt32(a.stateSize)});
    a.key = tupleAlloca(*a.keyLayout);
    a.isNew = eb.CreateAlloca(b_.getInt8Ty());
  }
  a.seenSets.resize(node.aggs.size());
  a.seenKeys.resize(node.aggs.size());
  a.seenLayouts.resize(node.aggs.size());
  for (size_t k = 0; k < node.aggs.size(); ++k) {
    const plan::AggSpec& agg = node.aggs[k];
    if (!agg.distinct) continue;
    std::vector<SqlType> types = keyTypes;
    types.push_back(agg.arg->type);
    for (const auto& e : agg.extraArgs) types.push_back(e->type);
    a.seenLayouts[k] = out_.layouts.add(TupleLayout::of(types));
    a.seenSets[k] = call("duet_q_groups_new", ptrTy_, {qctx_, ptrConst(a.seenLayouts[k]), b_.getInt32(0)});
    a.seenKeys[k] = tupleAlloca(*a.seenLayouts[k]);
  }
  return a;
}

// Folds `value` (not NULL, of the accumulator's type; for SUM/AVG, `widen` casts it from
// the argument's type first) into aggregate k's value in `state`. The count is not touched.
void Codegen::foldAggregate(const plan::AggSpec& agg, size_t k, llvm::Value* state, llvm::Value* value, bool widen) {
  auto& b = b_;
  llvm::Type* i8 = b.getInt8Ty();
  TypeId argType = agg.arg->type.id;
  TypeId acc = accumulatorType(agg.kind, argType, agg.resultType.id);
  llvm::Value* valuePtr = aggSlot(state, k, 0);
  llvm::Value* hasPtr = aggSlot(state, k, 24);
  llvm::Value* has = b.CreateICmpNE(b.CreateLoad(i8, hasPtr), b.getInt8(0));
  SqlType accType{acc, -1};
  SqlValue old = notNull(loadValue(valuePtr, hasPtr, accType).v, accType);  // while `has`
  llvm::Value* next;
  if (agg.kind == AggKind::BoolAnd || agg.kind == AggKind::BoolOr) {
    llvm::Value* both = agg.kind == AggKind::BoolAnd ? b.CreateAnd(old.v, value) : b.CreateOr(old.v, value);
    next = b.CreateSelect(has, both, value);
  } else if (agg.kind == AggKind::Min || agg.kind == AggKind::Max) {
    // Compare against the value itself while the group has none yet: the state bytes are
    // zero then, which is no valid string or numeric to call into.
    llvm::Value* current = b.CreateSelect(has, old.v, value);
    llvm::Value* better =
        compareValues(agg.kind == AggKind::Min ? plan::Op::Lt : plan::Op::Gt, argType, value, current);
    next = b.CreateSelect(b.CreateOr(b.CreateNot(has), better), value, old.v);
  } else {
    if (widen) value = cast(notNull(value, agg.arg->type), accType, false).v;
    llvm::Value* sum = arithmetic(plan::Op::Add, old, notNull(value, accType), accType).v;
    next = b.CreateSelect(has, sum, value);
  }
  if (acc == TypeId::Bool) next = b.CreateZExt(next, i8);
  b.CreateStore(next, valuePtr);
  b.CreateStore(b.getInt8(1), hasPtr);
}

std::vector<SqlValue> Codegen::aggregateArgs(const plan::AggSpec& agg, const Row& row) {
  std::vector<SqlValue> args;
  if (agg.arg) args.push_back(expr(*agg.arg, row));
  for (const auto& e : agg.extraArgs) args.push_back(expr(*e, row));
  return args;
}

// NULL inputs are skipped: a folded or Stepped call's when any argument is NULL (they are
// strict), a Collected one's when its first argument is (string_agg's delimiter and
// percentile_cont's fraction may be NULL), array_agg's never.
llvm::Value* Codegen::skipsRow(const plan::AggSpec& agg, const std::vector<SqlValue>& args) {
  llvm::Value* skip = b_.getFalse();
  if (args.empty()) return skip;
  if (agg.kind == AggKind::Collected) return rowOf(agg).keepsNulls ? skip : args[0].null;
  for (const SqlValue& v : args) skip = b_.CreateOr(skip, v.null);
  return skip;
}

void Codegen::foldRow(const plan::AggSpec& agg, size_t k, llvm::Value* state, const std::vector<SqlValue>& args,
                      const Row& row) {
  auto& b = b_;
  if (collects(agg)) {
    const CollectedRows& c = collectedRows(agg);
    Row stored;
    for (const auto& o : agg.orderBy) stored.push_back(expr(*o.expr, row));
    for (const SqlValue& v : args) stored.push_back(v);
    llvm::Value* tuple = tupleAlloca(*c.layout);
    storeRow(tuple, *c.layout, stored);
    call("duet_q_agg_rows_add", b.getVoidTy(),
         {qctx_, aggSlot(state, k, 0), ptrConst(c.layout), ptrConst(c.keys), b.getInt32(c.keyCount), tuple});
    return;
  }
  if (agg.kind == AggKind::Stepped) {
    std::vector<llvm::Value*> values{aggSlot(state, k, 0)};
    for (const SqlValue& v : args) values.push_back(v.v);
    call(rowOf(agg).step.symbol, b.getVoidTy(), values);
    return;
  }
  if (agg.kind != AggKind::Count && agg.kind != AggKind::CountStar) foldAggregate(agg, k, state, args[0].v, true);
  llvm::Value* countPtr = aggSlot(state, k, 16);
  b.CreateStore(b.CreateAdd(b.CreateLoad(i64Ty_, countPtr), b.getInt64(1)), countPtr);
}

// Adds the input row `row` to aggregate k's state in `state` (not for DISTINCT, which
// asks the group's seen set first): rows its FILTER rejects and NULL inputs are skipped.
void Codegen::accumulateAggregate(const plan::AggSpec& agg, size_t k, llvm::Value* state, const Row& row) {
  if (agg.kind == AggKind::Grouping) return;
  auto fold = [&] {
    std::vector<SqlValue> args = aggregateArgs(agg, row);
    ifThen(b_.CreateNot(skipsRow(agg, args)), [&] { foldRow(agg, k, state, args, row); });
  };
  if (agg.filter)
    ifThen(isTrue(expr(*agg.filter, row)), fold);
  else
    fold();
}

// Adds one input row to its group's state (`state`, or looked up by the row's keys); with
// grouping sets, to one group per set.
void Codegen::accumulateRow(AggregateCode& a, llvm::Value* state, Row& row) {
  auto& b = b_;
  const Node& node = a.node;
  Row values;
  for (const auto& k : node.exprs) values.push_back(expr(*k, row));
  auto accumulate = [&](const Row& keys, llvm::Value* state) {
    if (!state && a.single) state = a.singleState;
    if (!state) {
      storeRow(a.key, *a.keyLayout, keys);
      state = call("duet_q_groups_find", ptrTy_, {a.groups, a.key, keyHash(a.key, *a.keyLayout), a.isNew});
    }
    for (size_t k = 0; k < node.aggs.size(); ++k) {
      const plan::AggSpec& agg = node.aggs[k];
      if (!agg.distinct) {
        accumulateAggregate(agg, k, state, row);
        continue;
      }
      // DISTINCT: the arguments count only the first time their group sees them.
      auto fold = [&] {
        std::vector<SqlValue> args = aggregateArgs(agg, row);
        ifThen(b.CreateNot(skipsRow(agg, args)), [&] {
          Row seen = keys;
          seen.insert(seen.end(), args.begin(), args.end());
          storeRow(a.seenKeys[k], *a.seenLayouts[k], seen);
          llvm::Value* first = call("duet_q_distinct_first", b.getInt8Ty(), {a.seenSets[k], a.seenKeys[k]});
          ifThen(b.CreateICmpNE(first, b.getInt8(0)), [&] { foldRow(agg, k, state, args, row); });
        });
      };
      if (agg.filter)
        ifThen(isTrue(expr(*agg.filter, row)), fold);
      else
        fold();
    }
  };
  if (auto filter = groupFilters_.find(&node); filter != groupFilters_.end()) {
    // Only rows of a group the join above will keep (Node::filtersGroups).
    const GroupFilter& f = filter->second;
    Row joinKeys;
    for (size_t k : f.groupKeys) joinKeys.push_back(values[k]);
    llvm::Value* key = tupleAlloca(*f.keyLayout);
    storeRow(key, *f.keyLayout, joinKeys);
    llvm::Value* table = f.table;
    JoinFilter keyFilter = f.filter;
    if (fn_ != f.function) {
      // A worker of a parallel aggregation: the table the leader shared, read once as the
      // worker starts (it runs after the leader shared it).
      llvm::IRBuilder<>::InsertPointGuard keep(b);
      b.SetInsertPoint(entry_, entry_->getFirstInsertionPt());
      table = call("duet_q_join_shared", ptrTy_, {qctx_, b.getInt32(f.slot)});
      keyFilter = joinFilter(table);
    }
    return ifThen(findsMatch(table, key, *f.keyLayout, keyFilter), [&] { accumulate(values, state); });
  }
  if (!a.sets) return accumulate(values, state);
  for (size_t set = 0; set < node.groupingSets.size(); ++set) {
    Row keys{notNull(b.getInt32(static_cast<uint32_t>(set)), {TypeId::Int4, -1})};
    for (size_t c = 0; c < values.size(); ++c) {
      const std::vector<int>& in = node.groupingSets[set];
      bool present = std::find(in.begin(), in.end(), static_cast<int>(c)) != in.end();
      keys.push_back(present ? values[c] : nullOf(values[c].type));
    }
    accumulate(keys, nullptr);
  }
}

// Folds a partial state (`from`, of a parallel worker) into `into`.
void Codegen::mergeAggregates(const Node& node, llvm::Value* into, llvm::Value* from) {
  auto& b = b_;
  for (size_t k = 0; k < node.aggs.size(); ++k) {
    const plan::AggSpec& agg = node.aggs[k];
    if (agg.kind == AggKind::Grouping) continue;
    if (agg.kind == AggKind::Stepped) {  // (calls that collect rows are never parallel)
      call(rowOf(agg).combine.symbol, b.getVoidTy(), {aggSlot(into, k, 0), aggSlot(from, k, 0)});
      continue;
    }
    llvm::Value* intoCount = aggSlot(into, k, 16);
    b.CreateStore(b.CreateAdd(b.CreateLoad(i64Ty_, intoCount), b.CreateLoad(i64Ty_, aggSlot(from, k, 16))), intoCount);
    if (agg.kind == AggKind::CountStar || agg.kind == AggKind::Count) continue;
    TypeId acc = accumulatorType(agg.kind, agg.arg->type.id, agg.resultType.id);
    SqlValue part = loadValue(aggSlot(from, k, 0), aggSlot(from, k, 24), {acc, -1});  // "null" = has a value
    ifThen(part.null, [&] { foldAggregate(agg, k, into, part.v, false); });
  }
}

// Aggregate k's result from its state.
SqlValue Codegen::aggregateResult(const plan::AggSpec& agg, size_t k, llvm::Value* state) {
  auto& b = b_;
  if (agg.kind == AggKind::Grouping) return notNull(b.getInt32(0), agg.resultType);  // no grouping sets
  if (collects(agg)) return collectedResult(agg, k, state);
  if (agg.kind == AggKind::Stepped) {
    llvm::Value* isNull = llvm::IRBuilder<>(entry_, entry_->getFirstInsertionPt()).CreateAlloca(b.getInt8Ty());
    b.CreateStore(b.getInt8(0), isNull);  // the final function sets it for a NULL result
    llvm::Value* v = call(rowOf(agg).final.symbol, sqlType(agg.resultType.id), {aggSlot(state, k, 0), isNull});
    return {v, b.CreateICmpNE(b.CreateLoad(b.getInt8Ty(), isNull), b.getInt8(0)), agg.resultType};
  }
  llvm::Value* count = b.CreateLoad(i64Ty_, aggSlot(state, k, 16));
  if (agg.kind == AggKind::CountStar || agg.kind == AggKind::Count) return notNull(count, agg.resultType);
  TypeId acc = accumulatorType(agg.kind, agg.arg->type.id, agg.resultType.id);
  SqlValue v = loadValue(aggSlot(state, k, 0), aggSlot(state, k, 24), {acc, -1});
  v.null = b.CreateNot(v.null);  // the flag byte says "has a value"
  if (agg.kind == AggKind::Avg) {
    SqlValue sum = cast(v, agg.resultType, false);
    SqlValue cnt = cast(notNull(count, {TypeId::Int8, -1}), agg.resultType, false);
    v = arithmetic(plan::Op::Div, sum, cnt, agg.resultType);
  }
  return v;
}

const Codegen::CollectedRows& Codegen::collectedRows(const plan::AggSpec& agg) {
  auto found = collectedRows_.find(&agg);
  if (found != collectedRows_.end()) return found->second;
  std::vector<SqlType> types;
  auto keys = std::make_unique<std::vector<rt::SortSpec>>();
  for (const auto& o : agg.orderBy) {
    keys->push_back({static_cast<int>(types.size()), o.descending, o.nullsFirst});
    types.push_back(o.expr->type);
  }
  int firstArg = static_cast<int>(types.size());
  if (agg.arg) types.push_back(agg.arg->type);
  for (const auto& e : agg.extraArgs) types.push_back(e->type);
  CollectedRows c{.layout = out_.layouts.add(TupleLayout::of(types)),
                  .keys = keys->data(),
                  .keyCount = static_cast<uint32_t>(keys->size()),
                  .replay = nullptr};
  out_.sortSpecs.push_back(std::move(keys));
  if (agg.kind != AggKind::Collected) {
    // The same call over the buffered rows: its arguments are their columns.
    c.replay = std::make_unique<plan::AggSpec>();
    plan::AggSpec& r = *c.replay;
    r.kind = agg.kind;
    r.aggregate = agg.aggregate;
    r.resultType = agg.resultType;
    int column = firstArg;
    if (agg.arg) r.arg = plan::makeColumn(column++, agg.arg->type);
    for (const auto& e : agg.extraArgs) r.extraArgs.push_back(plan::makeColumn(column++, e->type));
  }
  return collectedRows_.emplace(&agg, std::move(c)).first->second;
}

// The result of a call whose rows are in its buffer, sorted: its final function's over
// them, or the call's own result after folding them in order into a fresh state.
SqlValue Codegen::collectedResult(const plan::AggSpec& agg, size_t k, llvm::Value* state) {
  auto& b = b_;
  const CollectedRows& c = collectedRows(agg);
  llvm::Value* rows = b.CreateLoad(ptrTy_, aggSlot(state, k, 0));
  llvm::Value* count = call("duet_q_agg_rows_sorted", i64Ty_, {rows});
  if (c.replay) {
    llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
    auto* fresh = eb.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), kAggSlot));
    fresh->setAlignment(llvm::Align(16));
    b.CreateMemSet(fresh, b.getInt8(0), kAggSlot, llvm::Align(16));
    loop(
        b.getInt64(0), [&] { return count; },
        [&](llvm::Value* i, llvm::BasicBlock*) {
          llvm::Value* tuple = call("duet_q_buffer_at", ptrTy_, {rows, i});
          Row stored;
          for (size_t col = 0; col < c.layout->types.size(); ++col) stored.push_back(loadField(tuple, *c.layout, col));
          accumulateAggregate(*c.replay, 0, fresh, stored);
        });
    return aggregateResult(*c.replay, 0, fresh);
  }
  // The result and its null flag, set by the final function when there are rows.
  const BuiltinAggregate& def = rowOf(agg);
  const TupleLayout* resultLayout = out_.layouts.add(TupleLayout::of({agg.resultType}));
  llvm::Value* result = tupleAlloca(*resultLayout);
  llvm::Value* resultNull = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), result, resultLayout->nullOffset(0));
  b.CreateStore(b.getInt8(1), resultNull);  // NULL without rows
  uint32_t firstArg = c.keyCount;
  ifThen(b.CreateICmpUGT(count, b.getInt64(0)), [&] {
    llvm::Value* isNull = resultNull;
    b.CreateStore(b.getInt8(0), isNull);
    if (def.finalGivesRow) {
      llvm::Value* row = call(def.final.symbol, ptrTy_, {rows, b.getInt32(firstArg), isNull});
      ifThen(b.CreateIsNotNull(row),
             [&] { storeField(result, *resultLayout, 0, loadField(row, *c.layout, firstArg)); });
      b.CreateStore(b.CreateZExt(b.CreateIsNull(row), b.getInt8Ty()), isNull);
      return;
    }
    llvm::Value* v = call(def.final.symbol, sqlType(agg.resultType.id), {rows, b.getInt32(firstArg), isNull});
    llvm::Value* wasNull = b.CreateLoad(b.getInt8Ty(), isNull);
    storeField(result, *resultLayout, 0, notNull(v, agg.resultType));
    b.CreateStore(wasNull, isNull);
  });
  return loadField(result, *resultLayout, 0);
}

SqlValue Codegen::groupingValue(const Node& node, const plan::AggSpec& agg, llvm::Value* set) {
  // One value per set: bit i (from the left) set when the set leaves argument i's key out.
  std::vector<uint32_t> values;
  for (const auto& keys : node.groupingSets) {
    uint32_t v = 0;
    for (int key : agg.groupingKeys) v = v << 1 | (std::find(keys.begin(), keys.end(), key) == keys.end() ? 1 : 0);
    values.push_back(v);
  }
  auto* table = llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint32_t>(values));
  auto* global = new llvm::GlobalVariable(module_, table->getType(), true, llvm::GlobalValue::PrivateLinkage, table);
  llvm::Value* at = b_.CreateInBoundsGEP(table->getType(), global, {b_.getInt64(0), b_.CreateZExt(set, i64Ty_)});
  return notNull(b_.CreateLoad(b_.getInt32Ty(), at), agg.resultType);
}

// The bytes of the state of `aggs`, zeroed for a new group.
uint32_t Codegen::aggregateStateSize(std::span<const plan::AggSpec> aggs) {
  return std::max<uint32_t>(16, kAggSlot * static_cast<uint32_t>(aggs.size()));
}

// One output row per group: its keys, then each aggregate's result from its state.
void Codegen::emitAggregates(AggregateCode& a, const Consumer& consume) {
  auto& b = b_;
  const Node& node = a.node;
  auto emitGroup = [&](llvm::Value* entry, llvm::Value* state) {
    Row out;
    size_t first = a.sets ? 1 : 0;  // past the grouping set's number
    for (size_t c = first; c < a.keyLayout->types.size(); ++c) out.push_back(loadField(entry, *a.keyLayout, c));
    for (size_t k = 0; k < node.aggs.size(); ++k) {
      const plan::AggSpec& agg = node.aggs[k];
      if (agg.kind == AggKind::Grouping && a.sets)
        out.push_back(groupingValue(node, agg, loadField(entry, *a.keyLayout, 0).v));
      else
        out.push_back(aggregateResult(agg, k, state));
    }
    consume(out);
  };
  if (a.single) {  // a plain aggregate yields one row even over no input
    emitGroup(nullptr, a.singleState);
    return;
  }
  if (node.exprs.empty() && !a.sets) {  // the same with DISTINCT: the group table gets its one group
    call("duet_q_groups_find", ptrTy_, {a.groups, a.key, keyHash(a.key, *a.keyLayout), a.isNew});
  }
  for (size_t set = 0; set < node.groupingSets.size(); ++set) {
    if (!node.groupingSets[set].empty()) continue;
    // A set of no keys (GROUP BY (), the end of a ROLLUP) yields its row over no input too.
    Row keys{notNull(b.getInt32(static_cast<uint32_t>(set)), {TypeId::Int4, -1})};
    for (const auto& e : node.exprs) keys.push_back(nullOf(e->type));
    storeRow(a.key, *a.keyLayout, keys);
    call("duet_q_groups_find", ptrTy_, {a.groups, a.key, keyHash(a.key, *a.keyLayout), a.isNew});
  }
  llvm::Value* n = call("duet_q_groups_size", i64Ty_, {a.groups});
  loop(
      b.getInt64(0), [&] { return n; },
      [&](llvm::Value* i, llvm::BasicBlock*) {
        llvm::Value* entry = call("duet_q_groups_entry", ptrTy_, {a.groups, i});
        emitGroup(entry, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), entry, a.keyLayout->size));
      });
}

void Codegen::produceAggregate(const Node& node, const Consumer& consume) {
  if (node.parallelThreads > 1 && !inWorker_) return produceParallelAggregate(node, consume);
  AggregateCode a = beginAggregate(node, false);
  producePipeline(*node.children[0], [&](Row& row) { accumulateRow(a, nullptr, row); });
  emitAggregates(a, consume);
}

void Codegen::produceParallelAggregate(const Node& node, const Consumer& consume) {
  auto& b = b_;
  // Each worker aggregates its morsels into a group table of its own (a plain aggregate's
  // one group made before the first row).
  std::optional<AggregateCode> partial;
  llvm::Value* state = nullptr;
  llvm::Value* run = runParallel(
      *node.children[0], node.parallelThreads,
      [&] {
        partial.emplace(beginAggregate(node, true));
        state = partial->single
                    ? call("duet_q_groups_find", ptrTy_,
                           {partial->groups, partial->key, keyHash(partial->key, *partial->keyLayout), partial->isNew})
                    : nullptr;
        return partial->groups;
      },
      [&](llvm::Value*, Row& row) { accumulateRow(*partial, state, row); });
  // Grouped: the first worker's table (the leader's thread always runs one) becomes the
  // result and the others' groups merge into it, in the order a fresh table would take
  // them (the first worker's, then the others' new ones), so no table is built twice.
  AggregateCode a = beginAggregate(node, false, call("duet_q_parallel_partial", ptrTy_, {run, b.getInt32(0)}));
  llvm::Value* partials = call("duet_q_parallel_partials", b.getInt32Ty(), {run});
  llvm::Value* first = b.getInt32(a.single ? 0 : 1);
  loop(
      first, [&] { return partials; },
      [&](llvm::Value* w, llvm::BasicBlock*) {
        llvm::Value* part = call("duet_q_parallel_partial", ptrTy_, {run, w});
        llvm::Value* n = call("duet_q_groups_size", i64Ty_, {part});
        loop(
            b.getInt64(0), [&] { return n; },
            [&](llvm::Value* i, llvm::BasicBlock*) {
              llvm::Value* entry = call("duet_q_groups_entry", ptrTy_, {part, i});  // the key tuple, then the state
              llvm::Value* from = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), entry, a.keyLayout->size);
              llvm::Value* into = a.single ? a.singleState
                                           : call("duet_q_groups_find", ptrTy_,
                                                  {a.groups, entry, keyHash(entry, *a.keyLayout), a.isNew});
              mergeAggregates(node, into, from);
            });
      });
  emitAggregates(a, consume);
}

}  // namespace duet::codegen
