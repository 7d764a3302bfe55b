#include "compiler/parser/lexer.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

#include "compiler/parser/keywords.h"
#include "compiler/parser/unicode_escapes.h"
#include "engine/types/strings.h"

namespace duet::sql {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
bool isIdentCont(char c) { return isIdentStart(c) || isDigit(c) || c == '$'; }
// A table of the characters in `chars`, so that a class test is one load.
struct CharClass {
  explicit constexpr CharClass(std::string_view chars) {
    for (char c : chars) member[static_cast<unsigned char>(c)] = true;
  }
  bool operator()(char c) const { return member[static_cast<unsigned char>(c)]; }
  bool member[256] = {};
};

constexpr CharClass isOpChar("~!@#^&|`?+-*/%<>=");
// Characters that let a multi-character operator end in + or - (scan.l's rule).
constexpr CharClass isNonMathOpChar("~!@#^&|`?%");
// Single characters returned as themselves by scan.l's "self" rule.
constexpr CharClass isSelfChar(",()[].;:+-*/%^<>=");

// PostgreSQL truncates identifiers to NAMEDATALEN - 1 bytes, at a character boundary.
// (It also sends a NOTICE about it; DuetDB does not.)
constexpr size_t kMaxIdentifierBytes = 63;
void truncateIdentifier(std::string& name) {
  if (name.size() <= kMaxIdentifierBytes) return;
  size_t n = kMaxIdentifierBytes;
  while (n > 0 && (static_cast<unsigned char>(name[n]) & 0xC0) == 0x80) --n;
  name.resize(n);
}

class Lexer {
 public:
  Lexer(std::string_view q, DecodedTexts& decoded) : q_(q), decoded_(decoded) {
    // A long VALUES list has about one token per three bytes: growing the vector from
    // empty would move every token several times.
    out_.reserve(q.size() / 3 + 2);
  }

  std::vector<Token> run() {
    while (true) {
      if (!skipSpaceAndComments()) break;
      if (pos_ >= q_.size()) {
        Token t;
        t.kind = TokenKind::End;
        t.offset = static_cast<uint32_t>(q_.size());
        out_.push_back(std::move(t));
        break;
      }
      if (!next()) break;
    }
    return std::move(out_);
  }

 private:
  char at(size_t i) const { return i < q_.size() ? q_[i] : '\0'; }

  Token make(TokenKind kind, size_t start) {
    Token t;
    t.kind = kind;
    t.offset = static_cast<uint32_t>(start);
    t.length = static_cast<uint32_t>(pos_ - start);
    return t;
  }

  // Lexical errors quote the source from the start of the bad token to the end of input,
  // as PostgreSQL does for tokens that run off the end.
  bool fail(const char* what, size_t start, size_t end = std::string_view::npos) {
    Token t;
    t.kind = TokenKind::Error;
    t.offset = static_cast<uint32_t>(start);
    t.text = keep(std::string(what) + " at or near \"" +
                  std::string(q_.substr(start, end == std::string_view::npos ? end : end - start)) + "\"");
    out_.push_back(std::move(t));
    return false;
  }

  // A text that is not a slice of the query, kept for the tokens' lifetime.
  std::string_view keep(std::string text) { return decoded_.emplace_back(std::move(text)); }

  // Returns false after emitting an Error token (unterminated comment).
  bool skipSpaceAndComments() {
    while (pos_ < q_.size()) {
      char c = q_[pos_];
      if (isSpace(c)) {
        ++pos_;
      } else if (c == '-' && at(pos_ + 1) == '-') {
        while (pos_ < q_.size() && q_[pos_] != '\n' && q_[pos_] != '\r') ++pos_;
      } else if (c == '/' && at(pos_ + 1) == '*') {
        size_t start = pos_;
        int depth = 0;
        while (true) {
          if (pos_ >= q_.size()) return fail("unterminated /* comment", start);
          if (q_[pos_] == '/' && at(pos_ + 1) == '*') {
            ++depth;
            pos_ += 2;
          } else if (q_[pos_] == '*' && at(pos_ + 1) == '/') {
            pos_ += 2;
            if (--depth == 0) break;
          } else {
            ++pos_;
          }
        }
      } else {
        break;
      }
    }
    return true;
  }

  // After a closing quote: whitespace containing a newline followed by another quote
  // continues the literal (SQL standard). Returns true and moves past that quote if so.
  bool stringContinues() {
    size_t p = pos_;
    bool sawNewline = false;
    while (p < q_.size()) {
      char c = q_[p];
      if (c == '\n' || c == '\r') {
        sawNewline = true;
        ++p;
      } else if (isSpace(c)) {
        ++p;
      } else if (c == '-' && at(p + 1) == '-' && sawNewline) {
        while (p < q_.size() && q_[p] != '\n' && q_[p] != '\r') ++p;
      } else {
        break;
      }
    }
    if (sawNewline && at(p) == '\'') {
      pos_ = p + 1;
      return true;
    }
    return false;
  }

  bool next() {
    size_t start = pos_;
    char c = q_[pos_];
    if ((c == 'e' || c == 'E') && at(pos_ + 1) == '\'') {
      ++pos_;
      return quotedString(start, true);
    }
    if ((c == 'u' || c == 'U') && at(pos_ + 1) == '&' && at(pos_ + 2) == '\'') {
      pos_ += 2;
      return unicodeString(start);
    }
    if (isIdentStart(c)) return word(start);
    if (isDigit(c) || (c == '.' && isDigit(at(pos_ + 1)))) return number(start);
    if (c == '\'') return quotedString(start, false);
    if (c == '"') return quotedIdentifier(start);
    if (c == '$') {
      if (isDigit(at(pos_ + 1))) return param(start);
      switch (dollarQuote(start)) {
        case DollarQuote::Lexed: return true;
        case DollarQuote::Unterminated: return false;
        case DollarQuote::NotOne: break;
      }
    }
    return op(start);
  }

  bool word(size_t start) {
    while (pos_ < q_.size() && isIdentCont(q_[pos_])) ++pos_;
    Token t = make(TokenKind::Word, start);
    t.text = q_.substr(start, t.length);
    if (t.length > kMaxIdentifierBytes ||
        std::any_of(t.text.begin(), t.text.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; })) {
      std::string folded(t.text);
      for (char& ch : folded)
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
      truncateIdentifier(folded);
      t.text = keep(std::move(folded));
    }
    t.category = keywordCategory(t.text);
    out_.push_back(t);
    return true;
  }

  bool number(size_t start) {
    bool isDecimal = false;
    while (isDigit(at(pos_))) ++pos_;
    // "1..5" lexes as 1 followed by ".." in PostgreSQL; a single dot is part of the number.
    if (at(pos_) == '.' && at(pos_ + 1) != '.') {
      isDecimal = true;
      ++pos_;
      while (isDigit(at(pos_))) ++pos_;
    }
    if (at(pos_) == 'e' || at(pos_) == 'E') {
      size_t p = pos_ + 1;
      if (at(p) == '+' || at(p) == '-') ++p;
      if (isDigit(at(p))) {
        isDecimal = true;
        pos_ = p;
        while (isDigit(at(pos_))) ++pos_;
      } else {
        return fail("trailing junk after numeric literal", start, p);
      }
    }
    if (isIdentStart(at(pos_))) {
      while (isIdentCont(at(pos_))) ++pos_;  // PostgreSQL quotes the whole run: "0x10"
      return fail("trailing junk after numeric literal", start, pos_);
    }
    Token t = make(isDecimal ? TokenKind::Numeric : TokenKind::Integer, start);
    t.text = q_.substr(start, pos_ - start);
    out_.push_back(t);
    return true;
  }

  bool param(size_t start) {
    ++pos_;
    long long n = 0;
    while (isDigit(at(pos_))) {
      if (n < 1000000000) n = n * 10 + (q_[pos_] - '0');
      ++pos_;
    }
    if (isIdentStart(at(pos_))) {
      while (isIdentCont(at(pos_))) ++pos_;
      return fail("trailing junk after parameter", start, pos_);
    }
    Token t = make(TokenKind::Param, start);
    t.number = n > 0x7fffffff ? 0x7fffffff : static_cast<int>(n);
    t.text = q_.substr(start, pos_ - start);
    out_.push_back(t);
    return true;
  }

  // pos_ is at the opening quote. `escapes`: E'...' with backslash escapes.
  bool quotedString(size_t start, bool escapes) {
    size_t body = ++pos_;
    // Mostly the value is the text between the quotes, a slice of the query.
    if (!escapes) {
      if (size_t close = q_.find('\'', body); close != std::string_view::npos && at(close + 1) != '\'') {
        pos_ = close + 1;
        if (!stringContinues()) {
          Token t = make(TokenKind::String, start);
          t.text = q_.substr(body, close - body);
          out_.push_back(t);
          return true;
        }
        pos_ = body;
      }
    }
    std::string value;
    while (true) {
      if (pos_ >= q_.size()) return fail("unterminated quoted string", start);
      // The characters up to the next quote (or backslash) stand for themselves.
      size_t plain = escapes ? q_.find_first_of("'\\", pos_) : q_.find('\'', pos_);
      if (plain == std::string_view::npos) plain = q_.size();
      value.append(q_.substr(pos_, plain - pos_));
      pos_ = plain;
      if (pos_ >= q_.size()) continue;
      if (q_[pos_] == '\'') {
        if (at(pos_ + 1) == '\'') {
          value += '\'';
          pos_ += 2;
          continue;
        }
        ++pos_;
        if (stringContinues()) continue;
        break;
      }
      // A backslash (only found in E'...').
      if (pos_ + 1 >= q_.size()) return fail("unterminated quoted string", start);
      escape(value);
    }
    Token t = make(TokenKind::String, start);
    t.text = keep(std::move(value));
    out_.push_back(t);
    return true;
  }

  // U&'...' [UESCAPE '!'], pos_ at the opening quote: the string as written, then its
  // escapes decoded (unicode_escapes.h). PostgreSQL looks for UESCAPE after the lexer
  // (parser.c); here the lexer looks ahead itself, and the token covers the clause too.
  bool unicodeString(size_t start) {
    if (!quotedString(start, false)) return false;
    Token t = std::move(out_.back());
    out_.pop_back();
    char escape = '\\';
    size_t afterString = pos_;
    if (!skipSpaceAndComments()) return false;
    if (isWordAt(pos_, "uescape")) {
      pos_ += 7;
      if (!skipSpaceAndComments()) return false;
      size_t escapeStart = pos_;
      if (pos_ >= q_.size()) return fail("UESCAPE must be followed by a simple string literal", escapeStart);
      if (!next()) return false;  // its lexical error
      Token e = std::move(out_.back());
      out_.pop_back();
      size_t escapeEnd = e.offset + e.length;
      if (e.kind != TokenKind::String || at(escapeStart) == 'u' || at(escapeStart) == 'U')
        return fail("UESCAPE must be followed by a simple string literal", escapeStart, escapeEnd);
      if (!validUnicodeEscapeChar(e.text)) return fail("invalid Unicode escape character", escapeStart, escapeEnd);
      escape = e.text[0];
    } else {
      pos_ = afterString;
    }
    std::string value;
    UnicodeEscapeError error;
    if (!decodeUnicodeEscapes(t.text, escape, &value, &error)) {
      Token bad;
      bad.kind = TokenKind::Error;
      bad.offset = static_cast<uint32_t>(start + 3 + error.at);  // after U&'
      bad.text = error.message;                                  // a static string
      out_.push_back(std::move(bad));
      return false;
    }
    t.length = static_cast<uint32_t>(pos_ - start);
    t.text = keep(std::move(value));
    out_.push_back(std::move(t));
    return true;
  }

  // Whether the word at p is `lower` (a keyword, in any case), not the start of a longer one.
  bool isWordAt(size_t p, std::string_view lower) const {
    if (q_.size() - std::min(p, q_.size()) < lower.size() || isIdentCont(at(p + lower.size()))) return false;
    for (size_t i = 0; i < lower.size(); ++i)
      if ((q_[p + i] | 0x20) != lower[i]) return false;
    return true;
  }

  // pos_ is at a backslash inside E'...'; decodes one escape sequence.
  void escape(std::string& value) {
    char c = q_[pos_ + 1];
    pos_ += 2;
    switch (c) {
      case 'b': value += '\b'; return;
      case 'f': value += '\f'; return;
      case 'n': value += '\n'; return;
      case 'r': value += '\r'; return;
      case 't': value += '\t'; return;
      default: break;
    }
    if (c >= '0' && c <= '7') {
      int v = c - '0';
      for (int i = 0; i < 2 && at(pos_) >= '0' && at(pos_) <= '7'; ++i) v = v * 8 + (q_[pos_++] - '0');
      value += static_cast<char>(v);
    } else if (c == 'x' && hexDigitValue(at(pos_)) >= 0) {
      int v = hexDigitValue(q_[pos_++]);
      if (hexDigitValue(at(pos_)) >= 0) v = v * 16 + hexDigitValue(q_[pos_++]);
      value += static_cast<char>(v);
    } else if ((c == 'u' || c == 'U') && hexDigitValue(at(pos_)) >= 0) {
      int digits = c == 'u' ? 4 : 8;
      uint32_t cp = 0;
      for (int i = 0; i < digits && hexDigitValue(at(pos_)) >= 0; ++i) cp = cp * 16 + hexDigitValue(q_[pos_++]);
      appendUtf8(value, cp);
    } else {
      value += c;  // \\, \', and any other character stand for themselves
    }
  }

  bool quotedIdentifier(size_t start) {
    ++pos_;
    std::string value;
    while (true) {
      if (pos_ >= q_.size()) return fail("unterminated quoted identifier", start);
      char c = q_[pos_];
      if (c == '"') {
        if (at(pos_ + 1) == '"') {
          value += '"';
          pos_ += 2;
          continue;
        }
        ++pos_;
        break;
      }
      value += c;
      ++pos_;
    }
    if (value.empty()) return fail("zero-length delimited identifier", start, pos_);
    Token t = make(TokenKind::Word, start);
    t.quoted = true;
    truncateIdentifier(value);
    t.text = keep(std::move(value));
    out_.push_back(t);
    return true;
  }

  enum class DollarQuote { Lexed, Unterminated, NotOne };

  // $$...$$ or $tag$...$tag$. NotOne (nothing consumed) when the text at pos_ does not
  // open a dollar quote.
  DollarQuote dollarQuote(size_t start) {
    size_t p = pos_ + 1;
    if (at(p) != '$') {
      if (!isIdentStart(at(p))) return DollarQuote::NotOne;
      while (isIdentCont(at(p)) && at(p) != '$') ++p;
      if (at(p) != '$') return DollarQuote::NotOne;
    }
    std::string_view delim = q_.substr(pos_, p + 1 - pos_);
    size_t bodyStart = p + 1;
    size_t close = q_.find(delim, bodyStart);
    if (close == std::string_view::npos) {
      fail("unterminated dollar-quoted string", start);
      return DollarQuote::Unterminated;
    }
    pos_ = close + delim.size();
    Token t = make(TokenKind::String, start);
    t.text = q_.substr(bodyStart, close - bodyStart);
    out_.push_back(t);
    return DollarQuote::Lexed;
  }

  bool op(size_t start) {
    char c = q_[pos_];
    if (!isOpChar(c)) {
      // Punctuation that is never part of a longer operator, except "::", ":=" and "..".
      ++pos_;
      if (c == ':' && (at(pos_) == ':' || at(pos_) == '='))
        ++pos_;
      else if (c == '.' && at(pos_) == '.')
        ++pos_;
      else if (!isSelfChar(c))
        return fail("syntax error", start, pos_);
      Token t = make(TokenKind::Operator, start);
      t.text = q_.substr(start, pos_ - start);
      out_.push_back(t);
      return true;
    }
    // Longest run of operator characters, stopping where a comment starts.
    size_t end = pos_;
    while (end < q_.size() && isOpChar(q_[end])) {
      if (end > pos_ && ((q_[end] == '-' && at(end + 1) == '-') || (q_[end] == '/' && at(end + 1) == '*'))) break;
      ++end;
    }
    // scan.l: an operator longer than one character may end in + or - only if it also
    // contains one of ~ ! @ # ^ & | ` ? % (so that "a=-1" is "a", "=", "-", "1").
    if (end - pos_ > 1 && (q_[end - 1] == '+' || q_[end - 1] == '-')) {
      bool nonMath = false;
      for (size_t i = pos_; i < end; ++i) nonMath |= isNonMathOpChar(q_[i]);
      if (!nonMath) {
        while (end - pos_ > 1 && (q_[end - 1] == '+' || q_[end - 1] == '-')) --end;
      }
    }
    pos_ = end;
    Token t = make(TokenKind::Operator, start);
    t.text = q_.substr(start, end - start);
    if (t.text == "!=") t.text = "<>";  // PostgreSQL treats != as a synonym for <>
    out_.push_back(t);
    return true;
  }

  std::string_view q_;
  DecodedTexts& decoded_;
  size_t pos_ = 0;
  std::vector<Token> out_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view query, DecodedTexts& decoded) { return Lexer(query, decoded).run(); }

}  // namespace duet::sql
