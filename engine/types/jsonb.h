// jsonb values: a binary tree in one position-independent allocation that begins like a
// VarString, so storage, tuple buffers and arenas copy it as they copy text. Reading a
// member or an element is a jump (no parse), objects are kept in PostgreSQL's canonical
// form (keys ordered by length then bytes, one member per key: the last given) and numbers
// as the text numeric prints, so output, equality and hashing walk the tree as it is.
//
// A node is a tag byte (JsonKind) and its body; integers are uint32, read with memcpy:
//   null, false, true   no body
//   number, string      length, then the bytes (UTF-8; numbers as canonicalNumber)
//   array               count, node size, count offsets (from the node's start), elements
//   object              count, node size, 2 * count offsets (keys, then values), key
//                       nodes (strings, in canonical order), value nodes
// A jsonb value is a VarString whose bytes are its root node.
#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "engine/types/json.h"
#include "engine/types/value.h"

namespace duet {

class JsonbRef {
 public:
  explicit JsonbRef(const unsigned char* node) : p_(node) {}
  static JsonbRef of(const VarString* value) { return JsonbRef(reinterpret_cast<const unsigned char*>(value->data)); }

  JsonKind kind() const { return static_cast<JsonKind>(p_[0]); }
  bool isScalar() const { return kind() != JsonKind::Array && kind() != JsonKind::Object; }
  // Bytes of the node.
  uint32_t size() const;
  // A number's or a string's text.
  std::string_view text() const { return {reinterpret_cast<const char*>(p_ + 5), u32(1)}; }
  // Elements of an array, members of an object.
  uint32_t count() const { return u32(1); }
  JsonbRef element(uint32_t i) const { return JsonbRef(p_ + u32(9 + 4 * i)); }
  std::string_view key(uint32_t i) const { return element(i).text(); }
  JsonbRef value(uint32_t i) const { return element(count() + i); }
  // The member called `key` of an object (binary search of the canonical order).
  std::optional<JsonbRef> find(std::string_view key) const;
  std::string_view bytes() const { return {reinterpret_cast<const char*>(p_), size()}; }

 private:
  uint32_t u32(size_t at) const {
    uint32_t v;
    std::memcpy(&v, p_ + at, 4);
    return v;
  }
  const unsigned char* p_;
};

// PostgreSQL's key order in a jsonb object (lengthCompareJsonbStringValue).
int jsonbKeyOrder(std::string_view a, std::string_view b);

// The jsonb value of `v`: objects sorted and de-duplicated (last wins), numbers made
// canonical (22P02 for an exponent numeric rejects).
const VarString* makeJsonb(const JsonValue& v, Arena& arena);
// A node copied out as a jsonb value of its own.
const VarString* jsonbFromNode(JsonbRef node, Arena& arena);
// The tree a node holds (for the functions that build new values from old ones).
JsonValue jsonbToValue(JsonbRef node);

// jsonb_out: {"a": 1, "b": [1, 2]}; jsonb_pretty: four spaces an indentation level.
void formatJsonb(JsonbRef node, std::string& out);
void formatJsonbPretty(JsonbRef node, std::string& out);

// jsonb's btree order (compareJsonbContainers), hash consistent with its equality, and
// the @> operator (JsonbDeepContains after jsonb_contains's top-level check).
int compareJsonb(JsonbRef a, JsonbRef b);
uint64_t hashJsonb(JsonbRef node);
bool jsonbContains(JsonbRef a, JsonbRef b);

}  // namespace duet
