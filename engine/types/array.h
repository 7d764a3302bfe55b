// One-dimensional arrays (lower bound 1, NULL elements allowed) of the scalar types: the
// physical representation and what the type library does with it (text and binary I/O,
// comparison, hashing, casts). The runtime functions generated code calls are in
// runtime.h (duet_rt_array_*).
#pragma once
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types/type_context.h"
#include "engine/types/type_id.h"
#include "engine/types/value.h"

namespace duet {

// An array value is one position-independent allocation that begins like a VarString
// (`len` counts the bytes after the len field), so everything that copies or frees string
// values (tables, tuple buffers, arenas) handles arrays unchanged:
//   offset 0   uint32 len
//   offset 4   uint32 count              number of elements
//   offset 8   uint8  elementType        TypeId, so comparison and output need no type
//   offset 9   uint8  hasNulls
//   offset 16  uint8  nulls[count]       1 = NULL
//   then, at arraySlotsOffset(count), count slots of physicalSize(elementType) bytes; a
//   string element's slot holds the uint32 offset (from the start) of a VarString stored
//   after the slots (4-byte aligned).
// Fields are read with memcpy: a copy made by Arena::makeString is only 4-byte aligned.
// A NULL element's slot is zero.
inline constexpr uint32_t kArrayHeaderSize = 16;
inline uint32_t arraySlotsOffset(uint32_t count) { return (kArrayHeaderSize + count + 15) & ~15u; }
// Bytes per slot: the physical size, or 4 (an offset) for string elements.
uint32_t arraySlotSize(TypeId element);

// The runtime function (runtime.h) that reads an element of this type from an array.
const char* arrayGetFunction(TypeId element);

// PostgreSQL's MaxArraySize: the most elements an array may have.
inline constexpr uint32_t kMaxArrayElements = 0x3FFFFFF;

// Read access to an array value.
class ArrayView {
 public:
  explicit ArrayView(const VarString* array) : base_(reinterpret_cast<const unsigned char*>(array)) {}
  uint32_t size() const;
  TypeId elementType() const { return static_cast<TypeId>(base_[8]); }
  bool hasNulls() const { return base_[9] != 0; }
  bool isNull(uint32_t i) const { return base_[kArrayHeaderSize + i] != 0; }
  // Writes element i's physical representation (value.h) to `out`, which must hold 16
  // bytes; a string element becomes a `const VarString*` into the array itself.
  void load(uint32_t i, void* out) const;

 private:
  const unsigned char* base_;
};

// A text[] of `values` in `arena`, NULL elements for the missing ones (the results of
// regexp_match and its kin).
const VarString* makeTextArray(std::span<const std::optional<std::string_view>> values, Arena& arena);

// a's elements then b's (array_cat), both of one element type, in `arena`.
const VarString* concatArrays(const VarString* a, const VarString* b, Arena& arena);

// Collects elements, then lays the array out in one allocation.
class ArrayBuilder {
 public:
  explicit ArrayBuilder(TypeId element)
      : element_(element), strings_(isVarlenaType(element)), slotSize_(arraySlotSize(element)) {}
  void reserve(size_t n);
  void appendNull();
  // `value` is the element's physical representation; string bytes are copied by finish.
  void append(const void* value);
  size_t size() const { return nulls_.size(); }
  const VarString* finish(Arena& arena) const;

 private:
  // Small arrays (procedure arguments, ARRAY[...] of a few elements) are built without
  // touching the heap.
  TypeId element_;
  bool strings_;  // string elements: decided once, not per element
  uint32_t slotSize_;
  boost::container::small_vector<uint8_t, 32> nulls_;
  boost::container::small_vector<unsigned char, 256> slots_;           // fixed-width elements
  boost::container::small_vector<const VarString*, 16> stringValues_;  // string elements (null for NULL)
};

// array_out / array_in: '{1,2,NULL}', elements quoted and escaped where needed. `type`
// is the array type; its typmod is applied to every element, as PostgreSQL does. Input
// errors are 22P02 "malformed array literal: ..." with PostgreSQL's details; multiple
// dimensions and lower bounds other than 1 are rejected with 0A000.
void formatArrayText(const VarString* array, std::string& out, const TypeContext& ctx);
const VarString* parseArrayText(SqlType type, std::string_view text, Arena& arena, const TypeContext& ctx);

// array_send / array_recv: int32 ndim, int32 has-null flag, uint32 element OID, per
// dimension int32 length and lower bound, then each element as int32 length (-1: NULL)
// and its binary form.
void formatArrayBinary(SqlType type, const VarString* array, std::string& out);  // type: the array's
const VarString* parseArrayBinary(SqlType type, std::string_view data, Arena& arena);

// btarraycmp: element by element (NULL sorts after every value, NULLs equal each other),
// then the shorter array first. Equality (array_eq) is compareArrays == 0.
int compareArrays(const VarString* a, const VarString* b);
uint64_t hashArray(const VarString* array);

// Element-wise conversion to the array type `to` (element cast, then to's typmod).
const VarString* castArray(const VarString* array, SqlType to, bool explicitCast, Arena& arena, const TypeContext& ctx);

}  // namespace duet
