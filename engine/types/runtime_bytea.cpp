// The runtime functions of the bytea functions (declared in runtime.h) over bytea.h:
// arguments and results as VarString, results in the statement arena.
#include "engine/types/bytea.h"
#include "engine/types/runtime.h"
#include "engine/types/strings.h"

using namespace duet;

namespace {

const VarString* arenaString(std::string_view s) { return statementArena().makeString(s); }

}  // namespace

extern "C" {

int32_t duet_rt_bytea_length(const VarString* bytes) { return static_cast<int32_t>(bytes->len); }

const VarString* duet_rt_bytea_encode(const VarString* bytes, const VarString* format) {
  return arenaString(byteaEncode(bytes->view(), format->view()));
}
const VarString* duet_rt_bytea_decode(const VarString* text, const VarString* format) {
  return arenaString(byteaDecode(text->view(), format->view()));
}
const VarString* duet_rt_bytea_substr(const VarString* bytes, int32_t start, int32_t count) {
  return arenaString(byteaSubstring(bytes->view(), start, count));
}
const VarString* duet_rt_bytea_substr_from(const VarString* bytes, int32_t start) {
  return arenaString(byteaSubstring(bytes->view(), start));
}
int32_t duet_rt_bytea_position(const VarString* bytes, const VarString* needle) {
  return byteaPosition(bytes->view(), needle->view());
}
int32_t duet_rt_bytea_get_byte(const VarString* bytes, int32_t index) { return byteaGetByte(bytes->view(), index); }
const VarString* duet_rt_bytea_set_byte(const VarString* bytes, int32_t index, int32_t value) {
  return arenaString(byteaSetByte(bytes->view(), index, value));
}
const VarString* duet_rt_bytea_sha224(const VarString* bytes) {
  return arenaString(shaDigest(bytes->view(), ShaKind::Sha224));
}
const VarString* duet_rt_bytea_sha256(const VarString* bytes) {
  return arenaString(shaDigest(bytes->view(), ShaKind::Sha256));
}
const VarString* duet_rt_bytea_sha384(const VarString* bytes) {
  return arenaString(shaDigest(bytes->view(), ShaKind::Sha384));
}
const VarString* duet_rt_bytea_sha512(const VarString* bytes) {
  return arenaString(shaDigest(bytes->view(), ShaKind::Sha512));
}
// Text is UTF-8 already, so convert_to keeps its bytes; convert_from checks them.
const VarString* duet_rt_convert_to(const VarString* text, const VarString* encoding) {
  checkConversionEncoding(encoding->view(), true);
  return text;
}
const VarString* duet_rt_convert_from(const VarString* bytes, const VarString* encoding) {
  checkConversionEncoding(encoding->view(), false);
  checkUtf8(bytes->view());
  return bytes;
}

}  // extern "C"
