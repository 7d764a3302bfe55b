// GROUP BY and plain aggregates, serially or in parallel. Each group's state is a block of
// kAggSlot bytes per aggregate in a GroupTable (or, for a plain aggregate, on the stack).
//
// In parallel (a node marked by compiler/planner/parallel.h, in a snapshot process), each
// worker of a parallel run (parallel_codegen.cpp) aggregates its morsels of the input into
// a group table of its own. The leader then folds those partial states into one table and
// emits the groups as the serial plan does.
#include <algorithm>
#include <optional>
#include <string>

#include "compiler/codegen/codegen_internal.h"

namespace duet::codegen {

using plan::AggKind;
using plan::Node;

namespace {

constexpr uint32_t kAggSlot = 32;  // per aggregate: [0,16) value, [16,24) count, [24] has value

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
};

llvm::Value* Codegen::aggSlot(llvm::Value* state, size_t k, size_t offset) {
  return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), state, kAggSlot * k + offset);
}

// Sets up the state of `node` in the function being generated; `table` asks for a group
// table even for a plain aggregate (a parallel worker's partial state).
Codegen::AggregateCode Codegen::beginAggregate(const Node& node, bool table) {
  AggregateCode a{.node = node,
                  .keyLayout = out_.layouts.add(TupleLayout::of(typesOf(node.exprs))),
                  .stateSize = aggregateStateSize(node.aggs),
                  .single = node.exprs.empty() && std::none_of(node.aggs.begin(), node.aggs.end(),
                                                               [](const plan::AggSpec& s) { return s.distinct; })};
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  if (a.single && !table) {
    auto* state = eb.CreateAlloca(llvm::ArrayType::get(b_.getInt8Ty(), a.stateSize));
    state->setAlignment(llvm::Align(16));
    b_.CreateMemSet(state, b_.getInt8(0), a.stateSize, llvm::Align(16));
    a.singleState = state;
  } else {
    a.groups = call("duet_q_groups_new", ptrTy_, {qctx_, ptrConst(a.keyLayout), b_.getInt32(a.stateSize)});
    a.key = tupleAlloca(*a.keyLayout);
    a.isNew = eb.CreateAlloca(b_.getInt8Ty());
  }
  a.seenSets.resize(node.aggs.size());
  a.seenKeys.resize(node.aggs.size());
  a.seenLayouts.resize(node.aggs.size());
  for (size_t k = 0; k < node.aggs.size(); ++k) {
    if (!node.aggs[k].distinct) continue;
    std::vector<SqlType> types = typesOf(node.exprs);
    types.push_back(node.aggs[k].arg->type);
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
  if (agg.kind == AggKind::Min || agg.kind == AggKind::Max) {
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

// Adds the input row `row` to aggregate k's state in `state` (not for DISTINCT, which
// asks the group's seen set first): NULL inputs are ignored.
void Codegen::accumulateAggregate(const plan::AggSpec& agg, size_t k, llvm::Value* state, const Row& row) {
  auto& b = b_;
  llvm::Value* countPtr = aggSlot(state, k, 16);
  auto bumpCount = [&] { b.CreateStore(b.CreateAdd(b.CreateLoad(i64Ty_, countPtr), b.getInt64(1)), countPtr); };
  if (agg.kind == AggKind::CountStar) return bumpCount();
  SqlValue v = expr(*agg.arg, row);
  ifThen(b.CreateNot(v.null), [&] {
    if (agg.kind != AggKind::Count) foldAggregate(agg, k, state, v.v, true);
    bumpCount();
  });
}

// Adds one input row to its group's state (`state`, or looked up by the row's keys).
void Codegen::accumulateRow(AggregateCode& a, llvm::Value* state, Row& row) {
  auto& b = b_;
  const Node& node = a.node;
  Row keys;
  for (const auto& k : node.exprs) keys.push_back(expr(*k, row));
  if (!state && a.single) state = a.singleState;
  if (!state) {
    storeRow(a.key, *a.keyLayout, keys);
    state = call("duet_q_groups_find", ptrTy_, {a.groups, a.key, a.isNew});
  }
  for (size_t k = 0; k < node.aggs.size(); ++k) {
    const plan::AggSpec& agg = node.aggs[k];
    if (!agg.distinct) {
      accumulateAggregate(agg, k, state, row);
      continue;
    }
    // DISTINCT: the value counts only the first time its group sees it.
    SqlValue v = expr(*agg.arg, row);
    ifThen(b.CreateNot(v.null), [&] {
      Row seen = keys;
      seen.push_back(v);
      storeRow(a.seenKeys[k], *a.seenLayouts[k], seen);
      llvm::Value* first = call("duet_q_distinct_first", b.getInt8Ty(), {a.seenSets[k], a.seenKeys[k]});
      ifThen(b.CreateICmpNE(first, b.getInt8(0)), [&] {
        if (agg.kind != AggKind::Count) foldAggregate(agg, k, state, v.v, true);
        llvm::Value* countPtr = aggSlot(state, k, 16);
        b.CreateStore(b.CreateAdd(b.CreateLoad(i64Ty_, countPtr), b.getInt64(1)), countPtr);
      });
    });
  }
}

// Folds a partial state (`from`, of a parallel worker) into `into`.
void Codegen::mergeAggregates(const Node& node, llvm::Value* into, llvm::Value* from) {
  auto& b = b_;
  for (size_t k = 0; k < node.aggs.size(); ++k) {
    const plan::AggSpec& agg = node.aggs[k];
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
    for (size_t c = 0; c < a.keyLayout->types.size(); ++c) out.push_back(loadField(entry, *a.keyLayout, c));
    for (size_t k = 0; k < node.aggs.size(); ++k) out.push_back(aggregateResult(node.aggs[k], k, state));
    consume(out);
  };
  if (a.single) {  // a plain aggregate yields one row even over no input
    emitGroup(nullptr, a.singleState);
    return;
  }
  if (node.exprs.empty()) {  // the same with DISTINCT: the group table gets its one group
    call("duet_q_groups_find", ptrTy_, {a.groups, a.key, a.isNew});
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
        state = partial->single ? call("duet_q_groups_find", ptrTy_, {partial->groups, partial->key, partial->isNew})
                                : nullptr;
        return partial->groups;
      },
      [&](llvm::Value*, Row& row) { accumulateRow(*partial, state, row); });
  AggregateCode a = beginAggregate(node, false);
  llvm::Value* partials = call("duet_q_parallel_partials", b.getInt32Ty(), {run});
  loop(
      b.getInt32(0), [&] { return partials; },
      [&](llvm::Value* w, llvm::BasicBlock*) {
        llvm::Value* part = call("duet_q_parallel_partial", ptrTy_, {run, w});
        llvm::Value* n = call("duet_q_groups_size", i64Ty_, {part});
        loop(
            b.getInt64(0), [&] { return n; },
            [&](llvm::Value* i, llvm::BasicBlock*) {
              llvm::Value* entry = call("duet_q_groups_entry", ptrTy_, {part, i});  // the key tuple, then the state
              llvm::Value* from = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), entry, a.keyLayout->size);
              llvm::Value* into =
                  a.single ? a.singleState : call("duet_q_groups_find", ptrTy_, {a.groups, entry, a.isNew});
              mergeAggregates(node, into, from);
            });
      });
  emitAggregates(a, consume);
}

}  // namespace duet::codegen
