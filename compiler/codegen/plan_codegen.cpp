// Physical plans to LLVM IR, in produce/consume style: each operator's produce() emits the
// loops that generate its rows and calls `consume` inside them, so a whole pipeline (scan,
// filter, project, join probe, output) becomes one loop nest with values in registers.
// Pipeline breakers (hash join build, aggregation, sort, materialise) hand tuples to the
// precompiled structures in query_runtime.h.
//
// This file is the dispatch on the node's kind and what every family shares: pipelines of
// their own and runtime tuple buffers. Filter and Project, which only add code around
// their consumer, live here too; each other family has a file of its own (scans, joins,
// set-returning functions, sort and limit, row changes, VALUES, aggregates).
#include "compiler/codegen/codegen_internal.h"
#include "engine/limits/interrupts.h"
#include "engine/limits/stack_depth.h"

namespace duet::codegen {

using plan::Node;
using plan::NodeKind;

void Codegen::produce(const Node& node, const Consumer& consume) {
  checkStackDepth();
  checkForInterrupts();
  if (instrument_.nodes) {
    if (auto it = instrument_.nodes->find(&node); it != instrument_.nodes->end()) {
      produceCounted(node, it->second, consume);
      return;
    }
  }
  dispatch(node, consume);
}

// EXPLAIN ANALYZE: the node's start, each row it passes on and (timed) its end reported to
// the runtime's counters (instrumentation.h) under its number.
void Codegen::produceCounted(const Node& node, uint32_t number, const Consumer& consume) {
  llvm::Value* slot = b_.getInt32(number);
  call("duet_q_node_start", b_.getVoidTy(), {qctx_, slot});
  dispatch(node, [&](Row& row) {
    call("duet_q_node_row", b_.getVoidTy(), {qctx_, slot});
    consume(row);
  });
  if (instrument_.timing && !b_.GetInsertBlock()->getTerminator())
    call("duet_q_node_end", b_.getVoidTy(), {qctx_, slot});
}

void Codegen::dispatch(const Node& node, const Consumer& consume) {
  switch (node.kind) {
    case NodeKind::TableScan: produceTableScan(node, consume); return;
    case NodeKind::IndexLookup: produceIndexLookup(node, consume); return;
    case NodeKind::IndexRange: produceIndexRange(node, consume); return;
    case NodeKind::CurrentOf: produceCurrentOf(node, consume); return;
    case NodeKind::Values: produceValues(node, consume); return;
    case NodeKind::FunctionScan: produceFunctionScan(node, consume); return;
    case NodeKind::ProjectSet: produceProjectSet(node, consume); return;
    case NodeKind::Filter: produceFilter(node, consume); return;
    case NodeKind::Project: produceProject(node, consume); return;
    case NodeKind::IndexJoin: produceIndexJoin(node, consume); return;
    case NodeKind::NestedLoopJoin: produceNestedLoopJoin(node, consume); return;
    case NodeKind::HashJoin: produceHashJoin(node, consume); return;
    case NodeKind::Aggregate: produceAggregate(node, consume); return;
    case NodeKind::Sort: produceSort(node, consume); return;
    case NodeKind::Limit: produceLimit(node, consume); return;
    case NodeKind::Distinct: produceDistinct(node, consume); return;
    case NodeKind::Window: produceWindow(node, consume); return;
    case NodeKind::Append: produceAppend(node, consume); return;
    case NodeKind::Repeat: produceRepeat(node, consume); return;
    case NodeKind::RecursiveUnion: produceRecursiveUnion(node, consume); return;
    case NodeKind::WorkTableScan: produceWorkTableScan(node, consume); return;
    case NodeKind::CteScan: produceCteScan(node, consume); return;
    case NodeKind::Materialize: produceMaterialize(node, consume); return;
    case NodeKind::Insert: produceInsert(node, consume); return;
    case NodeKind::Update: produceUpdate(node, consume); return;
    case NodeKind::Delete: produceDelete(node, consume); return;
  }
}

// Produces `child` as a pipeline of its own, ending where the caller continues.
void Codegen::producePipeline(const Node& child, const Consumer& consume) {
  llvm::BasicBlock* end = block("pipe.end");
  pipelineEnd_.push_back(end);
  produce(child, consume);
  if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(end);
  b_.SetInsertPoint(end);
  pipelineEnd_.pop_back();
}

// Iterates the tuples of a runtime TupleBuffer, loading each into SSA values.
void Codegen::iterateBuffer(llvm::Value* buffer, const TupleLayout* layout, const Consumer& consume) {
  iterateTuples(buffer, [&](llvm::Value* tuple) {
    Row row;
    for (size_t c = 0; c < layout->types.size(); ++c) row.push_back(loadField(tuple, *layout, c));
    consume(row);
  });
}

void Codegen::iterateTuples(llvm::Value* buffer, const std::function<void(llvm::Value* tuple)>& each) {
  llvm::Value* n = call("duet_q_buffer_size", i64Ty_, {buffer});
  loop(
      b_.getInt64(0), [&] { return n; },
      [&](llvm::Value* i, llvm::BasicBlock*) { each(call("duet_q_buffer_at", ptrTy_, {buffer, i})); });
}

Codegen::StoredRow Codegen::storedRow(const std::vector<SqlType>& types, const std::vector<bool>& keep,
                                      const std::vector<SqlType>& extra) {
  StoredRow shape{nullptr, types, {}};
  std::vector<SqlType> fields;
  for (size_t c = 0; c < types.size(); ++c)
    if (c >= keep.size() || keep[c]) {
      shape.kept.push_back(c);
      fields.push_back(types[c]);
    }
  fields.insert(fields.end(), extra.begin(), extra.end());
  shape.layout = out_.layouts.add(TupleLayout::of(fields));
  return shape;
}

Codegen::StoredRow Codegen::storedRowsOf(const Node& node) {
  std::vector<bool> keep;
  for (size_t c = 0; c < node.outputTypes.size(); ++c) keep.push_back(used_.read(node, c));
  return storedRow(node.outputTypes, keep);
}

void Codegen::storeKept(llvm::Value* tuple, const StoredRow& shape, const Row& row, const Row& extra) {
  for (size_t f = 0; f < shape.kept.size(); ++f) storeField(tuple, *shape.layout, f, row[shape.kept[f]]);
  for (size_t i = 0; i < extra.size(); ++i) storeExtra(tuple, shape, i, extra[i]);
}

Row Codegen::loadKept(llvm::Value* tuple, const StoredRow& shape) {
  Row row = nullRow(shape.types);
  for (size_t f = 0; f < shape.kept.size(); ++f) row[shape.kept[f]] = loadField(tuple, *shape.layout, f);
  return row;
}

SqlValue Codegen::loadExtra(llvm::Value* tuple, const StoredRow& shape, size_t i) {
  return loadField(tuple, *shape.layout, shape.kept.size() + i);
}

void Codegen::storeExtra(llvm::Value* tuple, const StoredRow& shape, size_t i, const SqlValue& v) {
  storeField(tuple, *shape.layout, shape.kept.size() + i, v);
}

llvm::Value* Codegen::bufferRows(const Node& buffered, const StoredRow& shape) {
  llvm::Value* buffer = call("duet_q_buffer_new", ptrTy_, {qctx_, ptrConst(shape.layout)});
  llvm::Value* tuple = tupleAlloca(*shape.layout);
  producePipeline(buffered, [&](Row& row) {
    storeKept(tuple, shape, row);
    call("duet_q_buffer_append", b_.getVoidTy(), {buffer, tuple});
  });
  return buffer;
}

void Codegen::produceFilter(const Node& node, const Consumer& consume) {
  produce(*node.children[0], [&](Row& row) {
    SqlValue v = expr(*node.predicate, row);
    ifThen(isTrue(v), [&] { consume(row); });
  });
}

void Codegen::produceProject(const Node& node, const Consumer& consume) {
  produce(*node.children[0], [&](Row& row) {
    Row out;
    for (const auto& e : node.exprs) out.push_back(expr(*e, row));
    consume(out);
  });
}

}  // namespace duet::codegen
