// PostgreSQL 15's JSON lexer and recursive-descent parser (jsonapi.c): the same tokens, the
// same order of checks and so the same errors; numbers as numeric_in and numeric_out see
// them.
#include "engine/types/json.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

#include "engine/error.h"
#include "engine/limits/stack_depth.h"
#include "engine/types/strings.h"
#include "engine/types/type_errors.h"

namespace duet {

namespace {

enum class Token : uint8_t {
  ObjectStart,
  ObjectEnd,
  ArrayStart,
  ArrayEnd,
  Comma,
  Colon,
  String,
  Number,
  True,
  False,
  Null,
  End
};

// jsonapi.c's JsonParseContext: what the parser expected where it failed.
enum class Expected : uint8_t { Value, String, ArrayNext, ObjectStart, ObjectLabel, ObjectNext, End };

bool isAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         (static_cast<unsigned char>(c) & 0x80);
}

int utf8CharLen(unsigned char c) { return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4; }

class Parser {
 public:
  Parser(std::string_view text, bool decode, bool build) : in_(text), decode_(decode), build_(build) {}

  JsonValue parse() {
    lex();
    JsonValue v = parseValue();
    if (tok_ != Token::End) fail(Expected::End);
    return v;
  }

 private:
  [[noreturn]] void raise(const std::string& detail, bool untranslatable = false) {
    if (untranslatable) throw SqlError("22P05", "unsupported Unicode escape sequence", detail);
    throw SqlError(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type json", detail);
  }
  std::string_view token() const { return in_.substr(start_, end_ - start_); }
  [[noreturn]] void failToken(const char* format) { raise(fmt::format(fmt::runtime(format), token())); }

  // report_parse_error
  [[noreturn]] void fail(Expected e) {
    if (tok_ == Token::End) raise("The input string ended unexpectedly.");
    switch (e) {
      case Expected::End: failToken("Expected end of input, but found \"{}\".");
      case Expected::Value: failToken("Expected JSON value, but found \"{}\".");
      case Expected::String: failToken("Expected string, but found \"{}\".");
      case Expected::ArrayNext: failToken("Expected \",\" or \"]\", but found \"{}\".");
      case Expected::ObjectStart: failToken("Expected string or \"}}\", but found \"{}\".");
      case Expected::ObjectLabel: failToken("Expected \":\", but found \"{}\".");
      case Expected::ObjectNext: failToken("Expected \",\" or \"}}\", but found \"{}\".");
    }
    raise("");
  }

  // json_lex
  void lex() {
    size_t s = end_;
    while (s < in_.size() && (in_[s] == ' ' || in_[s] == '\t' || in_[s] == '\n' || in_[s] == '\r')) ++s;
    start_ = s;
    if (s >= in_.size()) {
      end_ = s;
      tok_ = Token::End;
      return;
    }
    char c = in_[s];
    static constexpr std::pair<char, Token> kPunctuation[] = {{'{', Token::ObjectStart}, {'}', Token::ObjectEnd},
                                                              {'[', Token::ArrayStart},  {']', Token::ArrayEnd},
                                                              {',', Token::Comma},       {':', Token::Colon}};
    for (auto [ch, t] : kPunctuation)
      if (c == ch) {
        end_ = s + 1;
        tok_ = t;
        return;
      }
    if (c == '"') return lexString();
    if (c == '-' || (c >= '0' && c <= '9')) return lexNumber(c == '-' ? s + 1 : s);
    size_t p = s;
    while (p < in_.size() && isAlnum(in_[p])) ++p;
    end_ = p == s ? s + 1 : p;
    std::string_view word = in_.substr(s, p - s);
    if (word == "true")
      tok_ = Token::True;
    else if (word == "false")
      tok_ = Token::False;
    else if (word == "null")
      tok_ = Token::Null;
    else
      failToken("Token \"{}\" is invalid.");
  }

  void lexNumber(size_t s) {
    bool error = false;
    size_t n = in_.size();
    auto digit = [&](size_t i) { return i < n && in_[i] >= '0' && in_[i] <= '9'; };
    if (s < n && in_[s] == '0') {
      ++s;
    } else if (s < n && in_[s] >= '1' && in_[s] <= '9') {
      while (digit(s)) ++s;
    } else {
      error = true;
    }
    if (s < n && in_[s] == '.') {
      ++s;
      if (!digit(s)) error = true;
      while (digit(s)) ++s;
    }
    if (s < n && (in_[s] == 'e' || in_[s] == 'E')) {
      ++s;
      if (s < n && (in_[s] == '+' || in_[s] == '-')) ++s;
      if (!digit(s)) error = true;
      while (digit(s)) ++s;
    }
    for (; s < n && isAlnum(in_[s]); ++s) error = true;
    end_ = s;
    if (error) failToken("Token \"{}\" is invalid.");
    tok_ = Token::Number;
  }

  void lexString() {
    size_t n = in_.size();
    size_t s = start_;
    int hiSurrogate = -1;
    str_.clear();
    // Errors at a character report the token up to its end.
    auto failAt = [&](size_t at, const std::string& detail, bool untranslatable = false) {
      end_ = at < n ? std::min(n, at + utf8CharLen(static_cast<unsigned char>(in_[at]))) : n;
      raise(detail, untranslatable);
    };
    for (;;) {
      ++s;
      if (s >= n) {
        end_ = n;
        failToken("Token \"{}\" is invalid.");
      }
      char c = in_[s];
      if (c == '"') break;
      if (c == '\\') {
        ++s;
        if (s >= n) {
          end_ = n;
          failToken("Token \"{}\" is invalid.");
        }
        if (in_[s] == 'u') {
          uint32_t ch = 0;
          for (int i = 1; i <= 4; ++i) {
            ++s;
            if (s >= n) {
              end_ = n;
              failToken("Token \"{}\" is invalid.");
            }
            char h = in_[s];
            if (h >= '0' && h <= '9')
              ch = ch * 16 + (h - '0');
            else if (h >= 'a' && h <= 'f')
              ch = ch * 16 + (h - 'a') + 10;
            else if (h >= 'A' && h <= 'F')
              ch = ch * 16 + (h - 'A') + 10;
            else
              failAt(s, "\"\\u\" must be followed by four hexadecimal digits.");
          }
          if (!decode_) {
            if (build_) appendUtf8(str_, ch);  // json's own functions read such strings
            continue;
          }
          if (ch >= 0xD800 && ch <= 0xDBFF) {
            if (hiSurrogate != -1) failAt(s, "Unicode high surrogate must not follow a high surrogate.");
            hiSurrogate = static_cast<int>(ch);
            continue;
          }
          if (ch >= 0xDC00 && ch <= 0xDFFF) {
            if (hiSurrogate == -1) failAt(s, "Unicode low surrogate must follow a high surrogate.");
            ch = ((static_cast<uint32_t>(hiSurrogate) & 0x3FF) << 10) + (ch & 0x3FF) + 0x10000;
            hiSurrogate = -1;
          }
          if (hiSurrogate != -1) failAt(s, "Unicode low surrogate must follow a high surrogate.");
          if (ch == 0) failAt(s, "\\u0000 cannot be converted to text.", true);
          appendUtf8(str_, ch);
          continue;
        }
        if (decode_ && hiSurrogate != -1) failAt(s, "Unicode low surrogate must follow a high surrogate.");
        char e = in_[s];
        char decoded = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
        if (std::strchr("\"\\/bfnrt", e) == nullptr || e == '\0') {
          start_ = s;
          end_ = std::min(n, s + utf8CharLen(static_cast<unsigned char>(e)));
          failToken("Escape sequence \"\\{}\" is invalid.");
        }
        if (build_) str_ += decoded;
        continue;
      }
      if (decode_ && hiSurrogate != -1) failAt(s, "Unicode low surrogate must follow a high surrogate.");
      if (static_cast<unsigned char>(c) < 32) {
        end_ = s;
        raise(fmt::format("Character with value 0x{:02x} must be escaped.", static_cast<unsigned char>(c)));
      }
      if (build_) str_ += c;
    }
    if (decode_ && hiSurrogate != -1) {
      end_ = s + 1;
      raise("Unicode low surrogate must follow a high surrogate.");
    }
    end_ = s + 1;
    tok_ = Token::String;
  }

  JsonValue parseValue() {
    checkStackDepth();
    if (tok_ == Token::ObjectStart) return parseObject();
    if (tok_ == Token::ArrayStart) return parseArray();
    return parseScalar();
  }

  JsonValue parseScalar() {
    JsonValue v;
    switch (tok_) {
      case Token::String:
        v.kind = JsonKind::String;
        if (build_) v.text = str_;
        break;
      case Token::Number:
        v.kind = JsonKind::Number;
        if (build_) v.text = std::string(token());
        break;
      case Token::True: v.kind = JsonKind::True; break;
      case Token::False: v.kind = JsonKind::False; break;
      case Token::Null: v.kind = JsonKind::Null; break;
      default: fail(Expected::Value);
    }
    v.raw = token();
    lex();
    return v;
  }

  JsonValue parseArray() {
    JsonValue v;
    v.kind = JsonKind::Array;
    size_t begin = start_;
    lex();
    if (tok_ != Token::ArrayEnd) {
      addItem(v, parseValue());
      while (tok_ == Token::Comma) {
        lex();
        addItem(v, parseValue());
      }
    }
    if (tok_ != Token::ArrayEnd) fail(Expected::ArrayNext);
    v.raw = in_.substr(begin, end_ - begin);
    lex();
    return v;
  }

  JsonValue parseObject() {
    JsonValue v;
    v.kind = JsonKind::Object;
    size_t begin = start_;
    lex();
    if (tok_ == Token::String) {
      parseField(v);
      while (tok_ == Token::Comma) {
        lex();
        parseField(v);
      }
    } else if (tok_ != Token::ObjectEnd) {
      fail(Expected::ObjectStart);
    }
    if (tok_ != Token::ObjectEnd) fail(Expected::ObjectNext);
    v.raw = in_.substr(begin, end_ - begin);
    lex();
    return v;
  }

  void parseField(JsonValue& object) {
    if (tok_ != Token::String) fail(Expected::String);
    std::string name = str_;
    lex();
    if (tok_ != Token::Colon) fail(Expected::ObjectLabel);
    lex();
    JsonValue value = parseValue();
    if (!build_) return;
    object.keys.push_back(std::move(name));
    object.items.push_back(std::move(value));
  }

  void addItem(JsonValue& array, JsonValue item) {
    if (build_) array.items.push_back(std::move(item));
  }

  std::string_view in_;
  bool decode_;  // jsonb: de-escape with PostgreSQL's checks of \u escapes
  bool build_;   // keep the values (validation only needs the checks)
  Token tok_ = Token::End;
  size_t start_ = 0, end_ = 0;  // the current token's span
  std::string str_;             // the current string token, de-escaped
};

}  // namespace

void validateJson(std::string_view text) { Parser(text, false, false).parse(); }

JsonValue parseJson(std::string_view text, bool decodeEscapes) { return Parser(text, decodeEscapes, true).parse(); }

const char* jsonKindName(JsonKind k) {
  switch (k) {
    case JsonKind::Null: return "null";
    case JsonKind::False:
    case JsonKind::True: return "boolean";
    case JsonKind::Number: return "number";
    case JsonKind::String: return "string";
    case JsonKind::Array: return "array";
    case JsonKind::Object: return "object";
  }
  return "null";
}

void appendJsonString(std::string_view s, std::string& out) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (static_cast<unsigned char>(c) < ' ')
          out += fmt::format("\\u{:04x}", static_cast<int>(c));
        else
          out += c;
    }
  }
  out += '"';
}

bool isJsonNumber(std::string_view s) {
  size_t i = 0, n = s.size();
  auto digit = [&](size_t k) { return k < n && s[k] >= '0' && s[k] <= '9'; };
  if (i < n && s[i] == '-') ++i;
  if (i < n && s[i] == '0')
    ++i;
  else if (digit(i) && s[i] != '0')
    while (digit(i)) ++i;
  else
    return false;
  if (i < n && s[i] == '.') {
    if (!digit(++i)) return false;
    while (digit(i)) ++i;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digit(i)) return false;
    while (digit(i)) ++i;
  }
  return i == n;
}

std::string canonicalNumber(std::string_view number) {
  size_t i = 0;
  bool negative = !number.empty() && number[0] == '-';
  if (negative) ++i;
  std::string digits;
  while (i < number.size() && number[i] >= '0' && number[i] <= '9') digits += number[i++];
  int64_t fraction = 0;
  if (i < number.size() && number[i] == '.') {
    ++i;
    while (i < number.size() && number[i] >= '0' && number[i] <= '9') {
      digits += number[i++];
      ++fraction;
    }
  }
  int64_t exponent = 0;
  if (i < number.size() && (number[i] == 'e' || number[i] == 'E')) {
    ++i;
    bool negExp = number[i] == '-';
    if (number[i] == '+' || number[i] == '-') ++i;
    for (; i < number.size() && exponent <= INT32_MAX / 2; ++i) exponent = exponent * 10 + (number[i] - '0');
    if (exponent > INT32_MAX / 2) raiseNumericOverflow();
    if (negExp) exponent = -exponent;
  }
  // numeric's limits: 131072 digits before the point (NUMERIC_WEIGHT_MAX), 16383 after it.
  bool zero = digits.find_first_not_of('0') == std::string::npos;
  int64_t significant = static_cast<int64_t>(digits.size() - std::min(digits.size(), digits.find_first_not_of('0')));
  if (std::max<int64_t>(0, fraction - exponent) > 16383 || (!zero && significant - fraction + exponent > 131072))
    raiseNumericOverflow();
  // value = digits * 10^(exponent - fraction), shown with max(0, fraction - exponent)
  // decimals: digits followed by max(0, exponent - fraction) zeros, the point `scale` from
  // the right.
  int64_t scale = std::max<int64_t>(0, fraction - exponent);
  digits.append(static_cast<size_t>(std::max<int64_t>(0, exponent - fraction)), '0');
  if (static_cast<int64_t>(digits.size()) <= scale)
    digits.insert(0, static_cast<size_t>(scale) - digits.size() + 1, '0');
  size_t intLen = digits.size() - static_cast<size_t>(scale);
  size_t firstNonZero = 0;
  while (firstNonZero + 1 < intLen && digits[firstNonZero] == '0') ++firstNonZero;
  std::string out;
  if (negative && !zero) out += '-';
  out.append(digits, firstNonZero, intLen - firstNonZero);
  if (scale > 0) {
    out += '.';
    out.append(digits, intLen, std::string::npos);
  }
  return out;
}

int compareNumbers(std::string_view a, std::string_view b) {
  bool negA = !a.empty() && a[0] == '-', negB = !b.empty() && b[0] == '-';
  if (negA) a.remove_prefix(1);
  if (negB) b.remove_prefix(1);
  auto isZero = [](std::string_view s) { return s.find_first_not_of("0.") == std::string_view::npos; };
  int signA = isZero(a) ? 0 : negA ? -1 : 1, signB = isZero(b) ? 0 : negB ? -1 : 1;
  if (signA != signB) return signA < signB ? -1 : 1;
  if (signA == 0) return 0;
  auto split = [](std::string_view s) {
    size_t dot = s.find('.');
    std::string_view whole = s.substr(0, dot), frac = dot == std::string_view::npos ? "" : s.substr(dot + 1);
    if (whole == "0") whole = "";
    return std::pair{whole, frac};
  };
  auto [wa, fa] = split(a);
  auto [wb, fb] = split(b);
  int magnitude = 0;
  if (wa.size() != wb.size()) {
    magnitude = wa.size() < wb.size() ? -1 : 1;
  } else if (int c = wa.compare(wb); c != 0) {
    magnitude = c < 0 ? -1 : 1;
  } else {
    size_t n = std::max(fa.size(), fb.size());
    for (size_t i = 0; i < n && magnitude == 0; ++i) {
      char ca = i < fa.size() ? fa[i] : '0', cb = i < fb.size() ? fb[i] : '0';
      if (ca != cb) magnitude = ca < cb ? -1 : 1;
    }
  }
  return signA < 0 ? -magnitude : magnitude;
}

std::string_view normalizedNumber(std::string_view canonical) {
  if (canonical.find('.') == std::string_view::npos) return canonical;
  size_t end = canonical.find_last_not_of('0');
  if (canonical[end] == '.') --end;
  return canonical.substr(0, end + 1);
}

}  // namespace duet
