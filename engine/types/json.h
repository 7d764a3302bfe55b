// JSON text: PostgreSQL 15's JSON lexer and parser (src/common/jsonapi.c) with its error
// messages, a small tree of parsed values, string escaping and numbers as numeric text.
// The json type keeps its input text (validated here); jsonb stores the tree in the binary
// form of jsonb.h.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace duet {

// The kinds of JSON value, in jsonb's tag order (jsonb.h).
enum class JsonKind : uint8_t { Null, False, True, Number, String, Array, Object };

// A parsed JSON value. Objects keep their members in input order, duplicates included
// (jsonb's encoding sorts them and keeps the last of a key).
struct JsonValue {
  JsonKind kind = JsonKind::Null;
  // String: the de-escaped text; Number: the number as written (json) or as numeric text.
  std::string text;
  std::vector<std::string> keys;  // Object: member names, parallel to `items`
  std::vector<JsonValue> items;   // Array: elements; Object: member values
  // The value's span in the parsed text (json's operators return it as written).
  std::string_view raw;

  static JsonValue scalar(JsonKind kind, std::string text = {}) {
    JsonValue v;
    v.kind = kind;
    v.text = std::move(text);
    return v;
  }
  bool isScalar() const { return kind != JsonKind::Array && kind != JsonKind::Object; }
};

// json_in: checks `text` is one JSON value as PostgreSQL's json type does (escapes are
// checked for form only: "\u0000" and lone surrogates are valid json). 22P02 "invalid
// input syntax for type json" with PostgreSQL's detail ("Token "x" is invalid.").
void validateJson(std::string_view text);
// The value `text` holds. For jsonb (`decodeEscapes`) strings are de-escaped with
// PostgreSQL's checks (22P05 "unsupported Unicode escape sequence" for \u0000, surrogate
// pairs); otherwise as validateJson, strings de-escaped where they can be. Spans point into
// `text`.
JsonValue parseJson(std::string_view text, bool decodeEscapes);

// "name" of a JSON value kind as json_typeof says it (object, array, string, number,
// boolean, null).
const char* jsonKindName(JsonKind k);

// escape_json: `s` as a JSON string, quoted, appended to `out`.
void appendJsonString(std::string_view s, std::string& out);
// Whether `s` is a JSON number (IsValidJsonNumber).
bool isJsonNumber(std::string_view s);
// A JSON number as PostgreSQL's numeric prints it: the exponent applied, the display scale
// kept (1.50 stays 1.50, 1e2 is 100, 1.5e-3 is 0.0015, -0 is 0). 22003 "value overflows
// numeric format" beyond numeric's 131072 digits before the point or 16383 after it.
std::string canonicalNumber(std::string_view number);
// Compares two numbers in canonical form by value (1.0 = 1); and a form that is the same
// for equal values (no trailing fraction zeros), for hashing.
int compareNumbers(std::string_view a, std::string_view b);
std::string_view normalizedNumber(std::string_view canonical);

}  // namespace duet
