#include "compiler/binder/type_rules.h"

namespace duet::binder {

int numericRank(TypeId t) {
  switch (t) {
    case TypeId::Int2: return 1;
    case TypeId::Int4: return 2;
    case TypeId::Int8: return 3;
    case TypeId::Numeric: return 4;
    case TypeId::Float4: return 5;
    case TypeId::Float8: return 6;
    default: return 0;
  }
}

namespace {
int datetimeRank(TypeId t) {
  return t == TypeId::Date ? 1 : t == TypeId::Timestamp ? 2 : t == TypeId::TimestampTz ? 3 : 0;
}
bool isText(TypeId t) { return t == TypeId::Char || t == TypeId::Varchar || t == TypeId::Text; }
}  // namespace

bool castAllowed(TypeId from, TypeId to, CastContext context) {
  if (from == to || from == TypeId::Unknown) return true;
  int rf = numericRank(from), rt = numericRank(to);
  if (rf && rt) return rf < rt || context != CastContext::Implicit;
  if (isText(from) && isText(to)) return true;
  int df = datetimeRank(from), dt = datetimeRank(to);
  if (df && dt) return df < dt || context != CastContext::Implicit;
  // I/O conversion casts: anything to a string type by assignment; from a string type
  // to anything only when explicit.
  if (isText(to)) return context != CastContext::Implicit;
  if (isText(from)) return context == CastContext::Explicit;
  // json and jsonb convert into each other by assignment (pg_cast's 'a' rows).
  if (isJsonType(from) && isJsonType(to)) return context != CastContext::Implicit;
  if (context == CastContext::Explicit) {
    if ((from == TypeId::Bool && to == TypeId::Int4) || (from == TypeId::Int4 && to == TypeId::Bool)) return true;
    if (from == TypeId::Jsonb && (rt || to == TypeId::Bool)) return true;  // ('1'::jsonb)::int
  }
  return false;
}

std::optional<SqlType> commonType(SqlType a, SqlType b) {
  // Unknown inputs (NULL, untyped string literals) never decide the type; when every input
  // is unknown the caller resolves the result to text once it has seen them all, as
  // PostgreSQL's select_common_type does.
  if (a.id == TypeId::Unknown && b.id == TypeId::Unknown) return SqlType{TypeId::Unknown, -1};
  if (a.id == TypeId::Unknown) return b.withoutTypmod();
  if (b.id == TypeId::Unknown) return a.withoutTypmod();
  if (a.isArray() || b.isArray()) {
    if (!a.isArray() || !b.isArray()) return std::nullopt;
    if (a.element == b.element) return SqlType{TypeId::Array, a.typmod == b.typmod ? a.typmod : -1, a.element};
    // select_common_type within the array category: keep the earlier type unless it
    // converts implicitly to the later one and not back; all must convert to the result.
    bool toB = castAllowed(a.element, b.element, CastContext::Implicit);
    bool toA = castAllowed(b.element, a.element, CastContext::Implicit);
    if (toB && !toA) return b.withoutTypmod();
    if (toA) return a.withoutTypmod();
    return std::nullopt;
  }
  if (a.id == b.id) return SqlType{a.id, a.typmod == b.typmod ? a.typmod : -1};
  int ra = numericRank(a.id), rb = numericRank(b.id);
  if (ra && rb) return SqlType{ra > rb ? a.id : b.id, -1};
  // text is the preferred string type; between char(n) and varchar, each implicitly
  // castable to the other, the earlier input's type wins (select_common_type).
  if (a.id == TypeId::Text || b.id == TypeId::Text) {
    if (isText(a.id) && isText(b.id)) return SqlType{TypeId::Text, -1};
  } else if (isText(a.id) && isText(b.id)) {
    return SqlType{a.id, -1};
  }
  int da = datetimeRank(a.id), db = datetimeRank(b.id);
  if (da && db) return SqlType{da > db ? a.id : b.id, -1};
  return std::nullopt;
}

SqlType resolveUnknown(SqlType t) { return t.id == TypeId::Unknown ? SqlType{TypeId::Text, -1} : t; }

char typeCategory(TypeId t) {
  if (t == TypeId::Bool) return 'B';
  if (numericRank(t)) return 'N';
  if (isText(t)) return 'S';
  if (datetimeRank(t)) return 'D';
  if (t == TypeId::Array) return 'A';
  if (t == TypeId::Interval) return 'T';
  if (t == TypeId::Bytea || t == TypeId::Uuid) return 'U';  // user-defined, as pg_type says
  if (isJsonType(t)) return 'U';
  return 'X';
}

bool isPreferredType(TypeId t) {
  return t == TypeId::Bool || t == TypeId::Float8 || t == TypeId::Text || t == TypeId::TimestampTz ||
         t == TypeId::Interval;
}

bool CandidateScore::add(SqlType arg, SqlType param) {
  TypeId from = arg.id, to = param.id;
  if (from == to && (from != TypeId::Array || arg.element == param.element)) {
    ++exact;
    return true;
  }
  if (from == TypeId::Unknown) {
    unknownString += isStringType(to);
    unknownPreferred += isPreferredType(to);
    return true;
  }
  // Arrays convert element-wise (text[] to varchar[]) where the elements may.
  if (from == TypeId::Array && to == TypeId::Array)
    return arg.element == TypeId::Unknown || castAllowed(arg.element, param.element, CastContext::Implicit);
  if (from == TypeId::Array || !castAllowed(from, to, CastContext::Implicit)) return false;
  preferred += typeCategory(from) == typeCategory(to) && isPreferredType(to);
  return true;
}

}  // namespace duet::binder
