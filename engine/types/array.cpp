// Arrays: layout (array.h), PostgreSQL's array_in/array_out, array_recv/array_send,
// btarraycmp and hash_array, and element-wise casts.
#include "engine/types/array.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>

#include "engine/error.h"
#include "engine/types/hash.h"
#include "engine/types/raw_value.h"
#include "engine/types/scalar_text.h"
#include "engine/types/value_io.h"

namespace duet {

namespace {

constexpr int kMaxDimensions = 6;  // PostgreSQL's MAXDIM

uint32_t align4(uint32_t n) { return (n + 3) & ~3u; }

[[noreturn]] void unsupportedDimensions() {
  throw SqlError(sqlstate::kFeatureNotSupported, "multidimensional arrays are not supported");
}

[[noreturn]] void unsupportedLowerBound() {
  throw SqlError(sqlstate::kFeatureNotSupported, "arrays with a lower bound other than 1 are not supported");
}

[[noreturn]] void tooManyElements() {
  throw SqlError(sqlstate::kProgramLimitExceeded,
                 fmt::format("array size exceeds the maximum allowed ({})", kMaxArrayElements));
}

}  // namespace

uint32_t arraySlotSize(TypeId element) { return isVarlenaType(element) ? 4 : physicalSize(element); }

const char* arrayGetFunction(TypeId element) {
  switch (element) {
    case TypeId::Bool: return "duet_rt_array_get_bool";
    case TypeId::Int2: return "duet_rt_array_get_int2";
    case TypeId::Int4:
    case TypeId::Date: return "duet_rt_array_get_int4";
    case TypeId::Int8:
    case TypeId::Timestamp:
    case TypeId::TimestampTz: return "duet_rt_array_get_int8";
    case TypeId::Float4: return "duet_rt_array_get_float4";
    case TypeId::Float8: return "duet_rt_array_get_float8";
    case TypeId::Numeric:
    case TypeId::Interval: return "duet_rt_array_get_numeric";  // both 16-byte __int128
    default: return "duet_rt_array_get_string";
  }
}

// ---- layout --------------------------------------------------------------------------------

uint32_t ArrayView::size() const { return loadRaw<uint32_t>(base_ + 4); }

void ArrayView::load(uint32_t i, void* out) const {
  TypeId t = elementType();
  uint32_t slotSize = arraySlotSize(t);
  const unsigned char* slot = base_ + arraySlotsOffset(size()) + size_t(i) * slotSize;
  if (isVarlenaType(t)) {
    auto* s = reinterpret_cast<const VarString*>(base_ + loadRaw<uint32_t>(slot));
    storeRaw(out, s);
    return;
  }
  std::memcpy(out, slot, slotSize);
}

namespace {

// Allocates an array of `count` elements in `total` bytes and writes its header; the null
// flags (none set) and the padding up to the slots are zeroed, the slots are the caller's.
unsigned char* allocateArray(TypeId element, uint32_t count, size_t total, Arena& arena) {
  if (total > UINT32_MAX) tooManyElements();
  auto* base = static_cast<unsigned char*>(arena.allocate(total, 16));
  std::memset(base, 0, arraySlotsOffset(count));
  storeRaw<uint32_t>(base, static_cast<uint32_t>(total - sizeof(uint32_t)));
  storeRaw<uint32_t>(base + 4, count);
  base[8] = static_cast<uint8_t>(element);
  return base;
}

}  // namespace

void ArrayBuilder::reserve(size_t n) {
  nulls_.reserve(n);
  if (strings_)
    stringValues_.reserve(n);
  else
    slots_.reserve(n * slotSize_);
}

void ArrayBuilder::appendNull() {
  if (nulls_.size() >= kMaxArrayElements) tooManyElements();
  nulls_.push_back(1);
  if (strings_)
    stringValues_.push_back(nullptr);
  else
    slots_.resize(slots_.size() + slotSize_, 0);
}

void ArrayBuilder::append(const void* value) {
  if (nulls_.size() >= kMaxArrayElements) tooManyElements();
  nulls_.push_back(0);
  if (strings_) {
    stringValues_.push_back(loadRaw<const VarString*>(value));
    return;
  }
  size_t at = slots_.size();
  slots_.resize(at + slotSize_, boost::container::default_init);
  std::memcpy(slots_.data() + at, value, slotSize_);
}

const VarString* ArrayBuilder::finish(Arena& arena) const {
  auto count = static_cast<uint32_t>(nulls_.size());
  uint32_t slots = arraySlotsOffset(count);
  size_t total = slots + size_t(count) * slotSize_;
  if (strings_)
    for (const VarString* s : stringValues_)
      if (s) total = align4(static_cast<uint32_t>(total)) + sizeof(VarString) + s->len;
  unsigned char* base = allocateArray(element_, count, total, arena);
  bool hasNulls = false;
  for (uint8_t n : nulls_) hasNulls |= n != 0;
  base[9] = hasNulls ? 1 : 0;
  if (count) std::memcpy(base + kArrayHeaderSize, nulls_.data(), count);
  if (!strings_) {
    if (!slots_.empty()) std::memcpy(base + slots, slots_.data(), slots_.size());
    return reinterpret_cast<const VarString*>(base);
  }
  auto at = static_cast<uint32_t>(slots + size_t(count) * slotSize_);
  for (uint32_t i = 0; i < count; ++i) {
    const VarString* s = stringValues_[i];
    uint32_t offset = 0;
    if (s) {
      offset = align4(at);
      std::memset(base + at, 0, offset - at);
      storeRaw<uint32_t>(base + offset, s->len);
      if (s->len) std::memcpy(base + offset + sizeof(uint32_t), s->data, s->len);
      at = offset + static_cast<uint32_t>(sizeof(VarString)) + s->len;
    }
    storeRaw<uint32_t>(base + slots + size_t(i) * 4, offset);
  }
  return reinterpret_cast<const VarString*>(base);
}

// ---- text I/O --------------------------------------------------------------------------------

namespace {

// array_isspace: the whitespace array_in skips (not the locale's isspace).
bool arraySpace(char c) { return scalarSpace(c); }  // the same six characters

bool equalsNullWord(std::string_view s) {
  if (s.size() != 4) return false;
  for (size_t i = 0; i < 4; ++i)
    if ((s[i] | 0x20) != "null"[i]) return false;
  return true;
}

class ArrayTextReader {
 public:
  ArrayTextReader(std::string_view text) : text_(text) {}

  [[noreturn]] void malformed(std::string detail) const {
    throw SqlError(sqlstate::kInvalidTextRepresentation, fmt::format("malformed array literal: \"{}\"", text_),
                   std::move(detail));
  }
  char at(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  // Optional "[lb:ub]..." decoration and '=', then the braces; returns where '{' is and
  // the dimensions the decoration gave (empty if none).
  size_t readDecoration(std::vector<int64_t>& dims, std::vector<int64_t>& lowers) const {
    size_t p = 0;
    while (true) {
      while (arraySpace(at(p))) ++p;
      if (at(p) != '[') break;
      ++p;
      if (dims.size() >= kMaxDimensions)
        throw SqlError(sqlstate::kProgramLimitExceeded,
                       fmt::format("number of array dimensions ({}) exceeds the maximum allowed ({})", dims.size() + 1,
                                   kMaxDimensions));
      auto number = [&](size_t& q, const char* missing) {
        size_t start = q;
        while (std::isdigit(static_cast<unsigned char>(at(q))) || at(q) == '-' || at(q) == '+') ++q;
        if (q == start) malformed(missing);
        return atoiLike(text_.substr(start, q - start));
      };
      size_t q = p;
      int64_t lower = 1;
      int64_t upper = number(q, "\"[\" must introduce explicitly-specified array dimensions.");
      if (at(q) == ':') {
        lower = upper;
        ++q;
        upper = number(q, "Missing array dimension value.");
      }
      if (at(q) != ']') malformed("Missing \"]\" after array dimensions.");
      p = q + 1;
      if (upper < lower) throw SqlError("2202E", "upper bound cannot be less than lower bound");
      dims.push_back(upper - lower + 1);
      lowers.push_back(lower);
    }
    if (dims.empty()) {
      if (at(p) != '{') malformed("Array value must start with \"{\" or dimension information.");
      return p;
    }
    if (at(p) != '=') malformed("Missing \"=\" after array dimensions.");
    ++p;
    while (arraySpace(at(p))) ++p;
    if (at(p) != '{') malformed("Array contents must start with \"{\".");
    return p;
  }

  // PostgreSQL's ArrayCount: checks the brace structure from `start` (a '{') and returns
  // the number of dimensions (0 for an empty array) and their lengths.
  int count(size_t start, std::vector<int64_t>& dims) const {
    enum State {
      NoLevel,
      LevelStarted,
      ElemStarted,
      ElemCompleted,
      QuotedElemStarted,
      QuotedElemCompleted,
      ElemDelimited,
      LevelCompleted,
      LevelDelimited
    };
    int nest = 0, ndim = 1;
    int64_t temp[kMaxDimensions] = {}, nelems[kMaxDimensions], nelemsLast[kMaxDimensions] = {};
    for (auto& n : nelems) n = 1;
    bool inQuotes = false, endOfArray = false, empty = true;
    State state = NoLevel;
    size_t p = start;
    auto unexpected = [&](char c) { malformed(fmt::format("Unexpected \"{}\" character.", c)); };
    while (!endOfArray) {
      bool itemDone = false;
      while (!itemDone) {
        if (state == ElemStarted || state == QuotedElemStarted) empty = false;
        char c = at(p);
        if (p >= text_.size()) malformed("Unexpected end of input.");
        if (c == '\\') {
          if (state != LevelStarted && state != ElemStarted && state != QuotedElemStarted && state != ElemDelimited)
            unexpected('\\');
          if (state != QuotedElemStarted) state = ElemStarted;
          if (p + 1 >= text_.size()) malformed("Unexpected end of input.");
          ++p;
        } else if (c == '"') {
          if (state != LevelStarted && state != QuotedElemStarted && state != ElemDelimited)
            malformed("Unexpected array element.");
          inQuotes = !inQuotes;
          state = inQuotes ? QuotedElemStarted : QuotedElemCompleted;
        } else if (c == '{' && !inQuotes) {
          if (state != NoLevel && state != LevelStarted && state != LevelDelimited) unexpected('{');
          state = LevelStarted;
          if (nest >= kMaxDimensions)
            throw SqlError(sqlstate::kProgramLimitExceeded,
                           fmt::format("number of array dimensions ({}) exceeds the maximum allowed ({})", nest + 1,
                                       kMaxDimensions));
          temp[nest] = 0;
          ++nest;
          ndim = std::max(ndim, nest);
        } else if (c == '}' && !inQuotes) {
          if (state != ElemStarted && state != ElemCompleted && state != QuotedElemCompleted &&
              state != LevelCompleted && !(nest == 1 && state == LevelStarted))
            unexpected('}');
          state = LevelCompleted;
          if (nest == 0) malformed("Unmatched \"}\" character.");
          --nest;
          if (nelemsLast[nest] != 0 && nelems[nest] != nelemsLast[nest])
            malformed("Multidimensional arrays must have sub-arrays with matching dimensions.");
          nelemsLast[nest] = nelems[nest];
          nelems[nest] = 1;
          if (nest == 0)
            endOfArray = itemDone = true;
          else
            ++temp[nest - 1];
        } else if (!inQuotes && c == ',') {
          if (state != ElemStarted && state != ElemCompleted && state != QuotedElemCompleted && state != LevelCompleted)
            unexpected(',');
          state = state == LevelCompleted ? LevelDelimited : ElemDelimited;
          itemDone = true;
          ++nelems[nest - 1];
        } else if (!inQuotes && !arraySpace(c)) {
          if (state != LevelStarted && state != ElemStarted && state != ElemDelimited)
            malformed("Unexpected array element.");
          state = ElemStarted;
        }
        if (!itemDone) ++p;
      }
      ++temp[ndim - 1];
      ++p;
    }
    for (; p < text_.size(); ++p)
      if (!arraySpace(text_[p])) malformed("Junk after closing right brace.");
    if (empty) return 0;
    dims.assign(temp, temp + ndim);
    return ndim;
  }

  // ReadArrayStr for one dimension: the elements between the braces at `start`, already
  // checked by count(). Calls element(text, isNull) for each.
  template <typename F>
  void readElements(size_t start, F&& element) const {
    size_t p = start + 1;
    std::string item;
    bool done = false;
    while (!done) {
      item.clear();
      bool leadingSpace = true, quoted = false, inQuotes = false;
      size_t end = 0;  // item length up to the last significant character
      while (true) {
        char c = at(p);
        if (c == '\\') {
          item.push_back(at(p + 1));
          p += 2;
          leadingSpace = false;
          end = item.size();
          quoted = true;
        } else if (c == '"') {
          inQuotes = !inQuotes;
          if (inQuotes)
            leadingSpace = false;
          else
            end = item.size();
          quoted = true;
          ++p;
        } else if (inQuotes) {
          item.push_back(c);
          ++p;
        } else if (c == '}') {
          done = true;
          break;
        } else if (c == ',') {
          ++p;
          break;
        } else if (arraySpace(c)) {
          if (!leadingSpace) item.push_back(c);
          ++p;
        } else {
          item.push_back(c);
          ++p;
          leadingSpace = false;
          end = item.size();
        }
      }
      item.resize(end);
      element(std::string_view(item), !quoted && equalsNullWord(item));
    }
  }

 private:
  static int64_t atoiLike(std::string_view s) {
    // atoi: optional sign then digits, stopping at anything else.
    size_t i = 0;
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    int64_t v = 0;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i)
      v = std::min<int64_t>(v * 10 + (s[i] - '0'), INT32_MAX + int64_t{1});
    return negative ? -v : v;
  }

  std::string_view text_;
};

}  // namespace

void formatArrayText(const VarString* array, std::string& out, const TypeContext& ctx) {
  ArrayView a(array);
  SqlType element{a.elementType(), -1};
  out.push_back('{');
  std::string item;
  alignas(16) unsigned char value[16];
  for (uint32_t i = 0; i < a.size(); ++i) {
    if (i) out.push_back(',');
    if (a.isNull(i)) {
      out.append("NULL");
      continue;
    }
    a.load(i, value);
    item.clear();
    formatText(element, value, item, ctx);
    bool quote = item.empty() || equalsNullWord(item);
    for (char c : item)
      if (c == '"' || c == '\\' || c == '{' || c == '}' || c == ',' || arraySpace(c)) quote = true;
    if (!quote) {
      out.append(item);
      continue;
    }
    out.push_back('"');
    for (char c : item) {
      if (c == '"' || c == '\\') out.push_back('\\');
      out.push_back(c);
    }
    out.push_back('"');
  }
  out.push_back('}');
}

namespace {

// Integer array text written plainly, `{1, -2,+3}`: braces around integers, each with only
// the whitespace and sign int4in allows, separated by commas. Such text passes every
// structure check of array_in (ArrayCount) and each element is what the integer input
// function reads, so the elements are read in one pass, by the integer input's own scanner
// (scanInteger), into a buffer of up to 64, then copied into an array allocated at its final
// size.
// Returns null for any other text (NULLs, quotes, dimensions, empty elements) and for an
// element out of range: the general reader then takes the text and gives the result or the
// error, in the order PostgreSQL checks (the structure first, then the elements).
template <typename Int>
const VarString* parsePlainIntegerArray(TypeId element, std::string_view text, Arena& arena) {
  size_t begin = 0, end = text.size();
  while (begin < end && arraySpace(text[begin])) ++begin;
  while (end > begin && arraySpace(text[end - 1])) --end;
  if (end - begin < 2 || text[begin] != '{' || text[end - 1] != '}') return nullptr;
  const char* p = text.data() + begin + 1;
  const char* bodyEnd = text.data() + end - 1;
  // Parameter arrays are short: a longer one goes to the general reader.
  constexpr uint32_t kMaxPlain = 64;
  Int values[kMaxPlain];
  uint32_t n = 0;
  // '{ }' (empty but for whitespace) is the general reader's.
  while (p != bodyEnd) {
    IntegerScan scan = scanInteger(p, bodyEnd, std::numeric_limits<Int>::max());
    if (scan.result != IntegerScan::Ok || n == kMaxPlain) return nullptr;
    values[n++] = static_cast<Int>(scan.value);
    if (p == bodyEnd) break;
    if (*p != ',') return nullptr;
    if (++p == bodyEnd) return nullptr;  // a trailing comma: an empty element
  }
  uint32_t slotsOffset = arraySlotsOffset(n);
  size_t bytes = size_t(n) * sizeof(Int);
  unsigned char* base = allocateArray(element, n, slotsOffset + bytes, arena);
  if (n) std::memcpy(base + slotsOffset, values, bytes);
  return reinterpret_cast<const VarString*>(base);
}

}  // namespace

const VarString* parseArrayText(SqlType type, std::string_view text, Arena& arena, const TypeContext& ctx) {
  SqlType element = type.elementType();
  const VarString* plain = nullptr;
  switch (element.id) {
    case TypeId::Int2: plain = parsePlainIntegerArray<int16_t>(element.id, text, arena); break;
    case TypeId::Int4: plain = parsePlainIntegerArray<int32_t>(element.id, text, arena); break;
    case TypeId::Int8: plain = parsePlainIntegerArray<int64_t>(element.id, text, arena); break;
    default: break;
  }
  if (plain) return plain;
  ArrayTextReader reader(text);
  std::vector<int64_t> givenDims, lowers, dims;
  size_t start = reader.readDecoration(givenDims, lowers);
  int ndim = reader.count(start, dims);
  if (!givenDims.empty()) {
    if (static_cast<size_t>(ndim) != givenDims.size() || dims != givenDims)
      reader.malformed("Specified array dimensions do not match array contents.");
  }
  if (ndim > 1) unsupportedDimensions();
  for (int64_t lower : lowers)
    if (lower != 1) unsupportedLowerBound();
  ArrayBuilder builder(element.id);
  if (ndim == 1) {
    alignas(16) unsigned char value[16];
    builder.reserve(static_cast<size_t>(dims[0]));
    reader.readElements(start, [&](std::string_view item, bool isNull) {
      if (isNull) {
        builder.appendNull();
        return;
      }
      parseText(element, item, value, arena, ctx);
      builder.append(value);
    });
  }
  return builder.finish(arena);
}

// ---- binary I/O ------------------------------------------------------------------------------

namespace {

void putInt32(std::string& out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

class BinaryReader {
 public:
  explicit BinaryReader(std::string_view data) : data_(data) {}
  uint32_t int32() {
    if (data_.size() - at_ < 4) insufficient();
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(data_[at_ + i]);
    at_ += 4;
    return v;
  }
  std::string_view bytes(size_t n) {
    std::string_view s = data_.substr(at_, n);
    at_ += n;
    return s;
  }
  size_t left() const { return data_.size() - at_; }
  [[noreturn]] static void insufficient() {
    throw SqlError(sqlstate::kInvalidBinaryRepresentation, "insufficient data left in message");
  }

 private:
  std::string_view data_;
  size_t at_ = 0;
};

}  // namespace

void formatArrayBinary(SqlType type, const VarString* array, std::string& out) {
  ArrayView a(array);
  // The element's alias (oid[] and oidvector send 4-byte oids) is the array type's, not
  // the value's.
  SqlType element = type.elementType().withoutTypmod();
  putInt32(out, a.size() ? 1 : 0);
  putInt32(out, a.hasNulls() ? 1 : 0);
  putInt32(out, typeOid(element));
  if (!a.size()) return;
  putInt32(out, a.size());
  putInt32(out, 1);
  alignas(16) unsigned char value[16];
  std::string item;
  for (uint32_t i = 0; i < a.size(); ++i) {
    if (a.isNull(i)) {
      putInt32(out, 0xFFFFFFFFu);
      continue;
    }
    a.load(i, value);
    item.clear();
    formatBinary(element, value, item);
    putInt32(out, static_cast<uint32_t>(item.size()));
    out.append(item);
  }
}

const VarString* parseArrayBinary(SqlType type, std::string_view data, Arena& arena) {
  BinaryReader in(data);
  auto ndim = static_cast<int32_t>(in.int32());
  if (ndim < 0)
    throw SqlError(sqlstate::kInvalidBinaryRepresentation, fmt::format("invalid number of dimensions: {}", ndim));
  if (ndim > kMaxDimensions)
    throw SqlError(
        sqlstate::kProgramLimitExceeded,
        fmt::format("number of array dimensions ({}) exceeds the maximum allowed ({})", ndim, kMaxDimensions));
  uint32_t flags = in.int32();
  if (flags != 0 && flags != 1) throw SqlError(sqlstate::kInvalidBinaryRepresentation, "invalid array flags");
  SqlType element = type.elementType();
  uint32_t elementOid = in.int32();
  uint32_t expected = typeOid(element.withoutTypmod());
  if (elementOid != expected) {
    bool known = false;
    TypeId given = typeFromOid(elementOid, &known);
    throw SqlError(sqlstate::kDatatypeMismatch,
                   fmt::format("binary data has array element type {} ({}) instead of expected {} ({})", elementOid,
                               known ? typeName({given, -1}) : "???", expected, typeName({element.id, -1})));
  }
  int64_t count = ndim ? 1 : 0;
  for (int d = 0; d < ndim; ++d) {
    auto length = static_cast<int32_t>(in.int32());
    auto lower = static_cast<int32_t>(in.int32());
    if (length < 0 || (count *= length) > kMaxArrayElements) tooManyElements();
    if (lower != 1 && length > 0) unsupportedLowerBound();
  }
  if (ndim > 1 && count > 0) unsupportedDimensions();
  ArrayBuilder builder(element.id);
  alignas(16) unsigned char value[16];
  for (int64_t i = 0; i < count; ++i) {
    auto length = static_cast<int32_t>(in.int32());
    if (length < -1 || static_cast<int64_t>(length) > static_cast<int64_t>(in.left())) BinaryReader::insufficient();
    if (length == -1) {
      builder.appendNull();
      continue;
    }
    std::string_view item = in.bytes(static_cast<size_t>(length));
    try {
      parseBinary(element, item, value, arena);
    } catch (const SqlError& e) {
      if (e.code != sqlstate::kInvalidBinaryRepresentation) throw;
      throw SqlError(sqlstate::kInvalidBinaryRepresentation,
                     fmt::format("improper binary format in array element {}", i + 1));
    }
    builder.append(value);
  }
  return builder.finish(arena);
}

// ---- comparison, hashing, casts ----------------------------------------------------------------

int compareArrays(const VarString* left, const VarString* right) {
  ArrayView a(left), b(right);
  SqlType element{a.elementType(), -1};
  uint32_t n = std::min(a.size(), b.size());
  alignas(16) unsigned char x[16], y[16];
  for (uint32_t i = 0; i < n; ++i) {
    bool an = a.isNull(i), bn = b.isNull(i);
    if (an || bn) {
      if (an && bn) continue;
      return an ? 1 : -1;
    }
    a.load(i, x);
    b.load(i, y);
    int c = compareValues(element, x, y);
    if (c) return c < 0 ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : a.size() < b.size() ? -1 : 1;
}

uint64_t hashArray(const VarString* array) {
  ArrayView a(array);
  SqlType element{a.elementType(), -1};
  uint64_t h = hashMix64(a.size());
  alignas(16) unsigned char x[16];
  for (uint32_t i = 0; i < a.size(); ++i) {
    uint64_t e = 0;
    if (!a.isNull(i)) {
      a.load(i, x);
      e = hashValue(element, x);
    }
    h = hashMix64(h ^ e) + i;
  }
  return h;
}

const VarString* castArray(const VarString* array, SqlType to, bool explicitCast, Arena& arena,
                           const TypeContext& ctx) {
  ArrayView a(array);
  SqlType from{a.elementType(), -1};
  SqlType element = to.elementType();
  ArrayBuilder builder(element.id);
  builder.reserve(a.size());
  alignas(16) unsigned char x[16], y[16];
  for (uint32_t i = 0; i < a.size(); ++i) {
    if (a.isNull(i)) {
      builder.appendNull();
      continue;
    }
    a.load(i, x);
    castValue(from, x, element, y, explicitCast, arena, ctx);
    builder.append(y);
  }
  return builder.finish(arena);
}

const VarString* concatArrays(const VarString* a, const VarString* b, Arena& arena) {
  ArrayView left(a), right(b);
  ArrayBuilder out(left.elementType());
  out.reserve(size_t(left.size()) + right.size());
  alignas(16) unsigned char value[16];
  for (const ArrayView* side : {&left, &right})
    for (uint32_t i = 0; i < side->size(); ++i) {
      if (side->isNull(i)) {
        out.appendNull();
        continue;
      }
      side->load(i, value);
      out.append(value);
    }
  return out.finish(arena);
}

const VarString* makeTextArray(std::span<const std::optional<std::string_view>> values, Arena& arena) {
  Arena scratch;  // the element strings, which finish() copies into the array
  ArrayBuilder builder(TypeId::Text);
  builder.reserve(values.size());
  for (const auto& value : values) {
    if (!value) {
      builder.appendNull();
      continue;
    }
    const VarString* element = scratch.makeString(*value);
    builder.append(&element);
  }
  return builder.finish(arena);
}

}  // namespace duet
