// The runtime functions of SQL's string functions that engine/types/text_functions.h
// computes (declared in runtime.h): arguments and results as VarString, results in the
// statement arena.
#include <cstring>
#include <optional>
#include <vector>

#include "engine/types/array.h"
#include "engine/types/runtime.h"
#include "engine/types/strings.h"
#include "engine/types/text_functions.h"

using namespace duet;

namespace {

const VarString* arenaString(std::string_view s) { return statementArena().makeString(s); }

// The elements of a text[] of "any" arguments, none for NULL ones.
std::vector<std::optional<std::string_view>> textArgs(const VarString* array) {
  ArrayView view(array);
  std::vector<std::optional<std::string_view>> out(view.size());
  for (uint32_t i = 0; i < view.size(); ++i) {
    if (view.isNull(i)) continue;
    const VarString* element = nullptr;
    alignas(16) unsigned char slot[16];
    view.load(i, slot);
    std::memcpy(&element, slot, sizeof element);
    out[i] = element->view();
  }
  return out;
}

}  // namespace

extern "C" {

const VarString* duet_rt_text_split_part(const VarString* s, const VarString* sep, int32_t field) {
  return arenaString(splitPart(s->view(), sep->view(), field));
}
const VarString* duet_rt_text_translate(const VarString* s, const VarString* from, const VarString* to) {
  return arenaString(translateChars(s->view(), from->view(), to->view()));
}
const VarString* duet_rt_text_lpad(const VarString* s, int32_t length, const VarString* fill) {
  return arenaString(padChars(s->view(), length, fill->view(), true));
}
const VarString* duet_rt_text_rpad(const VarString* s, int32_t length, const VarString* fill) {
  return arenaString(padChars(s->view(), length, fill->view(), false));
}
const VarString* duet_rt_text_lpad_space(const VarString* s, int32_t length) {
  return arenaString(padChars(s->view(), length, " ", true));
}
const VarString* duet_rt_text_rpad_space(const VarString* s, int32_t length) {
  return arenaString(padChars(s->view(), length, " ", false));
}
const VarString* duet_rt_text_repeat(const VarString* s, int32_t count) {
  return arenaString(repeatText(s->view(), count));
}
const VarString* duet_rt_text_reverse(const VarString* s) { return arenaString(reverseChars(s->view())); }
const VarString* duet_rt_text_initcap(const VarString* s) { return arenaString(initcapAscii(s->view())); }
int32_t duet_rt_text_ascii(const VarString* s) { return firstCodePoint(s->view()); }
const VarString* duet_rt_text_chr(int32_t code) { return arenaString(codePointChar(code)); }
const VarString* duet_rt_text_overlay(const VarString* s, const VarString* r, int32_t start, int32_t count) {
  return arenaString(overlayText(s->view(), r->view(), start, count));
}
const VarString* duet_rt_text_overlay_no_count(const VarString* s, const VarString* r, int32_t start) {
  return arenaString(overlayText(s->view(), r->view(), start, static_cast<int32_t>(charLength(r->view()))));
}
int32_t duet_rt_text_bit_length(const VarString* s) { return static_cast<int32_t>(s->len * 8); }
bool duet_rt_text_starts_with(const VarString* s, const VarString* prefix) {
  return s->view().starts_with(prefix->view());
}

const VarString* duet_rt_text_concat_values(const VarString* values) {
  return arenaString(concatValues(textArgs(values), ""));
}
const VarString* duet_rt_text_concat_ws(const VarString* separator, const VarString* values) {
  return arenaString(concatValues(textArgs(values), separator->view()));
}
const VarString* duet_rt_text_format(const VarString* format, const VarString* values) {
  return arenaString(formatText(format->view(), textArgs(values)));
}
const VarString* duet_rt_text_format_no_args(const VarString* format) {
  return arenaString(formatText(format->view(), {}));
}
const VarString* duet_rt_text_quote_literal(const VarString* values) {
  auto value = textArgs(values).at(0);
  return value ? arenaString(quoteLiteral(*value)) : nullptr;
}
const VarString* duet_rt_text_quote_nullable(const VarString* values) {
  auto value = textArgs(values).at(0);
  return arenaString(value ? quoteLiteral(*value) : "NULL");
}
// num_nulls and num_nonnulls count the "any" arguments' NULL elements.
int32_t duet_rt_num_nulls(const VarString* values) {
  ArrayView view(values);
  int32_t nulls = 0;
  for (uint32_t i = 0; i < view.size(); ++i) nulls += view.isNull(i) ? 1 : 0;
  return nulls;
}
int32_t duet_rt_num_nonnulls(const VarString* values) {
  return static_cast<int32_t>(ArrayView(values).size()) - duet_rt_num_nulls(values);
}
const VarString* duet_rt_text_quote_ident(const VarString* s) { return arenaString(quoteIdent(s->view())); }
const VarString* duet_rt_text_md5(const VarString* s) { return arenaString(md5Hex(s->view())); }
const VarString* duet_rt_int4_to_hex(int32_t v) { return arenaString(toHex(static_cast<uint32_t>(v))); }
const VarString* duet_rt_int8_to_hex(int64_t v) { return arenaString(toHex(static_cast<uint64_t>(v))); }

}  // extern "C"
