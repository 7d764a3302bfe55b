// Expressions to LLVM IR: each plan expression becomes SQL values (sql_value.h), whose
// operators and casts carry the type rules; here are the expression forms themselves
// (logic, CASE, IN lists, calls, parameters, constants).
#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "compiler/codegen/codegen_internal.h"
#include "compiler/codegen/runtime_names.h"
#include "compiler/functions/builtin_functions.h"
#include "engine/error.h"
#include "engine/limits/stack_depth.h"
#include "engine/types/array.h"

namespace duet::codegen {

using plan::Expr;
using plan::ExprKind;
using plan::Op;

// x IN (items): a long list of constants or parameters is a set probed by binary search
// (inListAsSet, lookup_codegen.cpp). Otherwise x is evaluated once, then one loop compares
// it with each item (PostgreSQL's = ANY over the list). Items that are all parameters are
// read in the loop from the parameter tuple through a table of their offsets, so the
// code does not grow with the list; other items are evaluated first into arrays. An
// unrolled chain of comparisons made LLVM superlinear in the list's length (a 1,000-item
// list compiled for minutes). True when an item equals x; otherwise NULL when x or an
// item is NULL.
SqlValue Codegen::inList(const plan::Expr& e, const Row& row) {
  if (std::optional<SqlValue> found = inListAsSet(e, row)) return *found;
  SqlValue x = expr(*e.args[0], row);
  TypeId t = x.type.id;
  uint64_t n = e.args.size() - 1;
  llvm::Type* vt = sqlType(t);
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Value* found = eb.CreateAlloca(eb.getInt1Ty());
  llvm::Value* sawNull = eb.CreateAlloca(eb.getInt1Ty());
  bool allParams = paramsInTuple_ && std::all_of(e.args.begin() + 1, e.args.end(),
                                                 [](const plan::ExprPtr& a) { return a->kind == ExprKind::Param; });
  std::function<SqlValue(llvm::Value*)> item;
  if (allParams) {
    std::vector<uint32_t> valueOffsets, nullOffsets;
    for (uint64_t i = 0; i < n; ++i) {
      size_t p = static_cast<size_t>(e.args[i + 1]->param);
      valueOffsets.push_back(out_.paramLayout.offsets[p]);
      nullOffsets.push_back(out_.paramLayout.nullOffset(p));
    }
    llvm::Value* values = offsetTable(valueOffsets, "in.values");
    llvm::Value* nulls = offsetTable(nullOffsets, "in.nulls");
    item = [&, values, nulls](llvm::Value* i) {
      auto at = [&](llvm::Value* offsets) {
        llvm::Value* offset = b_.CreateLoad(b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), offsets, i));
        return b_.CreateInBoundsGEP(b_.getInt8Ty(), params_, offset);
      };
      return loadValue(at(values), at(nulls), x.type);
    };
  } else {
    llvm::Value* values = eb.CreateAlloca(vt, eb.getInt64(n));
    llvm::Value* nulls = eb.CreateAlloca(eb.getInt1Ty(), eb.getInt64(n));
    for (uint64_t i = 0; i < n; ++i) {
      SqlValue v = expr(*e.args[i + 1], row);
      b_.CreateStore(v.v, b_.CreateConstInBoundsGEP1_64(vt, values, i));
      b_.CreateStore(v.null, b_.CreateConstInBoundsGEP1_64(b_.getInt1Ty(), nulls, i));
    }
    item = [&, values, nulls](llvm::Value* i) {
      return SqlValue{b_.CreateLoad(vt, b_.CreateInBoundsGEP(vt, values, i)),
                      b_.CreateLoad(b_.getInt1Ty(), b_.CreateInBoundsGEP(b_.getInt1Ty(), nulls, i)), x.type};
    };
  }
  b_.CreateStore(b_.getFalse(), found);
  b_.CreateStore(x.null, sawNull);
  ifThen(b_.CreateNot(x.null), [&] {
    loop(
        b_.getInt64(0), [&] { return b_.getInt64(n); },
        [&](llvm::Value* i, llvm::BasicBlock*) {
          SqlValue v = item(i);
          b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt1Ty(), sawNull), v.null), sawNull);
          ifThen(b_.CreateNot(v.null), [&] {
            llvm::Value* equal = compareValues(Op::Eq, t, x.v, v.v);
            b_.CreateStore(b_.CreateOr(b_.CreateLoad(b_.getInt1Ty(), found), equal), found);
          });
        });
  });
  llvm::Value* isFound = b_.CreateLoad(b_.getInt1Ty(), found);
  return {isFound, b_.CreateAnd(b_.CreateNot(isFound), b_.CreateLoad(b_.getInt1Ty(), sawNull)), e.type};
}

// GREATEST / LEAST: the best non-NULL argument so far in a slot, each argument evaluated
// once; NULL only when all are.
SqlValue Codegen::greatest(const plan::Expr& e, const Row& row) {
  TypeId t = e.type.id;
  llvm::Type* vt = sqlType(t);
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Value* best = eb.CreateAlloca(vt);
  llvm::Value* bestNull = eb.CreateAlloca(eb.getInt1Ty());
  SqlValue first = expr(*e.args[0], row);
  b_.CreateStore(first.v, best);
  b_.CreateStore(first.null, bestNull);
  for (size_t i = 1; i < e.args.size(); ++i) {
    SqlValue v = expr(*e.args[i], row);
    ifThen(b_.CreateNot(v.null), [&] {
      ifThen(b_.CreateLoad(b_.getInt1Ty(), bestNull), [&] {
        b_.CreateStore(v.v, best);
        b_.CreateStore(b_.getFalse(), bestNull);
      });
      ifThen(compareValues(e.op, t, v.v, b_.CreateLoad(vt, best)), [&] { b_.CreateStore(v.v, best); });
    });
  }
  return {b_.CreateLoad(vt, best), b_.CreateLoad(b_.getInt1Ty(), bestNull), e.type};
}

SqlValue Codegen::expr(const Expr& e, const Row& row) {
  checkStackDepth();
  SqlValue v = computedOncePerExecution(e) ? invariantValue(e, row) : exprValue(e, row);
  // The binder's type, typmod included, is the value's: a row's column or a parameter may
  // have been produced with a wider modifier than the expression reading it declares.
  v.type = e.type;
  return v;
}

SqlValue Codegen::exprValue(const Expr& e, const Row& row) {
  switch (e.kind) {
    case ExprKind::Column:
    case ExprKind::Aggregate: return row.at(e.column);
    case ExprKind::Param:
      if (valuesParams_)
        if (auto it = valuesParams_->lists.find(&e); it != valuesParams_->lists.end())
          return dataListItem(it->second, it->second.constants, valuesParams_->row, out_.paramLayout.types[e.param]);
      if (paramsInTuple_) return loadField(params_, out_.paramLayout, static_cast<size_t>(e.param));
      return paramRow_.at(e.param);
    case ExprKind::OuterRef: return correlation_.back().at(e.column);
    case ExprKind::Let: {
      // The value once, in the block that dominates all of the body's code.
      lets_.push_back(expr(*e.args[0], row));
      SqlValue v = expr(*e.args[1], row);
      lets_.pop_back();
      return v;
    }
    case ExprKind::LetRef: return lets_.at(lets_.size() - 1 - static_cast<size_t>(e.column));
    case ExprKind::Subquery: return subquery(e, row);
    case ExprKind::Const:
      if (valuesParams_)
        if (auto it = valuesParams_->lists.find(&e); it != valuesParams_->lists.end())
          return dataListItem(it->second, it->second.constants, valuesParams_->row, e.type);
      return constant(e);
    case ExprKind::Cast: return cast(expr(*e.args[0], row), e.type, e.explicitCast);
    case ExprKind::Unary: {
      SqlValue v = expr(*e.args[0], row);
      if (e.op == Op::Not || e.op == Op::BitNot) return {b_.CreateNot(v.v), v.null, e.type};
      return e.op == Op::Abs ? absolute(v) : negate(v);
    }
    case ExprKind::Binary: {
      // A sum's or difference's scale is the larger operand's: an invariant operand may take
      // the other's scale (scaledOperand); a product's scale is the sum of both.
      bool scaled = e.type.id == TypeId::Numeric && (e.op == Op::Add || e.op == Op::Sub);
      auto operand = [&](size_t i) {
        return scaled ? scaledOperand(*e.args[i], *e.args[1 - i], row) : expr(*e.args[i], row);
      };
      SqlValue a = operand(0);
      return arithmetic(e.op, a, operand(1), e.type);
    }
    case ExprKind::InList: return inList(e, row);
    case ExprKind::ArrayCompare: return arrayCompare(e, row);
    case ExprKind::WindowResult: throw std::logic_error("a window call the planner left in an expression");
    case ExprKind::Greatest: return greatest(e, row);
    case ExprKind::RowCompare: {
      std::vector<SqlValue> values;
      for (const auto& a : e.args) values.push_back(expr(*a, row));
      std::span<const SqlValue> all(values);
      return rowCompare(e.op, all.first(values.size() / 2), all.subspan(values.size() / 2));
    }
    case ExprKind::Compare: {
      SqlValue a = scaledOperand(*e.args[0], *e.args[1], row);
      return compare(e.op, a, scaledOperand(*e.args[1], *e.args[0], row));
    }
    case ExprKind::And:
    case ExprKind::Or: return andOr(e, row);
    case ExprKind::IsNull: {
      SqlValue v = expr(*e.args[0], row);
      return notNull(e.negated ? b_.CreateNot(v.null) : v.null, e.type);
    }
    case ExprKind::IsTrue: {
      SqlValue v = expr(*e.args[0], row);
      llvm::Value* matches = b_.CreateAnd(b_.CreateNot(v.null), e.op == Op::Eq ? v.v : b_.CreateNot(v.v));
      return notNull(e.negated ? b_.CreateNot(matches) : matches, e.type);
    }
    case ExprKind::Like: {
      SqlValue s = expr(*e.args[0], row);
      SqlValue p = expr(*e.args[1], row);
      return strict({s, p}, e.type, [&] {
        llvm::Value* m = callSql(e.caseInsensitive ? "duet_rt_text_ilike" : "duet_rt_text_like", e.type, {s, p});
        return e.negated ? b_.CreateNot(m) : m;
      });
    }
    case ExprKind::Case:
    case ExprKind::Coalesce: return caseOrCoalesce(e, row);
    case ExprKind::RoutineCall: return routineCall(e, row);
    case ExprKind::ArrayBuild: return arrayBuild(e, row);
    case ExprKind::RecordBuild: return recordBuild(e, row);
    case ExprKind::FieldSelect: return fieldSelect(e, row);
    case ExprKind::Call: return functionCall(e, row);
  }
  throw SqlError(sqlstate::kInternalError, "unhandled expression kind in code generator");
}

SqlValue Codegen::constant(const Expr& e) {
  llvm::Type* t = sqlType(e.type.id);
  if (e.constNull) return nullOf(e.type);
  if (isStringType(e.type.id)) return notNull(stringConstant(e.constString), e.type);
  if (e.type.id == TypeId::Bool) return notNull(i1(e.constant[0] != 0), e.type);
  if (e.type.id == TypeId::Float4 || e.type.id == TypeId::Float8) {
    double d = e.type.id == TypeId::Float4 ? *reinterpret_cast<const float*>(e.constant)
                                           : *reinterpret_cast<const double*>(e.constant);
    return notNull(llvm::ConstantFP::get(t, d), e.type);
  }
  unsigned bits = t->getIntegerBitWidth();
  uint64_t words[2];
  std::memcpy(words, e.constant, 16);
  llvm::APInt value(bits, bits > 64 ? llvm::ArrayRef<uint64_t>(words, 2) : llvm::ArrayRef<uint64_t>(words, 1));
  return notNull(llvm::ConstantInt::get(t, value), e.type);
}

// Three-valued logic with short-circuit: AND stops at the first false, OR at the first
// true; otherwise the result is null if any operand was null.
SqlValue Codegen::andOr(const Expr& e, const Row& row) {
  bool isAnd = e.kind == ExprKind::And;
  llvm::BasicBlock* join = block(isAnd ? "and.end" : "or.end");
  std::vector<std::pair<llvm::BasicBlock*, SqlValue>> incoming;
  llvm::Value* sawNull = b_.getFalse();
  for (size_t i = 0; i < e.args.size(); ++i) {
    SqlValue v = expr(*e.args[i], row);
    sawNull = b_.CreateOr(sawNull, v.null);
    if (i + 1 == e.args.size()) {
      llvm::Value* decided =
          isAnd ? b_.CreateAnd(b_.CreateNot(v.null), b_.CreateNot(v.v)) : b_.CreateAnd(b_.CreateNot(v.null), v.v);
      llvm::Value* value = isAnd ? b_.CreateNot(decided) : decided;
      llvm::Value* isNull = b_.CreateAnd(b_.CreateNot(decided), sawNull);
      if (isAnd) value = b_.CreateAnd(value, b_.CreateNot(sawNull));
      incoming.emplace_back(b_.GetInsertBlock(), SqlValue{value, isNull, e.type});
      b_.CreateBr(join);
      break;
    }
    llvm::Value* stop =
        isAnd ? b_.CreateAnd(b_.CreateNot(v.null), b_.CreateNot(v.v)) : b_.CreateAnd(b_.CreateNot(v.null), v.v);
    llvm::BasicBlock* more = block("logic.next");
    incoming.emplace_back(b_.GetInsertBlock(), notNull(i1(!isAnd), e.type));
    b_.CreateCondBr(stop, join, more);
    b_.SetInsertPoint(more);
  }
  b_.SetInsertPoint(join);
  return phi(incoming, e.type);
}

// CASE WHEN c THEN v ... [ELSE v] END, and COALESCE: the first hit's value, joined by phis.
SqlValue Codegen::caseOrCoalesce(const Expr& e, const Row& row) {
  if (e.kind == ExprKind::Case)
    if (std::optional<SqlValue> v = caseAsLookup(e, row)) return *v;
  llvm::BasicBlock* join = block("case.end");
  std::vector<std::pair<llvm::BasicBlock*, SqlValue>> incoming;
  size_t n = e.args.size();
  bool isCase = e.kind == ExprKind::Case;
  size_t pairs = isCase ? (e.hasElse ? (n - 1) / 2 : n / 2) : n;
  for (size_t i = 0; i < pairs; ++i) {
    llvm::BasicBlock* hit = block("case.hit");
    llvm::BasicBlock* miss = block("case.miss");
    if (isCase) {
      SqlValue cond = expr(*e.args[2 * i], row);
      b_.CreateCondBr(isTrue(cond), hit, miss);
      b_.SetInsertPoint(hit);
      SqlValue v = expr(*e.args[2 * i + 1], row);
      incoming.emplace_back(b_.GetInsertBlock(), v);
    } else {
      SqlValue v = expr(*e.args[i], row);
      b_.CreateCondBr(b_.CreateNot(v.null), hit, miss);
      b_.SetInsertPoint(hit);
      incoming.emplace_back(hit, v);
    }
    b_.CreateBr(join);
    b_.SetInsertPoint(miss);
  }
  SqlValue otherwise = isCase && e.hasElse ? expr(*e.args[n - 1], row) : nullOf(e.type);
  incoming.emplace_back(b_.GetInsertBlock(), otherwise);
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  return phi(incoming, e.type);
}

// A call of a user routine: its arguments in a tuple, the session runs the routine.
SqlValue Codegen::routineCall(const Expr& e, const Row& row) {
  std::vector<SqlType> types;
  for (const auto& a : e.args) types.push_back(a->type);
  const TupleLayout* argLayout = out_.layouts.add(TupleLayout::of(types));
  llvm::Value* args = tupleAlloca(*argLayout);
  for (size_t i = 0; i < e.args.size(); ++i) storeField(args, *argLayout, i, expr(*e.args[i], row));
  const TupleLayout* resultLayout = out_.layouts.add(TupleLayout::of({e.type}));
  llvm::Value* result = tupleAlloca(*resultLayout);
  call("duet_q_call_routine", b_.getVoidTy(), {qctx_, b_.getInt32(e.routine), args, ptrConst(argLayout), result});
  return loadField(result, *resultLayout, 0);
}

// ARRAY[...]: the elements go into a tuple of the element type, which the runtime copies.
SqlValue Codegen::arrayBuild(const Expr& e, const Row& row) {
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
  llvm::Value* array = call("duet_rt_array_build", ptrTy_,
                            {tuple, b_.getInt32(static_cast<int32_t>(e.args.size())),
                             b_.getInt32(static_cast<int>(e.type.element)), b_.getInt32(static_cast<int32_t>(first))});
  return notNull(array, e.type);
}

// ROW(...): the fields stored as a tuple, from which the runtime lays the record out.
SqlValue Codegen::recordBuild(const Expr& e, const Row& row) {
  Row fields;
  std::vector<SqlType> types;
  for (const auto& a : e.args) {
    fields.push_back(expr(*a, row));
    types.push_back(a->type);
  }
  const TupleLayout* layout = out_.layouts.add(TupleLayout::of(types));
  llvm::Value* tuple = tupleAlloca(*layout);
  storeRow(tuple, *layout, fields);
  llvm::Value* record =
      call("duet_q_record_build", ptrTy_, {qctx_, tuple, ptrConst(layout), b_.getInt32(e.type.typmod)});
  return notNull(record, e.type);
}

// (r).field: NULL when r is; otherwise the field, read into a one-field tuple.
SqlValue Codegen::fieldSelect(const Expr& e, const Row& row) {
  SqlValue record = expr(*e.args[0], row);
  const TupleLayout* layout = out_.layouts.add(TupleLayout::of({e.type}));
  llvm::Value* tuple = tupleAlloca(*layout);
  storeField(tuple, *layout, 0, nullOf(e.type));
  ifThen(b_.CreateNot(record.null), [&] {
    call("duet_q_record_field", b_.getVoidTy(), {qctx_, record.v, b_.getInt32(e.column), tuple, ptrConst(layout)});
  });
  return loadField(tuple, *layout, 0);
}

// A built-in function: strict (but in a nullElement row's element arguments), its runtime
// symbol called on the argument values (duet_q_* functions read the query context first:
// now(), current_setting()).
SqlValue Codegen::functionCall(const Expr& e, const Row& row) {
  Row args;
  for (const auto& a : e.args) args.push_back(expr(*a, row));
  const BuiltinFunction* f = builtinFunctionBySymbol(e.function);
  // A nullElement row's element arguments do not make the call NULL: they pass NULL on.
  auto nullPassed = [&](size_t i) { return f && f->nullElement && f->args[i] == TypeId::Unknown; };
  Row strictArgs;
  for (size_t i = 0; i < args.size(); ++i)
    if (!nullPassed(i)) strictArgs.push_back(args[i]);
  SqlValue result = strict(strictArgs, e.type, [&]() -> llvm::Value* {
    if (llvm::Value* v = inlineArrayCall(e.function, e.type.id, args)) return v;
    // mod() of integers is the % operator (PostgreSQL's int4mod for both): inline, as % is
    // (CH's mod(s_w_id * s_i_id, 10000) per stock row).
    if (e.function == "duet_rt_int2_mod" || e.function == "duet_rt_int4_mod" || e.function == "duet_rt_int8_mod")
      return arithmeticValues(plan::Op::Mod, e.type.id, args[0].v, args[1].v);
    std::vector<llvm::Value*> leading;
    if (e.function.rfind("duet_q_", 0) == 0) leading.push_back(qctx_);
    if (!f || !f->anyCompatible) return callSql(e.function, e.type, args, leading);
    // anycompatible arguments go by address: their type varies from call to call.
    Row passed = args;
    for (size_t i = 0; i < passed.size(); ++i) {
      if (f->args[i] != TypeId::Unknown) continue;
      TupleLayout layout = TupleLayout::of({args[i].type});
      llvm::Value* tuple = tupleAlloca(layout);
      storeRow(tuple, layout, {args[i]});
      llvm::Value* address = b_.CreateGEP(b_.getInt8Ty(), tuple, b_.getInt64(layout.offsets[0]));
      if (nullPassed(i)) address = b_.CreateSelect(args[i].null, llvm::Constant::getNullValue(ptrTy_), address);
      passed[i] = notNull(address, {TypeId::Text, -1});  // a pointer, whatever the value's type
    }
    return callSql(e.function, e.type, passed, leading);
  });
  // A row whose runtime function answers NULL with a null pointer (strict()'s NULL path
  // leaves a null pointer too).
  if (f && f->nullResult) result.null = b_.CreateIsNull(result.v);
  return result;
}

// The binder makes a[i] into CASE WHEN duet_rt_array_has(a, i) THEN duet_rt_array_get_<T>(a, i)
// END (a and i read from Lets), and procedures subscript arrays in their loops: for fixed-width elements both read
// array.h's layout inline (count at byte 4, NULL flags from byte 16, slots from
// arraySlotsOffset(count)) instead of calling the runtime.
llvm::Value* Codegen::inlineArrayCall(const std::string& function, TypeId resultType,
                                      const std::vector<SqlValue>& args) {
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
