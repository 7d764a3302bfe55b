// Expressions to LLVM IR. Fixed-width arithmetic is emitted inline with overflow checks;
// numeric, string and conversion work calls the precompiled duet_rt_* runtime functions.
#include <algorithm>
#include <iterator>

#include "compiler/codegen/codegen_internal.h"
#include "compiler/codegen/runtime_names.h"
#include "engine/error.h"
#include "engine/limits/stack_depth.h"
#include "engine/types/array.h"

namespace duet::codegen {

using plan::Expr;
using plan::ExprKind;
using plan::Op;

namespace {
bool isIntLike(TypeId t) {
  return isIntegerType(t) || t == TypeId::Date || t == TypeId::Timestamp || t == TypeId::TimestampTz;
}
bool isFloat(TypeId t) { return t == TypeId::Float4 || t == TypeId::Float8; }
bool isString(TypeId t) { return isStringType(t); }
}  // namespace

llvm::Value* Codegen::isTrue(Val v) { return b_.CreateAnd(b_.CreateNot(v.null), v.v); }

llvm::Value* Codegen::compare(Op op, TypeId t, llvm::Value* a, llvm::Value* bv) {
  using P = llvm::CmpInst::Predicate;
  if (isIntLike(t) || t == TypeId::Bool) {
    bool u = t == TypeId::Bool;
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
  llvm::Value* c = call(rtCompare(t), b_.getInt32Ty(), {a, bv});
  llvm::Value* zero = b_.getInt32(0);
  P p = op == Op::Eq   ? P::ICMP_EQ
        : op == Op::Ne ? P::ICMP_NE
        : op == Op::Lt ? P::ICMP_SLT
        : op == Op::Le ? P::ICMP_SLE
        : op == Op::Gt ? P::ICMP_SGT
                       : P::ICMP_SGE;
  return b_.CreateICmp(p, c, zero);
}

// x IN (items): x evaluated once, then one loop compares it with each item (PostgreSQL's
// = ANY over the list). Items that are all parameters - lifted literals, the usual case -
// are read in the loop from the parameter tuple through a table of their offsets, so the
// code does not grow with the list; other items are evaluated first into arrays. An
// unrolled chain of comparisons made LLVM superlinear in the list's length (a 1,000-item
// list compiled for minutes). True when an item equals x; otherwise NULL when x or an
// item is NULL.
Val Codegen::inList(const plan::Expr& e, const Row& row) {
  Val x = expr(*e.args[0], row);
  TypeId t = e.args[0]->type.id;
  uint64_t n = e.args.size() - 1;
  llvm::Type* vt = sqlType(t);
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Value* found = eb.CreateAlloca(eb.getInt1Ty());
  llvm::Value* sawNull = eb.CreateAlloca(eb.getInt1Ty());
  bool allParams = paramsInTuple_ && std::all_of(e.args.begin() + 1, e.args.end(),
                                                 [](const plan::ExprPtr& a) { return a->kind == ExprKind::Param; });
  std::function<Val(llvm::Value*)> item;
  if (allParams) {
    std::vector<uint32_t> valueOffsets, nullOffsets;
    for (uint64_t i = 0; i < n; ++i) {
      size_t p = static_cast<size_t>(e.args[i + 1]->param);
      valueOffsets.push_back(out_.paramLayout.offsets[p]);
      nullOffsets.push_back(out_.paramLayout.nullOffset(p));
    }
    auto table = [&](const std::vector<uint32_t>& offsets) -> llvm::Value* {
      llvm::Constant* init = llvm::ConstantDataArray::get(ctx_, offsets);
      return new llvm::GlobalVariable(module_, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                      "in.offsets");
    };
    llvm::Value* values = table(valueOffsets);
    llvm::Value* nulls = table(nullOffsets);
    item = [&, values, nulls](llvm::Value* i) {
      auto at = [&](llvm::Value* offsets) {
        llvm::Value* offset = b_.CreateLoad(b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), offsets, i));
        return b_.CreateInBoundsGEP(b_.getInt8Ty(), params_, offset);
      };
      return loadValue(at(values), at(nulls), t);
    };
  } else {
    llvm::Value* values = eb.CreateAlloca(vt, eb.getInt64(n));
    llvm::Value* nulls = eb.CreateAlloca(eb.getInt1Ty(), eb.getInt64(n));
    for (uint64_t i = 0; i < n; ++i) {
      Val v = expr(*e.args[i + 1], row);
      b_.CreateStore(v.v, b_.CreateConstInBoundsGEP1_64(vt, values, i));
      b_.CreateStore(v.null, b_.CreateConstInBoundsGEP1_64(b_.getInt1Ty(), nulls, i));
    }
    item = [&, values, nulls](llvm::Value* i) {
      return Val{b_.CreateLoad(vt, b_.CreateInBoundsGEP(vt, values, i)),
                 b_.CreateLoad(b_.getInt1Ty(), b_.CreateInBoundsGEP(b_.getInt1Ty(), nulls, i))};
    };
  }
  b_.CreateStore(b_.getFalse(), found);
  b_.CreateStore(x.null, sawNull);
  ifThen(b_.CreateNot(x.null), [&] {
    loop(
        b_.getInt64(0), [&] { return b_.getInt64(n); },
        [&](llvm::Value* i, llvm::BasicBlock*) {
          Val v = item(i);
          b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt1Ty(), sawNull), v.null), sawNull);
          ifThen(b_.CreateNot(v.null), [&] {
            llvm::Value* equal = compare(Op::Eq, t, x.v, v.v);
            b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt1Ty(), found), equal), found);
          });
        });
  });
  llvm::Value* isFound = b_.CreateLoad(b_.getInt1Ty(), found);
  return {isFound, b_.CreateAnd(b_.CreateNot(isFound), b_.CreateLoad(b_.getInt1Ty(), sawNull))};
}

// GREATEST / LEAST: the best non-NULL argument so far in a slot, each argument evaluated
// once; NULL only when all are.
Val Codegen::greatest(const plan::Expr& e, const Row& row) {
  TypeId t = e.type.id;
  llvm::Type* vt = sqlType(t);
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Value* best = eb.CreateAlloca(vt);
  llvm::Value* bestNull = eb.CreateAlloca(eb.getInt1Ty());
  Val first = expr(*e.args[0], row);
  b_.CreateStore(first.v, best);
  b_.CreateStore(first.null, bestNull);
  for (size_t i = 1; i < e.args.size(); ++i) {
    Val v = expr(*e.args[i], row);
    ifThen(b_.CreateNot(v.null), [&] {
      ifThen(b_.CreateLoad(b_.getInt1Ty(), bestNull), [&] {
        b_.CreateStore(v.v, best);
        b_.CreateStore(b_.getFalse(), bestNull);
      });
      ifThen(compare(e.op, t, v.v, b_.CreateLoad(vt, best)), [&] { b_.CreateStore(v.v, best); });
    });
  }
  return {b_.CreateLoad(vt, best), b_.CreateLoad(b_.getInt1Ty(), bestNull)};
}

// abs(): integers negate with the overflow check (abs of the smallest value is out of
// range, as in PostgreSQL).
llvm::Value* Codegen::absolute(TypeId t, llvm::Value* v) {
  if (isFloat(t)) return b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
  if (!isIntegerType(t)) return call("duet_rt_numeric_abs", sqlType(t), {v});
  llvm::Value* zero = llvm::ConstantInt::get(v->getType(), 0);
  return b_.CreateSelect(b_.CreateICmpSLT(v, zero), arithmetic(Op::Sub, t, zero, v), v);
}

llvm::Value* Codegen::arithmetic(Op op, TypeId t, llvm::Value* a, llvm::Value* bv) {
  if (isIntLike(t)) {
    auto raiseOverflow = [&] {
      call("duet_rt_raise_int_overflow", b_.getVoidTy(), {b_.getInt32(static_cast<int>(t))});
      b_.CreateUnreachable();
    };
    llvm::Intrinsic::ID id = op == Op::Add   ? llvm::Intrinsic::sadd_with_overflow
                             : op == Op::Sub ? llvm::Intrinsic::ssub_with_overflow
                             : op == Op::Mul ? llvm::Intrinsic::smul_with_overflow
                                             : llvm::Intrinsic::not_intrinsic;
    if (id != llvm::Intrinsic::not_intrinsic) {
      llvm::Value* r = b_.CreateBinaryIntrinsic(id, a, bv);
      ifThen(b_.CreateExtractValue(r, 1), raiseOverflow);
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
      ifThen(b_.CreateAnd(minusOne, b_.CreateExtractValue(neg, 1)), raiseOverflow);
      llvm::Value* safeDivisor = b_.CreateSelect(minusOne, llvm::ConstantInt::get(a->getType(), 1), bv);
      return b_.CreateSelect(minusOne, b_.CreateExtractValue(neg, 0), b_.CreateSDiv(a, safeDivisor));
    }
    if (op == Op::Pow) {
      return call(rtArith(op, t), a->getType(), {a, bv});
    }
  }
  if (isFloat(t)) {
    // The runtime versions raise PostgreSQL's overflow, underflow and division errors.
    return call(rtArith(op, t), a->getType(), {a, bv});
  }
  if (op == Op::Concat) return call("duet_rt_text_concat", ptrTy_, {a, bv});
  return call(rtArith(op, t), a->getType(), {a, bv});  // numeric
}

Val Codegen::cast(Val v, SqlType from, SqlType to, bool explicitCast) {
  if (from.isArray() || to.isArray()) return castArray(v, from, to, explicitCast);
  if (from.id == to.id) {
    bool needsTypmod = to.typmod >= 0 && from.typmod != to.typmod &&
                       (to.id == TypeId::Varchar || to.id == TypeId::Char || to.id == TypeId::Numeric);
    // varchar(n) into varchar(m >= n) always fits and is never padded.
    if (to.id == TypeId::Varchar && from.typmod >= 0 && from.typmod <= to.typmod) needsTypmod = false;
    if (!needsTypmod) return v;
    return strict({v.null}, to.id, [&]() -> llvm::Value* {
      if (to.id == TypeId::Numeric)
        return call("duet_rt_numeric_apply_typmod", sqlType(to.id), {v.v, b_.getInt32(to.typmod)});
      return call(
          "duet_rt_string_coerce", ptrTy_,
          {v.v, b_.getInt32(static_cast<int>(to.id)), b_.getInt32(to.typmod), b_.getInt8(explicitCast ? 1 : 0)});
    });
  }
  return strict({v.null}, to.id, [&]() -> llvm::Value* {
    TypeId f = from.id, t = to.id;
    if (isIntegerType(f) && isIntegerType(t)) {
      unsigned fb = v.v->getType()->getIntegerBitWidth(), tb = sqlType(t)->getIntegerBitWidth();
      if (tb > fb) return b_.CreateSExt(v.v, sqlType(t));
      llvm::Value* narrowed = b_.CreateTrunc(v.v, sqlType(t));
      ifThen(b_.CreateICmpNE(b_.CreateSExt(narrowed, v.v->getType()), v.v), [&] {
        call("duet_rt_raise_int_overflow", b_.getVoidTy(), {b_.getInt32(static_cast<int>(t))});
        b_.CreateUnreachable();
      });
      return narrowed;
    }
    if (isIntegerType(f) && isFloat(t)) return b_.CreateSIToFP(v.v, sqlType(t));
    if (isIntegerType(f) && t == TypeId::Numeric) {
      // An integer is its own mantissa at scale 0 (NumericRep); only a typmod needs the runtime.
      llvm::Value* n = b_.CreateShl(b_.CreateSExt(v.v, sqlType(t)), 8);
      if (to.typmod < 0) return n;
      return call("duet_rt_numeric_apply_typmod", sqlType(t), {n, b_.getInt32(to.typmod)});
    }
    if (f == TypeId::Float4 && t == TypeId::Float8) return b_.CreateFPExt(v.v, sqlType(t));
    // Same representation, no limit; but char(n) loses its padding (the runtime cast's rtrim1).
    if (isString(f) && f != TypeId::Char && t == TypeId::Text) return v.v;
    // Everything else: the runtime cast (PostgreSQL's rules, typmod applied there).
    llvm::Value* in = f == TypeId::Bool ? b_.CreateZExt(v.v, b_.getInt8Ty()) : v.v;
    llvm::Type* ret = t == TypeId::Bool ? b_.getInt8Ty() : sqlType(t);
    llvm::Value* r =
        call(rtCast(f, t), ret, {in, b_.getInt32(to.typmod), b_.getInt8(explicitCast ? 1 : 0), typeContext()});
    return t == TypeId::Bool ? b_.CreateICmpNE(r, b_.getInt8(0)) : r;
  });
}

// Casts to, from and between array types (the binder allows only these: arrays of castable
// elements, and the I/O conversions with the string types).
Val Codegen::castArray(Val v, SqlType from, SqlType to, bool explicitCast) {
  if (from.isArray() && to.isArray()) {
    bool typmodApplies = to.typmod >= 0 && to.typmod != from.typmod &&
                         (to.element == TypeId::Varchar || to.element == TypeId::Char || to.element == TypeId::Numeric);
    if (from.element == to.element && !typmodApplies) return v;
    return strict({v.null}, TypeId::Array, [&] {
      return call("duet_rt_array_cast", ptrTy_,
                  {v.v, b_.getInt32(static_cast<int>(to.element)), b_.getInt32(to.typmod),
                   b_.getInt8(explicitCast ? 1 : 0), typeContext()});
    });
  }
  if (from.isArray()) {  // array_out, then the string type's length rules
    return strict({v.null}, to.id, [&]() -> llvm::Value* {
      llvm::Value* text = call("duet_rt_array_out", ptrTy_, {v.v, typeContext()});
      if (to.id == TypeId::Text) return text;
      return call(
          "duet_rt_string_coerce", ptrTy_,
          {text, b_.getInt32(static_cast<int>(to.id)), b_.getInt32(to.typmod), b_.getInt8(explicitCast ? 1 : 0)});
    });
  }
  return strict({v.null}, TypeId::Array, [&] {  // array_in from a string
    return call("duet_rt_array_in", ptrTy_,
                {v.v, b_.getInt32(static_cast<int>(to.element)), b_.getInt32(to.typmod),
                 b_.getInt8(explicitCast ? 1 : 0), typeContext()});
  });
}

Val Codegen::expr(const Expr& e, const Row& row) {
  checkStackDepth();
  switch (e.kind) {
    case ExprKind::Column:
    case ExprKind::Aggregate: return row.at(e.column);
    case ExprKind::Param:
      if (valuesParams_) {
        if (auto it = valuesParams_->tables.find(&e); it != valuesParams_->tables.end()) {
          auto offset = [&](llvm::Value* offsets) {
            llvm::Value* slot = b_.CreateInBoundsGEP(b_.getInt32Ty(), offsets, valuesParams_->row);
            return b_.CreateLoad(b_.getInt32Ty(), slot);
          };
          llvm::Value* nullOffset = offset(it->second.second);
          llvm::Value* nullCell = b_.CreateICmpEQ(nullOffset, b_.getInt32(kNullCell));
          nullOffset = b_.CreateSelect(nullCell, b_.getInt32(0), nullOffset);
          Val v =
              loadValue(b_.CreateInBoundsGEP(b_.getInt8Ty(), params_, offset(it->second.first)),
                        b_.CreateInBoundsGEP(b_.getInt8Ty(), params_, nullOffset), out_.paramLayout.types[e.param].id);
          return {v.v, b_.CreateOr(v.null, nullCell)};
        }
      }
      if (paramsInTuple_) return loadField(params_, out_.paramLayout, static_cast<size_t>(e.param));
      return paramRow_.at(e.param);
    case ExprKind::OuterRef: return correlation_.back().at(e.column);
    case ExprKind::Subquery: return subquery(e, row);
    case ExprKind::Const: {
      llvm::Type* t = sqlType(e.type.id);
      if (e.constNull) return {llvm::Constant::getNullValue(t), b_.getTrue()};
      if (isString(e.type.id)) return {stringConstant(e.constString), b_.getFalse()};
      if (e.type.id == TypeId::Bool) return {i1(e.constant[0] != 0), b_.getFalse()};
      if (isFloat(e.type.id)) {
        double d = e.type.id == TypeId::Float4 ? *reinterpret_cast<const float*>(e.constant)
                                               : *reinterpret_cast<const double*>(e.constant);
        return {llvm::ConstantFP::get(t, d), b_.getFalse()};
      }
      unsigned bits = t->getIntegerBitWidth();
      uint64_t words[2];
      std::memcpy(words, e.constant, 16);
      llvm::APInt value(bits, bits > 64 ? llvm::ArrayRef<uint64_t>(words, 2) : llvm::ArrayRef<uint64_t>(words, 1));
      return {llvm::ConstantInt::get(t, value), b_.getFalse()};
    }
    case ExprKind::Cast: {
      Val v = expr(*e.args[0], row);
      return cast(v, e.args[0]->type, e.type, e.explicitCast);
    }
    case ExprKind::Unary: {
      Val v = expr(*e.args[0], row);
      if (e.op == Op::Not) return {b_.CreateNot(v.v), v.null};
      TypeId t = e.type.id;
      return strict({v.null}, t, [&]() -> llvm::Value* {
        if (e.op == Op::Abs) return absolute(t, v.v);
        if (isFloat(t)) return b_.CreateFNeg(v.v);
        if (isIntegerType(t)) return arithmetic(Op::Sub, t, llvm::ConstantInt::get(v.v->getType(), 0), v.v);
        return call(rtArith(Op::Neg, t), sqlType(t), {v.v});
      });
    }
    case ExprKind::Binary: {
      Val a = expr(*e.args[0], row);
      Val bv = expr(*e.args[1], row);
      TypeId operandType = e.args[0]->type.id;
      TypeId t = e.type.id;
      return strict({a.null, bv.null}, t, [&]() -> llvm::Value* {
        // Date arithmetic in the runtime: infinities, and results outside the date range
        // (22008, as PostgreSQL), which no date input could read back.
        if (operandType == TypeId::Date && t == TypeId::Int4)  // date - date
          return call("duet_rt_date_diff", b_.getInt32Ty(), {a.v, bv.v});
        if (t == TypeId::Date)  // date +/- integer
          return call(e.op == Op::Add ? "duet_rt_date_add_days" : "duet_rt_date_sub_days", b_.getInt32Ty(),
                      {a.v, b_.CreateSExtOrTrunc(bv.v, b_.getInt32Ty())});
        return arithmetic(e.op, t, a.v, bv.v);
      });
    }
    case ExprKind::InList: return inList(e, row);
    case ExprKind::Greatest: return greatest(e, row);
    case ExprKind::Compare: {
      Val a = expr(*e.args[0], row);
      Val bv = expr(*e.args[1], row);
      TypeId t = e.args[0]->type.id;
      return strict({a.null, bv.null}, TypeId::Bool, [&] { return compare(e.op, t, a.v, bv.v); });
    }
    case ExprKind::And:
    case ExprKind::Or: {
      // Three-valued logic with short-circuit: AND stops at the first false, OR at the
      // first true; otherwise the result is null if any operand was null.
      bool isAnd = e.kind == ExprKind::And;
      llvm::BasicBlock* join = block(isAnd ? "and.end" : "or.end");
      std::vector<std::pair<llvm::BasicBlock*, std::pair<llvm::Value*, llvm::Value*>>> incoming;
      llvm::Value* sawNull = b_.getFalse();
      for (size_t i = 0; i < e.args.size(); ++i) {
        Val v = expr(*e.args[i], row);
        sawNull = b_.CreateOr(sawNull, v.null);
        if (i + 1 == e.args.size()) {
          llvm::Value* decided =
              isAnd ? b_.CreateAnd(b_.CreateNot(v.null), b_.CreateNot(v.v)) : b_.CreateAnd(b_.CreateNot(v.null), v.v);
          llvm::Value* value = isAnd ? b_.CreateNot(decided) : decided;
          llvm::Value* isNull = b_.CreateAnd(b_.CreateNot(decided), sawNull);
          if (isAnd) value = b_.CreateAnd(value, b_.CreateNot(sawNull));
          incoming.push_back({b_.GetInsertBlock(), {value, isNull}});
          b_.CreateBr(join);
          break;
        }
        llvm::Value* stop =
            isAnd ? b_.CreateAnd(b_.CreateNot(v.null), b_.CreateNot(v.v)) : b_.CreateAnd(b_.CreateNot(v.null), v.v);
        llvm::BasicBlock* more = block("logic.next");
        incoming.push_back({b_.GetInsertBlock(), {i1(!isAnd), b_.getFalse()}});
        b_.CreateCondBr(stop, join, more);
        b_.SetInsertPoint(more);
      }
      b_.SetInsertPoint(join);
      llvm::PHINode* value = b_.CreatePHI(b_.getInt1Ty(), incoming.size());
      llvm::PHINode* isNull = b_.CreatePHI(b_.getInt1Ty(), incoming.size());
      for (auto& [bb, vn] : incoming) {
        value->addIncoming(vn.first, bb);
        isNull->addIncoming(vn.second, bb);
      }
      return {value, isNull};
    }
    case ExprKind::IsNull: {
      Val v = expr(*e.args[0], row);
      return {e.negated ? b_.CreateNot(v.null) : v.null, b_.getFalse()};
    }
    case ExprKind::IsTrue: {
      Val v = expr(*e.args[0], row);
      llvm::Value* matches = b_.CreateAnd(b_.CreateNot(v.null), e.op == Op::Eq ? v.v : b_.CreateNot(v.v));
      return {e.negated ? b_.CreateNot(matches) : matches, b_.getFalse()};
    }
    case ExprKind::Like: {
      Val s = expr(*e.args[0], row);
      Val p = expr(*e.args[1], row);
      return strict({s.null, p.null}, TypeId::Bool, [&] {
        llvm::Value* r =
            call(e.caseInsensitive ? "duet_rt_text_ilike" : "duet_rt_text_like", b_.getInt8Ty(), {s.v, p.v});
        llvm::Value* m = b_.CreateICmpNE(r, b_.getInt8(0));
        return e.negated ? b_.CreateNot(m) : m;
      });
    }
    case ExprKind::Case:
    case ExprKind::Coalesce: {
      llvm::BasicBlock* join = block("case.end");
      std::vector<std::pair<llvm::BasicBlock*, Val>> incoming;
      size_t n = e.args.size();
      bool isCase = e.kind == ExprKind::Case;
      size_t pairs = isCase ? (e.hasElse ? (n - 1) / 2 : n / 2) : n;
      for (size_t i = 0; i < pairs; ++i) {
        llvm::BasicBlock* hit = block("case.hit");
        llvm::BasicBlock* miss = block("case.miss");
        if (isCase) {
          Val cond = expr(*e.args[2 * i], row);
          b_.CreateCondBr(isTrue(cond), hit, miss);
          b_.SetInsertPoint(hit);
          incoming.push_back({nullptr, expr(*e.args[2 * i + 1], row)});
        } else {
          Val v = expr(*e.args[i], row);
          b_.CreateCondBr(b_.CreateNot(v.null), hit, miss);
          b_.SetInsertPoint(hit);
          incoming.push_back({nullptr, v});
        }
        incoming.back().first = b_.GetInsertBlock();
        b_.CreateBr(join);
        b_.SetInsertPoint(miss);
      }
      Val otherwise = isCase && e.hasElse ? expr(*e.args[n - 1], row)
                                          : Val{llvm::Constant::getNullValue(sqlType(e.type.id)), b_.getTrue()};
      incoming.push_back({b_.GetInsertBlock(), otherwise});
      b_.CreateBr(join);
      b_.SetInsertPoint(join);
      llvm::PHINode* value = b_.CreatePHI(sqlType(e.type.id), incoming.size());
      llvm::PHINode* isNull = b_.CreatePHI(b_.getInt1Ty(), incoming.size());
      for (auto& [bb, v] : incoming) {
        value->addIncoming(v.v, bb);
        isNull->addIncoming(v.null, bb);
      }
      return {value, isNull};
    }
    case ExprKind::RoutineCall: {
      std::vector<SqlType> types;
      for (const auto& a : e.args) types.push_back(a->type);
      const TupleLayout* argLayout = out_.layouts.add(TupleLayout::of(types));
      llvm::Value* args = tupleAlloca(*argLayout);
      for (size_t i = 0; i < e.args.size(); ++i) storeField(args, *argLayout, i, expr(*e.args[i], row));
      const TupleLayout* resultLayout = out_.layouts.add(TupleLayout::of({e.type}));
      llvm::Value* result = tupleAlloca(*resultLayout);
      call("duet_q_call_routine", b_.getVoidTy(), {qctx_, b_.getInt32(e.routine), args, result});
      return loadField(result, *resultLayout, 0);
    }
    case ExprKind::ArrayBuild: {
      // The elements go into a tuple of the element type, which the runtime copies.
      Row elements;
      std::vector<SqlType> types;
      for (const auto& a : e.args) {
        elements.push_back(expr(*a, row));
        types.push_back(a->type);
      }
      TupleLayout layout = TupleLayout::of(types);
      llvm::Value* tuple = tupleAlloca(layout);
      storeRow(tuple, layout, elements);
      uint32_t first = layout.offsets.empty() ? 0 : layout.offsets[0];
      llvm::Value* array =
          call("duet_rt_array_build", ptrTy_,
               {tuple, b_.getInt32(static_cast<int32_t>(e.args.size())), b_.getInt32(static_cast<int>(e.type.element)),
                b_.getInt32(static_cast<int32_t>(first))});
      return {array, b_.getFalse()};
    }
    case ExprKind::Call: {
      std::vector<Val> args;
      std::vector<llvm::Value*> nulls;
      for (const auto& a : e.args) {
        args.push_back(expr(*a, row));
        nulls.push_back(args.back().null);
      }
      return strict(nulls, e.type.id, [&]() -> llvm::Value* {
        if (llvm::Value* v = inlineArrayCall(e.function, e.type.id, args)) return v;
        std::vector<llvm::Value*> values;
        // duet_q_* functions read the query context (now(), current_setting()).
        if (e.function.rfind("duet_q_", 0) == 0) values.push_back(qctx_);
        for (size_t i = 0; i < args.size(); ++i) {
          llvm::Value* v = args[i].v;
          if (e.args[i]->type.id == TypeId::Bool) v = b_.CreateZExt(v, b_.getInt8Ty());
          values.push_back(v);
        }
        if (e.type.id == TypeId::Bool) return b_.CreateICmpNE(call(e.function, b_.getInt8Ty(), values), b_.getInt8(0));
        return call(e.function, sqlType(e.type.id), values);
      });
    }
  }
  throw SqlError(sqlstate::kInternalError, "unhandled expression kind in code generator");
}

// The binder makes a[i] into CASE WHEN duet_rt_array_has(a, i) THEN duet_rt_array_get_<T>(a, i)
// END, and procedures subscript arrays in their loops: for fixed-width elements both read
// array.h's layout inline (count at byte 4, NULL flags from byte 16, slots from
// arraySlotsOffset(count)) instead of calling the runtime.
llvm::Value* Codegen::inlineArrayCall(const std::string& function, TypeId resultType, const std::vector<Val>& args) {
  static const char* const kGetters[] = {"duet_rt_array_get_bool",   "duet_rt_array_get_int2",
                                         "duet_rt_array_get_int4",   "duet_rt_array_get_int8",
                                         "duet_rt_array_get_float4", "duet_rt_array_get_float8"};
  bool has = function == "duet_rt_array_has";
  bool get = std::find(std::begin(kGetters), std::end(kGetters), function) != std::end(kGetters);
  if ((!has && !get) || args.size() != 2) return nullptr;
  llvm::Type* i8 = b_.getInt8Ty();
  llvm::Type* i32 = b_.getInt32Ty();
  llvm::Value* array = args[0].v;
  auto at = [&](llvm::Value* offset) { return b_.CreateGEP(i8, array, offset); };
  auto load = [&](llvm::Type* t, llvm::Value* ptr) {
    return b_.CreateAlignedLoad(t, ptr, llvm::MaybeAlign(1));  // arena copies are 4-aligned
  };
  llvm::Value* count = load(i32, at(b_.getInt64(4)));
  // Element i - 1; i <= 0 wraps around to a huge unsigned index, out of range like i > count.
  llvm::Value* index = b_.CreateSub(args[1].v, b_.getInt32(1));
  llvm::Value* index64 = b_.CreateZExt(index, i64Ty_);
  if (has) {
    llvm::Value* inRange = b_.CreateICmpULT(index, count);
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    llvm::BasicBlock* check = block("array.null_flag");
    llvm::BasicBlock* join = block("array.has");
    b_.CreateCondBr(inRange, check, join);
    b_.SetInsertPoint(check);
    llvm::Value* flag = load(i8, at(b_.CreateAdd(index64, b_.getInt64(kArrayHeaderSize))));
    llvm::Value* notNull = b_.CreateICmpEQ(flag, b_.getInt8(0));
    llvm::BasicBlock* checkEnd = b_.GetInsertBlock();
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    llvm::PHINode* result = b_.CreatePHI(b_.getInt1Ty(), 2);
    result->addIncoming(b_.getFalse(), pre);
    result->addIncoming(notNull, checkEnd);
    return result;
  }
  // Only reached when duet_rt_array_has said the element exists.
  llvm::Value* slots = b_.CreateAnd(b_.CreateAdd(b_.CreateZExt(count, i64Ty_), b_.getInt64(kArrayHeaderSize + 15)),
                                    b_.getInt64(~uint64_t{15}));
  llvm::Type* mem = memType(resultType);
  uint64_t size = module_.getDataLayout().getTypeStoreSize(mem);
  llvm::Value* value = load(mem, at(b_.CreateAdd(slots, b_.CreateMul(index64, b_.getInt64(size)))));
  return resultType == TypeId::Bool ? b_.CreateICmpNE(value, b_.getInt8(0)) : value;
}

}  // namespace duet::codegen
