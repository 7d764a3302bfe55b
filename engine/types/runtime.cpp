#include "engine/types/runtime.h"
#include "engine/types/runtime_json.h"

#include <array>
#include <cerrno>
#include <cmath>
#include <deque>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/types/array.h"
#include "engine/types/datetime.h"
#include "engine/types/numeric.h"
#include "engine/types/raw_value.h"
#include "engine/types/record.h"
#include "engine/types/scalar_text.h"
#include "engine/types/strings.h"
#include "engine/types/type_aliases.h"
#include "engine/types/type_errors.h"
#include "engine/types/uuid.h"
#include "engine/types/value_io.h"

using namespace duet;

namespace {

const VarString* arenaString(std::string_view s) { return statementArena().makeString(s); }

// PostgreSQL's int2mod/int4mod/int8mod: a divisor of -1 gives 0 without dividing (the
// smallest value divided by -1 overflows).
int64_t integerMod(int64_t a, int64_t b) {
  if (b == 0) raiseDivisionByZero();
  return b == -1 ? 0 : a % b;
}

// PostgreSQL's float8 checks after a libm call that reports a range error through errno
// (dexp): a non-zero result is an overflow, zero an underflow.
double checkRangeErrno(double result) {
  if (errno == ERANGE) {
    if (result != 0.0) raiseFloatOverflow();
    raiseFloatUnderflow();
  }
  return float8Checked(result, false, false);
}

// log() and log10(): 2201E for zero and negative arguments (as dlog1 and dlog10).
void checkLogArgument(double a) {
  if (a == 0.0) throw SqlError("2201E", "cannot take logarithm of zero");
  if (a < 0.0) throw SqlError("2201E", "cannot take logarithm of a negative number");
}

// PostgreSQL's RADIANS_PER_DEGREE.
constexpr double kRadiansPerDegree = 0.0174532925199432957692;

}  // namespace

extern "C" {

void duet_rt_raise_int_overflow(int32_t typeId) { raiseIntegerOutOfRange(static_cast<TypeId>(typeId)); }
void duet_rt_raise_division_by_zero() { raiseDivisionByZero(); }
void duet_rt_raise_float_overflow() { raiseFloatOverflow(); }
void duet_rt_raise_float_underflow() { raiseFloatUnderflow(); }

NumericRep duet_rt_numeric_add(NumericRep a, NumericRep b) { return numericAdd(a, b); }
NumericRep duet_rt_numeric_sub(NumericRep a, NumericRep b) { return numericSub(a, b); }
NumericRep duet_rt_numeric_mul(NumericRep a, NumericRep b) { return numericMul(a, b); }
NumericRep duet_rt_numeric_div(NumericRep a, NumericRep b) { return numericDiv(a, b); }
NumericRep duet_rt_numeric_mod(NumericRep a, NumericRep b) { return numericMod(a, b); }
NumericRep duet_rt_numeric_neg(NumericRep a) { return numericNeg(a); }
NumericRep duet_rt_numeric_abs(NumericRep a) { return numericAbs(a); }
NumericRep duet_rt_numeric_pow(NumericRep a, NumericRep b) { return numericPower(a, b); }
int32_t duet_rt_numeric_cmp(NumericRep a, NumericRep b) { return numericCompare(a, b); }
NumericRep duet_rt_numeric_rescale_up(NumericRep v, int32_t scale) { return numericRescaleUp(v, scale); }
bool duet_rt_numeric_eq(NumericRep a, NumericRep b) { return numericCompare(a, b) == 0; }
uint64_t duet_rt_numeric_hash(NumericRep a) { return numericHash(a); }
NumericRep duet_rt_numeric_round(NumericRep a, int32_t s) { return numericRound(a, s); }
NumericRep duet_rt_numeric_trunc(NumericRep a, int32_t s) { return numericTrunc(a, s); }
NumericRep duet_rt_numeric_round_integral(NumericRep a) { return numericRound(a, 0); }
NumericRep duet_rt_numeric_trunc_integral(NumericRep a) { return numericTrunc(a, 0); }
NumericRep duet_rt_numeric_apply_typmod(NumericRep a, int32_t typmod) { return numericApplyTypmod(a, typmod); }
NumericRep duet_rt_numeric_div_trunc(NumericRep a, NumericRep b) { return numericDivTrunc(a, b); }
NumericRep duet_rt_numeric_floor(NumericRep a) { return numericFloor(a); }
NumericRep duet_rt_numeric_ceil(NumericRep a) { return numericCeil(a); }
NumericRep duet_rt_numeric_sign(NumericRep a) { return numericSign(a); }
NumericRep duet_rt_numeric_sqrt(NumericRep a) { return numericSqrt(a); }
NumericRep duet_rt_numeric_exp(NumericRep a) { return numericExp(a); }
NumericRep duet_rt_numeric_ln(NumericRep a) { return numericLn(a); }
// log(numeric) and log10(numeric) are log(10, x) in PostgreSQL (SQL functions), scale included.
NumericRep duet_rt_numeric_log(NumericRep a) { return numericLog(makeNumeric(10, 0), a); }
NumericRep duet_rt_numeric_log10(NumericRep a) { return numericLog(makeNumeric(10, 0), a); }
NumericRep duet_rt_numeric_log_base(NumericRep base, NumericRep a) { return numericLog(base, a); }

int16_t duet_rt_int2_mod(int16_t a, int16_t b) { return static_cast<int16_t>(integerMod(a, b)); }
int32_t duet_rt_int4_mod(int32_t a, int32_t b) { return static_cast<int32_t>(integerMod(a, b)); }
int64_t duet_rt_int8_mod(int64_t a, int64_t b) { return integerMod(a, b); }

// PostgreSQL's float8pl/mi/mul: overflow only from finite inputs, underflow only from
// non-zero ones.
double duet_rt_float8_add(double a, double b) { return float8Checked(a + b, std::isinf(a) || std::isinf(b), true); }
double duet_rt_float8_sub(double a, double b) { return float8Checked(a - b, std::isinf(a) || std::isinf(b), true); }
double duet_rt_float8_mul(double a, double b) {
  return float8Checked(a * b, std::isinf(a) || std::isinf(b), a == 0.0 || b == 0.0);
}
double duet_rt_float8_div(double a, double b) { return float8Div(a, b); }
double duet_rt_float8_pow(double a, double b) { return float8Pow(a, b); }
double duet_rt_float8_round(double a) { return std::rint(a); }
double duet_rt_float8_trunc(double a) { return std::trunc(a); }
double duet_rt_float8_floor(double a) { return std::floor(a); }
double duet_rt_float8_ceil(double a) { return std::ceil(a); }
double duet_rt_float8_sign(double a) { return a > 0.0 ? 1.0 : a < 0.0 ? -1.0 : 0.0; }
double duet_rt_float8_sqrt(double a) {
  if (a < 0.0) throw SqlError("2201F", "cannot take square root of a negative number");
  return float8Checked(std::sqrt(a), std::isinf(a), a == 0.0);
}
double duet_rt_float8_cbrt(double a) { return float8Checked(std::cbrt(a), std::isinf(a), a == 0.0); }
double duet_rt_float8_exp(double a) {
  if (std::isnan(a)) return a;
  if (std::isinf(a)) return a > 0.0 ? a : 0.0;
  errno = 0;
  return checkRangeErrno(std::exp(a));
}
double duet_rt_float8_ln(double a) {
  checkLogArgument(a);
  return float8Checked(std::log(a), std::isinf(a), a == 1.0);
}
double duet_rt_float8_log10(double a) {
  checkLogArgument(a);
  return float8Checked(std::log10(a), std::isinf(a), a == 1.0);
}
int32_t duet_rt_float8_width_bucket(double operand, double low, double high, int32_t count) {
  if (count <= 0) throw SqlError("2201G", "count must be greater than zero");
  if (std::isnan(operand) || std::isnan(low) || std::isnan(high))
    throw SqlError("2201G", "operand, lower bound, and upper bound cannot be NaN");
  if (std::isinf(low) || std::isinf(high)) throw SqlError("2201G", "lower and upper bounds must be finite");
  if (low == high) throw SqlError("2201G", "lower bound cannot equal upper bound");
  bool ascending = low < high;
  if (ascending ? operand < low : operand > low) return 0;
  if (ascending ? operand >= high : operand <= high) {
    int32_t r;
    if (__builtin_add_overflow(count, 1, &r)) raiseIntegerOutOfRange(TypeId::Int4);
    return r;
  }
  // PostgreSQL 15's arithmetic, converted to int32 as the C cast does on x86-64 (a NaN or an
  // out-of-range quotient, from bounds whose difference overflows, becomes INT32_MIN).
  double r = ascending ? static_cast<double>(count) * (operand - low) / (high - low) + 1
                       : static_cast<double>(count) * (low - operand) / (low - high) + 1;
  if (!(r >= -2147483648.0 && r < 2147483648.0)) return INT32_MIN;
  return static_cast<int32_t>(r);
}

int32_t duet_rt_numeric_width_bucket(NumericRep operand, NumericRep low, NumericRep high, int32_t count) {
  if (count <= 0) throw SqlError("2201G", "count must be greater than zero");
  int order = numericCompare(low, high);
  if (order == 0) throw SqlError("2201G", "lower bound cannot equal upper bound");
  int64_t result;
  if (order < 0 ? numericCompare(operand, low) < 0 : numericCompare(operand, low) > 0) {
    result = 0;
  } else if (order < 0 ? numericCompare(operand, high) >= 0 : numericCompare(operand, high) <= 0) {
    result = int64_t(count) + 1;
  } else {
    // ((operand - low) * count) / (high - low), truncated, + 1: in [1, count].
    NumericRep scaled = numericMul(numericSub(operand, low), numericFromInt64(count));
    result = numericToInteger(numericDivTrunc(scaled, numericSub(high, low)), TypeId::Int8) + 1;
  }
  if (result > INT32_MAX) raiseIntegerOutOfRange(TypeId::Int4);
  return static_cast<int32_t>(result);
}

int32_t duet_rt_array_position_from(const VarString* array, const void* value, int32_t start) {
  ArrayView view(array);
  SqlType element{view.elementType(), -1};
  alignas(16) unsigned char slot[16];
  for (uint32_t i = start > 1 ? static_cast<uint32_t>(start - 1) : 0; i < view.size(); ++i) {
    if (view.isNull(i)) continue;
    view.load(i, slot);
    if (compareValues(element, slot, value) == 0) return static_cast<int32_t>(i + 1);
  }
  return 0;
}
int32_t duet_rt_array_position(const VarString* array, const void* value) {
  return duet_rt_array_position_from(array, value, 1);
}

int32_t duet_rt_width_bucket_array(const void* operand, const VarString* thresholds) {
  ArrayView array(thresholds);
  if (array.hasNulls()) throw SqlError(sqlstate::kNullValueNotAllowed, "thresholds array must not contain NULLs");
  SqlType element{array.elementType(), -1};
  alignas(16) unsigned char threshold[16];
  uint32_t left = 0, right = array.size();
  while (left < right) {  // the first threshold greater than the operand
    uint32_t middle = left + (right - left) / 2;
    array.load(middle, threshold);
    if (compareValues(element, operand, threshold) < 0)
      right = middle;
    else
      left = middle + 1;
  }
  return static_cast<int32_t>(left);
}

double duet_rt_float8_degrees(double a) { return float8Div(a, kRadiansPerDegree); }
double duet_rt_float8_radians(double a) { return float8Checked(a * kRadiansPerDegree, std::isinf(a), a == 0.0); }
double duet_rt_pi() { return std::numbers::pi; }
float duet_rt_float4_add(float a, float b) { return float4Checked(a + b, std::isinf(a) || std::isinf(b), true); }
float duet_rt_float4_sub(float a, float b) { return float4Checked(a - b, std::isinf(a) || std::isinf(b), true); }
float duet_rt_float4_mul(float a, float b) {
  return float4Checked(a * b, std::isinf(a) || std::isinf(b), a == 0.0f || b == 0.0f);
}
float duet_rt_float4_div(float a, float b) { return float4Div(a, b); }

int32_t duet_rt_text_cmp(const VarString* a, const VarString* b) { return textCompare(a->view(), b->view()); }
bool duet_rt_text_eq(const VarString* a, const VarString* b) { return a->view() == b->view(); }
uint64_t duet_rt_text_hash(const VarString* s) { return textHash(s->view()); }
const VarString* duet_rt_text_concat(const VarString* a, const VarString* b) {
  VarString* r = statementArena().makeString(size_t(a->len) + b->len);
  std::memcpy(r->data, a->data, a->len);
  std::memcpy(r->data + a->len, b->data, b->len);
  return r;
}
int32_t duet_rt_text_length(const VarString* s) { return static_cast<int32_t>(charLength(s->view())); }
int32_t duet_rt_text_octet_length(const VarString* s) { return static_cast<int32_t>(s->len); }
const VarString* duet_rt_text_lower(const VarString* s) { return arenaString(lowerAscii(s->view())); }
const VarString* duet_rt_text_upper(const VarString* s) { return arenaString(upperAscii(s->view())); }
const VarString* duet_rt_text_substr(const VarString* s, int32_t start, int32_t count) {
  return arenaString(substring(s->view(), start, count));
}
const VarString* duet_rt_text_substr_from(const VarString* s, int32_t start) {
  return arenaString(substring(s->view(), start));
}
int32_t duet_rt_text_position(const VarString* s, const VarString* sub) {
  return static_cast<int32_t>(position(s->view(), sub->view()));
}
const VarString* duet_rt_text_left(const VarString* s, int32_t n) { return arenaString(leftChars(s->view(), n)); }
const VarString* duet_rt_text_right(const VarString* s, int32_t n) { return arenaString(rightChars(s->view(), n)); }
const VarString* duet_rt_text_btrim(const VarString* s, const VarString* chars) {
  return arenaString(trimChars(s->view(), chars->view(), true, true));
}
const VarString* duet_rt_text_ltrim(const VarString* s, const VarString* chars) {
  return arenaString(trimChars(s->view(), chars->view(), true, false));
}
const VarString* duet_rt_text_rtrim(const VarString* s, const VarString* chars) {
  return arenaString(trimChars(s->view(), chars->view(), false, true));
}
const VarString* duet_rt_text_btrim_space(const VarString* s) {
  return arenaString(trimChars(s->view(), " ", true, true));
}
const VarString* duet_rt_text_ltrim_space(const VarString* s) {
  return arenaString(trimChars(s->view(), " ", true, false));
}
const VarString* duet_rt_text_rtrim_space(const VarString* s) {
  return arenaString(trimChars(s->view(), " ", false, true));
}
const VarString* duet_rt_text_replace(const VarString* s, const VarString* from, const VarString* to) {
  return arenaString(replaceAll(s->view(), from->view(), to->view()));
}
bool duet_rt_text_like(const VarString* s, const VarString* p) { return likeMatch(s->view(), p->view()); }
bool duet_rt_text_ilike(const VarString* s, const VarString* p) { return likeMatch(s->view(), p->view(), "\\", true); }
bool duet_rt_text_like_escape(const VarString* s, const VarString* p, const VarString* e) {
  return likeMatch(s->view(), p->view(), e->view());
}
bool duet_rt_text_ilike_escape(const VarString* s, const VarString* p, const VarString* e) {
  return likeMatch(s->view(), p->view(), e->view(), true);
}

int32_t duet_rt_bpchar_cmp(const VarString* a, const VarString* b) { return bpcharCompare(a->view(), b->view()); }
bool duet_rt_bpchar_eq(const VarString* a, const VarString* b) {
  return bpcharTrim(a->view()) == bpcharTrim(b->view());
}
uint64_t duet_rt_bpchar_hash(const VarString* s) { return bpcharHash(s->view()); }
int32_t duet_rt_bpchar_length(const VarString* s) { return static_cast<int32_t>(charLength(bpcharTrim(s->view()))); }
const VarString* duet_rt_string_coerce(const VarString* s, int32_t typeId, int32_t typmod, bool explicitCast) {
  return coerceString(s, SqlType{static_cast<TypeId>(typeId), typmod}, explicitCast, statementArena());
}

int64_t duet_rt_oid_in(const VarString* s, int32_t alias, const TypeContext* ctx) {
  static const TypeContext kDefault;
  auto kind = static_cast<TypeAlias>(alias);
  return kind == TypeAlias::Oid ? parseOid(s->view()) : parseRegOid(kind, s->view(), ctx ? *ctx : kDefault);
}
const VarString* duet_rt_reg_out(int64_t oid, int32_t alias, const TypeContext* ctx) {
  static const TypeContext kDefault;
  std::string out;
  formatRegOid(static_cast<TypeAlias>(alias), oid, out, ctx ? *ctx : kDefault);
  return statementArena().makeString(out);
}
const VarString* duet_rt_vector_in(const VarString* s, int32_t alias, const TypeContext* ctx) {
  static const TypeContext kDefault;
  return parseVectorText(SqlType::of(static_cast<TypeAlias>(alias)), s->view(), statementArena(),
                         ctx ? *ctx : kDefault);
}
const VarString* duet_rt_vector_out(const VarString* v, int32_t alias, const TypeContext* ctx) {
  static const TypeContext kDefault;
  std::string out;
  formatVectorText(SqlType::of(static_cast<TypeAlias>(alias)), v, out, ctx ? *ctx : kDefault);
  return statementArena().makeString(out);
}
const VarString* duet_rt_name_coerce(const VarString* s, int32_t alias) {
  std::string_view v = aliasStringValue(static_cast<TypeAlias>(alias), s->view());
  return v.size() == s->len ? s : statementArena().makeString(v);
}

int32_t duet_rt_date_add_days(int32_t date, int32_t days) { return dateAddDays(date, days); }
int32_t duet_rt_date_sub_days(int32_t date, int32_t days) { return dateAddDays(date, -int64_t(days)); }
int32_t duet_rt_date_diff(int32_t a, int32_t b) { return dateDiff(a, b); }
uint64_t duet_rt_hash_value(int32_t type, const void* value) {
  return hashValue(SqlType{static_cast<TypeId>(type), -1}, value);
}
int64_t duet_rt_date_to_timestamp(int32_t date) { return dateToTimestamp(date); }
int32_t duet_rt_timestamp_to_date(int64_t ts) { return timestampToDate(ts); }

}  // extern "C"

namespace {

const TypeContext& contextOrDefault(const TypeContext* ctx) {
  static const TypeContext kDefault;
  return ctx ? *ctx : kDefault;
}

bool arrayIndexValid(const VarString* a, int32_t index) {
  ArrayView v(a);
  return index >= 1 && static_cast<uint32_t>(index) <= v.size();
}

template <typename T>
T arrayElement(const VarString* a, int32_t index) {
  if constexpr (std::is_same_v<T, const VarString*>) {
    alignas(16) unsigned char value[16];
    ArrayView(a).load(static_cast<uint32_t>(index - 1), value);
    return loadRaw<T>(value);
  } else {
    // Fixed-width elements: the slot is the value, sizeof(T) bytes (each getter serves
    // the element types of that size). Straight to it: procedures index arrays in loops.
    const auto* base = reinterpret_cast<const unsigned char*>(a);
    uint32_t count = ArrayView(a).size();
    return loadRaw<T>(base + arraySlotsOffset(count) + static_cast<size_t>(index - 1) * sizeof(T));
  }
}

}  // namespace

extern "C" {

const VarString* duet_rt_array_build(const uint8_t* tuple, int32_t count, int32_t elementType, int32_t firstOffset) {
  auto element = static_cast<TypeId>(elementType);
  ArrayBuilder builder(element);
  builder.reserve(static_cast<size_t>(count));
  uint32_t size = physicalSize(element);
  for (int32_t i = 0; i < count; ++i) {
    if (tuple[i])
      builder.appendNull();
    else
      builder.append(tuple + firstOffset + size_t(i) * size);
  }
  return builder.finish(statementArena());
}
int32_t duet_rt_array_cmp(const VarString* a, const VarString* b) { return compareArrays(a, b); }
bool duet_rt_array_has(const VarString* a, int32_t index) {
  return arrayIndexValid(a, index) && !ArrayView(a).isNull(static_cast<uint32_t>(index - 1));
}
bool duet_rt_array_get_bool(const VarString* a, int32_t i) { return arrayElement<uint8_t>(a, i) != 0; }
int16_t duet_rt_array_get_int2(const VarString* a, int32_t i) { return arrayElement<int16_t>(a, i); }
int32_t duet_rt_array_get_int4(const VarString* a, int32_t i) { return arrayElement<int32_t>(a, i); }
int64_t duet_rt_array_get_int8(const VarString* a, int32_t i) { return arrayElement<int64_t>(a, i); }
float duet_rt_array_get_float4(const VarString* a, int32_t i) { return arrayElement<float>(a, i); }
double duet_rt_array_get_float8(const VarString* a, int32_t i) { return arrayElement<double>(a, i); }
NumericRep duet_rt_array_get_numeric(const VarString* a, int32_t i) { return arrayElement<NumericRep>(a, i); }
const VarString* duet_rt_array_get_string(const VarString* a, int32_t i) {
  return arrayElement<const VarString*>(a, i);
}
int32_t duet_rt_array_cardinality(const VarString* a) { return static_cast<int32_t>(ArrayView(a).size()); }
bool duet_rt_array_has_dimension(const VarString* a, int32_t dimension) {
  return dimension == 1 && ArrayView(a).size() > 0;
}
const VarString* duet_rt_array_cast(const VarString* a, int32_t toElement, int32_t toTypmod, bool explicitCast,
                                    const TypeContext* ctx) {
  SqlType to = SqlType::arrayOf({static_cast<TypeId>(toElement), toTypmod});
  return castArray(a, to, explicitCast, statementArena(), contextOrDefault(ctx));
}
const VarString* duet_rt_array_cat(const VarString* a, const VarString* b) {
  return concatArrays(a, b, statementArena());
}
const VarString* duet_rt_array_out(const VarString* a, const TypeContext* ctx) {
  std::string text;
  formatArrayText(a, text, contextOrDefault(ctx));
  return arenaString(text);
}
const VarString* duet_rt_record_out(const VarString* r, const TypeContext* ctx) {
  std::string text;
  formatRecordText(r, text, contextOrDefault(ctx));
  return arenaString(text);
}
const VarString* duet_rt_record_in(const VarString* s, int32_t rowType, const TypeContext* ctx) {
  SqlType type{TypeId::Record, rowType};
  if (compositeTypeOid(type) == 0) anonymousRecordInput();
  return parseRecordText(type, s->view(), statementArena(), contextOrDefault(ctx));
}
const VarString* duet_rt_array_in(const VarString* s, int32_t element, int32_t typmod, bool explicitCast,
                                  const TypeContext* ctx) {
  SqlType type = SqlType::arrayOf({static_cast<TypeId>(element), -1});
  const TypeContext& context = contextOrDefault(ctx);
  const VarString* a = parseArrayText(type, s->view(), statementArena(), context);
  if (typmod < 0) return a;
  type.typmod = typmod;
  return castArray(a, type, explicitCast, statementArena(), context);
}

}  // extern "C"

namespace {

// The C carrier of each runtime type, and how it maps to the physical representation.
template <TypeId T>
struct Carrier;
template <>
struct Carrier<TypeId::Bool> {
  using type = bool;
  using phys = uint8_t;
};
template <>
struct Carrier<TypeId::Int2> {
  using type = int16_t;
  using phys = int16_t;
};
template <>
struct Carrier<TypeId::Int4> {
  using type = int32_t;
  using phys = int32_t;
};
template <>
struct Carrier<TypeId::Int8> {
  using type = int64_t;
  using phys = int64_t;
};
template <>
struct Carrier<TypeId::Float4> {
  using type = float;
  using phys = float;
};
template <>
struct Carrier<TypeId::Float8> {
  using type = double;
  using phys = double;
};
template <>
struct Carrier<TypeId::Numeric> {
  using type = NumericRep;
  using phys = NumericRep;
};
template <>
struct Carrier<TypeId::Char> {
  using type = const VarString*;
  using phys = const VarString*;
};
template <>
struct Carrier<TypeId::Varchar> {
  using type = const VarString*;
  using phys = const VarString*;
};
template <>
struct Carrier<TypeId::Text> {
  using type = const VarString*;
  using phys = const VarString*;
};
template <>
struct Carrier<TypeId::Json> {
  using type = const VarString*;
  using phys = const VarString*;
};
template <>
struct Carrier<TypeId::Jsonb> {
  using type = const VarString*;
  using phys = const VarString*;
};
template <>
struct Carrier<TypeId::Date> {
  using type = int32_t;
  using phys = int32_t;
};
template <>
struct Carrier<TypeId::Timestamp> {
  using type = int64_t;
  using phys = int64_t;
};
template <>
struct Carrier<TypeId::TimestampTz> {
  using type = int64_t;
  using phys = int64_t;
};
template <>
struct Carrier<TypeId::Interval> {
  using type = IntervalRep;
  using phys = IntervalRep;
};
template <>
struct Carrier<TypeId::Bytea> {
  using type = const VarString*;
  using phys = const VarString*;
};
template <>
struct Carrier<TypeId::Uuid> {
  using type = UuidRep;
  using phys = UuidRep;
};

// One cast function per (from, to) pair, with C calling convention-compatible arguments;
// the JIT reaches it by the name registered below, not by a linker symbol.
template <TypeId F, TypeId T>
typename Carrier<T>::type castThunk(typename Carrier<F>::type v, int32_t typmod, bool explicitCast,
                                    const TypeContext* ctx) {
  static const TypeContext kDefault;
  typename Carrier<F>::phys in = static_cast<typename Carrier<F>::phys>(v);
  typename Carrier<T>::phys out{};
  // The pair is fixed here: numbers (int4 * numeric in a routine's arithmetic, say) go
  // straight to the conversion, past castValue's checks of which kind of cast it is.
  if constexpr (isNumericCategory(F) && isNumericCategory(T))
    castNumber(SqlType{F, -1}, &in, SqlType{T, typmod}, &out);
  else
    castValue(SqlType{F, -1}, &in, SqlType{T, typmod}, &out, explicitCast, statementArena(), ctx ? *ctx : kDefault);
  return static_cast<typename Carrier<T>::type>(out);
}

constexpr std::array<std::pair<TypeId, const char*>, 18> kRuntimeTypes = {{
    {TypeId::Bool, "bool"},
    {TypeId::Int2, "int2"},
    {TypeId::Int4, "int4"},
    {TypeId::Int8, "int8"},
    {TypeId::Float4, "float4"},
    {TypeId::Float8, "float8"},
    {TypeId::Numeric, "numeric"},
    {TypeId::Char, "bpchar"},
    {TypeId::Varchar, "varchar"},
    {TypeId::Text, "text"},
    {TypeId::Date, "date"},
    {TypeId::Timestamp, "timestamp"},
    {TypeId::TimestampTz, "timestamptz"},
    {TypeId::Interval, "interval"},
    {TypeId::Bytea, "bytea"},
    {TypeId::Uuid, "uuid"},
    {TypeId::Json, "json"},
    {TypeId::Jsonb, "jsonb"},
}};
constexpr size_t kRuntimeTypeCount = kRuntimeTypes.size();

// Address of castThunk<kRuntimeTypes[I].first, kRuntimeTypes[J].first>.
template <size_t I, size_t J>
void* thunkAddress() {
  return reinterpret_cast<void*>(&castThunk<kRuntimeTypes[I].first, kRuntimeTypes[J].first>);
}

template <size_t I, size_t... J>
void fillRow(void* (&row)[kRuntimeTypeCount], std::index_sequence<J...>) {
  ((row[J] = thunkAddress<I, J>()), ...);
}

template <size_t... I>
void fillTable(void* (&table)[kRuntimeTypeCount][kRuntimeTypeCount], std::index_sequence<I...>) {
  (fillRow<I>(table[I], std::make_index_sequence<kRuntimeTypeCount>{}), ...);
}

bool hasRuntimeCast(TypeId from, TypeId to) {
  if (from == to)
    return from == TypeId::Numeric || from == TypeId::Char || from == TypeId::Varchar || from == TypeId::Interval;
  return castExists(from, to);
}

struct Registry {
  std::deque<std::string> names;  // stable storage for the generated names
  std::vector<RuntimeSymbol> symbols;
  const RuntimeSymbol* casts[kRuntimeTypeCount][kRuntimeTypeCount] = {};

  Registry() {
    // clang-format off: one symbol list, several to a line. What SQL calls by name is
    // registered from compiler/functions/builtin_functions.cpp.
#define DUET_RT(fn) symbols.push_back({#fn, reinterpret_cast<void*>(&fn)});
    DUET_RT(duet_rt_raise_int_overflow) DUET_RT(duet_rt_raise_division_by_zero)
    DUET_RT(duet_rt_raise_float_overflow) DUET_RT(duet_rt_raise_float_underflow)
    DUET_RT(duet_rt_numeric_add) DUET_RT(duet_rt_numeric_sub) DUET_RT(duet_rt_numeric_mul)
    DUET_RT(duet_rt_numeric_div) DUET_RT(duet_rt_numeric_mod) DUET_RT(duet_rt_numeric_neg)
    DUET_RT(duet_rt_numeric_abs) DUET_RT(duet_rt_numeric_pow) DUET_RT(duet_rt_numeric_cmp)
    DUET_RT(duet_rt_numeric_rescale_up)
    DUET_RT(duet_rt_numeric_eq) DUET_RT(duet_rt_numeric_hash)
    DUET_RT(duet_rt_numeric_apply_typmod)
    DUET_RT(duet_rt_float8_add) DUET_RT(duet_rt_float8_sub) DUET_RT(duet_rt_float8_mul)
    DUET_RT(duet_rt_float8_div) DUET_RT(duet_rt_float8_pow)
    DUET_RT(duet_rt_float4_add)
    DUET_RT(duet_rt_float4_sub) DUET_RT(duet_rt_float4_mul) DUET_RT(duet_rt_float4_div)
    DUET_RT(duet_rt_text_cmp) DUET_RT(duet_rt_text_eq) DUET_RT(duet_rt_text_hash)
    DUET_RT(duet_rt_text_concat) DUET_RT(duet_rt_text_octet_length) DUET_RT(duet_rt_text_like)
    DUET_RT(duet_rt_text_ilike) DUET_RT(duet_rt_text_like_escape)
    DUET_RT(duet_rt_text_ilike_escape) DUET_RT(duet_rt_text_regex_match)
    DUET_RT(duet_rt_text_regex_imatch) DUET_RT(duet_rt_text_similar)
    DUET_RT(duet_rt_text_similar_escape) DUET_RT(duet_rt_bpchar_cmp) DUET_RT(duet_rt_bpchar_eq)
    DUET_RT(duet_rt_bpchar_hash) DUET_RT(duet_rt_bpchar_length) DUET_RT(duet_rt_string_coerce)
    DUET_RT(duet_rt_oid_in) DUET_RT(duet_rt_reg_out) DUET_RT(duet_rt_name_coerce)
    DUET_RT(duet_rt_vector_in) DUET_RT(duet_rt_vector_out)
    DUET_RT(duet_rt_date_add_days) DUET_RT(duet_rt_date_sub_days) DUET_RT(duet_rt_date_diff)
    DUET_RT(duet_rt_date_to_timestamp) DUET_RT(duet_rt_timestamp_to_date) DUET_RT(duet_rt_hash_value)
    DUET_RT(duet_rt_array_build) DUET_RT(duet_rt_array_cmp) DUET_RT(duet_rt_array_has)
    DUET_RT(duet_rt_array_get_bool) DUET_RT(duet_rt_array_get_int2) DUET_RT(duet_rt_array_get_int4)
    DUET_RT(duet_rt_array_get_int8) DUET_RT(duet_rt_array_get_float4)
    DUET_RT(duet_rt_array_get_float8) DUET_RT(duet_rt_array_get_numeric)
    DUET_RT(duet_rt_array_get_string) DUET_RT(duet_rt_array_cardinality)
    DUET_RT(duet_rt_array_has_dimension) DUET_RT(duet_rt_array_cast) DUET_RT(duet_rt_array_out)
    DUET_RT(duet_rt_array_in) DUET_RT(duet_rt_array_cat) DUET_RT(duet_rt_record_out) DUET_RT(duet_rt_record_in)
    DUET_RT(duet_rt_interval_cmp) DUET_RT(duet_rt_interval_add) DUET_RT(duet_rt_interval_sub)
    DUET_RT(duet_rt_interval_neg) DUET_RT(duet_rt_interval_mul) DUET_RT(duet_rt_interval_div)
    DUET_RT(duet_rt_interval_apply_typmod) DUET_RT(duet_rt_timestamp_pl_interval)
    DUET_RT(duet_rt_timestamp_mi_interval) DUET_RT(duet_rt_timestamptz_pl_interval)
    DUET_RT(duet_rt_timestamptz_mi_interval) DUET_RT(duet_rt_timestamp_mi)
    DUET_RT(duet_rt_jsonb_cmp)
#undef DUET_RT
        // clang-format on
        void* table[kRuntimeTypeCount][kRuntimeTypeCount];
    fillTable(table, std::make_index_sequence<kRuntimeTypeCount>{});
    std::vector<std::pair<size_t, size_t>> castSlots;
    size_t base = symbols.size();
    for (size_t i = 0; i < kRuntimeTypeCount; ++i)
      for (size_t j = 0; j < kRuntimeTypeCount; ++j) {
        if (!hasRuntimeCast(kRuntimeTypes[i].first, kRuntimeTypes[j].first)) continue;
        names.push_back(std::string("duet_rt_cast_") + kRuntimeTypes[i].second + "_to_" + kRuntimeTypes[j].second);
        symbols.push_back({names.back().c_str(), table[i][j]});
        castSlots.push_back({i, j});
      }
    // Point the lookup table at the entries only now that the vector has stopped growing.
    for (size_t k = 0; k < castSlots.size(); ++k) casts[castSlots[k].first][castSlots[k].second] = &symbols[base + k];
  }
};

const Registry& registry() {
  static const Registry r;
  return r;
}

int runtimeIndex(TypeId t) {
  for (size_t i = 0; i < kRuntimeTypes.size(); ++i)
    if (kRuntimeTypes[i].first == t) return static_cast<int>(i);
  return -1;
}

}  // namespace

namespace duet {

std::span<const RuntimeSymbol> runtimeSymbols() { return registry().symbols; }

const RuntimeSymbol* findCast(TypeId from, TypeId to) {
  int i = runtimeIndex(from), j = runtimeIndex(to);
  if (i < 0 || j < 0) return nullptr;
  return registry().casts[i][j];
}

}  // namespace duet
