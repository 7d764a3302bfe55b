// The runtime functions of SQL's string functions that engine/types/text_functions.h
// computes (declared in runtime.h): arguments and results as VarString, results in the
// statement arena.
#include "engine/types/runtime.h"
#include "engine/types/text_functions.h"

using namespace duet;

namespace {

const VarString* arenaString(std::string_view s) { return statementArena().makeString(s); }

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
bool duet_rt_text_starts_with(const VarString* s, const VarString* prefix) {
  return s->view().starts_with(prefix->view());
}

}  // extern "C"
