// Text input and output of bool, the integers and the floats, as PostgreSQL 15 does it,
// plus the float arithmetic checks (float.c's check_float8_val and friends).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/types/type_id.h"

namespace duet {

// Integers: surrounding whitespace and a sign are allowed; 22P02 / 22003 otherwise.
int16_t parseInt2(std::string_view text);
int32_t parseInt4(std::string_view text);
int64_t parseInt8(std::string_view text);
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
