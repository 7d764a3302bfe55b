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
  if (isByteStringType(element.id)) {  // the slot holds the offset of the string in the array
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

std::optional<Codegen::DataList> Codegen::dataList(const std::vector<const Expr*>& items) {
  auto isNull = [](const Expr& item) { return item.kind == ExprKind::Const && item.constNull; };
  auto castConstant = [](const Expr& item) {
    return item.kind == ExprKind::Cast && item.args[0]->kind == ExprKind::Const && !item.args[0]->constNull;
  };
  DataList list;
  list.size = items.size();
  const Expr* first = nullptr;  // the first item that is not NULL
  for (const Expr* item : items)
    if (!first && !isNull(*item)) first = item;
  if (!first) first = items[0];
  list.type = first->type;
  if (castConstant(*first)) list.cast = first;
  bool params = paramsInTuple_, constants = true;
  std::vector<const Expr*> values;
  const TupleLayout& paramLayout = out_.paramLayout;
  for (const Expr* item : items) {
    params = params && (isNull(*item) || (item->kind == ExprKind::Param && first->kind == ExprKind::Param &&
                                          paramLayout.types[static_cast<size_t>(item->param)] ==
                                              paramLayout.types[static_cast<size_t>(first->param)]));
    if (isNull(*item))
      values.push_back(item);
    else if (!list.cast && item->kind == ExprKind::Const && item->type.id == first->type.id)
      values.push_back(item);
    else if (list.cast && castConstant(*item) && item->args[0]->type.id == list.cast->args[0]->type.id &&
             item->explicitCast == list.cast->explicitCast && item->type == list.cast->type)
      values.push_back(item->args[0].get());
    else
      constants = false;
  }
  if (params) {
    std::vector<uint32_t> valueOffsets, nullOffsets;
    for (const Expr* item : items) {
      bool null = item->kind == ExprKind::Const;
      auto p = static_cast<size_t>(null ? 0 : item->param);
      valueOffsets.push_back(null ? 0 : out_.paramLayout.offsets[p]);
      nullOffsets.push_back(null ? kNullCell : out_.paramLayout.nullOffset(p));
    }
    list.valueOffsets = offsetTable(valueOffsets, "list.values");
    list.nullOffsets = offsetTable(nullOffsets, "list.nulls");
    return list;
  }
  TypeId from = list.cast ? list.cast->args[0]->type.id : list.type.id;
  if (from == TypeId::Unknown) from = TypeId::Text;  // an untyped literal's text
  if (!constants || !isArrayElementType(from)) return std::nullopt;
  list.constants = constantArray(from, values);
  list.constantsType = SqlType::arrayOf({from, -1});
  return list;
}

llvm::Value* Codegen::dataListArray(const DataList& list) {
  SqlValue array = notNull(list.constants, list.constantsType);
  if (list.cast) array = castArray(array, SqlType::arrayOf(list.cast->type), list.cast->explicitCast);
  return array.v;
}

llvm::Value* Codegen::fillValueSet(const DataList& list, llvm::Value* previous, TypeId type) {
  llvm::Value* typeId = b_.getInt32(static_cast<int32_t>(type));
  if (list.valueOffsets)
    return call("duet_q_value_set_params", ptrTy_,
                {qctx_, previous, typeId, params_, list.valueOffsets, list.nullOffsets, b_.getInt64(list.size)});
  return call("duet_q_value_set_array", ptrTy_, {qctx_, previous, typeId, dataListArray(list)});
}

SqlValue Codegen::dataListItem(const DataList& list, llvm::Value* array, llvm::Value* index, SqlType type) {
  if (list.valueOffsets) {
    auto offset = [&](llvm::Value* table) {
      return b_.CreateLoad(b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), table, index));
    };
    llvm::Value* nullOffset = offset(list.nullOffsets);
    llvm::Value* nullCell = b_.CreateICmpEQ(nullOffset, b_.getInt32(kNullCell));
    nullOffset = b_.CreateSelect(nullCell, b_.getInt32(0), nullOffset);
    SqlValue v = loadValue(b_.CreateInBoundsGEP(b_.getInt8Ty(), params_, offset(list.valueOffsets)),
                           b_.CreateInBoundsGEP(b_.getInt8Ty(), params_, nullOffset), type);
    return {v.v, b_.CreateOr(v.null, nullCell), type};
  }
  // Read as the array's element type: an untyped literal's text is a text element.
  SqlValue v =
      arrayElement(array, b_.getInt32(static_cast<uint32_t>(list.size)), index, list.constantsType.elementType());
  v.type = type;
  return v;
}

std::optional<SqlValue> Codegen::inListAsSet(const Expr& e, const Row& row) {
  size_t n = e.args.size() - 1;
  if (n < kMinItemsForSet || !isArrayElementType(e.args[0]->type.id)) return std::nullopt;
  std::vector<const Expr*> items;
  for (size_t i = 1; i <= n; ++i) items.push_back(e.args[i].get());
  std::optional<DataList> list = dataList(items);
  if (!list) return std::nullopt;
  SqlValue x = expr(*e.args[0], row);
  llvm::Value* set = valueSetOnce([&](llvm::Value* previous) { return fillValueSet(*list, previous, x.type.id); });
  SqlValue found = probeValueSet(set, x);
  found.type = e.type;
  return found;
}

namespace {

// Whether a and b compute the same value the same way: the subject of a CASE in the
// comparison of each arm (a LetRef of the subject's Let, or a cast of it).
bool sameSubject(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || !(a.type == b.type) || a.op != b.op || a.explicitCast != b.explicitCast ||
      a.args.size() != b.args.size())
    return false;
  switch (a.kind) {
    case ExprKind::Column:
    case ExprKind::Aggregate:
    case ExprKind::OuterRef:
    case ExprKind::LetRef: return a.column == b.column;
    case ExprKind::Param: return a.param == b.param;
    case ExprKind::Const:
      return a.constNull == b.constNull && a.constString == b.constString &&
             std::memcmp(a.constant, b.constant, sizeof a.constant) == 0;
    case ExprKind::Cast:
    case ExprKind::Unary:
    case ExprKind::Binary:
      for (size_t i = 0; i < a.args.size(); ++i)
        if (!sameSubject(*a.args[i], *b.args[i])) return false;
      return true;
    default: return false;
  }
}

}  // namespace

// CASE x WHEN c1 THEN r1 WHEN c2 THEN r2 ... [ELSE r] END with many arms whose c and r are
// constants or parameters: the c's are a ValueSet that keeps each value's first arm, so x
// is looked up once (evaluated once, as PostgreSQL does) and the r of that arm read from
// the r's as a list (a constant array, or the parameter tuple through offset tables).
std::optional<SqlValue> Codegen::caseAsLookup(const Expr& e, const Row& row) {
  size_t pairs = (e.args.size() - (e.hasElse ? 1 : 0)) / 2;
  if (pairs < kMinItemsForSet) return std::nullopt;
  const Expr* subject = nullptr;
  std::vector<const Expr*> keys, results;
  for (size_t i = 0; i < pairs; ++i) {
    const Expr& when = *e.args[2 * i];
    if (when.kind != ExprKind::Compare || when.op != Op::Eq) return std::nullopt;
    if (!subject) subject = when.args[0].get();
    if (!sameSubject(*subject, *when.args[0]) || !(when.args[1]->type == subject->type)) return std::nullopt;
    keys.push_back(when.args[1].get());
    results.push_back(e.args[2 * i + 1].get());
  }
  if (!isArrayElementType(subject->type.id) || !isArrayElementType(e.type.id)) return std::nullopt;
  std::optional<DataList> keyList = dataList(keys);
  std::optional<DataList> resultList = dataList(results);
  if (!keyList || !resultList || resultList->type.id != e.type.id) return std::nullopt;
  SqlValue x = expr(*subject, row);
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  llvm::AllocaInst* resultArray = eb.CreateAlloca(ptrTy_);
  llvm::Value* set = valueSetOnce([&](llvm::Value* previous) {
    if (resultList->constants) b_.CreateStore(dataListArray(*resultList), resultArray);
    return fillValueSet(*keyList, previous, x.type.id);
  });
  llvm::AllocaInst* position = eb.CreateAlloca(i64Ty_);
  b_.CreateStore(b_.getInt64(-1), position);
  ifThen(b_.CreateNot(x.null), [&] {
    const TupleLayout* layout = out_.layouts.add(TupleLayout::of({x.type}));
    llvm::Value* tuple = tupleAlloca(*layout);
    storeField(tuple, *layout, 0, x);
    llvm::Value* value = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), tuple, layout->offsets[0]);
    b_.CreateStore(call("duet_q_value_set_find", i64Ty_, {set, value}), position);
  });
  llvm::Value* at = b_.CreateLoad(i64Ty_, position);
  llvm::BasicBlock* hit = block("case.lookup_hit");
  llvm::BasicBlock* miss = block("case.lookup_miss");
  llvm::BasicBlock* join = block("case.lookup_end");
  b_.CreateCondBr(b_.CreateICmpSGE(at, b_.getInt64(0)), hit, miss);
  b_.SetInsertPoint(hit);
  SqlValue found =
      dataListItem(*resultList, resultList->constants ? b_.CreateLoad(ptrTy_, resultArray) : nullptr, at, e.type);
  found.type = e.type;
  llvm::BasicBlock* hitEnd = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(miss);
  SqlValue otherwise = e.hasElse ? expr(*e.args.back(), row) : nullOf(e.type);
  llvm::BasicBlock* missEnd = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  return phi({{hitEnd, found}, {missEnd, otherwise}}, e.type);
}

llvm::Value* Codegen::constantArray(TypeId element, const std::vector<const Expr*>& items) {
  Arena scratch;
  ArrayBuilder builder(element);
  for (const Expr* item : items) {
    if (item->constNull) {
      builder.appendNull();
    } else if (isByteStringType(element)) {
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
    llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
    llvm::AllocaInst* arrayNull = eb.CreateAlloca(b_.getInt1Ty());
    llvm::AllocaInst* filled = eb.CreateAlloca(ptrTy_);
    auto type = b_.getInt32(static_cast<int32_t>(x.type.id));
    llvm::Value* set = valueSetOnce([&](llvm::Value* previous) {
      // The array is evaluated here, once per execution: an ARRAY[...] would be built per row.
      SqlValue array = expr(*e.args[1], row);
      b_.CreateStore(array.null, arrayNull);
      b_.CreateStore(previous, filled);
      ifThen(b_.CreateNot(array.null),
             [&] { b_.CreateStore(call("duet_q_value_set_array", ptrTy_, {qctx_, previous, type, array.v}), filled); });
      return b_.CreateLoad(ptrTy_, filled);
    });
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    llvm::BasicBlock* probe = block("any.set");
    llvm::BasicBlock* join = block("any.set_end");
    b_.CreateCondBr(b_.CreateLoad(b_.getInt1Ty(), arrayNull), join, probe);
    b_.SetInsertPoint(probe);
    SqlValue found = probeValueSet(set, x);
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
