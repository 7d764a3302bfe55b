// The runtime functions of regular expressions (engine/types/regex.h), declared in
// runtime.h: arguments and results as VarString, results in the statement arena.
#include <fmt/format.h>

#include "engine/error.h"
#include "engine/types/array.h"
#include "engine/types/regex.h"
#include "engine/types/runtime.h"

using namespace duet;

namespace {

const VarString* arenaString(std::string_view s) { return statementArena().makeString(s); }

// A null pointer (SQL NULL) for no value.
const VarString* optionalString(std::optional<std::string_view> s) { return s ? arenaString(*s) : nullptr; }

const VarString* textArray(std::span<const RegexGroup> values) { return makeTextArray(values, statementArena()); }
const VarString* textArray(const std::vector<std::string_view>& pieces) {
  std::vector<RegexGroup> values(pieces.begin(), pieces.end());
  return makeTextArray(values, statementArena());
}

}  // namespace

extern "C" {

bool duet_rt_text_regex_match(const VarString* s, const VarString* p) {
  return regexMatches(s->view(), p->view(), false);
}
bool duet_rt_text_regex_imatch(const VarString* s, const VarString* p) {
  return regexMatches(s->view(), p->view(), true);
}
bool duet_rt_text_similar(const VarString* s, const VarString* p) {
  return Regex::compile(similarToRegex(p->view(), "\\"), RegexFlags{}).matches(s->view());
}
bool duet_rt_text_similar_escape(const VarString* s, const VarString* p, const VarString* e) {
  return Regex::compile(similarToRegex(p->view(), e->view()), RegexFlags{}).matches(s->view());
}

const VarString* duet_rt_text_substring_regex(const VarString* s, const VarString* p) {
  return optionalString(regexSubstring(s->view(), p->view()));
}
const VarString* duet_rt_text_substring_similar(const VarString* s, const VarString* p, const VarString* e) {
  return optionalString(regexSubstring(s->view(), similarToRegex(p->view(), e->view())));
}

const VarString* duet_rt_regexp_match_flags(const VarString* s, const VarString* p, const VarString* flags) {
  auto groups = regexpMatch(s->view(), p->view(), flags->view());
  return groups ? textArray(*groups) : nullptr;
}
const VarString* duet_rt_regexp_match(const VarString* s, const VarString* p) {
  auto groups = regexpMatch(s->view(), p->view(), "");
  return groups ? textArray(*groups) : nullptr;
}

const VarString* duet_rt_regexp_replace(const VarString* s, const VarString* p, const VarString* r) {
  return arenaString(regexpReplace(s->view(), p->view(), r->view(), 1, 1, RegexFlags{}));
}
const VarString* duet_rt_regexp_replace_flags(const VarString* s, const VarString* p, const VarString* r,
                                              const VarString* flags) {
  // An unknown literal prefers this row to the one taking a start position: say so when
  // the "flags" look like a number, as PostgreSQL does.
  std::string_view f = flags->view();
  if (!f.empty() && f[0] >= '0' && f[0] <= '9')
    throw SqlError(
        sqlstate::kInvalidParameterValue, fmt::format("invalid regular expression option: \"{}\"", f.substr(0, 1)), {},
        "If you meant to use regexp_replace() with a start parameter, cast the fourth argument to integer explicitly.");
  RegexFlags parsed = parseRegexFlags(f);
  return arenaString(regexpReplace(s->view(), p->view(), r->view(), 1, parsed.global ? 0 : 1, parsed));
}
const VarString* duet_rt_regexp_replace_start(const VarString* s, const VarString* p, const VarString* r,
                                              int32_t start) {
  return arenaString(regexpReplace(s->view(), p->view(), r->view(), start, 1, RegexFlags{}));
}
const VarString* duet_rt_regexp_replace_start_n(const VarString* s, const VarString* p, const VarString* r,
                                                int32_t start, int32_t n) {
  return arenaString(regexpReplace(s->view(), p->view(), r->view(), start, n, RegexFlags{}));
}
const VarString* duet_rt_regexp_replace_start_n_flags(const VarString* s, const VarString* p, const VarString* r,
                                                      int32_t start, int32_t n, const VarString* flags) {
  // An explicit n wins over the g flag.
  return arenaString(regexpReplace(s->view(), p->view(), r->view(), start, n, parseRegexFlags(flags->view())));
}

const VarString* duet_rt_regexp_split_to_array(const VarString* s, const VarString* p) {
  return textArray(regexpSplit(s->view(), p->view(), "", "regexp_split_to_array"));
}
const VarString* duet_rt_regexp_split_to_array_flags(const VarString* s, const VarString* p, const VarString* flags) {
  return textArray(regexpSplit(s->view(), p->view(), flags->view(), "regexp_split_to_array"));
}

int32_t duet_rt_regexp_count(const VarString* s, const VarString* p) {
  return static_cast<int32_t>(regexpCount(s->view(), p->view(), 1, ""));
}
int32_t duet_rt_regexp_count_start(const VarString* s, const VarString* p, int32_t start) {
  return static_cast<int32_t>(regexpCount(s->view(), p->view(), start, ""));
}
int32_t duet_rt_regexp_count_start_flags(const VarString* s, const VarString* p, int32_t start,
                                         const VarString* flags) {
  return static_cast<int32_t>(regexpCount(s->view(), p->view(), start, flags->view()));
}

int32_t duet_rt_regexp_instr(const VarString* s, const VarString* p) {
  return static_cast<int32_t>(regexpInstr(s->view(), p->view(), 1, 1, 0, "", 0));
}
int32_t duet_rt_regexp_instr_start(const VarString* s, const VarString* p, int32_t start) {
  return static_cast<int32_t>(regexpInstr(s->view(), p->view(), start, 1, 0, "", 0));
}
int32_t duet_rt_regexp_instr_start_n(const VarString* s, const VarString* p, int32_t start, int32_t n) {
  return static_cast<int32_t>(regexpInstr(s->view(), p->view(), start, n, 0, "", 0));
}
int32_t duet_rt_regexp_instr_start_n_end(const VarString* s, const VarString* p, int32_t start, int32_t n,
                                         int32_t endoption) {
  return static_cast<int32_t>(regexpInstr(s->view(), p->view(), start, n, endoption, "", 0));
}
int32_t duet_rt_regexp_instr_start_n_end_flags(const VarString* s, const VarString* p, int32_t start, int32_t n,
                                               int32_t endoption, const VarString* flags) {
  return static_cast<int32_t>(regexpInstr(s->view(), p->view(), start, n, endoption, flags->view(), 0));
}
int32_t duet_rt_regexp_instr_start_n_end_flags_sub(const VarString* s, const VarString* p, int32_t start, int32_t n,
                                                   int32_t endoption, const VarString* flags, int32_t subexpr) {
  return static_cast<int32_t>(regexpInstr(s->view(), p->view(), start, n, endoption, flags->view(), subexpr));
}

const VarString* duet_rt_regexp_substr(const VarString* s, const VarString* p) {
  return optionalString(regexpSubstr(s->view(), p->view(), 1, 1, "", 0));
}
const VarString* duet_rt_regexp_substr_start(const VarString* s, const VarString* p, int32_t start) {
  return optionalString(regexpSubstr(s->view(), p->view(), start, 1, "", 0));
}
const VarString* duet_rt_regexp_substr_start_n(const VarString* s, const VarString* p, int32_t start, int32_t n) {
  return optionalString(regexpSubstr(s->view(), p->view(), start, n, "", 0));
}
const VarString* duet_rt_regexp_substr_start_n_flags(const VarString* s, const VarString* p, int32_t start, int32_t n,
                                                     const VarString* flags) {
  return optionalString(regexpSubstr(s->view(), p->view(), start, n, flags->view(), 0));
}
const VarString* duet_rt_regexp_substr_start_n_flags_sub(const VarString* s, const VarString* p, int32_t start,
                                                         int32_t n, const VarString* flags, int32_t subexpr) {
  return optionalString(regexpSubstr(s->view(), p->view(), start, n, flags->view(), subexpr));
}

bool duet_rt_regexp_like(const VarString* s, const VarString* p) { return regexpLike(s->view(), p->view(), ""); }
bool duet_rt_regexp_like_flags(const VarString* s, const VarString* p, const VarString* flags) {
  return regexpLike(s->view(), p->view(), flags->view());
}

}  // extern "C"
