#include <cstdlib>
#include <new>

#include "engine/limits/statement_memory.h"
#include "engine/types/value.h"

namespace duet {

namespace {
constexpr size_t kFirstBlock = 64 * 1024;
thread_local Arena* tCurrentArena = nullptr;
thread_local Arena tFallbackArena;
}  // namespace

Arena::~Arena() {
  while (head_) {
    Block* next = head_->next;
    releaseStatementMemory(sizeof(Block) + head_->size);
    std::free(head_);
    head_ = next;
  }
}

void* Arena::allocate(size_t bytes, size_t align) {
  auto p = reinterpret_cast<uintptr_t>(cur_);
  uintptr_t aligned = (p + align - 1) & ~(uintptr_t(align) - 1);
  if (!cur_ || aligned + bytes > reinterpret_cast<uintptr_t>(end_)) {
    size_t size = head_ ? head_->size * 2 : kFirstBlock;
    while (size < bytes + align) size *= 2;
    // The statement's memory limit applies to what its values take (53200 beyond it).
    chargeStatementMemory(sizeof(Block) + size);
    auto* block = static_cast<Block*>(std::malloc(sizeof(Block) + size));
    if (!block) {
      releaseStatementMemory(sizeof(Block) + size);
      throw std::bad_alloc();
    }
    block->next = head_;
    block->size = size;
    head_ = block;
    cur_ = block->data;
    end_ = block->data + size;
    p = reinterpret_cast<uintptr_t>(cur_);
    aligned = (p + align - 1) & ~(uintptr_t(align) - 1);
  }
  cur_ = reinterpret_cast<unsigned char*>(aligned + bytes);
  used_ += bytes;
  return reinterpret_cast<void*>(aligned);
}

VarString* Arena::makeString(size_t len) {
  auto* s = static_cast<VarString*>(allocate(sizeof(VarString) + len, alignof(VarString)));
  s->len = static_cast<uint32_t>(len);
  return s;
}

VarString* Arena::makeString(std::string_view sv) {
  VarString* s = makeString(sv.size());
  if (!sv.empty()) std::memcpy(s->data, sv.data(), sv.size());
  return s;
}

void Arena::reset() {
  if (!head_) return;
  // Keep the oldest (smallest) block: free the rest.
  while (head_->next) {
    Block* next = head_->next;
    releaseStatementMemory(sizeof(Block) + head_->size);
    std::free(head_);
    head_ = next;
  }
  cur_ = head_->data;
  end_ = head_->data + head_->size;
  used_ = 0;
}

Arena& statementArena() { return tCurrentArena ? *tCurrentArena : tFallbackArena; }
void setStatementArena(Arena* arena) { tCurrentArena = arena; }

}  // namespace duet
