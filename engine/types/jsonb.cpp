// jsonb's binary form (jsonb.h): encoding, reading, output, ordering, hashing, containment.
#include "engine/types/jsonb.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "engine/limits/stack_depth.h"
#include "engine/types/hash.h"
#include "engine/types/strings.h"

namespace duet {

namespace {

void putU32(std::string& out, size_t at, uint32_t v) { std::memcpy(out.data() + at, &v, 4); }
void appendU32(std::string& out, uint32_t v) {
  out.append(4, '\0');
  putU32(out, out.size() - 4, v);
}

void encodeScalarText(JsonKind kind, std::string_view text, std::string& out) {
  out += static_cast<char>(kind);
  appendU32(out, static_cast<uint32_t>(text.size()));
  out.append(text);
}

// A container: header, offsets filled in as each child is encoded after them.
template <typename EncodeChild>
void encodeContainer(JsonKind kind, size_t children, uint32_t count, std::string& out, EncodeChild encodeChild) {
  size_t start = out.size();
  out += static_cast<char>(kind);
  appendU32(out, count);
  appendU32(out, 0);  // node size, below
  size_t offsets = out.size();
  out.append(4 * children, '\0');
  for (size_t i = 0; i < children; ++i) {
    putU32(out, offsets + 4 * i, static_cast<uint32_t>(out.size() - start));
    encodeChild(i);
  }
  putU32(out, start + 5, static_cast<uint32_t>(out.size() - start));
}

void encode(const JsonValue& v, std::string& out) {
  checkStackDepth();
  switch (v.kind) {
    case JsonKind::Null:
    case JsonKind::False:
    case JsonKind::True: out += static_cast<char>(v.kind); return;
    case JsonKind::Number: return encodeScalarText(v.kind, canonicalNumber(v.text), out);
    case JsonKind::String: return encodeScalarText(v.kind, v.text, out);
    case JsonKind::Array:
      return encodeContainer(v.kind, v.items.size(), static_cast<uint32_t>(v.items.size()), out,
                             [&](size_t i) { encode(v.items[i], out); });
    case JsonKind::Object: {
      // uniqueifyJsonbObject: stable order by key, the last of equal keys kept.
      std::vector<size_t> order(v.keys.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t a, size_t b) { return jsonbKeyOrder(v.keys[a], v.keys[b]) < 0; });
      std::vector<size_t> kept;
      for (size_t k = 0; k < order.size(); ++k)
        if (k + 1 == order.size() || v.keys[order[k]] != v.keys[order[k + 1]]) kept.push_back(order[k]);
      size_t n = kept.size();
      return encodeContainer(v.kind, 2 * n, static_cast<uint32_t>(n), out, [&](size_t i) {
        if (i < n)
          encodeScalarText(JsonKind::String, v.keys[kept[i]], out);
        else
          encode(v.items[kept[i - n]], out);
      });
    }
  }
}

int scalarCompare(JsonbRef a, JsonbRef b) {
  switch (a.kind()) {
    case JsonKind::String: return textCompare(a.text(), b.text());
    case JsonKind::Number: return compareNumbers(a.text(), b.text());
    default: return 0;  // null = null; true and false are kinds of their own
  }
}

// compareJsonbScalarValue's and compareJsonbContainers' type order: null < string < number
// < boolean < array < object.
int typeRank(JsonKind k) {
  switch (k) {
    case JsonKind::Null: return 0;
    case JsonKind::String: return 1;
    case JsonKind::Number: return 2;
    case JsonKind::False:
    case JsonKind::True: return 3;
    case JsonKind::Array: return 4;
    case JsonKind::Object: return 5;
  }
  return 0;
}

int sign(int64_t v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }

// Two values at the same place of the two walks.
int compareNodes(JsonbRef a, JsonbRef b) {
  checkStackDepth();
  if (typeRank(a.kind()) != typeRank(b.kind())) return typeRank(a.kind()) < typeRank(b.kind()) ? -1 : 1;
  if (a.kind() == JsonKind::False || a.kind() == JsonKind::True)
    return sign(static_cast<int>(a.kind()) - static_cast<int>(b.kind()));
  if (a.isScalar()) return scalarCompare(a, b);
  if (a.count() != b.count()) return a.count() < b.count() ? -1 : 1;
  bool object = a.kind() == JsonKind::Object;
  for (uint32_t i = 0; i < a.count(); ++i) {
    if (object)
      if (int c = textCompare(a.key(i), b.key(i)); c != 0) return c;
    if (int c = compareNodes(object ? a.value(i) : a.element(i), object ? b.value(i) : b.element(i)); c != 0) return c;
  }
  return 0;
}

bool scalarEquals(JsonbRef a, JsonbRef b) { return a.kind() == b.kind() && scalarCompare(a, b) == 0; }

bool deepContains(JsonbRef val, JsonbRef contained) {
  checkStackDepth();
  if (val.kind() != contained.kind()) return false;  // both containers here
  if (val.kind() == JsonKind::Object) {
    if (val.count() < contained.count()) return false;
    for (uint32_t i = 0; i < contained.count(); ++i) {
      std::optional<JsonbRef> lhs = val.find(contained.key(i));
      JsonbRef rhs = contained.value(i);
      if (!lhs) return false;
      if (lhs->isScalar() || rhs.isScalar()) {
        if (!scalarEquals(*lhs, rhs)) return false;
      } else if (!deepContains(*lhs, rhs)) {
        return false;
      }
    }
    return true;
  }
  for (uint32_t i = 0; i < contained.count(); ++i) {
    JsonbRef rhs = contained.element(i);
    bool found = false;
    for (uint32_t j = 0; j < val.count() && !found; ++j) {
      JsonbRef lhs = val.element(j);
      found = rhs.isScalar() ? lhs.isScalar() && scalarEquals(lhs, rhs) : !lhs.isScalar() && deepContains(lhs, rhs);
    }
    if (!found) return false;
  }
  return true;
}

void formatNode(JsonbRef v, std::string& out, int indent) {
  checkStackDepth();
  switch (v.kind()) {
    case JsonKind::Null: out += "null"; return;
    case JsonKind::False: out += "false"; return;
    case JsonKind::True: out += "true"; return;
    case JsonKind::Number: out += v.text(); return;
    case JsonKind::String: return appendJsonString(v.text(), out);
    case JsonKind::Array:
    case JsonKind::Object: break;
  }
  bool object = v.kind() == JsonKind::Object;
  out += object ? '{' : '[';
  bool pretty = indent >= 0;
  for (uint32_t i = 0; i < v.count(); ++i) {
    if (i > 0) out += pretty ? "," : ", ";
    if (pretty) {
      out += '\n';
      out.append(4 * (indent + 1), ' ');
    }
    if (object) {
      appendJsonString(v.key(i), out);
      out += ": ";
    }
    formatNode(object ? v.value(i) : v.element(i), out, pretty ? indent + 1 : -1);
  }
  if (pretty) {  // jsonb_pretty breaks the line before every closing bracket, even of []
    out += '\n';
    out.append(4 * indent, ' ');
  }
  out += object ? '}' : ']';
}

}  // namespace

uint32_t JsonbRef::size() const {
  switch (kind()) {
    case JsonKind::Null:
    case JsonKind::False:
    case JsonKind::True: return 1;
    case JsonKind::Number:
    case JsonKind::String: return 5 + u32(1);
    default: return u32(5);
  }
}

std::optional<JsonbRef> JsonbRef::find(std::string_view name) const {
  uint32_t lo = 0, hi = count();
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    int c = jsonbKeyOrder(key(mid), name);
    if (c == 0) return value(mid);
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return std::nullopt;
}

int jsonbKeyOrder(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = std::memcmp(a.data(), b.data(), a.size());
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

const VarString* makeJsonb(const JsonValue& v, Arena& arena) {
  std::string bytes;
  encode(v, bytes);
  return arena.makeString(bytes);
}

const VarString* jsonbFromNode(JsonbRef node, Arena& arena) { return arena.makeString(node.bytes()); }

JsonValue jsonbToValue(JsonbRef node) {
  checkStackDepth();
  JsonValue v;
  v.kind = node.kind();
  if (node.kind() == JsonKind::Number || node.kind() == JsonKind::String) v.text = std::string(node.text());
  bool object = node.kind() == JsonKind::Object;
  if (node.isScalar()) return v;
  for (uint32_t i = 0; i < node.count(); ++i) {
    if (object) v.keys.emplace_back(node.key(i));
    v.items.push_back(jsonbToValue(object ? node.value(i) : node.element(i)));
  }
  return v;
}

void formatJsonb(JsonbRef node, std::string& out) { formatNode(node, out, -1); }
void formatJsonbPretty(JsonbRef node, std::string& out) { formatNode(node, out, 0); }

int compareJsonb(JsonbRef a, JsonbRef b) {
  // A top-level scalar is PostgreSQL's "raw scalar" pseudo array of one element: against a
  // real array the element counts decide, then the raw scalar sorts first.
  bool rawA = a.isScalar(), rawB = b.isScalar();
  if (rawA && rawB) return compareNodes(a, b);
  if (rawA != rawB) {
    JsonbRef other = rawA ? b : a;
    if (other.kind() == JsonKind::Object) return rawA ? -1 : 1;
    if (other.count() != 1) return (rawA ? 1 : other.count()) < (rawA ? other.count() : 1) ? -1 : 1;
    return rawA ? -1 : 1;
  }
  return compareNodes(a, b);
}

uint64_t hashJsonb(JsonbRef v) {
  checkStackDepth();
  uint64_t h = hashMix64(static_cast<uint64_t>(typeRank(v.kind())) + (v.kind() == JsonKind::True ? 16 : 0));
  switch (v.kind()) {
    case JsonKind::Number: return h ^ textHash(normalizedNumber(v.text()));
    case JsonKind::String: return h ^ textHash(v.text());
    case JsonKind::Array:
    case JsonKind::Object: break;
    default: return h;
  }
  bool object = v.kind() == JsonKind::Object;
  for (uint32_t i = 0; i < v.count(); ++i) {
    if (object) h = hashMix64(h ^ textHash(v.key(i)));
    h = hashMix64(h + hashJsonb(object ? v.value(i) : v.element(i)));
  }
  return h;
}

bool jsonbContains(JsonbRef a, JsonbRef b) {
  if ((a.kind() == JsonKind::Object) != (b.kind() == JsonKind::Object)) return false;
  // Raw scalars are one-element arrays: one contains another equal one, and an array may
  // contain a raw scalar, but a raw scalar contains no array.
  if (a.isScalar() || b.isScalar()) {
    if (a.isScalar() && !b.isScalar()) return false;
    if (b.isScalar()) {
      if (a.isScalar()) return scalarEquals(a, b);
      for (uint32_t j = 0; j < a.count(); ++j)
        if (a.element(j).isScalar() && scalarEquals(a.element(j), b)) return true;
      return false;
    }
  }
  return deepContains(a, b);
}

}  // namespace duet
