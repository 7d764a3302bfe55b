// SQL operators on SqlValues: comparison, arithmetic, negation, abs and truth. Fixed-width
// work is emitted inline with PostgreSQL's overflow and division checks, and so are
// numeric's common cases (same-scale comparisons, +, - and *); the rest of numeric, string
// and date work calls the precompiled duet_rt_* runtime functions.
#include "compiler/codegen/runtime_names.h"
#include "compiler/codegen/sql_value.h"
#include "engine/types/numeric.h"

namespace duet::codegen {

using plan::Op;

namespace {
bool isIntLike(TypeId t) {
  return isIntegerType(t) || t == TypeId::Date || t == TypeId::Timestamp || t == TypeId::TimestampTz;
}
bool isFloat(TypeId t) { return t == TypeId::Float4 || t == TypeId::Float8; }
}  // namespace

llvm::Value* ValueBuilder::isTrue(const SqlValue& v) { return b_.CreateAnd(b_.CreateNot(v.null), v.v); }

SqlValue ValueBuilder::compare(Op op, const SqlValue& a, const SqlValue& b) {
  return strict({a, b}, {TypeId::Bool, -1}, [&] { return compareValues(op, a.type.id, a.v, b.v); });
}

SqlValue ValueBuilder::rowCompare(Op op, std::span<const SqlValue> a, std::span<const SqlValue> b) {
  if (a.size() == 1) return compare(op, a[0], b[0]);
  SqlType boolean{TypeId::Bool, -1};
  if (op == Op::Eq || op == Op::Ne) {
    // = is false once a pair is unequal, <> true once one is; NULL if a NULL pair remains.
    llvm::Value* decided = b_.getFalse();
    llvm::Value* anyNull = b_.getFalse();
    for (size_t i = 0; i < a.size(); ++i) {
      SqlValue c = compare(op, a[i], b[i]);
      decided = b_.CreateOr(decided, b_.CreateAnd(b_.CreateNot(c.null), op == Op::Eq ? b_.CreateNot(c.v) : c.v));
      anyNull = b_.CreateOr(anyNull, c.null);
    }
    return {op == Op::Eq ? b_.CreateNot(decided) : decided, b_.CreateAnd(anyNull, b_.CreateNot(decided)), boolean};
  }
  // From the last pair back: the last pair's op decides when all before it are equal; an
  // earlier unequal pair decides by the strict form of op (<= orders as <).
  Op strictOp = op == Op::Le ? Op::Lt : op == Op::Ge ? Op::Gt : op;
  SqlValue result = compare(op, a.back(), b.back());
  for (size_t i = a.size() - 1; i-- > 0;) {
    SqlValue equal = compare(Op::Eq, a[i], b[i]);
    SqlValue ordered = compare(strictOp, a[i], b[i]);
    result = {b_.CreateSelect(equal.v, result.v, ordered.v), b_.CreateSelect(equal.v, result.null, b_.getFalse()),
              boolean};
    result.null = b_.CreateOr(equal.null, result.null);
  }
  return result;
}

llvm::Value* ValueBuilder::compareValues(Op op, TypeId t, llvm::Value* a, llvm::Value* bv) {
  using P = llvm::CmpInst::Predicate;
  if (isIntLike(t) || t == TypeId::Bool || t == TypeId::Uuid) {
    bool u = t == TypeId::Bool || t == TypeId::Uuid;  // a uuid's unsigned order is its byte order
    P p = op == Op::Eq   ? P::ICMP_EQ
          : op == Op::Ne ? P::ICMP_NE
          : op == Op::Lt ? (u ? P::ICMP_ULT : P::ICMP_SLT)
          : op == Op::Le ? (u ? P::ICMP_ULE : P::ICMP_SLE)
          : op == Op::Gt ? (u ? P::ICMP_UGT : P::ICMP_SGT)
                         : (u ? P::ICMP_UGE : P::ICMP_SGE);
    return b_.CreateICmp(p, a, bv);
  }
  if (isFloat(t)) {
    // PostgreSQL orders NaN above every other value and equal to itself (as the runtime's
    // floatCompare and so the indexes do); ordered IEEE comparisons decide the rest.
    llvm::Value* aNaN = b_.CreateFCmpUNO(a, a);
    llvm::Value* bNaN = b_.CreateFCmpUNO(bv, bv);
    switch (op) {
      case Op::Eq: return b_.CreateOr(b_.CreateFCmpOEQ(a, bv), b_.CreateAnd(aNaN, bNaN));
      case Op::Ne: return b_.CreateNot(b_.CreateOr(b_.CreateFCmpOEQ(a, bv), b_.CreateAnd(aNaN, bNaN)));
      case Op::Lt: return b_.CreateOr(b_.CreateFCmpOLT(a, bv), b_.CreateAnd(b_.CreateNot(aNaN), bNaN));
      case Op::Le: return b_.CreateOr(b_.CreateFCmpOLE(a, bv), bNaN);
      case Op::Gt: return b_.CreateOr(b_.CreateFCmpOGT(a, bv), b_.CreateAnd(aNaN, b_.CreateNot(bNaN)));
      default: return b_.CreateOr(b_.CreateFCmpOGE(a, bv), aNaN);
    }
  }
  // numeric and strings: a three-way runtime comparison, then compare with zero
  P p = op == Op::Eq   ? P::ICMP_EQ
        : op == Op::Ne ? P::ICMP_NE
        : op == Op::Lt ? P::ICMP_SLT
        : op == Op::Le ? P::ICMP_SLE
        : op == Op::Gt ? P::ICMP_SGT
                       : P::ICMP_SGE;
  auto runtimeCompare = [&] { return b_.CreateICmp(p, call(rtCompare(t), b_.getInt32Ty(), {a, bv}), b_.getInt32(0)); };
  if (t != TypeId::Numeric) return runtimeCompare();
  // Numerics of one scale (a numeric(p,s) column and a constant written with s decimals)
  // order as their packed representations (mantissa << 8 | scale) do; others in the runtime.
  llvm::Value* sameScale = sameNumericScale(a, bv);
  llvm::BasicBlock* packed = block("numeric.cmp.packed");
  llvm::BasicBlock* scaled = block("numeric.cmp.scaled");
  llvm::BasicBlock* done = block("numeric.cmp.done");
  b_.CreateCondBr(sameScale, packed, scaled);
  b_.SetInsertPoint(packed);
  llvm::Value* fast = b_.CreateICmp(p, a, bv);
  b_.CreateBr(done);
  b_.SetInsertPoint(scaled);
  llvm::Value* slow = runtimeCompare();
  llvm::BasicBlock* slowEnd = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  llvm::PHINode* result = b_.CreatePHI(b_.getInt1Ty(), 2);
  result->addIncoming(fast, packed);
  result->addIncoming(slow, slowEnd);
  return result;
}

void ValueBuilder::raiseIntegerOverflow(TypeId t) {
  call("duet_rt_raise_int_overflow", b_.getVoidTy(), {b_.getInt32(static_cast<int>(t))});
  b_.CreateUnreachable();
}

SqlValue ValueBuilder::arithmetic(Op op, const SqlValue& a, const SqlValue& b, SqlType result) {
  return strict({a, b}, result, [&]() -> llvm::Value* {
    // Date arithmetic in the runtime: infinities, and results outside the date range
    // (22008, as PostgreSQL), which no date input could read back.
    if (a.type.id == TypeId::Date && result.id == TypeId::Int4)  // date - date
      return call("duet_rt_date_diff", b_.getInt32Ty(), {a.v, b.v});
    if (a.type.id == TypeId::Interval || b.type.id == TypeId::Interval || result.id == TypeId::Interval)
      return intervalArithmetic(op, a, b, result);
    if (result.id == TypeId::Date)  // date +/- integer
      return call(op == Op::Add ? "duet_rt_date_add_days" : "duet_rt_date_sub_days", b_.getInt32Ty(),
                  {a.v, b_.CreateSExtOrTrunc(b.v, b_.getInt32Ty())});
    return arithmeticValues(op, result.id, a.v, b.v);
  });
}

// The interval operators the binder produces (bindDatetimeArithmetic): timestamp(tz) +/-
// interval (timestamptz in the session's zone), timestamp - timestamp, interval +/-
// interval, interval * and / double precision; all in the runtime.
llvm::Value* ValueBuilder::intervalArithmetic(Op op, const SqlValue& a, const SqlValue& b, SqlType result) {
  llvm::Type* i128 = b_.getInt128Ty();
  bool add = op == Op::Add;
  if (a.type.id == TypeId::Timestamp && b.type.id == TypeId::Interval)
    return call(add ? "duet_rt_timestamp_pl_interval" : "duet_rt_timestamp_mi_interval", i64Ty_, {a.v, b.v});
  if (a.type.id == TypeId::TimestampTz && b.type.id == TypeId::Interval)
    return call(add ? "duet_rt_timestamptz_pl_interval" : "duet_rt_timestamptz_mi_interval", i64Ty_,
                {a.v, b.v, typeContext()});
  if (a.type.id != TypeId::Interval)  // timestamp - timestamp
    return call("duet_rt_timestamp_mi", i128, {a.v, b.v});
  return call(rtArith(op, result.id), i128, {a.v, b.v});  // interval +, -, *, /
}

llvm::Value* ValueBuilder::arithmeticValues(Op op, TypeId t, llvm::Value* a, llvm::Value* bv) {
  if (op == Op::BitAnd) return b_.CreateAnd(a, bv);
  if (op == Op::BitOr) return b_.CreateOr(a, bv);
  if (op == Op::BitXor) return b_.CreateXor(a, bv);
  if (op == Op::ShiftLeft || op == Op::ShiftRight) {
    // PostgreSQL shifts in C: a smallint is widened to integer first, and the count is
    // taken modulo the width the machine shifts (x86: 32 or 64 bits), never an error.
    llvm::Type* wide = t == TypeId::Int8 ? i64Ty_ : b_.getInt32Ty();
    llvm::Value* value = b_.CreateSExt(a, wide);
    llvm::Value* count =
        b_.CreateAnd(b_.CreateSExtOrTrunc(bv, wide), llvm::ConstantInt::get(wide, t == TypeId::Int8 ? 63 : 31));
    llvm::Value* shifted = op == Op::ShiftLeft ? b_.CreateShl(value, count) : b_.CreateAShr(value, count);
    return b_.CreateTrunc(shifted, a->getType());
  }
  if (isIntLike(t)) {
    llvm::Intrinsic::ID id = op == Op::Add   ? llvm::Intrinsic::sadd_with_overflow
                             : op == Op::Sub ? llvm::Intrinsic::ssub_with_overflow
                             : op == Op::Mul ? llvm::Intrinsic::smul_with_overflow
                                             : llvm::Intrinsic::not_intrinsic;
    if (id != llvm::Intrinsic::not_intrinsic) {
      llvm::Value* r = b_.CreateBinaryIntrinsic(id, a, bv);
      ifThen(b_.CreateExtractValue(r, 1), [&] { raiseIntegerOverflow(t); });
      return b_.CreateExtractValue(r, 0);
    }
    if (op == Op::Div || op == Op::Mod) {
      llvm::Value* zero = llvm::ConstantInt::get(a->getType(), 0);
      ifThen(b_.CreateICmpEQ(bv, zero), [&] {
        call("duet_rt_raise_division_by_zero", b_.getVoidTy(), {});
        b_.CreateUnreachable();
      });
      // x / -1 and x % -1 are special: INT_MIN / -1 overflows, and both trap in hardware.
      llvm::Value* minusOne = b_.CreateICmpEQ(bv, llvm::ConstantInt::getSigned(a->getType(), -1));
      if (op == Op::Mod) {
        return b_.CreateSelect(
            minusOne, zero, b_.CreateSRem(a, b_.CreateSelect(minusOne, llvm::ConstantInt::get(a->getType(), 1), bv)));
      }
      llvm::Value* neg = b_.CreateBinaryIntrinsic(llvm::Intrinsic::ssub_with_overflow, zero, a);
      ifThen(b_.CreateAnd(minusOne, b_.CreateExtractValue(neg, 1)), [&] { raiseIntegerOverflow(t); });
      llvm::Value* safeDivisor = b_.CreateSelect(minusOne, llvm::ConstantInt::get(a->getType(), 1), bv);
      return b_.CreateSelect(minusOne, b_.CreateExtractValue(neg, 0), b_.CreateSDiv(a, safeDivisor));
    }
  }
  if (op == Op::Concat) return call("duet_rt_text_concat", ptrTy_, {a, bv});
  if (t == TypeId::Numeric && (op == Op::Add || op == Op::Sub || op == Op::Mul)) return numericArithmetic(op, a, bv);
  // Floats (whose runtime versions raise PostgreSQL's overflow, underflow and division
  // errors), numeric, and an integer's power.
  return call(rtArith(op, t), a->getType(), {a, bv});
}

// Whether two numerics' packed representations carry the same scale (their low bytes).
llvm::Value* ValueBuilder::sameNumericScale(llvm::Value* a, llvm::Value* b) {
  llvm::Type* i128 = a->getType();
  return b_.CreateICmpEQ(b_.CreateAnd(b_.CreateXor(a, b), llvm::ConstantInt::get(i128, 0xff)),
                         llvm::ConstantInt::get(i128, 0));
}

// numeric +, - and * as the runtime's inline fast paths (engine/types/numeric.h: numericAdd,
// numericSub, numericMul) in IR, so that sum(l_extendedprice * (1 - l_discount)) costs a
// few instructions per row instead of calls: operands of one scale add and subtract as
// packed integers, mantissas within 64 bits multiply in one instruction. Anything else
// (other scales, overflow, its error) goes to the runtime function, which decides it.
llvm::Value* ValueBuilder::numericArithmetic(Op op, llvm::Value* a, llvm::Value* bv) {
  llvm::Type* i128 = a->getType();
  llvm::Value* scaleMask = llvm::ConstantInt::get(i128, 0xff);
  llvm::BasicBlock* slow = block("numeric.slow");
  llvm::BasicBlock* done = block("numeric.done");
  llvm::Value* fast;
  llvm::Value* fastOk;
  if (op == Op::Mul) {
    llvm::Value* ma = b_.CreateAShr(a, 8);
    llvm::Value* mb = b_.CreateAShr(bv, 8);
    llvm::Value* ma64 = b_.CreateTrunc(ma, i64Ty_);
    llvm::Value* mb64 = b_.CreateTrunc(mb, i64Ty_);
    llvm::Value* fits =
        b_.CreateAnd(b_.CreateICmpEQ(b_.CreateSExt(ma64, i128), ma), b_.CreateICmpEQ(b_.CreateSExt(mb64, i128), mb));
    llvm::Value* scale = b_.CreateAdd(b_.CreateAnd(a, scaleMask), b_.CreateAnd(bv, scaleMask));
    fits = b_.CreateAnd(fits, b_.CreateICmpULE(scale, llvm::ConstantInt::get(i128, kNumericMaxScale)));
    llvm::Value* product = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smul_with_overflow, ma64, mb64);
    fastOk = b_.CreateAnd(fits, b_.CreateNot(b_.CreateExtractValue(product, 1)));
    fast = b_.CreateOr(b_.CreateShl(b_.CreateSExt(b_.CreateExtractValue(product, 0), i128), 8), scale);
  } else {
    // Operands of one scale (sum(l_quantity); 1 - l_discount, whose 1 Codegen::scaledOperand
    // writes as 1.00): b's scale byte cleared, so that a's stays the result's. Others are
    // aligned by the runtime.
    llvm::Value* sameScale = sameNumericScale(a, bv);
    llvm::Value* r = b_.CreateBinaryIntrinsic(
        op == Op::Add ? llvm::Intrinsic::sadd_with_overflow : llvm::Intrinsic::ssub_with_overflow, a,
        b_.CreateAnd(bv, b_.CreateNot(scaleMask)));
    fast = b_.CreateExtractValue(r, 0);
    const uint64_t lowestWords[] = {static_cast<uint64_t>(kNumericLowestRep),
                                    static_cast<uint64_t>(kNumericLowestRep >> 64)};  // low word first
    llvm::Value* lowest = llvm::ConstantInt::get(ctx_, llvm::APInt(128, lowestWords));
    fastOk = b_.CreateAnd(b_.CreateAnd(sameScale, b_.CreateNot(b_.CreateExtractValue(r, 1))),
                          b_.CreateICmpSGE(fast, lowest));
  }
  llvm::BasicBlock* fastEnd = b_.GetInsertBlock();
  b_.CreateCondBr(fastOk, done, slow);
  b_.SetInsertPoint(slow);
  llvm::Value* general = call(rtArith(op, TypeId::Numeric), i128, {a, bv});
  llvm::BasicBlock* slowEnd = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  llvm::PHINode* result = b_.CreatePHI(i128, 2);
  result->addIncoming(fast, fastEnd);
  result->addIncoming(general, slowEnd);
  return result;
}

SqlValue ValueBuilder::negate(const SqlValue& v) {
  TypeId t = v.type.id;
  return strict({v}, v.type, [&]() -> llvm::Value* {
    if (isFloat(t)) return b_.CreateFNeg(v.v);
    if (isIntegerType(t)) return arithmeticValues(Op::Sub, t, llvm::ConstantInt::get(v.v->getType(), 0), v.v);
    return call(rtArith(Op::Neg, t), sqlType(t), {v.v});
  });
}

// abs(): integers negate with the overflow check (abs of the smallest value is out of
// range, as in PostgreSQL).
SqlValue ValueBuilder::absolute(const SqlValue& v) {
  TypeId t = v.type.id;
  return strict({v}, v.type, [&]() -> llvm::Value* {
    if (isFloat(t)) return b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v.v);
    if (!isIntegerType(t)) return call("duet_rt_numeric_abs", sqlType(t), {v.v});
    llvm::Value* zero = llvm::ConstantInt::get(v.v->getType(), 0);
    return b_.CreateSelect(b_.CreateICmpSLT(v.v, zero), arithmeticValues(Op::Sub, t, zero, v.v), v.v);
  });
}

}  // namespace duet::codegen
