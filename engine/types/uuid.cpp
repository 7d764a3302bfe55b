// uuid text and binary forms, transcribed from PostgreSQL 15's uuid.c (string_to_uuid,
// uuid_out, gen_random_uuid's version bits).
#include "engine/types/uuid.h"

#include "engine/types/hash.h"
#include "engine/types/strings.h"
#include "engine/types/type_errors.h"

namespace duet {

namespace {}  // namespace

UuidRep parseUuid(std::string_view text) {
  std::string_view s = text;
  auto invalid = [&] { raiseInvalidInput("uuid", text); };
  bool braces = !s.empty() && s[0] == '{';
  if (braces) s.remove_prefix(1);
  UuidRep v = 0;
  for (int i = 0; i < 16; ++i) {
    if (s.size() < 2) invalid();
    int high = hexDigitValue(s[0]), low = hexDigitValue(s[1]);
    if (high < 0 || low < 0) invalid();
    v = (v << 8) | static_cast<unsigned>(high << 4 | low);
    s.remove_prefix(2);
    if (!s.empty() && s[0] == '-' && i % 2 == 1 && i < 15) s.remove_prefix(1);
  }
  if (braces) {
    if (s.empty() || s[0] != '}') invalid();
    s.remove_prefix(1);
  }
  if (!s.empty()) invalid();
  return v;
}

void formatUuid(UuidRep v, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  unsigned char bytes[16];
  uuidToBytes(v, bytes);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 15]);
  }
}

void uuidToBytes(UuidRep v, unsigned char out[16]) {
  for (int i = 15; i >= 0; --i, v >>= 8) out[i] = static_cast<unsigned char>(v & 0xff);
}

UuidRep uuidFromBytes(const unsigned char bytes[16]) {
  UuidRep v = 0;
  for (int i = 0; i < 16; ++i) v = (v << 8) | bytes[i];
  return v;
}

UuidRep makeRandomUuid(uint64_t high, uint64_t low) {
  // Byte 6's high nibble is the version (4), byte 8's top two bits the variant (10, RFC 4122).
  high = (high & ~(uint64_t{0xf0} << 8)) | (uint64_t{0x40} << 8);
  low = (low & ~(uint64_t{0xc0} << 56)) | (uint64_t{0x80} << 56);
  return (static_cast<UuidRep>(high) << 64) | low;
}

uint64_t uuidHash(UuidRep v) { return hashMix64(static_cast<uint64_t>(v >> 64) ^ hashMix64(static_cast<uint64_t>(v))); }

}  // namespace duet
