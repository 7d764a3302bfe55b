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
  // ' ', or one of '\t' '\n' '\v' '\f' '\r' (9 to 13).
  return c == ' ' || static_cast<unsigned char>(c - '\t') <= '\r' - '\t';
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
  // The magnitude is accumulated unsigned. Eighteen digits always fit in 64 bits, so those
  // go unchecked (a one-compare digit test each) and the range is checked once after
  // them; a longer number is checked before each further digit against what still fits
  // (strtol's cutoff). `limit` is the magnitude of the minimum, -max - 1; as in
  // pg_strtoint, passing it makes the number out of range whatever follows.
  const uint64_t limit = static_cast<uint64_t>(max) + 1;
  auto digitAt = [&](const char* q) { return static_cast<unsigned>(static_cast<unsigned char>(*q) - '0'); };
  uint64_t magnitude = 0;
  const char* unchecked = end - p > 18 ? p + 18 : end;
  for (unsigned d; p != unchecked && (d = digitAt(p)) <= 9; ++p) magnitude = magnitude * 10 + d;
  if (p == unchecked && p != end && digitAt(p) <= 9) {
    const uint64_t cutoff = limit / 10;
    const unsigned cutoffDigit = static_cast<unsigned>(limit % 10);
    for (unsigned d; p != end && (d = digitAt(p)) <= 9; ++p) {
      if (magnitude > cutoff || (magnitude == cutoff && d > cutoffDigit)) return {0, IntegerScan::OutOfRange};
      magnitude = magnitude * 10 + d;
    }
  }
  if (magnitude > limit) return {0, IntegerScan::OutOfRange};
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
