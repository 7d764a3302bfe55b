// The runtime-function ABI for JIT-generated code. Every function has C linkage and plain
// scalar arguments: numeric as NumericRep (__int128, LLVM i128) by value, strings as
// `const VarString*`, bool as C bool (i1 zeroext), dates int32, timestamps int64.
// Errors are thrown as duet::SqlError and unwind through the generated frames.
// Strings produced at run time are allocated in statementArena().
#pragma once
#include <cstdint>
#include <span>

#include "engine/types/interval.h"
#include "engine/types/type_context.h"
#include "engine/types/type_id.h"
#include "engine/types/value.h"

namespace duet {

struct RuntimeSymbol {
  const char* name;
  void* address;
};

// Every duet_rt_* function, for the JIT to register by name.
std::span<const RuntimeSymbol> runtimeSymbols();

// The cast function for a pair of types, or nullptr where PostgreSQL has no cast (the
// binder reports 42846). Its name is "duet_rt_cast_<from>_to_<to>" with the type names
// bool, int2, int4, int8, float4, float8, numeric, bpchar, varchar, text, date, timestamp,
// timestamptz, interval, bytea, uuid, and its signature is uniform:
//   To fn(From value, int32_t targetTypmod, bool explicitCast, const TypeContext* ctx)
// with the carriers listed above (typmod -1 for none). Same-type pairs exist for numeric,
// bpchar and varchar, where they apply the typmod. Unknown is not a runtime type.
const RuntimeSymbol* findCast(TypeId from, TypeId to);

}  // namespace duet

extern "C" {
using duet::NumericRep;
using duet::TypeContext;
using duet::VarString;

// Error raisers, for checks the generated code does inline.
[[noreturn]] void duet_rt_raise_int_overflow(int32_t typeId);  // TypeId::Int2/Int4/Int8
[[noreturn]] void duet_rt_raise_division_by_zero();
[[noreturn]] void duet_rt_raise_float_overflow();
[[noreturn]] void duet_rt_raise_float_underflow();

// numeric
NumericRep duet_rt_numeric_add(NumericRep a, NumericRep b);
NumericRep duet_rt_numeric_sub(NumericRep a, NumericRep b);
NumericRep duet_rt_numeric_mul(NumericRep a, NumericRep b);
NumericRep duet_rt_numeric_div(NumericRep a, NumericRep b);
NumericRep duet_rt_numeric_mod(NumericRep a, NumericRep b);
NumericRep duet_rt_numeric_neg(NumericRep a);
NumericRep duet_rt_numeric_abs(NumericRep a);
NumericRep duet_rt_numeric_pow(NumericRep a, NumericRep b);
int32_t duet_rt_numeric_cmp(NumericRep a, NumericRep b);
// numericRescaleUp: a comparison's constant side, once per execution, so that it compares
// with a numeric(p, scale) column's values as packed integers.
NumericRep duet_rt_numeric_rescale_up(NumericRep v, int32_t scale);
bool duet_rt_numeric_eq(NumericRep a, NumericRep b);
uint64_t duet_rt_numeric_hash(NumericRep a);
NumericRep duet_rt_numeric_round(NumericRep a, int32_t scale);
NumericRep duet_rt_numeric_trunc(NumericRep a, int32_t scale);
NumericRep duet_rt_numeric_round_integral(NumericRep a);  // round(numeric): scale 0
NumericRep duet_rt_numeric_trunc_integral(NumericRep a);  // trunc(numeric): scale 0
NumericRep duet_rt_numeric_apply_typmod(NumericRep a, int32_t typmod);
NumericRep duet_rt_numeric_div_trunc(NumericRep a, NumericRep b);  // div(numeric, numeric)
NumericRep duet_rt_numeric_floor(NumericRep a);
NumericRep duet_rt_numeric_ceil(NumericRep a);
NumericRep duet_rt_numeric_sign(NumericRep a);
// sqrt, exp, ln, log (base 10), log10 and log(base, x) of numeric, with PostgreSQL's result
// scales (numeric.h).
NumericRep duet_rt_numeric_sqrt(NumericRep a);
NumericRep duet_rt_numeric_exp(NumericRep a);
NumericRep duet_rt_numeric_ln(NumericRep a);
NumericRep duet_rt_numeric_log(NumericRep a);
NumericRep duet_rt_numeric_log10(NumericRep a);
NumericRep duet_rt_numeric_log_base(NumericRep base, NumericRep a);

// mod() of integers: 22012 for a zero divisor.
int16_t duet_rt_int2_mod(int16_t a, int16_t b);
int32_t duet_rt_int4_mod(int32_t a, int32_t b);
int64_t duet_rt_int8_mod(int64_t a, int64_t b);

// float arithmetic with PostgreSQL's overflow/underflow/division checks
double duet_rt_float8_add(double a, double b);
double duet_rt_float8_sub(double a, double b);
double duet_rt_float8_mul(double a, double b);
double duet_rt_float8_div(double a, double b);
double duet_rt_float8_pow(double a, double b);
double duet_rt_float8_round(double a);  // round half to even, as PostgreSQL's dround (rint)
double duet_rt_float8_trunc(double a);
double duet_rt_float8_floor(double a);
double duet_rt_float8_ceil(double a);
double duet_rt_float8_sign(double a);
// PostgreSQL's dsqrt, dcbrt, dexp, dlog1, dlog10: 2201F/2201E for arguments out of the
// domain, 22003 for a result out of range.
double duet_rt_float8_sqrt(double a);
double duet_rt_float8_cbrt(double a);
double duet_rt_float8_exp(double a);
double duet_rt_float8_ln(double a);
double duet_rt_float8_log10(double a);
double duet_rt_float8_degrees(double a);
// width_bucket(operand, low, high, count): 0 below the range, count + 1 above it; 2201G
// for count <= 0, equal bounds and (double precision) NaN or infinite bounds.
int32_t duet_rt_float8_width_bucket(double operand, double low, double high, int32_t count);
int32_t duet_rt_numeric_width_bucket(NumericRep operand, NumericRep low, NumericRep high, int32_t count);
// width_bucket(operand, thresholds): how many thresholds are at most `operand`, by
// PostgreSQL's binary search (the thresholds are meant to be sorted ascending). `operand`
// points at a value of the array's element type (an anycompatible argument, passed by
// address); 22004 when the thresholds hold a NULL.
int32_t duet_rt_width_bucket_array(const void* operand, const VarString* thresholds);
// array_position(array, value [, start]): the position of the first element equal to
// `value` (of the array's element type), from `start` on; 0 when there is none (the
// binder makes that NULL).
int32_t duet_rt_array_position(const VarString* array, const void* value);
int32_t duet_rt_array_position_from(const VarString* array, const void* value, int32_t start);
double duet_rt_float8_radians(double a);
double duet_rt_pi();
float duet_rt_float4_add(float a, float b);
float duet_rt_float4_sub(float a, float b);
float duet_rt_float4_mul(float a, float b);
float duet_rt_float4_div(float a, float b);

// text and varchar (byte-wise C collation; lengths and positions in characters)
int32_t duet_rt_text_cmp(const VarString* a, const VarString* b);
bool duet_rt_text_eq(const VarString* a, const VarString* b);
uint64_t duet_rt_text_hash(const VarString* s);
const VarString* duet_rt_text_concat(const VarString* a, const VarString* b);
int32_t duet_rt_text_length(const VarString* s);
int32_t duet_rt_text_octet_length(const VarString* s);
const VarString* duet_rt_text_lower(const VarString* s);
const VarString* duet_rt_text_upper(const VarString* s);
const VarString* duet_rt_text_substr(const VarString* s, int32_t start, int32_t count);
const VarString* duet_rt_text_substr_from(const VarString* s, int32_t start);
int32_t duet_rt_text_position(const VarString* s, const VarString* sub);
const VarString* duet_rt_text_left(const VarString* s, int32_t n);
const VarString* duet_rt_text_right(const VarString* s, int32_t n);
const VarString* duet_rt_text_btrim(const VarString* s, const VarString* chars);
const VarString* duet_rt_text_ltrim(const VarString* s, const VarString* chars);
const VarString* duet_rt_text_rtrim(const VarString* s, const VarString* chars);
const VarString* duet_rt_text_btrim_space(const VarString* s);  // btrim(s): spaces
const VarString* duet_rt_text_ltrim_space(const VarString* s);
const VarString* duet_rt_text_rtrim_space(const VarString* s);
const VarString* duet_rt_text_replace(const VarString* s, const VarString* from, const VarString* to);
// The other string functions of SQL (engine/types/text_functions.h), in runtime_text.cpp.
const VarString* duet_rt_text_split_part(const VarString* s, const VarString* sep, int32_t field);
const VarString* duet_rt_text_translate(const VarString* s, const VarString* from, const VarString* to);
const VarString* duet_rt_text_lpad(const VarString* s, int32_t length, const VarString* fill);
const VarString* duet_rt_text_rpad(const VarString* s, int32_t length, const VarString* fill);
const VarString* duet_rt_text_lpad_space(const VarString* s, int32_t length);
const VarString* duet_rt_text_rpad_space(const VarString* s, int32_t length);
const VarString* duet_rt_text_repeat(const VarString* s, int32_t count);
const VarString* duet_rt_text_reverse(const VarString* s);
const VarString* duet_rt_text_initcap(const VarString* s);
int32_t duet_rt_text_ascii(const VarString* s);
const VarString* duet_rt_text_chr(int32_t code);
bool duet_rt_text_starts_with(const VarString* s, const VarString* prefix);
// overlay(s PLACING r FROM start [FOR count]); without FOR, count is r's length.
const VarString* duet_rt_text_overlay(const VarString* s, const VarString* r, int32_t start, int32_t count);
const VarString* duet_rt_text_overlay_no_count(const VarString* s, const VarString* r, int32_t start);
int32_t duet_rt_text_bit_length(const VarString* s);
// The functions over "any" arguments: `values` is the text[] of their output texts
// (builtin_functions.h, anyArgs). quote_literal's result is NULL (a null pointer) for NULL.
const VarString* duet_rt_text_concat_values(const VarString* values);
const VarString* duet_rt_text_concat_ws(const VarString* separator, const VarString* values);
const VarString* duet_rt_text_format(const VarString* format, const VarString* values);
const VarString* duet_rt_text_format_no_args(const VarString* format);
const VarString* duet_rt_text_quote_literal(const VarString* values);
const VarString* duet_rt_text_quote_nullable(const VarString* values);
const VarString* duet_rt_text_quote_ident(const VarString* s);
// num_nulls / num_nonnulls: how many of the "any" arguments are (not) NULL.
int32_t duet_rt_num_nulls(const VarString* values);
int32_t duet_rt_num_nonnulls(const VarString* values);
const VarString* duet_rt_text_md5(const VarString* s);

// bytea (engine/types/bytea.h), in runtime_bytea.cpp. octet_length, bit_length, md5 and ||
// of bytea are the text functions': they count, hash and join bytes.
int32_t duet_rt_bytea_length(const VarString* bytes);
const VarString* duet_rt_bytea_encode(const VarString* bytes, const VarString* format);
const VarString* duet_rt_bytea_decode(const VarString* text, const VarString* format);
const VarString* duet_rt_bytea_substr(const VarString* bytes, int32_t start, int32_t count);
const VarString* duet_rt_bytea_substr_from(const VarString* bytes, int32_t start);
int32_t duet_rt_bytea_position(const VarString* bytes, const VarString* needle);
int32_t duet_rt_bytea_get_byte(const VarString* bytes, int32_t index);
const VarString* duet_rt_bytea_set_byte(const VarString* bytes, int32_t index, int32_t value);
const VarString* duet_rt_bytea_sha224(const VarString* bytes);
const VarString* duet_rt_bytea_sha256(const VarString* bytes);
const VarString* duet_rt_bytea_sha384(const VarString* bytes);
const VarString* duet_rt_bytea_sha512(const VarString* bytes);
const VarString* duet_rt_convert_to(const VarString* text, const VarString* encoding);
const VarString* duet_rt_convert_from(const VarString* bytes, const VarString* encoding);

const VarString* duet_rt_int4_to_hex(int32_t v);
const VarString* duet_rt_int8_to_hex(int64_t v);
bool duet_rt_text_like(const VarString* s, const VarString* pattern);
bool duet_rt_text_ilike(const VarString* s, const VarString* pattern);
bool duet_rt_text_like_escape(const VarString* s, const VarString* pattern, const VarString* escape);
bool duet_rt_text_ilike_escape(const VarString* s, const VarString* pattern, const VarString* escape);

// Regular expressions (engine/types/regex.h), in runtime_regex.cpp. The operators ~ and ~*
// (!~ and !~* negate them), SIMILAR TO, then the regexp_* functions by argument list: a
// pointer result may be null for SQL NULL where the function's row says so
// (regexp_match without a match). Flags, start and n as PostgreSQL reads them.
bool duet_rt_text_regex_match(const VarString* s, const VarString* pattern);
bool duet_rt_text_regex_imatch(const VarString* s, const VarString* pattern);
bool duet_rt_text_similar(const VarString* s, const VarString* pattern);
bool duet_rt_text_similar_escape(const VarString* s, const VarString* pattern, const VarString* escape);
// substring(s FROM pattern) and substring(s FROM pattern FOR escape) (regexSubstring):
// a null pointer for NULL (no match).
const VarString* duet_rt_text_substring_regex(const VarString* s, const VarString* pattern);
const VarString* duet_rt_text_substring_similar(const VarString* s, const VarString* pattern, const VarString* escape);
const VarString* duet_rt_regexp_match(const VarString* s, const VarString* pattern);
const VarString* duet_rt_regexp_match_flags(const VarString* s, const VarString* pattern, const VarString* flags);
const VarString* duet_rt_regexp_replace(const VarString* s, const VarString* pattern, const VarString* replacement);
const VarString* duet_rt_regexp_replace_flags(const VarString* s, const VarString* pattern,
                                              const VarString* replacement, const VarString* flags);
const VarString* duet_rt_regexp_replace_start(const VarString* s, const VarString* pattern,
                                              const VarString* replacement, int32_t start);
const VarString* duet_rt_regexp_replace_start_n(const VarString* s, const VarString* pattern,
                                                const VarString* replacement, int32_t start, int32_t n);
const VarString* duet_rt_regexp_replace_start_n_flags(const VarString* s, const VarString* pattern,
                                                      const VarString* replacement, int32_t start, int32_t n,
                                                      const VarString* flags);
const VarString* duet_rt_regexp_split_to_array(const VarString* s, const VarString* pattern);
const VarString* duet_rt_regexp_split_to_array_flags(const VarString* s, const VarString* pattern,
                                                     const VarString* flags);
int32_t duet_rt_regexp_count(const VarString* s, const VarString* pattern);
int32_t duet_rt_regexp_count_start(const VarString* s, const VarString* pattern, int32_t start);
int32_t duet_rt_regexp_count_start_flags(const VarString* s, const VarString* pattern, int32_t start,
                                         const VarString* flags);
// regexp_instr(s, pattern [, start [, n [, endoption [, flags [, subexpr]]]]]) and
// regexp_substr(s, pattern [, start [, n [, flags [, subexpr]]]]), one function per
// argument list; regexp_substr's result is a null pointer for NULL (no such match).
int32_t duet_rt_regexp_instr(const VarString* s, const VarString* pattern);
int32_t duet_rt_regexp_instr_start(const VarString* s, const VarString* pattern, int32_t start);
int32_t duet_rt_regexp_instr_start_n(const VarString* s, const VarString* pattern, int32_t start, int32_t n);
int32_t duet_rt_regexp_instr_start_n_end(const VarString* s, const VarString* pattern, int32_t start, int32_t n,
                                         int32_t endoption);
int32_t duet_rt_regexp_instr_start_n_end_flags(const VarString* s, const VarString* pattern, int32_t start, int32_t n,
                                               int32_t endoption, const VarString* flags);
int32_t duet_rt_regexp_instr_start_n_end_flags_sub(const VarString* s, const VarString* pattern, int32_t start,
                                                   int32_t n, int32_t endoption, const VarString* flags,
                                                   int32_t subexpr);
const VarString* duet_rt_regexp_substr(const VarString* s, const VarString* pattern);
const VarString* duet_rt_regexp_substr_start(const VarString* s, const VarString* pattern, int32_t start);
const VarString* duet_rt_regexp_substr_start_n(const VarString* s, const VarString* pattern, int32_t start, int32_t n);
const VarString* duet_rt_regexp_substr_start_n_flags(const VarString* s, const VarString* pattern, int32_t start,
                                                     int32_t n, const VarString* flags);
const VarString* duet_rt_regexp_substr_start_n_flags_sub(const VarString* s, const VarString* pattern, int32_t start,
                                                         int32_t n, const VarString* flags, int32_t subexpr);
bool duet_rt_regexp_like(const VarString* s, const VarString* pattern);
bool duet_rt_regexp_like_flags(const VarString* s, const VarString* pattern, const VarString* flags);

// char(n): comparisons ignore trailing spaces
int32_t duet_rt_bpchar_cmp(const VarString* a, const VarString* b);
bool duet_rt_bpchar_eq(const VarString* a, const VarString* b);
uint64_t duet_rt_bpchar_hash(const VarString* s);
int32_t duet_rt_bpchar_length(const VarString* s);
// Coerce to char(n) / varchar(n) / text (typeId as TypeId) with a typmod and the explicit flag.
const VarString* duet_rt_string_coerce(const VarString* s, int32_t typeId, int32_t typmod, bool explicitCast);
// The alias types (type_aliases.h; `alias` as TypeAlias): oid and reg* input from text, reg*
// output through the session's catalog (ctx), name's and "char"'s limits on a string.
int64_t duet_rt_oid_in(const VarString* s, int32_t alias, const TypeContext* ctx);
const VarString* duet_rt_reg_out(int64_t oid, int32_t alias, const TypeContext* ctx);
const VarString* duet_rt_name_coerce(const VarString* s, int32_t alias);
// int2vector and oidvector (`alias`) from and to their space-separated text.
const VarString* duet_rt_vector_in(const VarString* s, int32_t alias, const TypeContext* ctx);
const VarString* duet_rt_vector_out(const VarString* v, int32_t alias, const TypeContext* ctx);

// date arithmetic
int32_t duet_rt_date_add_days(int32_t date, int32_t days);
int32_t duet_rt_date_sub_days(int32_t date, int32_t days);
int32_t duet_rt_date_diff(int32_t a, int32_t b);
// date <-> timestamp without time zone, the casts scans of date columns compared with
// timestamps make per row (no castValue dispatch).
// hashValue of the value at `value` (its physical representation) of type `type` (a
// TypeId): the hash generated code combines for a key column it does not hash inline.
uint64_t duet_rt_hash_value(int32_t type, const void* value);
int64_t duet_rt_date_to_timestamp(int32_t date);
int32_t duet_rt_timestamp_to_date(int64_t ts);

// interval (engine/types/interval.h) as IntervalRep, and date/time arithmetic and functions
// with it (datetime_functions.h), in runtime_datetime.cpp. Units are text; the
// timestamptz forms take the session's TypeContext (null: UTC).
using duet::IntervalRep;
int32_t duet_rt_interval_cmp(IntervalRep a, IntervalRep b);
IntervalRep duet_rt_interval_add(IntervalRep a, IntervalRep b);
IntervalRep duet_rt_interval_sub(IntervalRep a, IntervalRep b);
IntervalRep duet_rt_interval_neg(IntervalRep a);
IntervalRep duet_rt_interval_mul(IntervalRep a, double factor);
IntervalRep duet_rt_interval_div(IntervalRep a, double factor);
IntervalRep duet_rt_interval_apply_typmod(IntervalRep a, int32_t typmod);
IntervalRep duet_rt_justify_days(IntervalRep a);
IntervalRep duet_rt_justify_hours(IntervalRep a);
IntervalRep duet_rt_justify_interval(IntervalRep a);
int64_t duet_rt_timestamp_pl_interval(int64_t ts, IntervalRep span);
int64_t duet_rt_timestamp_mi_interval(int64_t ts, IntervalRep span);
int64_t duet_rt_timestamptz_pl_interval(int64_t ts, IntervalRep span, const TypeContext* ctx);
int64_t duet_rt_timestamptz_mi_interval(int64_t ts, IntervalRep span, const TypeContext* ctx);
IntervalRep duet_rt_timestamp_mi(int64_t a, int64_t b);  // also timestamptz
IntervalRep duet_rt_timestamp_age(int64_t a, int64_t b);
// date_bin(stride, source, origin), for timestamp and timestamptz alike (timestampBin).
int64_t duet_rt_date_bin(IntervalRep stride, int64_t source, int64_t origin);
// isfinite: false for the infinities; an interval is always finite (PostgreSQL 15).
bool duet_rt_date_isfinite(int32_t date);
bool duet_rt_timestamp_isfinite(int64_t ts);  // also timestamptz
bool duet_rt_interval_isfinite(IntervalRep v);
NumericRep duet_rt_extract_date(const VarString* unit, int32_t date);
NumericRep duet_rt_extract_timestamp(const VarString* unit, int64_t ts);
NumericRep duet_rt_extract_interval(const VarString* unit, IntervalRep v);
NumericRep duet_rt_extract_timestamptz(const VarString* unit, int64_t ts, const TypeContext* ctx);
double duet_rt_date_part_date(const VarString* unit, int32_t date);  // as of the date's midnight
double duet_rt_date_part_timestamp(const VarString* unit, int64_t ts);
double duet_rt_date_part_interval(const VarString* unit, IntervalRep v);
double duet_rt_date_part_timestamptz(const VarString* unit, int64_t ts, const TypeContext* ctx);
int64_t duet_rt_date_trunc_timestamp(const VarString* unit, int64_t ts);
int64_t duet_rt_date_trunc_timestamptz(const VarString* unit, int64_t ts, const TypeContext* ctx);
IntervalRep duet_rt_date_trunc_interval(const VarString* unit, IntervalRep v);
IntervalRep duet_rt_timestamptz_age(int64_t a, int64_t b, const TypeContext* ctx);
// timezone(zone, value), which x AT TIME ZONE zone is: timestamptz -> timestamp and back.
int64_t duet_rt_timezone_timestamptz(const VarString* zone, int64_t ts);
int64_t duet_rt_timezone_timestamp(const VarString* zone, int64_t ts);
int64_t duet_rt_timezone_interval_timestamptz(IntervalRep zone, int64_t ts);
int64_t duet_rt_timezone_interval_timestamp(IntervalRep zone, int64_t ts);
int32_t duet_rt_make_date(int32_t year, int32_t month, int32_t day);
IntervalRep duet_rt_make_interval(int32_t years, int32_t months, int32_t weeks, int32_t days, int32_t hours,
                                  int32_t mins, double secs);
int64_t duet_rt_make_timestamptz_at(int32_t year, int32_t month, int32_t day, int32_t hour, int32_t min, double sec,
                                    const VarString* zone);
int64_t duet_rt_make_timestamp(int32_t year, int32_t month, int32_t day, int32_t hour, int32_t min, double sec);

// to_char and its inverses (engine/types/formatting.h), in runtime_formatting.cpp; a null
// pointer is a NULL result (an empty template, an infinite timestamp).
const VarString* duet_rt_to_char_timestamp(int64_t ts, const VarString* format);
const VarString* duet_rt_to_char_timestamptz(int64_t ts, const VarString* format, const TypeContext* ctx);
const VarString* duet_rt_to_char_interval(IntervalRep v, const VarString* format);
const VarString* duet_rt_to_char_numeric(NumericRep v, const VarString* format);
const VarString* duet_rt_to_char_int4(int32_t v, const VarString* format);
const VarString* duet_rt_to_char_int8(int64_t v, const VarString* format);
const VarString* duet_rt_to_char_float8(double v, const VarString* format);
int32_t duet_rt_to_date(const VarString* text, const VarString* format);
int64_t duet_rt_to_timestamp(const VarString* text, const VarString* format, const TypeContext* ctx);
int64_t duet_rt_to_timestamp_epoch(double seconds);
NumericRep duet_rt_to_number(const VarString* text, const VarString* format);

// Arrays (engine/types/array.h), as `const VarString*`; the element type is read from the
// value. ARRAY[...]: `count` elements of `elementType` (TypeId) in a tuple laid out as
// TupleLayout::of would (null flags, then the values from firstOffset on), with no typmod.
const VarString* duet_rt_array_build(const uint8_t* tuple, int32_t count, int32_t elementType, int32_t firstOffset);
int32_t duet_rt_array_cmp(const VarString* a, const VarString* b);
// Whether a[index] (1-based) is an element that is not NULL; the getters read it then, one
// per carrier (arrayGetFunction in array.h names the one for an element type).
bool duet_rt_array_has(const VarString* a, int32_t index);
bool duet_rt_array_get_bool(const VarString* a, int32_t index);
int16_t duet_rt_array_get_int2(const VarString* a, int32_t index);
int32_t duet_rt_array_get_int4(const VarString* a, int32_t index);  // also date
int64_t duet_rt_array_get_int8(const VarString* a, int32_t index);  // also timestamps
float duet_rt_array_get_float4(const VarString* a, int32_t index);
double duet_rt_array_get_float8(const VarString* a, int32_t index);
NumericRep duet_rt_array_get_numeric(const VarString* a, int32_t index);
const VarString* duet_rt_array_get_string(const VarString* a, int32_t index);
int32_t duet_rt_array_cardinality(const VarString* a);
// a || b for two arrays of one element type (array_cat's non-NULL case).
const VarString* duet_rt_array_cat(const VarString* a, const VarString* b);
// Whether array_length(a, dimension) is not NULL: dimension 1 of a non-empty array.
bool duet_rt_array_has_dimension(const VarString* a, int32_t dimension);
// Element-wise cast to an array of toElement (TypeId) with typmod toTypmod.
const VarString* duet_rt_array_cast(const VarString* a, int32_t toElement, int32_t toTypmod, bool explicitCast,
                                    const TypeContext* ctx);
// array_out and array_in (the I/O conversion casts to and from the string types).
const VarString* duet_rt_array_out(const VarString* a, const TypeContext* ctx);
// record_out and record_in of a named composite type (rowType: its SqlType's typmod), the
// I/O conversion casts to and from the string types; an anonymous record has no input
// (0A000).
const VarString* duet_rt_record_out(const VarString* r, const TypeContext* ctx);
const VarString* duet_rt_record_in(const VarString* s, int32_t rowType, const TypeContext* ctx);
// array_in reads the elements without the typmod; it is applied afterwards as the cast's
// context says (an explicit cast truncates strings), as PostgreSQL's coerce_type does.
const VarString* duet_rt_array_in(const VarString* s, int32_t element, int32_t typmod, bool explicitCast,
                                  const TypeContext* ctx);
}
