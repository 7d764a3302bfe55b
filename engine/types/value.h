// Physical value representations shared by storage, runtime functions and generated code.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>

#include "engine/types/type_id.h"

namespace duet {

// A string value: length-prefixed bytes, UTF-8, not NUL-terminated. Tables own the copies
// they store; temporaries produced while a statement runs live in that statement's Arena.
struct VarString {
  uint32_t len;
  char data[];
  std::string_view view() const { return {data, len}; }
};

// numeric: value = mantissa * 10^-scale, packed as (mantissa << 8) | scale in an __int128.
// The mantissa is a signed 120-bit integer (about 35 decimal digits); scale is 0..255 and
// is the display scale PostgreSQL would print (1.50 keeps scale 2).
using NumericRep = __int128;
inline int numericScale(NumericRep v) { return static_cast<int>(static_cast<unsigned __int128>(v) & 0xff); }
inline __int128 numericMantissa(NumericRep v) { return v >> 8; }  // arithmetic shift
inline NumericRep makeNumeric(__int128 mantissa, int scale) {
  return static_cast<NumericRep>((static_cast<unsigned __int128>(mantissa) << 8) | static_cast<unsigned>(scale));
}

// A bump allocator for values produced while one statement runs; reset between statements.
class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();
  void* allocate(size_t bytes, size_t align = 16);
  VarString* makeString(std::string_view s);
  VarString* makeString(size_t len);  // uninitialised bytes, len set
  void reset();                       // frees everything but the first block
  size_t bytesUsed() const { return used_; }

 private:
  struct Block {
    Block* next;
    size_t size;
    alignas(16) unsigned char data[];
  };
  Block* head_ = nullptr;
  unsigned char* cur_ = nullptr;
  unsigned char* end_ = nullptr;
  size_t used_ = 0;
};

// The arena of the statement the current thread is running (set by the executor around
// each statement). Runtime functions that produce strings allocate there.
Arena& statementArena();
void setStatementArena(Arena* arena);

}  // namespace duet
