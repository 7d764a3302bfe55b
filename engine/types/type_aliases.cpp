#include "engine/types/type_aliases.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

#include "engine/error.h"
#include "engine/types/array.h"
#include "engine/types/catalog_lookup.h"
#include "engine/types/scalar_text.h"
#include "engine/types/type_errors.h"
#include "engine/types/value_io.h"

namespace duet {

namespace {

constexpr size_t kMaxNameBytes = 63;  // PostgreSQL's NAMEDATALEN - 1

std::string_view trimSpaces(std::string_view t) {
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  return t;
}

bool allDigits(std::string_view t) {
  if (t.empty()) return false;
  for (char c : t)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

int64_t parseOid(std::string_view text) {
  std::string_view t = trimSpaces(text);
  bool negative = !t.empty() && t.front() == '-';
  std::string_view digits = negative || (!t.empty() && t.front() == '+') ? t.substr(1) : t;
  if (!allDigits(digits)) raiseInvalidInput("oid", text);
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  // As PostgreSQL's oidin (strtoul): up to 2^32 - 1, and negative numbers down to -2^31,
  // which wrap around.
  bool outOfRange = ec != std::errc() || (negative ? v > 2147483648u : v > 4294967295u);
  if (outOfRange)
    throw SqlError(sqlstate::kNumericValueOutOfRange, fmt::format("value \"{}\" is out of range for type oid", text));
  return negative ? static_cast<int64_t>((4294967296u - v) & 0xffffffffu) : static_cast<int64_t>(v);
}

int64_t parseRegOid(TypeAlias kind, std::string_view text, const TypeContext& ctx) {
  std::string_view t = trimSpaces(text);
  if (allDigits(t)) return parseOid(t);
  if (t == "-") return 0;
  if (!ctx.catalog) raiseInvalidInput(typeName(SqlType::of(kind)), text);
  return ctx.catalog->oidOf(kind, t);
}

void formatRegOid(TypeAlias kind, int64_t oid, std::string& out, const TypeContext& ctx) {
  if (oid == 0) return out.push_back('-');
  if (ctx.catalog)
    if (std::optional<std::string> name = ctx.catalog->nameOf(kind, static_cast<uint32_t>(oid))) {
      out += *name;
      return;
    }
  formatInt(oid, out);
}

void formatVectorText(SqlType type, const VarString* array, std::string& out, const TypeContext& ctx) {
  ArrayView a(array);
  SqlType element = type.elementType();
  alignas(16) unsigned char value[16];
  for (uint32_t i = 0; i < a.size(); ++i) {
    if (i) out.push_back(' ');
    a.load(i, value);
    formatText(element, value, out, ctx);
  }
}

const VarString* parseVectorText(SqlType type, std::string_view text, Arena& arena, const TypeContext& ctx) {
  SqlType element = type.elementType();
  ArrayBuilder builder(element.id);
  alignas(16) unsigned char value[16];
  size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    size_t end = at;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    if (end == at) break;
    parseText(element, text.substr(at, end - at), value, arena, ctx);
    builder.append(value);
    at = end;
  }
  return builder.finish(arena);
}

std::string_view aliasStringValue(TypeAlias kind, std::string_view text) {
  if (kind == TypeAlias::InternalChar) return text.substr(0, 1);
  if (kind != TypeAlias::Name || text.size() <= kMaxNameBytes) return text;
  size_t n = kMaxNameBytes;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;  // not inside a character
  return text.substr(0, n);
}

}  // namespace duet
