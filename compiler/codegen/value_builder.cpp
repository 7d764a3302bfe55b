// The IR plumbing under SQL values: representation of each type, tuple fields, constants,
// runtime calls, control flow and NULL propagation.
#include <atomic>
#include <cstddef>
#include <cstring>

#include "compiler/codegen/sql_value.h"
#include "engine/invariant.h"

namespace duet::codegen {

ValueBuilder::ValueBuilder(llvm::LLVMContext& ctx, llvm::Module& module, CompiledQuery& out)
    : ctx_(ctx), module_(module), b_(ctx), out_(out) {
  ptrTy_ = llvm::PointerType::get(ctx, 0);
  i64Ty_ = b_.getInt64Ty();
}

void ValueBuilder::enterFunction(llvm::Function* fn, llvm::BasicBlock* entry, llvm::Value* queryContext) {
  fn_ = fn;
  entry_ = entry;
  qctx_ = queryContext;
  b_.SetInsertPoint(entry);
}

llvm::Type* ValueBuilder::sqlType(TypeId t) {
  switch (t) {
    case TypeId::Bool: return b_.getInt1Ty();
    case TypeId::Int2: return b_.getInt16Ty();
    case TypeId::Int4:
    case TypeId::Date: return b_.getInt32Ty();
    case TypeId::Int8:
    case TypeId::Timestamp:
    case TypeId::TimestampTz: return b_.getInt64Ty();
    case TypeId::Float4: return b_.getFloatTy();
    case TypeId::Float8: return b_.getDoubleTy();
    case TypeId::Numeric:
    case TypeId::Interval:
    case TypeId::Uuid: return b_.getInt128Ty();
    default: return ptrTy_;  // strings, bytea, arrays
  }
}

llvm::Type* ValueBuilder::memType(TypeId t) { return t == TypeId::Bool ? b_.getInt8Ty() : sqlType(t); }

llvm::Value* ValueBuilder::ptrConst(const void* p) {
  return b_.CreateIntToPtr(b_.getInt64(reinterpret_cast<uint64_t>(p)), ptrTy_);
}

llvm::Value* ValueBuilder::stringConstant(std::string_view text) {
  auto storage = std::make_unique<unsigned char[]>(sizeof(VarString) + text.size());
  auto* s = reinterpret_cast<VarString*>(storage.get());
  s->len = static_cast<uint32_t>(text.size());
  std::memcpy(s->data, text.data(), text.size());
  out_.constants.push_back(std::move(storage));
  return ptrConst(s);
}

SqlValue ValueBuilder::nullOf(SqlType t) { return {llvm::Constant::getNullValue(sqlType(t.id)), b_.getTrue(), t}; }

llvm::Value* ValueBuilder::typeContext() {
  auto* field = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), qctx_, offsetof(rt::QueryContext, typeContext));
  return b_.CreateLoad(ptrTy_, field);
}

SqlValue ValueBuilder::loadValue(llvm::Value* valuePtr, llvm::Value* nullFlagPtr, SqlType t) {
  llvm::Value* v = b_.CreateLoad(memType(t.id), valuePtr);
  if (t.id == TypeId::Bool) v = b_.CreateICmpNE(v, b_.getInt8(0));
  llvm::Value* isNull = b_.CreateICmpNE(b_.CreateLoad(b_.getInt8Ty(), nullFlagPtr), b_.getInt8(0));
  return {v, isNull, t};
}

// The field generated code is about to address lies inside the layout's tuple: a plan
// node and the code reading its rows agree on the layout.
static void checkField(const TupleLayout& layout, size_t column) {
  DUET_INVARIANT(column < layout.types.size() && column < layout.offsets.size(), "tuple field out of its layout");
  DUET_INVARIANT(layout.offsets[column] + physicalSize(layout.types[column].id) <= layout.size &&
                     layout.offsets[column] % physicalAlign(layout.types[column].id) == 0,
                 "tuple field outside its tuple or misaligned");
}

SqlValue ValueBuilder::loadField(llvm::Value* tuple, const TupleLayout& layout, size_t column) {
  checkField(layout, column);
  auto* valuePtr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), tuple, layout.offsets[column]);
  auto* nullPtr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), tuple, layout.nullOffset(column));
  return loadValue(valuePtr, nullPtr, layout.types[column]);
}

void ValueBuilder::storeField(llvm::Value* tuple, const TupleLayout& layout, size_t column, const SqlValue& v) {
  checkField(layout, column);
  TypeId t = layout.types[column].id;
  auto* valuePtr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), tuple, layout.offsets[column]);
  auto* nullPtr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), tuple, layout.nullOffset(column));
  llvm::Value* value = v.v;
  if (t == TypeId::Bool) value = b_.CreateZExt(value, b_.getInt8Ty());
  // A null value's bits are undefined: store zero so tuples hash and compare stably.
  value = b_.CreateSelect(v.null, llvm::Constant::getNullValue(memType(t)), value);
  b_.CreateStore(value, valuePtr);
  b_.CreateStore(b_.CreateZExt(v.null, b_.getInt8Ty()), nullPtr);
}

llvm::Value* ValueBuilder::tupleAlloca(const TupleLayout& layout) {
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  auto* a = eb.CreateAlloca(b_.getInt8Ty(), b_.getInt64(std::max<uint32_t>(layout.size, 16)));
  a->setAlignment(llvm::Align(16));
  eb.CreateMemSet(a, b_.getInt8(0), std::max<uint32_t>(layout.size, 16), llvm::Align(16));
  return a;
}

void ValueBuilder::storeRow(llvm::Value* tuple, const TupleLayout& layout, const Row& row) {
  for (size_t c = 0; c < layout.types.size(); ++c) storeField(tuple, layout, c, row[c]);
}

llvm::FunctionCallee ValueBuilder::runtime(const std::string& name, llvm::Type* ret, std::vector<llvm::Type*> args) {
  llvm::FunctionCallee callee = module_.getOrInsertFunction(name, llvm::FunctionType::get(ret, args, false));
  // The C ABI has the caller widen an argument narrower than int (int16_t, bool and
  // uint8_t flags: sign extension keeps a 0/1 flag as it is); a clang-compiled runtime
  // function relies on it, g++'s happen not to.
  if (auto* fn = llvm::dyn_cast<llvm::Function>(callee.getCallee()))
    for (unsigned i = 0; i < args.size(); ++i)
      if (args[i]->isIntegerTy(8) || args[i]->isIntegerTy(16)) fn->addParamAttr(i, llvm::Attribute::SExt);
  return callee;
}

llvm::Value* ValueBuilder::call(const std::string& name, llvm::Type* ret, std::vector<llvm::Value*> args) {
  // An __int128 argument that does not fit in the integer registers left (six in all):
  // g++ (and clang from 20 on) expect it whole on the stack, with the later arguments still
  // in registers; LLVM 19 splits it between the last register and the stack, and so does
  // the code clang 19 compiles. When the runtime was built by a compiler of the first kind,
  // such an argument goes as a byval copy, which LLVM lays whole on the stack
  // (generate_series of three numerics: the context, two numerics, then the third).
#if defined(__clang__) && __clang_major__ < 20
  constexpr bool kWholeOnStack = false;
#else
  constexpr bool kWholeOnStack = true;
#endif
  constexpr unsigned kIntegerRegisters = 6;
  unsigned used = 0;
  std::vector<unsigned> onStack;
  std::vector<llvm::Type*> types;
  for (size_t i = 0; i < args.size(); ++i) {
    llvm::Type* t = args[i]->getType();
    if (kWholeOnStack && t->isIntegerTy(128) && used + 2 > kIntegerRegisters) {
      llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
      llvm::AllocaInst* copy = eb.CreateAlloca(t);
      copy->setAlignment(llvm::Align(16));
      b_.CreateAlignedStore(args[i], copy, llvm::Align(16));
      args[i] = copy;
      onStack.push_back(static_cast<unsigned>(i));
      types.push_back(ptrTy_);
      continue;
    }
    if (t->isIntegerTy(128))
      used += 2;
    else if (t->isIntegerTy() || t->isPointerTy())
      used = std::min(used + 1, kIntegerRegisters);
    types.push_back(t);
  }
  llvm::FunctionCallee callee = runtime(name, ret, types);
  llvm::CallInst* c = b_.CreateCall(callee, args);
  auto* fn = llvm::dyn_cast<llvm::Function>(callee.getCallee());
  for (unsigned i : onStack)
    for (llvm::Attribute a : {llvm::Attribute::getWithByValType(ctx_, b_.getInt128Ty()),
                              llvm::Attribute::getWithAlignment(ctx_, llvm::Align(16))}) {
      c->addParamAttr(i, a);
      if (fn) fn->addParamAttr(i, a);
    }
  return c;
}

llvm::Value* ValueBuilder::callSql(const std::string& name, SqlType result, const std::vector<SqlValue>& args,
                                   std::vector<llvm::Value*> leading) {
  for (const SqlValue& a : args)
    leading.push_back(a.type.id == TypeId::Bool ? b_.CreateZExt(a.v, b_.getInt8Ty()) : a.v);
  if (result.id == TypeId::Bool) return b_.CreateICmpNE(call(name, b_.getInt8Ty(), leading), b_.getInt8(0));
  return call(name, sqlType(result.id), leading);
}

llvm::BasicBlock* ValueBuilder::block(const char* name) { return llvm::BasicBlock::Create(ctx_, name, fn_); }

void ValueBuilder::loop(llvm::Value* begin, const std::function<llvm::Value*()>& end,
                        const std::function<void(llvm::Value*, llvm::BasicBlock*)>& body) {
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  llvm::BasicBlock* header = block("loop");
  llvm::BasicBlock* bodyBlock = block("body");
  llvm::BasicBlock* latch = block("next");
  llvm::BasicBlock* exit = block("done");
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  llvm::PHINode* i = b_.CreatePHI(begin->getType(), 2);
  i->addIncoming(begin, pre);
  b_.CreateCondBr(b_.CreateICmpULT(i, end()), bodyBlock, exit);
  b_.SetInsertPoint(bodyBlock);
  body(i, latch);
  if (!terminated()) b_.CreateBr(latch);
  b_.SetInsertPoint(latch);
  llvm::Value* inc = b_.CreateAdd(i, llvm::ConstantInt::get(i->getType(), 1));
  i->addIncoming(inc, latch);
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
}

static_assert(sizeof(std::atomic<bool>) == 1, "checkCancel loads the flag as one byte");

void ValueBuilder::checkCancel() {
  llvm::Value* slot = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), qctx_, offsetof(rt::QueryContext, cancel));
  llvm::Value* flagPtr = b_.CreateLoad(ptrTy_, slot);
  ifThen(b_.CreateIsNotNull(flagPtr), [&] {
    // std::atomic<bool> is one byte; the load is atomic so it is never hoisted out of a loop.
    llvm::LoadInst* flag = b_.CreateLoad(b_.getInt8Ty(), flagPtr);
    flag->setAtomic(llvm::AtomicOrdering::Monotonic);
    flag->setAlignment(llvm::Align(1));
    ifThen(b_.CreateICmpNE(flag, b_.getInt8(0)), [&] { call("duet_q_check_cancel", b_.getVoidTy(), {qctx_}); });
  });
}

void ValueBuilder::ifThen(llvm::Value* cond, const std::function<void()>& then) {
  llvm::BasicBlock* yes = block("then");
  llvm::BasicBlock* after = block("endif");
  b_.CreateCondBr(cond, yes, after);
  b_.SetInsertPoint(yes);
  then();
  if (!terminated()) b_.CreateBr(after);
  b_.SetInsertPoint(after);
}

SqlValue ValueBuilder::phi(const std::vector<std::pair<llvm::BasicBlock*, SqlValue>>& incoming, SqlType type) {
  llvm::PHINode* value = b_.CreatePHI(sqlType(type.id), incoming.size());
  llvm::PHINode* isNull = b_.CreatePHI(b_.getInt1Ty(), incoming.size());
  for (const auto& [from, v] : incoming) {
    value->addIncoming(v.v, from);
    isNull->addIncoming(v.null, from);
  }
  return {value, isNull, type};
}

SqlValue ValueBuilder::strict(const std::vector<SqlValue>& args, SqlType resultType,
                              const std::function<llvm::Value*()>& compute) {
  llvm::Value* anyNull = b_.getFalse();
  for (const SqlValue& a : args) anyNull = b_.CreateOr(anyNull, a.null);
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(anyNull); c && c->isZero()) {
    return {compute(), b_.getFalse(), resultType};
  }
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  llvm::BasicBlock* work = block("strict");
  llvm::BasicBlock* join = block("strict.join");
  b_.CreateCondBr(anyNull, join, work);
  b_.SetInsertPoint(work);
  llvm::Value* v = compute();
  llvm::BasicBlock* workEnd = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  llvm::PHINode* phi = b_.CreatePHI(sqlType(resultType.id), 2);
  phi->addIncoming(llvm::Constant::getNullValue(sqlType(resultType.id)), pre);
  phi->addIncoming(v, workEnd);
  return {phi, anyNull, resultType};
}

}  // namespace duet::codegen
