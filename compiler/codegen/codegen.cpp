#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstring>

#include "compiler/codegen/codegen_internal.h"
#include "compiler/codegen/jit.h"
#include "engine/error.h"
#include "engine/invariant.h"

namespace duet::codegen {

Codegen::Codegen(llvm::LLVMContext& ctx, llvm::Module& module, CompiledQuery& out)
    : ctx_(ctx), module_(module), b_(ctx), out_(out) {
  ptrTy_ = llvm::PointerType::get(ctx, 0);
  i64Ty_ = b_.getInt64Ty();
}

llvm::Type* Codegen::sqlType(TypeId t) {
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
    case TypeId::Numeric: return b_.getInt128Ty();
    default: return ptrTy_;  // strings
  }
}

llvm::Type* Codegen::memType(TypeId t) { return t == TypeId::Bool ? b_.getInt8Ty() : sqlType(t); }

llvm::Value* Codegen::ptrConst(const void* p) {
  return b_.CreateIntToPtr(b_.getInt64(reinterpret_cast<uint64_t>(p)), ptrTy_);
}

llvm::Value* Codegen::stringConstant(std::string_view text) {
  auto storage = std::make_unique<unsigned char[]>(sizeof(VarString) + text.size());
  auto* s = reinterpret_cast<VarString*>(storage.get());
  s->len = static_cast<uint32_t>(text.size());
  std::memcpy(s->data, text.data(), text.size());
  out_.constants.push_back(std::move(storage));
  return ptrConst(s);
}

llvm::Value* Codegen::typeContext() {
  auto* field = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), qctx_, offsetof(rt::QueryContext, typeContext));
  return b_.CreateLoad(ptrTy_, field);
}

Val Codegen::loadValue(llvm::Value* valuePtr, llvm::Value* nullFlagPtr, TypeId t) {
  llvm::Value* v = b_.CreateLoad(memType(t), valuePtr);
  if (t == TypeId::Bool) v = b_.CreateICmpNE(v, b_.getInt8(0));
  llvm::Value* isNull = b_.CreateICmpNE(b_.CreateLoad(b_.getInt8Ty(), nullFlagPtr), b_.getInt8(0));
  return {v, isNull};
}

// The field generated code is about to address lies inside the layout's tuple: a plan
// node and the code reading its rows agree on the layout.
static void checkField(const TupleLayout& layout, size_t column) {
  DUET_INVARIANT(column < layout.types.size() && column < layout.offsets.size(), "tuple field out of its layout");
  DUET_INVARIANT(layout.offsets[column] + physicalSize(layout.types[column].id) <= layout.size &&
                     layout.offsets[column] % physicalAlign(layout.types[column].id) == 0,
                 "tuple field outside its tuple or misaligned");
}

Val Codegen::loadField(llvm::Value* tuple, const TupleLayout& layout, size_t column) {
  checkField(layout, column);
  auto* valuePtr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), tuple, layout.offsets[column]);
  auto* nullPtr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), tuple, layout.nullOffset(column));
  return loadValue(valuePtr, nullPtr, layout.types[column].id);
}

void Codegen::storeField(llvm::Value* tuple, const TupleLayout& layout, size_t column, Val v) {
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

llvm::Value* Codegen::tupleAlloca(const TupleLayout& layout) {
  llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
  auto* a = eb.CreateAlloca(b_.getInt8Ty(), b_.getInt64(std::max<uint32_t>(layout.size, 16)));
  a->setAlignment(llvm::Align(16));
  eb.CreateMemSet(a, b_.getInt8(0), std::max<uint32_t>(layout.size, 16), llvm::Align(16));
  return a;
}

void Codegen::storeRow(llvm::Value* tuple, const TupleLayout& layout, const Row& row) {
  for (size_t c = 0; c < layout.types.size(); ++c) storeField(tuple, layout, c, row[c]);
}

llvm::FunctionCallee Codegen::runtime(const std::string& name, llvm::Type* ret, std::vector<llvm::Type*> args) {
  return module_.getOrInsertFunction(name, llvm::FunctionType::get(ret, args, false));
}

llvm::Value* Codegen::call(const std::string& name, llvm::Type* ret, std::vector<llvm::Value*> args) {
  std::vector<llvm::Type*> types;
  for (auto* a : args) types.push_back(a->getType());
  return b_.CreateCall(runtime(name, ret, types), args);
}

llvm::BasicBlock* Codegen::block(const char* name) { return llvm::BasicBlock::Create(ctx_, name, fn_); }

void Codegen::loop(llvm::Value* begin, const std::function<llvm::Value*()>& end,
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
  if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(latch);
  b_.SetInsertPoint(latch);
  llvm::Value* inc = b_.CreateAdd(i, llvm::ConstantInt::get(i->getType(), 1));
  i->addIncoming(inc, latch);
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
}

static_assert(sizeof(std::atomic<bool>) == 1, "checkCancel loads the flag as one byte");

void Codegen::checkCancel() {
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

void Codegen::ifThen(llvm::Value* cond, const std::function<void()>& then) {
  llvm::BasicBlock* yes = block("then");
  llvm::BasicBlock* after = block("endif");
  b_.CreateCondBr(cond, yes, after);
  b_.SetInsertPoint(yes);
  then();
  if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(after);
  b_.SetInsertPoint(after);
}

Val Codegen::strict(const std::vector<llvm::Value*>& nulls, TypeId resultType,
                    const std::function<llvm::Value*()>& compute) {
  llvm::Value* anyNull = b_.getFalse();
  for (auto* n : nulls) anyNull = b_.CreateOr(anyNull, n);
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(anyNull); c && c->isZero()) {
    return {compute(), b_.getFalse()};
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
  llvm::PHINode* phi = b_.CreatePHI(sqlType(resultType), 2);
  phi->addIncoming(llvm::Constant::getNullValue(sqlType(resultType)), pre);
  phi->addIncoming(v, workEnd);
  return {phi, anyNull};
}

}  // namespace duet::codegen

namespace duet {

std::unique_ptr<CompiledQuery> compileQuery(const plan::Node& root, const std::vector<SqlType>& paramTypes,
                                            int optLevel, int optimiseBudgetMs) {
  auto started = std::chrono::steady_clock::now();
  auto out = std::make_unique<CompiledQuery>();
  out->paramLayout = TupleLayout::of(paramTypes);

  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("query", *context);
  codegen::Codegen cg(*context, *module, *out);

  auto* fnType = llvm::FunctionType::get(cg.b_.getVoidTy(), {cg.ptrTy_}, false);
  // Every module lands in one JIT dylib: each entry point needs a name of its own.
  static std::atomic<uint64_t> counter{0};
  std::string name = "query" + std::to_string(counter.fetch_add(1));
  cg.fn_ = llvm::Function::Create(fnType, llvm::Function::ExternalLinkage, name, *module);
  cg.fn_->setUWTableKind(llvm::UWTableKind::Async);  // runtime errors unwind through it
  cg.entry_ = llvm::BasicBlock::Create(*context, "entry", cg.fn_);
  cg.b_.SetInsertPoint(cg.entry_);
  cg.qctx_ = cg.fn_->getArg(0);
  cg.params_ = cg.b_.CreateLoad(cg.ptrTy_, cg.qctx_);  // QueryContext::params is first
  cg.paramsInTuple_ = true;

  bool dml =
      root.kind == plan::NodeKind::Insert || root.kind == plan::NodeKind::Update || root.kind == plan::NodeKind::Delete;
  std::vector<SqlType> outTypes;
  if (dml) {
    for (const auto& e : root.returning) outTypes.push_back(e->type);
  } else {
    outTypes = root.outputTypes;
  }
  out->producesRows = !dml || !root.returning.empty();
  out->outputLayout = TupleLayout::of(outTypes);

  llvm::Value* outTuple = cg.tupleAlloca(out->outputLayout);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(*context, "finish", cg.fn_);
  cg.pipelineEnd_.push_back(done);
  auto emit = [&](codegen::Row& row) {
    if (!out->producesRows) return;
    cg.storeRow(outTuple, out->outputLayout, row);
    cg.call("duet_q_emit", cg.b_.getVoidTy(), {cg.qctx_, outTuple});
  };
  if (root.gatherThreads > 1) {
    cg.produceGathered(root, emit);
  } else {
    cg.produce(root, emit);
  }
  if (!cg.b_.GetInsertBlock()->getTerminator()) cg.b_.CreateBr(done);
  cg.b_.SetInsertPoint(done);
  cg.b_.CreateRetVoid();

  out->code = Jit::instance().compile(std::move(context), std::move(module), {name}, optLevel, optimiseBudgetMs);
  out->entry = reinterpret_cast<CompiledQuery::Entry>(out->code.functions[0]);
  out->compileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace duet
