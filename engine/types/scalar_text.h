// Text input and output of bool, the integers and the floats, as PostgreSQL 15 does it,
// plus the float arithmetic checks (float.c's check_float8_val and friends).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/types/type_id.h"

namespace duet {

// The whitespace the input functions skip around a value (isspace in the C locale).
inline bool scalarSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// Integers: surrounding whitespace and a sign are allowed; 22P02 / 22003 otherwise.
int16_t parseInt2(std::string_view text);
int32_t parseInt4(std::string_view text);
int64_t parseInt8(std::string_view text);
// What parseInt2/4/8 read at the start of text: whitespace, a sign, digits, whitespace,
// stopping at the first other character, where `p` is left (parseInt* then require the
// end). For readers of integers inside larger text (array elements); `max` is the type's
// maximum, its minimum -max - 1.
struct IntegerScan {
  enum Result {
    Ok,
    NoDigits,     // no digit after the whitespace and sign: invalid input
    OutOfRange,   // more than the type holds, whatever follows
    OneAboveMax,  // max + 1: out of range, but after a check of what follows
  };
  int64_t value = 0;
  Result result = Ok;
};
// Inline: array input runs it per element, with `max` a constant.
inline IntegerScan scanInteger(const char*& p, const char* end, int64_t max) {
  while (p != end && scalarSpace(*p)) ++p;
  bool neg = false;
  if (p != end && (*p == '+' || *p == '-')) neg = *p++ == '-';
  if (p == end || *p < '0' || *p > '9') return {0, IntegerScan::NoDigits};
  // The magnitude is accumulated unsigned and compared before each digit with what still
  // fits (strtol's cutoff): no division per digit. `limit` is the magnitude of the
  // minimum, -max - 1; as in pg_strtoint, passing it ends the scan out of range at once.
  const uint64_t limit = static_cast<uint64_t>(max) + 1;
  const uint64_t cutoff = limit / 10;
  const unsigned cutoffDigit = static_cast<unsigned>(limit % 10);
  uint64_t magnitude = 0;
  for (; p != end && *p >= '0' && *p <= '9'; ++p) {
    auto digit = static_cast<unsigned>(*p - '0');
    if (magnitude > cutoff || (magnitude == cutoff && digit > cutoffDigit)) return {0, IntegerScan::OutOfRange};
    magnitude = magnitude * 10 + digit;
  }
  while (p != end && scalarSpace(*p)) ++p;
  if (!neg && magnitude == limit) return {0, IntegerScan::OneAboveMax};
  return {neg ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude), IntegerScan::Ok};
}
void formatInt(int64_t v, std::string& out);

// Floats: strtod syntax plus Infinity/-Infinity/inf/NaN in any case; out of range ->
// 22003 "\"1e400\" is out of range for type double precision".
double parseFloat8(std::string_view text);
float parseFloat4(std::string_view text);
// extraFloatDigits > 0: the shortest digits that read back exactly (PostgreSQL's default).
void formatFloat8(double v, std::string& out, int extraFloatDigits = 1);
void formatFloat4(float v, std::string& out, int extraFloatDigits = 1);

// bool: t/true/yes/on/1, f/false/no/off/0, unique prefixes, any case.
bool parseBool(std::string_view text);
inline void formatBool(bool v, std::string& out) { out.push_back(v ? 't' : 'f'); }

// float arithmetic as PostgreSQL checks it: an infinite result from finite inputs is
// 22003 "value out of range: overflow"; a zero result from non-zero inputs "underflow".
double float8Checked(double result, bool infInputs, bool zeroInputs);
float float4Checked(float result, bool infInputs, bool zeroInputs);
double float8Div(double a, double b);  // 22012 on b == 0
float float4Div(float a, float b);
double float8Pow(double a, double b);  // dpow's errors (2201F) and range checks
// float -> integer: rounds half to even (rint), NaN or out of range -> "integer out of range".
int64_t floatToInteger(double v, TypeId target);
float float8ToFloat4(double v);  // overflow/underflow checked as float84 casts are

}  // namespace duet
