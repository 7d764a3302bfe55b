// PostgreSQL's POSIX regular expressions (its Advanced REs: ~, regexp_match, regexp_replace,
// regexp_split_to_array, ...) on PCRE2. PCRE2 is not PostgreSQL's engine: an ARE is
// translated first (\m \M \y \Y \Z, \b as backspace, \x with any number of digits,
// [[:<:]] and [[:>:]], the ***= and ***: directors) and PostgreSQL's flags become PCRE2's
// options (newline sensitivity: dot-all and end-only $ unless 'n'). What stays different:
// PCRE2 picks the first alternative that matches where PostgreSQL picks the longest
// (regexp_match('abc', 'a|ab') is {a} here, {ab} there), and compile errors carry
// PostgreSQL's message only for the common mistakes (unbalanced () [] {}, a bad quantifier
// or escape, a bad back reference); the others say PCRE2's.
//
// Compiled patterns are cached per thread by pattern text and flags (PostgreSQL keeps 32
// per backend), so a constant pattern is compiled once, not once per row.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace duet {

// A flags argument ("gi", "n", ...) as PostgreSQL's parse_re_flags reads it; 22023
// invalid regular expression option: "z" for a letter it does not know.
struct RegexFlags {
  bool caseInsensitive = false;    // i (c undoes it)
  bool dotMatchesNewline = true;   // not with n, m or p
  bool anchorsAtNewlines = false;  // ^ and $ at line ends: n, m, w
  bool expanded = false;           // x: white space and # comments ignored
  bool literal = false;            // q: the pattern is a literal string
  bool global = false;             // g: every match (functions only)
};
RegexFlags parseRegexFlags(std::string_view flags);

// A subexpression's bytes in the subject, or none when it did not take part in the match.
using RegexGroup = std::optional<std::string_view>;
struct RegexMatch {
  size_t begin = 0, end = 0;       // the whole match, as byte offsets in the subject
  std::vector<RegexGroup> groups;  // subexpressions 1..n
};

// The compiled form of one pattern with its flags; 2201B invalid regular expression: ...
// when it does not compile. Held by the thread's cache: valid until the next compile.
class Regex {
 public:
  static const Regex& compile(std::string_view pattern, const RegexFlags& flags);
  ~Regex();
  Regex(const Regex&) = delete;
  Regex& operator=(const Regex&) = delete;

  // The first match in s at or after byte offset `from` (^ still means the start of s).
  bool find(std::string_view s, size_t from, RegexMatch* match) const;
  bool matches(std::string_view s) const { return find(s, 0, nullptr); }
  uint32_t groupCount() const { return groups_; }

 private:
  Regex(void* code, uint32_t groups) : code_(code), groups_(groups) {}
  friend struct RegexCache;
  void* code_;  // pcre2_code_8*
  uint32_t groups_;
};

// The ARE `pattern` as a PCRE2 pattern (exposed for the unit tests). newlineSensitive
// (flags n, m, p): a negated bracket expression does not match a newline either.
std::string translateAre(std::string_view pattern, bool newlineSensitive = false);
// SIMILAR TO's pattern as a regular expression, as PostgreSQL's similar_to_escape:
// `escape` empty for none, one character otherwise (22025 for a longer one).
std::string similarToRegex(std::string_view pattern, std::string_view escape);

// The SQL functions, positions counted in characters from 1 as PostgreSQL does.
// s ~ pattern (~* with caseInsensitive).
bool regexMatches(std::string_view s, std::string_view pattern, bool caseInsensitive);
// substring(s FROM pattern): what the first parenthesized subexpression matched, or the
// whole match when the pattern has none; no value without a match, or when that
// subexpression took no part in it ('foo(bar)?' on 'foo'). SUBSTRING(s SIMILAR p ESCAPE e)
// is this on similarToRegex(p, e).
std::optional<std::string_view> regexSubstring(std::string_view s, std::string_view pattern);
// regexp_match: the subexpressions of the first match (or the whole match when there are
// none), no value when nothing matches. 22023 for the g flag.
std::optional<std::vector<RegexGroup>> regexpMatch(std::string_view s, std::string_view pattern,
                                                   std::string_view flags);
// regexp_matches: what regexp_match gives for each match (every one with g).
std::vector<std::vector<RegexGroup>> regexpMatches(std::string_view s, std::string_view pattern,
                                                   std::string_view flags);
// regexp_replace: `n` 0 replaces every match from character `start`, n > 0 the n-th
// only; \1..\9 and \& in `replacement` insert subexpressions and the match. 22023 for
// start < 1 or n < 0.
std::string regexpReplace(std::string_view s, std::string_view pattern, std::string_view replacement, int64_t start,
                          int64_t n, const RegexFlags& flags);
// regexp_split_to_array / _table: the pieces between matches (empty matches at either end
// or right after a match are ignored). 22023 for the g flag.
std::vector<std::string_view> regexpSplit(std::string_view s, std::string_view pattern, std::string_view flags,
                                          const char* function);
// regexp_count from character `start` (22023 when < 1).
int64_t regexpCount(std::string_view s, std::string_view pattern, int64_t start, std::string_view flags);
// regexp_instr: the character position where the n-th match from character `start` begins
// (endoption 0) or the one after its end (endoption 1), of subexpression `subexpr` when it
// is not 0; 0 when there is no such match. 22023 for start < 1, n < 1, endoption other
// than 0 and 1, a negative subexpr, or the g flag.
int64_t regexpInstr(std::string_view s, std::string_view pattern, int64_t start, int64_t n, int64_t endoption,
                    std::string_view flags, int64_t subexpr);
// regexp_substr: the text of that match (or subexpression); no value when there is none,
// or subexpr is past the pattern's subexpressions or took no part in the match. 22023 as
// regexp_instr.
std::optional<std::string_view> regexpSubstr(std::string_view s, std::string_view pattern, int64_t start, int64_t n,
                                             std::string_view flags, int64_t subexpr);
// regexp_like; 22023 for the g flag.
bool regexpLike(std::string_view s, std::string_view pattern, std::string_view flags);

}  // namespace duet
