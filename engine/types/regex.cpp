#include "engine/types/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "engine/error.h"
#include "engine/types/strings.h"

namespace duet {

namespace {

constexpr const char* kInvalidRegex = "2201B";

[[noreturn]] void invalidRegex(std::string_view why) {
  throw SqlError(kInvalidRegex, fmt::format("invalid regular expression: {}", why));
}

[[noreturn]] void invalidParameter(const char* name, int64_t value) {
  throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("invalid value for parameter \"{}\": {}", name, value));
}

// `instead`: the function the hint suggests, or null for no hint.
void rejectGlobal(const RegexFlags& flags, const char* function, const char* instead) {
  if (!flags.global) return;
  throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("{}() does not support the \"global\" option", function),
                 {}, instead ? fmt::format("Use the {} function instead.", instead) : std::string());
}

bool isHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// PostgreSQL's message for the compile errors users make most; PCRE2's for the others.
std::string compileErrorMessage(int code) {
  switch (code) {
    case PCRE2_ERROR_MISSING_CLOSING_PARENTHESIS:
    case PCRE2_ERROR_UNMATCHED_CLOSING_PARENTHESIS: return "parentheses () not balanced";
    case PCRE2_ERROR_MISSING_SQUARE_BRACKET: return "brackets [] not balanced";
    case PCRE2_ERROR_QUANTIFIER_INVALID: return "quantifier operand invalid";
    case PCRE2_ERROR_END_BACKSLASH:
    case PCRE2_ERROR_UNKNOWN_ESCAPE:
    case PCRE2_ERROR_ESCAPE_INVALID_IN_CLASS: return "invalid escape \\ sequence";
    case PCRE2_ERROR_BAD_SUBPATTERN_REFERENCE: return "invalid backreference number";
    case PCRE2_ERROR_QUANTIFIER_OUT_OF_ORDER:
    case PCRE2_ERROR_QUANTIFIER_TOO_BIG: return "invalid repetition count(s)";
    case PCRE2_ERROR_UNKNOWN_POSIX_CLASS:
    case PCRE2_ERROR_POSIX_CLASS_NOT_IN_CLASS: return "invalid character class";
    case PCRE2_ERROR_CLASS_RANGE_ORDER:
    case PCRE2_ERROR_CLASS_INVALID_RANGE: return "invalid character range";
    case PCRE2_ERROR_POSIX_NO_SUPPORT_COLLATING: return "invalid collating element";
    default: {
      PCRE2_UCHAR buffer[256];
      pcre2_get_error_message(code, buffer, sizeof buffer);
      return reinterpret_cast<const char*>(buffer);
    }
  }
}

// Applies one flag letter; false for a letter PostgreSQL does not know.
bool applyFlag(RegexFlags& f, char c) {
  switch (c) {
    case 'g': f.global = true; return true;
    case 'i': f.caseInsensitive = true; return true;
    case 'c': f.caseInsensitive = false; return true;
    case 'n':
    case 'm':  // a historical synonym of n
      f.dotMatchesNewline = false;
      f.anchorsAtNewlines = true;
      return true;
    case 'p':
      f.dotMatchesNewline = false;
      f.anchorsAtNewlines = false;
      return true;
    case 'w':
      f.dotMatchesNewline = true;
      f.anchorsAtNewlines = true;
      return true;
    case 's':
      f.dotMatchesNewline = true;
      f.anchorsAtNewlines = false;
      return true;
    case 'x': f.expanded = true; return true;
    case 't': f.expanded = false; return true;
    case 'q': f.literal = true; return true;
    case 'e': return true;  // extended RE: an ARE is a superset
    default: return false;
  }
}

// A \x, \u or \U escape's digits (from `i`, at most `max`) as PCRE2's \x{...}.
size_t translateHex(std::string_view p, size_t i, size_t max, std::string& out) {
  size_t j = i;
  while (j < p.size() && j - i < max && isHex(p[j])) ++j;
  if (j == i) invalidRegex("invalid escape \\ sequence");
  out += "\\x{";
  out.append(p.substr(i, j - i));
  out += '}';
  return j;
}

// The escape at p[i] == '\\' (outside a bracket unless inBracket); returns the index after it.
size_t translateEscape(std::string_view p, size_t i, bool inBracket, std::string& out) {
  if (i + 1 >= p.size()) invalidRegex("invalid escape \\ sequence");
  char c = p[i + 1];
  size_t next = i + 2;
  switch (c) {
    // Character-entry escapes PCRE2 spells differently or not at all.
    case 'a': out += "\\x07"; return next;
    case 'b': out += "\\x08"; return next;  // backspace in an ARE, not a word boundary
    case 'B': out += "\\\\"; return next;   // a synonym of backslash
    case 'e': out += "\\x1B"; return next;
    case 'v': out += "\\x0B"; return next;  // PCRE2's \v is any vertical space
    case 'x': return translateHex(p, next, 8, out);
    case 'u': return translateHex(p, next, 4, out);
    case 'U': return translateHex(p, next, 8, out);
    case 'f':
    case 'n':
    case 'r':
    case 't':
    case 'd':
    case 's':
    case 'w':
    case 'D':
    case 'S':
    case 'W': out.append(p.substr(i, 2)); return next;
    case 'c':
      if (next >= p.size()) invalidRegex("invalid escape \\ sequence");
      out.append(p.substr(i, 3));
      return next + 1;
    default: break;
  }
  if (!inBracket) {
    switch (c) {
      case 'A': out += "\\A"; return next;
      case 'Z': out += "\\z"; return next;  // the very end, no newline before it
      case 'm': out += "\\b(?=\\w)"; return next;
      case 'M': out += "\\b(?<=\\w)"; return next;
      case 'y': out += "\\b"; return next;
      case 'Y': out += "\\B"; return next;
      default: break;
    }
  }
  if (std::isdigit(static_cast<unsigned char>(c))) {  // a back reference or an octal escape
    size_t j = next;
    while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j]))) ++j;
    out.append(p.substr(i, j - i));
    return j;
  }
  if (std::isalnum(static_cast<unsigned char>(c))) invalidRegex("invalid escape \\ sequence");
  out.append(p.substr(i, 2));  // an escaped punctuation character is itself
  return next;
}

// The bracket expression at p[i] == '['; returns the index after it (the end of the
// pattern when it is not closed: PCRE2 reports that).
size_t translateBracket(std::string_view p, size_t i, bool newlineSensitive, std::string& out) {
  if (p.substr(i).starts_with("[[:<:]]")) {
    out += "\\b(?=\\w)";
    return i + 7;
  }
  if (p.substr(i).starts_with("[[:>:]]")) {
    out += "\\b(?<=\\w)";
    return i + 7;
  }
  out += '[';
  size_t j = i + 1;
  bool negated = j < p.size() && p[j] == '^';
  if (negated) out += p[j++];
  if (negated && newlineSensitive) out += "\\n";
  if (j < p.size() && p[j] == ']') {  // a leading ] is a member
    out += "\\]";
    ++j;
  }
  while (j < p.size() && p[j] != ']') {
    if (p[j] == '[' && j + 1 < p.size() && (p[j + 1] == ':' || p[j + 1] == '.' || p[j + 1] == '=')) {
      char kind = p[j + 1];
      size_t close = p.find(std::string{kind, ']'}, j + 2);
      size_t end = close == std::string_view::npos ? p.size() : close + 2;
      out.append(p.substr(j, end - j));
      j = end;
    } else if (p[j] == '\\') {
      j = translateEscape(p, j, true, out);
    } else if (p[j] == '[') {
      out += "\\[";  // literal inside a bracket in both dialects; PCRE2 wants no doubt
      ++j;
    } else {
      out += p[j++];
    }
  }
  if (j < p.size()) {
    out += ']';
    ++j;
  }
  return j;
}

}  // namespace

RegexFlags parseRegexFlags(std::string_view flags) {
  RegexFlags f;
  for (size_t i = 0; i < flags.size(); i += utf8Len(static_cast<unsigned char>(flags[i]))) {
    if (!applyFlag(f, flags[i]))
      throw SqlError(sqlstate::kInvalidParameterValue,
                     fmt::format("invalid regular expression option: \"{}\"",
                                 flags.substr(i, utf8Len(static_cast<unsigned char>(flags[i])))));
  }
  return f;
}

std::string translateAre(std::string_view p, bool newlineSensitive) {
  std::string out;
  out.reserve(p.size() + 8);
  for (size_t i = 0; i < p.size();) {
    if (p[i] == '\\')
      i = translateEscape(p, i, false, out);
    else if (p[i] == '[')
      i = translateBracket(p, i, newlineSensitive, out);
    else
      out += p[i++];
  }
  return out;
}

std::string similarToRegex(std::string_view p, std::string_view escape) {
  if (escape.size() > 1 && charLength(escape) > 1)
    throw SqlError("22025", "invalid escape string", {}, "Escape string must be empty or one character.");
  std::string out = "^(?:";
  bool afterEscape = false, inClass = false;
  int quotes = 0;
  for (size_t i = 0; i < p.size();) {
    size_t len = utf8Len(static_cast<unsigned char>(p[i]));
    std::string_view ch = p.substr(i, len);
    char c = p[i];
    i += len;
    if (afterEscape) {
      if (c == '"' && !inClass) {  // escape-double-quote: SUBSTRING's separators
        if (quotes == 0)
          out += "){1,1}?(";
        else if (quotes == 1)
          out += "){1,1}(?:";
        else
          throw SqlError("2200C",
                         "SQL regular expression may not contain more than two escape-double-quote separators");
        ++quotes;
      } else {
        out += '\\';
        out.append(ch);
      }
      afterEscape = false;
    } else if (!escape.empty() && ch == escape) {
      afterEscape = true;
    } else if (inClass) {
      if (c == '\\') out += '\\';
      out.append(ch);
      if (c == ']') inClass = false;
    } else if (c == '[') {
      out += c;
      inClass = true;
    } else if (c == '%') {
      out += ".*";
    } else if (c == '_') {
      out += '.';
    } else if (c == '(') {
      out += "(?:";
    } else if (c == '\\' || c == '.' || c == '^' || c == '$') {
      out += '\\';
      out += c;
    } else {
      out.append(ch);
    }
  }
  out += ")$";
  return out;
}

// The thread's compiled patterns, most recently used first. PostgreSQL keeps 32.
struct RegexCache {
  static constexpr size_t kCapacity = 32;
  struct Entry {
    std::string key;
    std::unique_ptr<Regex> regex;
  };
  std::vector<Entry> entries;
  pcre2_match_data* matchData = nullptr;
  uint32_t matchPairs = 0;

  ~RegexCache() {
    if (matchData) pcre2_match_data_free(matchData);
  }

  // Match data with room for `pairs` offset pairs, reused across calls.
  pcre2_match_data* data(uint32_t pairs) {
    if (pairs > matchPairs) {
      if (matchData) pcre2_match_data_free(matchData);
      matchData = pcre2_match_data_create(pairs, nullptr);
      if (!matchData) throw std::bad_alloc();
      matchPairs = pairs;
    }
    return matchData;
  }

  static Regex* build(std::string_view pattern, RegexFlags flags) {
    // The ***= and ***: directors, then embedded options (?xyz) at the very start.
    if (pattern.starts_with("***=")) {
      pattern.remove_prefix(4);
      flags.literal = true;
    } else if (pattern.starts_with("***:")) {
      pattern.remove_prefix(4);
    }
    if (!flags.literal && pattern.starts_with("(?") && pattern.size() > 2 && std::isalpha((unsigned char)pattern[2])) {
      size_t close = pattern.find(')');
      if (close == std::string_view::npos) invalidRegex("invalid embedded option");
      for (char c : pattern.substr(2, close - 2))
        if (c == 'g' || !applyFlag(flags, c)) invalidRegex("invalid embedded option");
      pattern.remove_prefix(close + 1);
    }
    uint32_t options = PCRE2_UTF;
    if (flags.caseInsensitive) options |= PCRE2_CASELESS;
    if (flags.dotMatchesNewline) options |= PCRE2_DOTALL;
    if (flags.anchorsAtNewlines)
      options |= PCRE2_MULTILINE;
    else
      options |= PCRE2_DOLLAR_ENDONLY;
    std::string translated;
    if (flags.literal) {
      options |= PCRE2_LITERAL;
      options &= ~(PCRE2_DOTALL | PCRE2_MULTILINE | PCRE2_DOLLAR_ENDONLY);
      translated = pattern;
    } else {
      if (flags.expanded) options |= PCRE2_EXTENDED;
      translated = translateAre(pattern, !flags.dotMatchesNewline);
    }
    int error = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated.data()), translated.size(), options,
                                     &error, &offset, nullptr);
    if (!code) invalidRegex(compileErrorMessage(error));
    pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);  // the interpreter runs it when this fails
    uint32_t groups = 0;
    pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
    return new Regex(code, groups);
  }

  const Regex& get(std::string_view pattern, const RegexFlags& f) {
    std::string key;
    key.reserve(pattern.size() + 6);
    key += static_cast<char>('0' + f.caseInsensitive);
    key += static_cast<char>('0' + f.dotMatchesNewline);
    key += static_cast<char>('0' + f.anchorsAtNewlines);
    key += static_cast<char>('0' + f.expanded);
    key += static_cast<char>('0' + f.literal);
    key.append(pattern);
    for (size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].key != key) continue;
      if (i > 0) std::rotate(entries.begin(), entries.begin() + i, entries.begin() + i + 1);
      return *entries[0].regex;
    }
    std::unique_ptr<Regex> regex(build(pattern, f));
    if (entries.size() == kCapacity) entries.pop_back();
    entries.insert(entries.begin(), Entry{std::move(key), std::move(regex)});
    return *entries[0].regex;
  }
};

namespace {
RegexCache& cache() {
  thread_local RegexCache c;
  return c;
}
}  // namespace

const Regex& Regex::compile(std::string_view pattern, const RegexFlags& flags) { return cache().get(pattern, flags); }

Regex::~Regex() { pcre2_code_free(static_cast<pcre2_code*>(code_)); }

bool Regex::find(std::string_view s, size_t from, RegexMatch* match) const {
  pcre2_match_data* data = cache().data(groups_ + 1);
  int rc = pcre2_match(static_cast<pcre2_code*>(code_), reinterpret_cast<PCRE2_SPTR>(s.data()), s.size(), from,
                       PCRE2_NO_UTF_CHECK, data, nullptr);
  if (rc == PCRE2_ERROR_NOMATCH) return false;
  if (rc < 0) {
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT ||
        rc == PCRE2_ERROR_JIT_STACKLIMIT)
      invalidRegex("regular expression is too complex");
    PCRE2_UCHAR buffer[256];
    pcre2_get_error_message(rc, buffer, sizeof buffer);
    invalidRegex(reinterpret_cast<const char*>(buffer));
  }
  if (!match) return true;
  PCRE2_SIZE* ov = pcre2_get_ovector_pointer(data);
  match->begin = ov[0];
  match->end = ov[1];
  match->groups.clear();
  for (uint32_t g = 1; g <= groups_; ++g) {
    if (static_cast<int>(g) >= rc || ov[2 * g] == PCRE2_UNSET)
      match->groups.emplace_back(std::nullopt);
    else
      match->groups.emplace_back(s.substr(ov[2 * g], ov[2 * g + 1] - ov[2 * g]));
  }
  return true;
}

namespace {

// The byte offset after a match that ended at `end`: one character further for an empty one.
size_t nextSearch(std::string_view s, const RegexMatch& m) {
  if (m.begin != m.end) return m.end;
  return m.end < s.size() ? m.end + utf8Len(static_cast<unsigned char>(s[m.end])) : m.end + 1;
}

std::vector<RegexGroup> groupsOrWhole(std::string_view s, const RegexMatch& m) {
  if (!m.groups.empty()) return m.groups;
  return {RegexGroup(s.substr(m.begin, m.end - m.begin))};
}

void appendReplacement(std::string& out, std::string_view s, std::string_view r, const RegexMatch& m) {
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i] != '\\' || i + 1 >= r.size()) {
      out += r[i];
      continue;
    }
    char c = r[i + 1];
    if (c >= '1' && c <= '9') {
      size_t g = static_cast<size_t>(c - '1');
      if (g < m.groups.size() && m.groups[g]) out.append(*m.groups[g]);
      ++i;
    } else if (c == '&') {
      out.append(s.substr(m.begin, m.end - m.begin));
      ++i;
    } else if (c == '\\') {
      out += '\\';
      ++i;
    } else {
      out += '\\';  // any other escape is a literal backslash
    }
  }
}

}  // namespace

bool regexMatches(std::string_view s, std::string_view pattern, bool caseInsensitive) {
  RegexFlags f;
  f.caseInsensitive = caseInsensitive;
  return Regex::compile(pattern, f).matches(s);
}

std::optional<std::string_view> regexSubstring(std::string_view s, std::string_view pattern) {
  const Regex& re = Regex::compile(pattern, RegexFlags{});
  RegexMatch m;
  if (!re.find(s, 0, &m)) return std::nullopt;
  if (re.groupCount() > 0) return m.groups[0];
  return s.substr(m.begin, m.end - m.begin);
}

std::optional<std::vector<RegexGroup>> regexpMatch(std::string_view s, std::string_view pattern,
                                                   std::string_view flags) {
  RegexFlags f = parseRegexFlags(flags);
  rejectGlobal(f, "regexp_match", "regexp_matches");
  RegexMatch m;
  if (!Regex::compile(pattern, f).find(s, 0, &m)) return std::nullopt;
  return groupsOrWhole(s, m);
}

std::vector<std::vector<RegexGroup>> regexpMatches(std::string_view s, std::string_view pattern,
                                                   std::string_view flags) {
  RegexFlags f = parseRegexFlags(flags);
  const Regex& re = Regex::compile(pattern, f);
  std::vector<std::vector<RegexGroup>> out;
  RegexMatch m;
  for (size_t from = 0; from <= s.size() && re.find(s, from, &m); from = nextSearch(s, m)) {
    out.push_back(groupsOrWhole(s, m));
    if (!f.global) break;
  }
  return out;
}

std::string regexpReplace(std::string_view s, std::string_view pattern, std::string_view replacement, int64_t start,
                          int64_t n, const RegexFlags& flags) {
  if (start <= 0) invalidParameter("start", start);
  if (n < 0) invalidParameter("n", n);
  const Regex& re = Regex::compile(pattern, flags);
  std::string out;
  size_t copied = 0;
  int64_t seen = 0;
  RegexMatch m;
  for (size_t from = offsetOfChar(s, start - 1); from <= s.size() && re.find(s, from, &m); from = nextSearch(s, m)) {
    ++seen;
    if (n > 0 && seen != n) continue;
    out.append(s.substr(copied, m.begin - copied));
    appendReplacement(out, s, replacement, m);
    copied = m.end;
    if (n > 0) break;
  }
  out.append(s.substr(copied));
  return out;
}

std::vector<std::string_view> regexpSplit(std::string_view s, std::string_view pattern, std::string_view flags,
                                          const char* function) {
  RegexFlags f = parseRegexFlags(flags);
  rejectGlobal(f, function, nullptr);
  const Regex& re = Regex::compile(pattern, f);
  std::vector<std::string_view> out;
  size_t pieceStart = 0, previousEnd = 0;
  RegexMatch m;
  for (size_t from = 0; from <= s.size() && re.find(s, from, &m); from = nextSearch(s, m)) {
    // Degenerate matches (empty, at the end, or right after the last match) split nothing.
    if (m.begin < s.size() && m.end > previousEnd) {
      out.push_back(s.substr(pieceStart, m.begin - pieceStart));
      pieceStart = m.end;
    }
    previousEnd = m.end;
  }
  out.push_back(s.substr(pieceStart));
  return out;
}

int64_t regexpCount(std::string_view s, std::string_view pattern, int64_t start, std::string_view flags) {
  if (start <= 0) invalidParameter("start", start);
  RegexFlags f = parseRegexFlags(flags);
  const Regex& re = Regex::compile(pattern, f);
  int64_t count = 0;
  RegexMatch m;
  for (size_t from = offsetOfChar(s, start - 1); from <= s.size() && re.find(s, from, &m); from = nextSearch(s, m))
    ++count;
  return count;
}

namespace {

// The bytes regexp_instr and regexp_substr report: of the n-th match from character
// `start`, the whole match or subexpression `subexpr`; none when there is no such match
// or subexpression, or it took no part in the match. As PostgreSQL, a pattern without
// subexpressions counts as having one, the whole match.
std::optional<std::string_view> nthMatchPart(std::string_view s, std::string_view pattern, int64_t start, int64_t n,
                                             std::string_view flags, int64_t subexpr, const char* function) {
  RegexFlags f = parseRegexFlags(flags);
  rejectGlobal(f, function, nullptr);
  const Regex& re = Regex::compile(pattern, f);
  if (subexpr > std::max<int64_t>(re.groupCount(), 1)) return std::nullopt;
  int64_t seen = 0;
  RegexMatch m;
  for (size_t from = offsetOfChar(s, start - 1); from <= s.size() && re.find(s, from, &m); from = nextSearch(s, m)) {
    if (++seen < n) continue;
    if (subexpr == 0 || re.groupCount() == 0) return s.substr(m.begin, m.end - m.begin);
    return m.groups[subexpr - 1];
  }
  return std::nullopt;
}

// PostgreSQL checks the numbers in argument order, before the flags; endoption is
// regexp_instr's only.
void checkMatchParameters(int64_t start, int64_t n, std::optional<int64_t> endoption, int64_t subexpr) {
  if (start <= 0) invalidParameter("start", start);
  if (n <= 0) invalidParameter("n", n);
  if (endoption && *endoption != 0 && *endoption != 1) invalidParameter("endoption", *endoption);
  if (subexpr < 0) invalidParameter("subexpr", subexpr);
}

}  // namespace

int64_t regexpInstr(std::string_view s, std::string_view pattern, int64_t start, int64_t n, int64_t endoption,
                    std::string_view flags, int64_t subexpr) {
  checkMatchParameters(start, n, endoption, subexpr);
  std::optional<std::string_view> part = nthMatchPart(s, pattern, start, n, flags, subexpr, "regexp_instr");
  if (!part) return 0;
  size_t at = static_cast<size_t>(part->data() - s.data()) + (endoption == 1 ? part->size() : 0);
  return charLength(s.substr(0, at)) + 1;
}

std::optional<std::string_view> regexpSubstr(std::string_view s, std::string_view pattern, int64_t start, int64_t n,
                                             std::string_view flags, int64_t subexpr) {
  checkMatchParameters(start, n, std::nullopt, subexpr);
  return nthMatchPart(s, pattern, start, n, flags, subexpr, "regexp_substr");
}

bool regexpLike(std::string_view s, std::string_view pattern, std::string_view flags) {
  RegexFlags f = parseRegexFlags(flags);
  rejectGlobal(f, "regexp_like", nullptr);
  return Regex::compile(pattern, f).matches(s);
}

}  // namespace duet
