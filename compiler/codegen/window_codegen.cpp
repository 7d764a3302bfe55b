// Window functions (the Window plan node): the input's rows are sorted by PARTITION BY
// then ORDER BY into a runtime WindowBuffer (compiler/runtime/window_runtime.h), which also
// finds each partition's peer groups (rows equal in every sort key). Generated code then
// walks the partitions row by row and appends each call's value to the row:
//  - ranking functions count rows and peer groups;
//  - lag/lead and first/last/nth_value read an argument at another row of the buffer;
//  - an aggregate folds the rows of its frame into a state of its own (the shared
//    accumulateAggregate/aggregateResult), extending it while the frame only grows (the
//    default frame, or the whole partition) and starting over when its start moves.
// A frame is a row range [start, end) of the partition, less the rows EXCLUDE names.
#include <optional>

#include "compiler/codegen/codegen_internal.h"
#include "compiler/runtime/window_runtime.h"

namespace duet::codegen {

using plan::Node;
using plan::WindowCall;
using plan::WindowFrame;
using plan::WindowFunc;
using rt::WindowArgumentError;

// The generated-code handles of one Window node while its rows are walked.
struct Codegen::WindowCode {
  const Node& node;
  const TupleLayout* layout;
  llvm::Value* buffer = nullptr;
  llvm::Value* starts = nullptr;             // the partition's peer group starts, then its end
  llvm::Value* groups = nullptr;             // how many peer groups it has
  llvm::Value *ps = nullptr, *pe = nullptr;  // the partition's rows
  llvm::Value* r = nullptr;                  // the current row
  llvm::Value* g = nullptr;                  // its peer group
  llvm::Value *gs = nullptr, *ge = nullptr;  // that group's rows
  Row row;                                   // the current row's values
  struct CallState {
    std::optional<SqlValue> startOffset, endOffset;  // the frame's offsets, if any
    llvm::Value* state = nullptr;                    // an aggregate's state
    llvm::Value* foldedStart = nullptr;              // i64 slots: the frame the state holds
    llvm::Value* foldedEnd = nullptr;
  };
  std::vector<CallState> calls;
};

Row Codegen::windowRowAt(WindowCode& w, llvm::Value* index) {
  llvm::Value* tuple = call("duet_q_buffer_at", ptrTy_, {w.buffer, index});
  Row row;
  for (size_t c = 0; c < w.layout->types.size(); ++c) row.push_back(loadField(tuple, *w.layout, c));
  return row;
}

// `arg` over the row at `index` when `present`, else `otherwise` (of arg's type).
SqlValue Codegen::windowArgAt(WindowCode& w, const plan::Expr& arg, llvm::Value* present, llvm::Value* index,
                              const SqlValue& otherwise) {
  auto& b = b_;
  llvm::BasicBlock* at = block("window.at");
  llvm::BasicBlock* other = b.GetInsertBlock();
  llvm::BasicBlock* join = block("window.join");
  b.CreateCondBr(present, at, join);
  b.SetInsertPoint(at);
  SqlValue v = expr(arg, windowRowAt(w, index));
  llvm::BasicBlock* atEnd = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(join);
  return phi({{atEnd, v}, {other, otherwise}}, arg.type);
}

// The frame's offsets are constants: each is checked once, before the rows are walked.
std::optional<SqlValue> Codegen::windowFrameOffset(const plan::Expr* offset, WindowFrame::Mode mode, bool start) {
  auto& b = b_;
  if (!offset) return std::nullopt;
  SqlValue v = expr(*offset, {});
  auto fail = [&](WindowArgumentError e) {
    call("duet_q_window_argument_error", b.getVoidTy(), {b.getInt32(static_cast<int32_t>(e))});
    b.CreateUnreachable();
  };
  llvm::BasicBlock* ok = block("window.offset.ok");
  llvm::BasicBlock* isNull = block("window.offset.null");
  b.CreateCondBr(v.null, isNull, ok);
  b.SetInsertPoint(isNull);
  fail(start ? WindowArgumentError::StartNull : WindowArgumentError::EndNull);
  b.SetInsertPoint(ok);
  SqlValue value = notNull(v.v, v.type);
  // Negative: below zero, which `value - value` is for every offset type.
  SqlValue zero = arithmetic(plan::Op::Sub, value, value, v.type);
  llvm::Value* negative = compare(plan::Op::Lt, value, zero).v;
  ifThen(negative, [&] {
    fail(mode == WindowFrame::Mode::Range ? WindowArgumentError::RangeOffsetInvalid
         : start                          ? WindowArgumentError::StartNegative
                                          : WindowArgumentError::EndNegative);
  });
  return value;
}

// A RANGE frame bound with an offset: the first row whose key is not before (`after`:
// is after) the current row's key moved by the offset; the current row's peer group's
// bound when its key is NULL (NULLs are peers of each other only).
llvm::Value* Codegen::windowRangeBound(WindowCode& w, const SqlValue& offset, bool preceding, bool after) {
  auto& b = b_;
  const plan::SortKey& key = w.node.sortKeys[w.node.partitionKeys];
  const SqlValue& v = w.row[key.column];
  bool subtract = preceding != key.descending;
  SqlValue bound = arithmetic(subtract ? plan::Op::Sub : plan::Op::Add, v, offset, v.type);
  llvm::Value* tuple = tupleAlloca(*w.layout);
  storeField(tuple, *w.layout, key.column, bound);
  llvm::Value* found =
      call("duet_q_window_range_bound", i64Ty_, {w.buffer, w.ps, w.pe, tuple, b.getInt8(after ? 1 : 0)});
  return b.CreateSelect(v.null, after ? w.ge : w.gs, found);
}

// The frame of call k for the current row: rows [start, end) of the partition, before
// exclusions (end may be below start: an empty frame).
std::pair<llvm::Value*, llvm::Value*> Codegen::windowFrameRows(WindowCode& w, size_t k) {
  auto& b = b_;
  const WindowFrame& f = w.node.windowCalls[k].frame;
  const WindowCode::CallState& s = w.calls[k];
  using Bound = WindowFrame::Bound;
  using Mode = WindowFrame::Mode;
  auto smax = [&](llvm::Value* x, llvm::Value* y) { return b.CreateSelect(b.CreateICmpSGT(x, y), x, y); };
  auto smin = [&](llvm::Value* x, llvm::Value* y) { return b.CreateSelect(b.CreateICmpSLT(x, y), x, y); };
  auto plus = [&](llvm::Value* x, llvm::Value* y) { return b.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, x, y); };
  auto groupStart = [&](llvm::Value* group) {  // starts[group], group clamped to [0, groups]
    group = smin(smax(group, b.getInt64(0)), w.groups);
    return b.CreateLoad(i64Ty_, b.CreateInBoundsGEP(i64Ty_, w.starts, group));
  };
  auto bound = [&](Bound kind, const std::optional<SqlValue>& offset, bool isStart) -> llvm::Value* {
    switch (kind) {
      case Bound::UnboundedPreceding: return w.ps;
      case Bound::UnboundedFollowing: return w.pe;
      case Bound::CurrentRow:
        if (f.mode == Mode::Rows) return isStart ? w.r : b.CreateAdd(w.r, b.getInt64(1));
        return isStart ? w.gs : w.ge;
      case Bound::Preceding:
      case Bound::Following: {
        bool preceding = kind == Bound::Preceding;
        if (f.mode == Mode::Range) return windowRangeBound(w, *offset, preceding, !isStart);
        llvm::Value* delta = preceding ? b.CreateNeg(offset->v) : offset->v;
        if (f.mode == Mode::Rows) {
          llvm::Value* at = plus(w.r, delta);
          if (!isStart) at = plus(at, b.getInt64(1));
          return smin(smax(at, w.ps), w.pe);
        }
        llvm::Value* group = plus(w.g, delta);  // Groups
        if (!isStart) group = plus(group, b.getInt64(1));
        return groupStart(group);
      }
    }
    return nullptr;
  };
  return {bound(f.start, s.startOffset, true), bound(f.end, s.endOffset, false)};
}

// The rows a frame leaves out by EXCLUDE: [xs, xe), less the current row for TIES (`keepsCurrent`).
struct Codegen::FrameExclusion {
  llvm::Value *xs, *xe;
  bool keepsCurrent;
};

Codegen::FrameExclusion Codegen::windowExclusion(WindowCode& w, const WindowFrame& f, llvm::Value* frameEnd) {
  auto& b = b_;
  switch (f.exclude) {
    case WindowFrame::Exclude::NoOthers: return {frameEnd, frameEnd, false};
    case WindowFrame::Exclude::CurrentRow: return {w.r, b.CreateAdd(w.r, b.getInt64(1)), false};
    case WindowFrame::Exclude::Group: return {w.gs, w.ge, false};
    case WindowFrame::Exclude::Ties: return {w.gs, w.ge, true};
  }
  return {frameEnd, frameEnd, false};
}

SqlValue Codegen::windowCallValue(WindowCode& w, size_t k) {
  auto& b = b_;
  const WindowCall& c = w.node.windowCalls[k];
  WindowCode::CallState& s = w.calls[k];
  llvm::Type* f64 = b.getDoubleTy();
  auto smax = [&](llvm::Value* x, llvm::Value* y) { return b.CreateSelect(b.CreateICmpSGT(x, y), x, y); };
  auto smin = [&](llvm::Value* x, llvm::Value* y) { return b.CreateSelect(b.CreateICmpSLT(x, y), x, y); };
  auto fail = [&](WindowArgumentError e) {
    call("duet_q_window_argument_error", b.getVoidTy(), {b.getInt32(static_cast<int32_t>(e))});
    b.CreateUnreachable();
  };
  llvm::Value* partitionRows = b.CreateSub(w.pe, w.ps);
  switch (c.func) {
    case WindowFunc::RowNumber: return notNull(b.CreateAdd(b.CreateSub(w.r, w.ps), b.getInt64(1)), c.resultType);
    case WindowFunc::Rank: return notNull(b.CreateAdd(b.CreateSub(w.gs, w.ps), b.getInt64(1)), c.resultType);
    case WindowFunc::DenseRank: return notNull(b.CreateAdd(w.g, b.getInt64(1)), c.resultType);
    case WindowFunc::PercentRank: {
      llvm::Value* others = b.CreateSub(partitionRows, b.getInt64(1));
      llvm::Value* rank =
          b.CreateFDiv(b.CreateSIToFP(b.CreateSub(w.gs, w.ps), f64), b.CreateSIToFP(smax(others, b.getInt64(1)), f64));
      return notNull(b.CreateSelect(b.CreateICmpSGT(others, b.getInt64(0)), rank, llvm::ConstantFP::get(f64, 0.0)),
                     c.resultType);
    }
    case WindowFunc::CumeDist:
      return notNull(b.CreateFDiv(b.CreateSIToFP(b.CreateSub(w.ge, w.ps), f64), b.CreateSIToFP(partitionRows, f64)),
                     c.resultType);
    case WindowFunc::Ntile: {
      // PostgreSQL's buckets: the first (rows % n) hold one row more than the others; with
      // fewer rows than buckets, a row each.
      SqlValue n = expr(*c.args[0], w.row);
      ifThen(b.CreateAnd(b.CreateNot(n.null), b.CreateICmpSLE(n.v, b.getInt32(0))),
             [&] { fail(WindowArgumentError::NtileNotPositive); });
      llvm::Value* buckets = b.CreateSExt(b.CreateSelect(n.null, b.getInt32(1), n.v), i64Ty_);
      buckets = smax(buckets, b.getInt64(1));
      llvm::Value* i = b.CreateSub(w.r, w.ps);
      llvm::Value* per = b.CreateSDiv(partitionRows, buckets);
      llvm::Value* rem = b.CreateSRem(partitionRows, buckets);
      llvm::Value* perSafe = smax(per, b.getInt64(1));
      llvm::Value* big = b.CreateMul(rem, b.CreateAdd(per, b.getInt64(1)));
      llvm::Value* inBig = b.CreateAdd(b.CreateSDiv(i, b.CreateAdd(per, b.getInt64(1))), b.getInt64(1));
      llvm::Value* inSmall = b.CreateAdd(b.CreateAdd(rem, b.CreateSDiv(b.CreateSub(i, big), perSafe)), b.getInt64(1));
      llvm::Value* bucket = b.CreateSelect(b.CreateICmpSLT(i, big), inBig, inSmall);
      bucket = b.CreateSelect(b.CreateICmpEQ(per, b.getInt64(0)), b.CreateAdd(i, b.getInt64(1)), bucket);
      return {b.CreateTrunc(bucket, b.getInt32Ty()), n.null, c.resultType};
    }
    case WindowFunc::Lag:
    case WindowFunc::Lead: {
      SqlValue offset = c.args.size() > 1 ? expr(*c.args[1], w.row) : notNull(b.getInt32(1), {TypeId::Int4, -1});
      llvm::Value* delta = b.CreateSExt(offset.v, i64Ty_);
      llvm::Value* j = c.func == WindowFunc::Lag ? b.CreateSub(w.r, delta) : b.CreateAdd(w.r, delta);
      llvm::Value* present =
          b.CreateAnd(b.CreateNot(offset.null), b.CreateAnd(b.CreateICmpSGE(j, w.ps), b.CreateICmpSLT(j, w.pe)));
      SqlValue otherwise = c.args.size() > 2 ? expr(*c.args[2], w.row) : nullOf(c.resultType);
      otherwise.null = b.CreateOr(otherwise.null, offset.null);
      return windowArgAt(w, *c.args[0], present, j, otherwise);
    }
    case WindowFunc::FirstValue:
    case WindowFunc::LastValue:
    case WindowFunc::NthValue: {
      auto [fs, fe] = windowFrameRows(w, k);
      FrameExclusion x = windowExclusion(w, c.frame, fe);
      // The frame's rows in order: [fs, min(fe, xs)), the current row (TIES), [max(fs, xe), fe).
      llvm::Value* zero = b.getInt64(0);
      llvm::Value* firstEnd = smin(fe, x.xs);
      llvm::Value* len1 = smax(b.CreateSub(firstEnd, fs), zero);
      llvm::Value* mid =
          x.keepsCurrent ? b.CreateZExt(b.CreateAnd(b.CreateICmpSGE(w.r, fs), b.CreateICmpSLT(w.r, fe)), i64Ty_) : zero;
      llvm::Value* secondStart = smax(fs, x.xe);
      llvm::Value* len2 = smax(b.CreateSub(fe, secondStart), zero);
      llvm::Value* count = b.CreateAdd(b.CreateAdd(len1, mid), len2);
      llvm::Value* nth;  // which of them, 0-based
      std::optional<SqlValue> n;
      if (c.func == WindowFunc::FirstValue) {
        nth = zero;
      } else if (c.func == WindowFunc::LastValue) {
        nth = b.CreateSub(count, b.getInt64(1));
      } else {
        n = expr(*c.args[1], w.row);
        ifThen(b.CreateAnd(b.CreateNot(n->null), b.CreateICmpSLE(n->v, b.getInt32(0))),
               [&] { fail(WindowArgumentError::NthValueNotPositive); });
        nth = b.CreateSub(b.CreateSExt(n->v, i64Ty_), b.getInt64(1));
      }
      llvm::Value* inSecond = b.CreateAdd(secondStart, b.CreateSub(nth, b.CreateAdd(len1, mid)));
      llvm::Value* index = b.CreateSelect(b.CreateICmpSLT(nth, len1), b.CreateAdd(fs, nth),
                                          b.CreateSelect(b.CreateICmpSLT(nth, b.CreateAdd(len1, mid)), w.r, inSecond));
      llvm::Value* present = b.CreateAnd(b.CreateICmpSGE(nth, zero), b.CreateICmpSLT(nth, count));
      if (n) present = b.CreateAnd(present, b.CreateNot(n->null));
      return windowArgAt(w, *c.args[0], present, index, nullOf(c.resultType));
    }
    case WindowFunc::Aggregate: {
      auto [fs, fe] = windowFrameRows(w, k);
      uint32_t size = aggregateStateSize({&c.agg, 1});
      auto fold = [&](llvm::Value* from, llvm::Value* to) {
        loop(
            from, [&] { return smax(to, from); },
            [&](llvm::Value* j, llvm::BasicBlock*) { accumulateAggregate(c.agg, 0, s.state, windowRowAt(w, j)); });
      };
      auto restart = [&] { b.CreateMemSet(s.state, b.getInt8(0), size, llvm::Align(16)); };
      if (c.frame.exclude == WindowFrame::Exclude::NoOthers) {
        // The state holds [foldedStart, foldedEnd): go on from there while the frame starts
        // where it did and only grew.
        llvm::Value* sameStart = b.CreateICmpEQ(fs, b.CreateLoad(i64Ty_, s.foldedStart));
        llvm::Value* foldedEnd = b.CreateLoad(i64Ty_, s.foldedEnd);
        llvm::Value* grows = b.CreateAnd(sameStart, b.CreateICmpSGE(fe, foldedEnd));
        ifThen(b.CreateNot(grows), restart);
        fold(b.CreateSelect(grows, foldedEnd, fs), fe);
        b.CreateStore(fs, s.foldedStart);
        b.CreateStore(smax(fe, fs), s.foldedEnd);
      } else {
        FrameExclusion x = windowExclusion(w, c.frame, fe);
        restart();
        fold(fs, smin(fe, x.xs));
        if (x.keepsCurrent)
          ifThen(b.CreateAnd(b.CreateICmpSGE(w.r, fs), b.CreateICmpSLT(w.r, fe)),
                 [&] { accumulateAggregate(c.agg, 0, s.state, w.row); });
        fold(smax(fs, x.xe), fe);
      }
      return aggregateResult(c.agg, 0, s.state);
    }
  }
  return nullOf(c.resultType);
}

void Codegen::produceWindow(const Node& node, const Consumer& consume) {
  auto& b = b_;
  const Node& input = *node.children[0];
  WindowCode w{.node = node, .layout = out_.layouts.add(TupleLayout::of(input.outputTypes)), .row = {}, .calls = {}};
  auto spec = std::make_unique<std::vector<rt::SortSpec>>();
  for (const auto& k : node.sortKeys) spec->push_back({k.column, k.descending, k.nullsFirst});
  w.buffer = call(
      "duet_q_window_new", ptrTy_,
      {qctx_, ptrConst(w.layout), ptrConst(spec->data()), b.getInt32(spec->size()), b.getInt32(node.partitionKeys)});
  out_.sortSpecs.push_back(std::move(spec));
  llvm::Value* tuple = tupleAlloca(*w.layout);
  producePipeline(input, [&](Row& row) {
    storeRow(tuple, *w.layout, row);
    call("duet_q_sorter_add", b.getVoidTy(), {w.buffer, tuple});
  });
  call("duet_q_sorter_sort", b.getVoidTy(), {w.buffer});

  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  for (const WindowCall& c : node.windowCalls) {
    WindowCode::CallState s{};
    s.startOffset = windowFrameOffset(c.frame.startOffset.get(), c.frame.mode, true);
    s.endOffset = windowFrameOffset(c.frame.endOffset.get(), c.frame.mode, false);
    if (c.func == WindowFunc::Aggregate) {
      auto* state = eb.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), aggregateStateSize({&c.agg, 1})));
      state->setAlignment(llvm::Align(16));
      s.state = state;
      s.foldedStart = eb.CreateAlloca(i64Ty_);
      s.foldedEnd = eb.CreateAlloca(i64Ty_);
    }
    w.calls.push_back(s);
  }
  llvm::Value* partitionStart = eb.CreateAlloca(i64Ty_);
  llvm::Value* group = eb.CreateAlloca(i64Ty_);
  llvm::Value* n = call("duet_q_buffer_size", i64Ty_, {w.buffer});
  b.CreateStore(b.getInt64(0), partitionStart);

  llvm::BasicBlock* head = block("window.partition");
  llvm::BasicBlock* body = block("window.partition.rows");
  llvm::BasicBlock* done = block("window.done");
  b.CreateBr(head);
  b.SetInsertPoint(head);
  w.ps = b.CreateLoad(i64Ty_, partitionStart);
  b.CreateCondBr(b.CreateICmpULT(w.ps, n), body, done);
  b.SetInsertPoint(body);
  checkCancel();
  w.pe = call("duet_q_window_partition", i64Ty_, {w.buffer, w.ps});
  w.starts = call("duet_q_window_group_starts", ptrTy_, {w.buffer});
  w.groups = call("duet_q_window_groups", i64Ty_, {w.buffer});
  b.CreateStore(b.getInt64(0), group);
  for (size_t k = 0; k < node.windowCalls.size(); ++k) {
    if (!w.calls[k].state) continue;  // an aggregate's state starts over with each partition
    b.CreateMemSet(w.calls[k].state, b.getInt8(0), aggregateStateSize({&node.windowCalls[k].agg, 1}), llvm::Align(16));
    b.CreateStore(w.ps, w.calls[k].foldedStart);
    b.CreateStore(w.ps, w.calls[k].foldedEnd);
  }
  loop(
      w.ps, [&] { return w.pe; },
      [&](llvm::Value* r, llvm::BasicBlock*) {
        w.r = r;
        // The current row's peer group: the next one begins where the row is.
        llvm::Value* g = b.CreateLoad(i64Ty_, group);
        llvm::Value* nextStart =
            b.CreateLoad(i64Ty_, b.CreateInBoundsGEP(i64Ty_, w.starts, b.CreateAdd(g, b.getInt64(1))));
        g = b.CreateSelect(b.CreateICmpEQ(r, nextStart), b.CreateAdd(g, b.getInt64(1)), g);
        b.CreateStore(g, group);
        w.g = g;
        w.gs = b.CreateLoad(i64Ty_, b.CreateInBoundsGEP(i64Ty_, w.starts, g));
        w.ge = b.CreateLoad(i64Ty_, b.CreateInBoundsGEP(i64Ty_, w.starts, b.CreateAdd(g, b.getInt64(1))));
        w.row = windowRowAt(w, r);
        Row out = w.row;
        for (size_t k = 0; k < node.windowCalls.size(); ++k) out.push_back(windowCallValue(w, k));
        consume(out);
      });
  b.CreateStore(w.pe, partitionStart);
  b.CreateBr(head);
  b.SetInsertPoint(done);
}

}  // namespace duet::codegen
