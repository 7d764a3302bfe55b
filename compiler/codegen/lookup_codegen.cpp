// x op ANY|ALL (array), and lists as data: an IN list or an = ANY array whose items are the
// same for a whole execution (constants, parameters) becomes a runtime ValueSet
// (compiler/runtime/value_set.h), filled once per execution and probed by binary search,
// so neither the code nor the time per row grows with the list.
#include <cstring>

#include "compiler/codegen/codegen_internal.h"
#include "engine/types/array.h"

namespace duet::codegen {

using plan::Expr;
using plan::ExprKind;
using plan::Op;
using plan::Sublink;

namespace {

// Lists shorter than this are compared item by item: a set would not pay.
constexpr size_t kMinItemsForSet = 16;

// Whether `e` has one value for a whole execution of its statement, read without side
// effects: constants and parameters, casts of them, ARRAY[...] of them.
bool executionConstant(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Const:
    case ExprKind::Param: return true;
    case ExprKind::Cast:
    case ExprKind::ArrayBuild:
      for (const auto& a : e.args)
        if (!executionConstant(*a)) return false;
      return true;
    default: return false;
  }
}

}  // namespace

SqlValue Codegen::arrayElement(llvm::Value* array, llvm::Value* count, llvm::Value* index, SqlType element) {
  llvm::Type* i8 = b_.getInt8Ty();
  auto at = [&](llvm::Value* offset) { return b_.CreateGEP(i8, array, offset); };
  auto load = [&](llvm::Type* t, llvm::Value* ptr) {
    return b_.CreateAlignedLoad(t, ptr, llvm::MaybeAlign(1));  // arena copies are 4-aligned
  };
  llvm::Value* isNull =
      b_.CreateICmpNE(load(i8, at(b_.CreateAdd(index, b_.getInt64(kArrayHeaderSize)))), b_.getInt8(0));
  llvm::Value* slots = b_.CreateAnd(b_.CreateAdd(b_.CreateZExt(count, i64Ty_), b_.getInt64(kArrayHeaderSize + 15)),
                                    b_.getInt64(~uint64_t{15}));
  llvm::Value* slot = at(b_.CreateAdd(slots, b_.CreateMul(index, b_.getInt64(arraySlotSize(element.id)))));
  llvm::Value* v;
  if (isStringType(element.id)) {  // the slot holds the offset of the string in the array
    v = at(b_.CreateZExt(load(b_.getInt32Ty(), slot), i64Ty_));
  } else {
    v = load(memType(element.id), slot);
    if (element.id == TypeId::Bool) v = b_.CreateICmpNE(v, b_.getInt8(0));
  }
  return {v, isNull, element};
}

llvm::Value* Codegen::valueSetOnce(const std::function<llvm::Value*(llvm::Value* previous)>& fill) {
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::AllocaInst* set = eb.CreateAlloca(ptrTy_);
  llvm::AllocaInst* filled = eb.CreateAlloca(b_.getInt1Ty());
  llvm::IRBuilder<> sb(entry_, std::next(set->getIterator()));
  sb.CreateStore(llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptrTy_)), set);
  resetPerStatement(filled);
  ifThen(b_.CreateNot(b_.CreateLoad(b_.getInt1Ty(), filled)), [&] {
    b_.CreateStore(fill(b_.CreateLoad(ptrTy_, set)), set);
    b_.CreateStore(b_.getTrue(), filled);
  });
  return b_.CreateLoad(ptrTy_, set);
}

SqlValue Codegen::probeValueSet(llvm::Value* set, const SqlValue& x) {
  const TupleLayout* layout = out_.layouts.add(TupleLayout::of({x.type}));
  llvm::Value* tuple = tupleAlloca(*layout);
  storeField(tuple, *layout, 0, x);
  llvm::Value* value = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), tuple, layout->offsets[0]);
  llvm::Value* answer =
      call("duet_q_value_set_probe", b_.getInt32Ty(), {set, value, b_.CreateZExt(x.null, b_.getInt8Ty())});
  return {b_.CreateICmpEQ(answer, b_.getInt32(1)), b_.CreateICmpEQ(answer, b_.getInt32(2)), SqlType{TypeId::Bool, -1}};
}

std::optional<SqlValue> Codegen::inListAsSet(const Expr& e, const Row& row) {
  size_t n = e.args.size() - 1;
  if (n < kMinItemsForSet || !isArrayElementType(e.args[0]->type.id)) return std::nullopt;
  // Items of parameters (and NULLs), read from the parameter tuple; or of constants, which
  // become one constant array - cast as one at run time when every item is the same cast
  // of a constant ('a' as text when the statement's literals were not lifted).
  auto isNull = [](const Expr& item) { return item.kind == ExprKind::Const && item.constNull; };
  auto castConstant = [](const Expr& item) {
    return item.kind == ExprKind::Cast && item.args[0]->kind == ExprKind::Const && !item.args[0]->constNull;
  };
  const Expr* cast = nullptr;
  for (size_t i = 1; i <= n && !cast; ++i)
    if (castConstant(*e.args[i])) cast = e.args[i].get();
  bool allParams = paramsInTuple_;
  bool allConsts = !cast || cast->args[0]->type.id == TypeId::Unknown || isArrayElementType(cast->args[0]->type.id);
  std::vector<const Expr*> constants;
  for (size_t i = 1; i <= n; ++i) {
    const Expr& item = *e.args[i];
    allParams = allParams && (item.kind == ExprKind::Param || isNull(item));
    if (isNull(item))
      constants.push_back(&item);
    else if (!cast && item.kind == ExprKind::Const)
      constants.push_back(&item);
    else if (cast && castConstant(item) && item.args[0]->type.id == cast->args[0]->type.id &&
             item.explicitCast == cast->explicitCast && item.type == cast->type)
      constants.push_back(item.args[0].get());
    else
      allConsts = false;
  }
  if (!allParams && !allConsts) return std::nullopt;
  SqlValue x = expr(*e.args[0], row);
  auto type = b_.getInt32(static_cast<int32_t>(x.type.id));
  llvm::Value* set;
  if (!allParams) {
    TypeId from = cast ? cast->args[0]->type.id : x.type.id;
    if (from == TypeId::Unknown) from = TypeId::Text;  // an untyped literal's text
    SqlValue array = notNull(constantArray(from, constants), SqlType::arrayOf({from, -1}));
    set = valueSetOnce([&](llvm::Value* previous) {
      if (cast) array = castArray(array, SqlType::arrayOf(cast->type), cast->explicitCast);
      return call("duet_q_value_set_array", ptrTy_, {qctx_, previous, type, array.v});
    });
  } else {
    std::vector<uint32_t> valueOffsets, nullOffsets;
    for (size_t i = 1; i <= n; ++i) {
      const Expr& item = *e.args[i];
      bool null = item.kind == ExprKind::Const;
      auto p = static_cast<size_t>(null ? 0 : item.param);
      valueOffsets.push_back(null ? 0 : out_.paramLayout.offsets[p]);
      nullOffsets.push_back(null ? kNullCell : out_.paramLayout.nullOffset(p));
    }
    llvm::Value* values = offsetTable(valueOffsets, "in.values");
    llvm::Value* nulls = offsetTable(nullOffsets, "in.nulls");
    set = valueSetOnce([&](llvm::Value* previous) {
      return call("duet_q_value_set_params", ptrTy_, {qctx_, previous, type, params_, values, nulls, b_.getInt64(n)});
    });
  }
  SqlValue found = probeValueSet(set, x);
  found.type = e.type;
  return found;
}

llvm::Value* Codegen::constantArray(TypeId element, const std::vector<const Expr*>& items) {
  Arena scratch;
  ArrayBuilder builder(element);
  for (const Expr* item : items) {
    if (item->constNull) {
      builder.appendNull();
    } else if (isStringType(element)) {
      const VarString* s = scratch.makeString(item->constString);
      builder.append(&s);
    } else {
      builder.append(item->constant);
    }
  }
  const VarString* array = builder.finish(scratch);
  size_t bytes = sizeof(VarString) + array->len;
  auto storage = std::make_unique<unsigned char[]>(bytes);
  std::memcpy(storage.get(), array, bytes);
  out_.constants.push_back(std::move(storage));
  return ptrConst(out_.constants.back().get());
}

llvm::Value* Codegen::offsetTable(const std::vector<uint32_t>& offsets, const char* name) {
  llvm::Constant* init = llvm::ConstantDataArray::get(ctx_, offsets);
  return new llvm::GlobalVariable(module_, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init, name);
}

// PostgreSQL's ExecEvalScalarArrayOp: a NULL array gives NULL; an empty one false for ANY
// and true for ALL (whatever x is); otherwise a NULL x gives NULL, and the elements are
// compared in order until one decides (true for ANY, false for ALL); undecided, the answer
// is NULL if a comparison was NULL, else false for ANY and true for ALL.
SqlValue Codegen::arrayCompare(const Expr& e, const Row& row) {
  bool any = e.sublink == Sublink::Any;
  // = ANY and <> ALL over an array fixed for the execution: its elements as a set.
  if ((any ? e.op == Op::Eq : e.op == Op::Ne) && executionConstant(*e.args[1])) {
    SqlValue x = expr(*e.args[0], row);
    SqlValue array = expr(*e.args[1], row);
    llvm::Value* setPtr = nullptr;
    SqlValue found = nullOf(e.type);
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    llvm::BasicBlock* probe = block("any.set");
    llvm::BasicBlock* join = block("any.set_end");
    b_.CreateCondBr(array.null, join, probe);
    b_.SetInsertPoint(probe);
    auto type = b_.getInt32(static_cast<int32_t>(x.type.id));
    setPtr = valueSetOnce([&](llvm::Value* previous) {
      return call("duet_q_value_set_array", ptrTy_, {qctx_, previous, type, array.v});
    });
    found = probeValueSet(setPtr, x);
    if (!any) found.v = b_.CreateNot(found.v);
    llvm::BasicBlock* probed = b_.GetInsertBlock();
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    return phi({{pre, nullOf(e.type)}, {probed, SqlValue{found.v, found.null, e.type}}}, e.type);
  }
  SqlValue x = expr(*e.args[0], row);
  SqlValue array = expr(*e.args[1], row);
  SqlType element = e.args[1]->type.elementType();
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::Value* result = eb.CreateAlloca(b_.getInt1Ty());
  llvm::Value* isNull = eb.CreateAlloca(b_.getInt1Ty());
  llvm::Value* decided = eb.CreateAlloca(b_.getInt1Ty());
  b_.CreateStore(i1(!any), result);
  b_.CreateStore(array.null, isNull);
  ifThen(b_.CreateNot(array.null), [&] {
    llvm::Value* count =
        b_.CreateAlignedLoad(b_.getInt32Ty(), b_.CreateConstGEP1_64(b_.getInt8Ty(), array.v, 4), llvm::MaybeAlign(1));
    b_.CreateStore(b_.CreateAnd(x.null, b_.CreateICmpNE(count, b_.getInt32(0))), isNull);
    b_.CreateStore(x.null, decided);
    llvm::Value* count64 = b_.CreateZExt(count, i64Ty_);
    loop(
        b_.getInt64(0),
        [&] { return b_.CreateSelect(b_.CreateLoad(b_.getInt1Ty(), decided), b_.getInt64(0), count64); },
        [&](llvm::Value* i, llvm::BasicBlock*) {
          SqlValue item = arrayElement(array.v, count, i, element);
          SqlValue c = e.op != Op::None ? compare(e.op, x, item) : strict({x, item}, e.type, [&] {
            llvm::Value* m = callSql(e.function, e.type, {x, item});
            return e.negated ? b_.CreateNot(m) : m;
          });
          llvm::Value* decides = b_.CreateAnd(b_.CreateNot(c.null), any ? c.v : b_.CreateNot(c.v));
          ifThen(c.null, [&] { b_.CreateStore(b_.getTrue(), isNull); });
          ifThen(decides, [&] {
            b_.CreateStore(i1(any), result);
            b_.CreateStore(b_.getFalse(), isNull);
            b_.CreateStore(b_.getTrue(), decided);
          });
        });
  });
  return {b_.CreateLoad(b_.getInt1Ty(), result), b_.CreateLoad(b_.getInt1Ty(), isNull), e.type};
}

}  // namespace duet::codegen
