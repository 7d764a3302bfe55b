// The runtime functions of to_char, to_date, to_timestamp and to_number (runtime.h), over
// formatting.h.
#include "engine/types/formatting.h"
#include "engine/types/runtime.h"

using namespace duet;

namespace {

const VarString* arenaText(const std::optional<std::string>& s) {
  return s ? statementArena().makeString(*s) : nullptr;
}

const TypeContext& contextOf(const TypeContext* ctx) {
  static const TypeContext kDefault;
  return ctx ? *ctx : kDefault;
}

}  // namespace

extern "C" {

const VarString* duet_rt_to_char_timestamp(int64_t ts, const VarString* format) {
  return arenaText(toCharTimestamp(ts, format->view()));
}
const VarString* duet_rt_to_char_timestamptz(int64_t ts, const VarString* format, const TypeContext* ctx) {
  return arenaText(toCharTimestampTz(ts, format->view(), contextOf(ctx)));
}
const VarString* duet_rt_to_char_interval(IntervalRep v, const VarString* format) {
  return arenaText(toCharInterval(unpackInterval(v), format->view()));
}
const VarString* duet_rt_to_char_numeric(NumericRep v, const VarString* format) {
  return arenaText(toCharNumeric(v, format->view()));
}
const VarString* duet_rt_to_char_int4(int32_t v, const VarString* format) {
  return arenaText(toCharInt4(v, format->view()));
}
const VarString* duet_rt_to_char_int8(int64_t v, const VarString* format) {
  return arenaText(toCharInt8(v, format->view()));
}
const VarString* duet_rt_to_char_float8(double v, const VarString* format) {
  return arenaText(toCharFloat8(v, format->view()));
}
int32_t duet_rt_to_date(const VarString* text, const VarString* format) { return toDate(text->view(), format->view()); }
int64_t duet_rt_to_timestamp(const VarString* text, const VarString* format, const TypeContext* ctx) {
  return toTimestamp(text->view(), format->view(), contextOf(ctx));
}
int64_t duet_rt_to_timestamp_epoch(double seconds) { return toTimestampFromEpoch(seconds); }
NumericRep duet_rt_to_number(const VarString* text, const VarString* format) {
  return toNumber(text->view(), format->view());
}

}  // extern "C"
