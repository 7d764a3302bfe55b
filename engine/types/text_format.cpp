// concat, concat_ws, format() and the quoting functions of text_functions.h: the
// functions over "any" arguments (already their output texts), as PostgreSQL's varlena.c
// and quote.c compute them.
#include <fmt/format.h>

#include <climits>

#include "engine/error.h"
#include "engine/types/sql_keywords.h"
#include "engine/types/strings.h"
#include "engine/types/text_functions.h"

namespace duet {

namespace {

[[noreturn]] void formatError(const char* message, const char* hint = nullptr) {
  throw SqlError(sqlstate::kInvalidParameterValue, message, {}, hint ? hint : "");
}

constexpr const char* kPercentHint = "For a single \"%\" use \"%%\".";

// The specifier being parsed: ADVANCE_PARSE_POINTER's "unterminated" when it runs out.
struct SpecifierReader {
  std::string_view f;
  size_t i;
  char peek() const { return f[i]; }
  void advance() {
    if (++i >= f.size()) formatError("unterminated format() type specifier", kPercentHint);
  }
  // text_format_parse_digits: a number, if there is one.
  bool digits(int* value) {
    bool found = false;
    int64_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      v = v * 10 + (peek() - '0');
      if (v > INT_MAX) throw SqlError(sqlstate::kNumericValueOutOfRange, "number is out of range");
      advance();
      found = true;
    }
    *value = static_cast<int>(v);
    return found;
  }
};

void appendPadded(std::string& out, std::string_view s, bool left, int64_t width) {
  if (width == 0) {
    out.append(s);
    return;
  }
  if (width < 0) {  // a negative width from an argument: left-justified
    if (width <= INT_MIN) throw SqlError(sqlstate::kNumericValueOutOfRange, "number is out of range");
    left = true;
    width = -width;
  }
  int64_t pad = std::max<int64_t>(0, width - charLength(s));
  if (!left) out.append(static_cast<size_t>(pad), ' ');
  out.append(s);
  if (left) out.append(static_cast<size_t>(pad), ' ');
}

int parseWidthArgument(std::string_view s) {
  // pg_strtoint32 on the argument's text: integer syntax, white space around it allowed.
  size_t b = s.find_first_not_of(" \t\n\r\f\v"), e = s.find_last_not_of(" \t\n\r\f\v");
  std::string_view t = b == std::string_view::npos ? std::string_view() : s.substr(b, e - b + 1);
  size_t i = 0;
  bool negative = false;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) negative = t[i++] == '-';
  if (i == t.size())
    throw SqlError(sqlstate::kInvalidTextRepresentation,
                   fmt::format("invalid input syntax for type integer: \"{}\"", s));
  int64_t v = 0;
  for (; i < t.size(); ++i) {
    if (t[i] < '0' || t[i] > '9')
      throw SqlError(sqlstate::kInvalidTextRepresentation,
                     fmt::format("invalid input syntax for type integer: \"{}\"", s));
    v = v * 10 + (t[i] - '0');
    if (v > int64_t{INT_MAX} + 1)
      throw SqlError(sqlstate::kNumericValueOutOfRange,
                     fmt::format("value \"{}\" is out of range for type integer", s));
  }
  v = negative ? -v : v;
  if (v > INT_MAX)
    throw SqlError(sqlstate::kNumericValueOutOfRange, fmt::format("value \"{}\" is out of range for type integer", s));
  return static_cast<int>(v);
}

}  // namespace

std::string concatValues(TextArgs values, std::string_view separator) {
  std::string out;
  bool first = true;
  for (const auto& v : values) {
    if (!v) continue;
    if (!first) out.append(separator);
    out.append(*v);
    first = false;
  }
  return out;
}

std::string formatText(std::string_view f, TextArgs args) {
  std::string out;
  // Argument numbers as PostgreSQL counts them: 1 is the first after the format string.
  size_t arg = 1;
  const size_t nargs = args.size() + 1;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') {
      out += f[i];
      continue;
    }
    SpecifierReader r{f, i};
    r.advance();
    if (r.peek() == '%') {
      out += '%';
      i = r.i;
      continue;
    }
    // text_format_parse_format: [argpos$][-][width | * | *argpos$]
    int argpos = -1, widthpos = -1, width = 0, n = 0;
    bool minus = false, done = false;
    if (r.digits(&n)) {
      if (r.peek() != '$') {
        width = n;
        done = true;
      } else {
        argpos = n;
        if (n == 0) formatError("format specifies argument 0, but arguments are numbered from 1");
        r.advance();
      }
    }
    if (!done) {
      while (r.peek() == '-') {
        minus = true;
        r.advance();
      }
      if (r.peek() == '*') {
        r.advance();
        if (r.digits(&n)) {
          if (r.peek() != '$') formatError("width argument position must be ended by \"$\"");
          widthpos = n;
          if (n == 0) formatError("format specifies argument 0, but arguments are numbered from 1");
          r.advance();
        } else {
          widthpos = 0;
        }
      } else if (r.digits(&n)) {
        width = n;
      }
    }
    char conversion = r.peek();
    if (conversion != 's' && conversion != 'I' && conversion != 'L') {
      std::string_view ch = f.substr(r.i, utf8Len(static_cast<unsigned char>(conversion)));
      throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("unrecognized format() type specifier \"{}\"", ch),
                     {}, kPercentHint);
    }
    int64_t effectiveWidth = width;
    if (widthpos >= 0) {
      if (widthpos > 0) arg = static_cast<size_t>(widthpos);
      if (arg >= nargs) formatError("too few arguments for format()");
      const auto& w = args[arg - 1];
      effectiveWidth = w ? parseWidthArgument(*w) : 0;
      ++arg;
    }
    if (argpos > 0) arg = static_cast<size_t>(argpos);
    if (arg >= nargs) formatError("too few arguments for format()");
    const auto& value = args[arg - 1];
    ++arg;
    if (!value) {
      if (conversion == 'I') throw SqlError("22004", "null values cannot be formatted as an SQL identifier");
      appendPadded(out, conversion == 'L' ? "NULL" : "", minus, effectiveWidth);
    } else if (conversion == 'I') {
      appendPadded(out, quoteIdent(*value), minus, effectiveWidth);
    } else if (conversion == 'L') {
      appendPadded(out, quoteLiteral(*value), minus, effectiveWidth);
    } else {
      appendPadded(out, *value, minus, effectiveWidth);
    }
    i = r.i;
  }
  return out;
}

std::string quoteLiteral(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 3);
  if (s.find('\\') != std::string_view::npos) out += 'E';
  out += '\'';
  for (char c : s) {
    if (c == '\'' || c == '\\') out += c;
    out += c;
  }
  out += '\'';
  return out;
}

std::string quoteIdent(std::string_view s) {
  // quote_identifier: safe when it starts with a-z or _, has only a-z, 0-9 and _, and is
  // not a keyword other than an unreserved one.
  bool safe = !s.empty() && ((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_');
  for (char c : s) safe = safe && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
  if (safe && keywordCategory(s) == KeywordCategory::None) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += c;
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace duet
