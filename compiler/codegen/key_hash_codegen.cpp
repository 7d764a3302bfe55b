// The hash of a key tuple, generated per key layout: what hashTuple (engine/storage/
// key_ops.h) computes, with the integer-like columns (integers, booleans, dates,
// timestamps) hashed inline, strings by their type's hash function and the rest by
// duet_rt_hash_value. Group and join tables (query_runtime.h) take it from here instead of
// dispatching on each column's type per row.
#include "compiler/codegen/codegen_internal.h"
#include "engine/storage/key_ops.h"

namespace duet::codegen {

namespace {

// hashMix64 (engine/types/hash.h) in IR.
llvm::Value* mix64(llvm::IRBuilder<>& b, llvm::Value* x) {
  x = b.CreateXor(x, b.CreateLShr(x, 30));
  x = b.CreateMul(x, b.getInt64(0xbf58476d1ce4e5b9ULL));
  x = b.CreateXor(x, b.CreateLShr(x, 27));
  x = b.CreateMul(x, b.getInt64(0x94d049bb133111ebULL));
  return b.CreateXor(x, b.CreateLShr(x, 31));
}

}  // namespace

llvm::Value* Codegen::keyHash(llvm::Value* tuple, const TupleLayout& layout) {
  auto& b = b_;
  llvm::Value* h = b.getInt64(0x9e3779b97f4a7c15ULL);
  for (size_t c = 0; c < layout.types.size(); ++c) {
    TypeId t = layout.types[c].id;
    llvm::Value* isNull = b.CreateICmpNE(
        b.CreateLoad(b.getInt8Ty(), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), tuple, c)), b.getInt8(0));
    llvm::Value* at = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), tuple, layout.offsets[c]);
    llvm::Value* f;
    if (isIntegerLike(t)) {
      // hashValue: the value as a signed 64-bit integer (a boolean as its byte), mixed. A
      // NULL's stored bits are zero (storeField), so hashing them costs no branch.
      unsigned bits = physicalSize(t) * 8;
      llvm::Value* v = b.CreateLoad(b.getIntNTy(bits), at);
      v = t == TypeId::Bool ? b.CreateZExt(v, i64Ty_) : b.CreateSExtOrTrunc(v, i64Ty_);
      f = mix64(b, v);
    } else {
      llvm::IRBuilder<> eb(entry_, entry_->getFirstInsertionPt());
      llvm::Value* slot = eb.CreateAlloca(i64Ty_);
      b.CreateStore(b.getInt64(0), slot);
      ifThen(b.CreateNot(isNull), [&] {
        llvm::Value* h;
        if (t == TypeId::Text || t == TypeId::Varchar || t == TypeId::Bytea || t == TypeId::Char)
          h = call(t == TypeId::Char ? "duet_rt_bpchar_hash" : "duet_rt_text_hash", i64Ty_, {b.CreateLoad(ptrTy_, at)});
        else
          h = call("duet_rt_hash_value", i64Ty_, {b.getInt32(static_cast<int32_t>(t)), at});
        b.CreateStore(h, slot);
      });
      f = b.CreateLoad(i64Ty_, slot);
    }
    f = b.CreateSelect(isNull, b.getInt64(0x5bd1e995ULL), f);
    h = b.CreateAdd(mix64(b, b.CreateXor(h, f)), b.getInt64(c));
  }
  return h;
}

}  // namespace duet::codegen
