// Type names, and their resolution to SqlType with PostgreSQL's typmod encoding.
// Grammar-keyword types (integer, double precision, character varying, timestamp with time
// zone, ...) are mapped to PostgreSQL's internal names; other names are looked up as catalog
// type names, so "integer" in double quotes is not a type while "int4" is, as in PostgreSQL.
#include "compiler/parser/parser_impl.h"
#include "engine/error.h"
#include "engine/types/interval.h"

namespace duet::sql {

namespace {

constexpr int kMaxCharLength = 10485760;  // PostgreSQL's MaxAttrSize-derived limit
constexpr int kMaxNumericPrecision = 1000;
constexpr int kMaxTimestampPrecision = 6;

std::string displayName(const TypeName& t) {
  std::string s;
  for (const auto& n : t.names) s += (s.empty() ? "" : ".") + n;
  return s;
}

// The types that share another's representation (type_id.h, TypeAlias), by their names;
// "char" only in double quotes (the keyword char is bpchar), as in PostgreSQL.
TypeAlias aliasNamed(const std::string& n) {
  static const std::pair<const char*, TypeAlias> kNames[] = {
      {"oid", TypeAlias::Oid},
      {"regclass", TypeAlias::RegClass},
      {"regtype", TypeAlias::RegType},
      {"regproc", TypeAlias::RegProc},
      {"regprocedure", TypeAlias::RegProcedure},
      {"regnamespace", TypeAlias::RegNamespace},
      {"regrole", TypeAlias::RegRole},
      {"regoper", TypeAlias::RegOper},
      {"regoperator", TypeAlias::RegOperator},
      {"name", TypeAlias::Name},
      {"char", TypeAlias::InternalChar},
      {"int2vector", TypeAlias::Int2Vector},
      {"oidvector", TypeAlias::OidVector},
      {"refcursor", TypeAlias::RefCursor},
  };
  for (const auto& [name, alias] : kNames)
    if (n == name) return alias;
  return TypeAlias::None;
}

}  // namespace

bool Parser::startsKeywordType(int ahead) {
  const Token& t = peek(ahead);
  if (t.kind != TokenKind::Word || t.quoted) return false;
  static const char* const kTypeKeywords[] = {
      "int",  "integer",   "smallint", "bigint", "real",     "float",     "decimal", "dec",      "numeric", "boolean",
      "char", "character", "varchar",  "nchar",  "national", "timestamp", "time",    "interval", "bit"};
  for (const char* k : kTypeKeywords)
    if (t.text == k) return true;
  return t.text == "double" && isKw("precision", ahead + 1);
}

void Parser::parseTypeModifiers(TypeName& t) {
  if (!acceptOp("(")) return;
  do {
    int v = 0;
    if (!parseOptionalSignedInt(v)) syntaxError();
    t.modifiers.push_back(v);
  } while (acceptOp(","));
  expectOp(")");
}

void Parser::parseIntervalFields(TypeName& t) {
  using namespace interval_field;
  auto unit = [&](int ahead) -> int {
    return isKw("year", ahead)     ? kYear
           : isKw("month", ahead)  ? kMonth
           : isKw("day", ahead)    ? kDay
           : isKw("hour", ahead)   ? kHour
           : isKw("minute", ahead) ? kMinute
           : isKw("second", ahead) ? kSecond
                                   : 0;
  };
  int first = unit(0);
  if (!first) return;
  advance();
  int last = first;
  if (acceptKw("to")) {
    last = unit(0);
    bool valid = (first == kYear && last == kMonth) ||
                 (first == kDay && (last == kHour || last == kMinute || last == kSecond)) ||
                 (first == kHour && (last == kMinute || last == kSecond)) || (first == kMinute && last == kSecond);
    if (!valid) syntaxError();
    advance();
  }
  int mask = 0;
  for (int f : {kYear, kMonth, kDay, kHour, kMinute, kSecond})
    if (f >= first && f <= last) mask |= f;
  if (first == kYear && last == kMonth) mask = kYear | kMonth;  // kMonth < kYear in the mask
  t.intervalFields = mask;
  if (last == kSecond && isOp("(")) {  // SECOND(p): the precision
    t.modifiers.clear();
    parseTypeModifiers(t);
  }
}

void Parser::parseArrayBounds(TypeName& t) {
  while (true) {
    if (acceptOp("[")) {
      if (peek().kind == TokenKind::Integer) advance();
      expectOp("]");
      ++t.arrayBounds;
    } else if (isKw("array")) {
      advance();
      if (acceptOp("[")) {
        if (peek().kind == TokenKind::Integer) advance();
        expectOp("]");
      }
      ++t.arrayBounds;
      return;
    } else {
      return;
    }
  }
}

TypeName Parser::parseTypeName() {
  TypeName t;
  t.location = peek().offset;
  if (!startsKeywordType()) {
    if (!isTypeFuncName()) syntaxError();
    t.names.push_back(advance().str());
    while (acceptOp(".")) t.names.push_back(parseColLabel());
    parseTypeModifiers(t);
    parseArrayBounds(t);
    resolveType(t, false);
    return t;
  }

  std::string w = advance().str();
  std::string name;
  if (w == "int" || w == "integer") {
    name = "int4";
  } else if (w == "smallint") {
    name = "int2";
  } else if (w == "bigint") {
    name = "int8";
  } else if (w == "real") {
    name = "float4";
  } else if (w == "double") {
    expectKw("precision");
    name = "float8";
  } else if (w == "boolean") {
    name = "bool";
  } else if (w == "float") {
    // float(p): 1..24 bits is real, 25..53 is double precision.
    name = "float8";
    if (acceptOp("(")) {
      int p = 0;
      uint32_t at = peek().offset;  // PostgreSQL reports these at the precision itself
      if (!parseOptionalSignedInt(p)) syntaxError();
      expectOp(")");
      if (p < 1) errorAt(sqlstate::kInvalidParameterValue, "precision for type float must be at least 1 bit", at);
      if (p > 53) errorAt(sqlstate::kInvalidParameterValue, "precision for type float must be less than 54 bits", at);
      if (p <= 24) name = "float4";
    }
  } else if (w == "decimal" || w == "dec" || w == "numeric") {
    name = "numeric";
    parseTypeModifiers(t);
  } else if (w == "char" || w == "character" || w == "nchar" || w == "national") {
    if (w == "national" && !acceptKw("character")) expectKw("char");
    name = acceptKw("varying") ? "varchar" : "bpchar";
    parseTypeModifiers(t);
  } else if (w == "varchar") {
    name = "varchar";
    parseTypeModifiers(t);
  } else if (w == "timestamp" || w == "time") {
    parseTypeModifiers(t);
    bool tz = false;  // WITH TIME ZONE; WITHOUT TIME ZONE is the default
    if ((isKw("with") && isKw("time", 1)) || isKw("without")) {
      tz = advance().str() == "with";
      expectKw("time");
      expectKw("zone");
    }
    name = w == "timestamp" ? (tz ? "timestamptz" : "timestamp") : (tz ? "timetz" : "time");
  } else if (w == "interval") {
    name = "interval";
    parseTypeModifiers(t);
    parseIntervalFields(t);
  } else {  // bit
    name = acceptKw("varying") ? "varbit" : "bit";
    parseTypeModifiers(t);
  }
  t.names.push_back(name);
  t.keyword = true;
  parseArrayBounds(t);
  resolveType(t, true);
  return t;
}

void Parser::resolveType(TypeName& t, bool fromKeyword) {
  if (t.names.size() > 2 || (t.names.size() == 2 && t.names[0] != "pg_catalog")) return;
  const std::string& n = t.name();
  const auto& mods = t.modifiers;
  auto noModifiers = [&] {
    if (!mods.empty())
      errorAt(sqlstate::kSyntaxError, "type modifier is not allowed for type \"" + displayName(t) + "\"", t.location);
  };
  auto invalid = [&](const std::string& msg) { errorAt(sqlstate::kInvalidParameterValue, msg, t.location); };

  SqlType type;
  if (n == "int2" || n == "int4" || n == "int8" || n == "float4" || n == "float8" || n == "bool" || n == "text" ||
      n == "date" || n == "bytea" || n == "uuid") {
    noModifiers();
    type.id = n == "int2"     ? TypeId::Int2
              : n == "int4"   ? TypeId::Int4
              : n == "int8"   ? TypeId::Int8
              : n == "float4" ? TypeId::Float4
              : n == "float8" ? TypeId::Float8
              : n == "bool"   ? TypeId::Bool
              : n == "text"   ? TypeId::Text
              : n == "bytea"  ? TypeId::Bytea
              : n == "uuid"   ? TypeId::Uuid
                              : TypeId::Date;
  } else if (n == "json" || n == "jsonb") {
    noModifiers();
    type.id = n == "json" ? TypeId::Json : TypeId::Jsonb;
  } else if (TypeAlias alias = aliasNamed(n); alias != TypeAlias::None) {
    noModifiers();
    type = SqlType::of(alias);
  } else if (n == "serial" || n == "serial4" || n == "bigserial" || n == "serial8" || n == "smallserial" ||
             n == "serial2") {
    noModifiers();
    bool big = n == "bigserial" || n == "serial8", small = n == "smallserial" || n == "serial2";
    type.id = big ? TypeId::Int8 : small ? TypeId::Int2 : TypeId::Int4;
    t.serial = big ? SerialKind::Big : small ? SerialKind::Small : SerialKind::Normal;
  } else if (n == "numeric") {
    if (mods.size() > 2) invalid("invalid NUMERIC type modifier");
    type.id = TypeId::Numeric;
    if (!mods.empty()) {
      int p = mods[0], s = mods.size() > 1 ? mods[1] : 0;
      if (p < 1 || p > kMaxNumericPrecision)
        invalid("NUMERIC precision " + std::to_string(p) + " must be between 1 and " +
                std::to_string(kMaxNumericPrecision));
      if (s < -kMaxNumericPrecision || s > kMaxNumericPrecision)
        invalid("NUMERIC scale " + std::to_string(s) + " must be between -1000 and 1000");
      if (s < 0)  // PostgreSQL 15 allows it; DuetDB's numeric keeps a non-negative scale
        errorAt(sqlstate::kFeatureNotSupported, "negative NUMERIC scale is not supported", t.location);
      type = SqlType::numeric(p, s);
    }
  } else if (n == "varchar" || n == "bpchar") {
    if (mods.size() > 1) invalid("invalid type modifier");
    const char* shown = n == "varchar" ? "varchar" : "char";
    int len = mods.empty() ? (n == "bpchar" && fromKeyword ? 1 : -1) : mods[0];
    if (!mods.empty() && len < 1) invalid(std::string("length for type ") + shown + " must be at least 1");
    if (len > kMaxCharLength)
      invalid(std::string("length for type ") + shown + " cannot exceed " + std::to_string(kMaxCharLength));
    type = len < 0 ? SqlType{n == "varchar" ? TypeId::Varchar : TypeId::Char, -1}
                   : (n == "varchar" ? SqlType::varchar(len) : SqlType::bpchar(len));
  } else if (n == "timestamp" || n == "timestamptz") {
    if (mods.size() > 1) invalid("invalid type modifier");
    type.id = n == "timestamp" ? TypeId::Timestamp : TypeId::TimestampTz;
    if (!mods.empty()) {
      if (mods[0] < 0)
        invalid(std::string(n == "timestamp" ? "TIMESTAMP" : "TIMESTAMP WITH TIME ZONE") + "(" +
                std::to_string(mods[0]) + ") precision must not be negative");
      type.typmod = std::min(mods[0], kMaxTimestampPrecision);  // PostgreSQL reduces it, with a warning
    }
  } else if (n == "interval") {
    if (mods.size() > 1) invalid("invalid INTERVAL type modifier");
    int precision = interval_field::kFullPrecision;
    if (!mods.empty()) {
      if (mods[0] < 0) invalid("INTERVAL(" + std::to_string(mods[0]) + ") precision must not be negative");
      precision = std::min(mods[0], kMaxTimestampPrecision);  // PostgreSQL reduces it, with a warning
    }
    type.id = TypeId::Interval;
    if (t.intervalFields >= 0 || !mods.empty())
      type.typmod = intervalTypmod(t.intervalFields >= 0 ? t.intervalFields : interval_field::kFullRange, precision);
  } else {
    return;  // not a type DuetDB implements; the binder reports it
  }
  t.type = type;
  t.resolved = true;
}

}  // namespace duet::sql
