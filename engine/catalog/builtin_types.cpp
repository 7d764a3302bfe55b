#include "engine/catalog/builtin_types.h"

#include <deque>
#include <mutex>
#include <string>

namespace duet {
namespace {

constexpr uint32_t kDefaultCollation = 100, kCCollation = 950;

// clang-format off: one type a line
constexpr BuiltinType kTypes[] = {
    // oid   name            len  byval  cat  pref   align stor elem array collation
    {16,   "bool",          1,  true,  'B', true,  'c', 'p', 0,  1000, 0},
    {17,   "bytea",         -1, false, 'U', false, 'i', 'x', 0,  1001, 0},
    {18,   "char",          1,  true,  'Z', false, 'c', 'p', 0,  1002, 0},
    {19,   "name",          64, false, 'S', false, 'c', 'p', 18, 1003, kCCollation},
    {20,   "int8",          8,  true,  'N', false, 'd', 'p', 0,  1016, 0},
    {21,   "int2",          2,  true,  'N', false, 's', 'p', 0,  1005, 0},
    {22,   "int2vector",    -1, false, 'A', false, 'i', 'p', 21, 1006, 0},
    {23,   "int4",          4,  true,  'N', false, 'i', 'p', 0,  1007, 0},
    {24,   "regproc",       4,  true,  'N', false, 'i', 'p', 0,  1008, 0},
    {25,   "text",          -1, false, 'S', true,  'i', 'x', 0,  1009, kDefaultCollation},
    {26,   "oid",           4,  true,  'N', true,  'i', 'p', 0,  1028, 0},
    {30,   "oidvector",     -1, false, 'A', false, 'i', 'p', 26, 1013, 0},
    {114,  "json",          -1, false, 'U', false, 'i', 'x', 0,  199,  0},
    {700,  "float4",        4,  true,  'N', false, 'i', 'p', 0,  1021, 0},
    {701,  "float8",        8,  true,  'N', true,  'd', 'p', 0,  1022, 0},
    {705,  "unknown",       -2, false, 'X', false, 'c', 'p', 0,  0,    0},
    {1042, "bpchar",        -1, false, 'S', false, 'i', 'x', 0,  1014, kDefaultCollation},
    {1043, "varchar",       -1, false, 'S', false, 'i', 'x', 0,  1015, kDefaultCollation},
    {1082, "date",          4,  true,  'D', false, 'i', 'p', 0,  1182, 0},
    {1114, "timestamp",     8,  true,  'D', false, 'd', 'p', 0,  1115, 0},
    {1184, "timestamptz",   8,  true,  'D', true,  'd', 'p', 0,  1185, 0},
    {1186, "interval",      16, false, 'T', true,  'd', 'p', 0,  1187, 0},
    {1700, "numeric",       -1, false, 'N', false, 'i', 'm', 0,  1231, 0},
    {1790, "refcursor",     -1, false, 'U', false, 'i', 'x', 0,  2201, 0},
    {2202, "regprocedure",  4,  true,  'N', false, 'i', 'p', 0,  2207, 0},
    {2203, "regoper",       4,  true,  'N', false, 'i', 'p', 0,  2208, 0},
    {2204, "regoperator",   4,  true,  'N', false, 'i', 'p', 0,  2209, 0},
    {2205, "regclass",      4,  true,  'N', false, 'i', 'p', 0,  2210, 0},
    {2206, "regtype",       4,  true,  'N', false, 'i', 'p', 0,  2211, 0},
    {2950, "uuid",          16, false, 'U', false, 'c', 'p', 0,  2951, 0},
    {3802, "jsonb",         -1, false, 'U', false, 'i', 'x', 0,  3807, 0},
    {4089, "regnamespace",  4,  true,  'N', false, 'i', 'p', 0,  4090, 0},
    {4096, "regrole",       4,  true,  'N', false, 'i', 'p', 0,  4097, 0},
};
// clang-format on

// The array rows' names ("_int4"), made once and kept for string_views.
std::string_view arrayName(std::string_view element) {
  static std::mutex mutex;
  static std::deque<std::string> names;
  std::lock_guard lock(mutex);
  for (const std::string& n : names)
    if (n.substr(1) == element) return n;
  return names.emplace_back("_" + std::string(element));
}

}  // namespace

std::span<const BuiltinType> builtinTypes() { return kTypes; }

BuiltinType arrayTypeRow(const BuiltinType& e) {
  return {e.array, arrayName(e.name), -1, false, 'A', false, e.align == 'd' ? 'd' : 'i', 'x', e.oid, 0, e.collation};
}

const BuiltinType* builtinTypeByOid(uint32_t oid) {
  static std::deque<BuiltinType> arrays = [] {
    std::deque<BuiltinType> out;
    for (const BuiltinType& t : kTypes)
      if (t.array) out.push_back(arrayTypeRow(t));
    return out;
  }();
  for (const BuiltinType& t : kTypes)
    if (t.oid == oid) return &t;
  for (const BuiltinType& t : arrays)
    if (t.oid == oid) return &t;
  return nullptr;
}

BuiltinType builtinTypeOf(SqlType type) {
  const BuiltinType* t = builtinTypeByOid(typeOid(type.isArray() ? type.withoutTypmod() : type));
  return t ? *t : *builtinTypeByOid(oid::kUnknown);
}

}  // namespace duet
