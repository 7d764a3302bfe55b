// Binary (send/recv) formats, byte for byte as PostgreSQL's *_send / *_recv functions.
#include <cstring>
#include <string>
#include <vector>

#include "engine/error.h"
#include "engine/types/array.h"
#include "engine/types/datetime.h"
#include "engine/types/interval.h"
#include "engine/types/json_values.h"
#include "engine/types/numeric.h"
#include "engine/types/raw_value.h"
#include "engine/types/record.h"
#include "engine/types/strings.h"
#include "engine/types/type_errors.h"
#include "engine/types/uuid.h"
#include "engine/types/value_io.h"

namespace duet {

namespace {

[[noreturn]] void badBinary(const char* message = "incorrect binary data format") {
  throw SqlError(sqlstate::kInvalidBinaryRepresentation, message);
}

void putBigEndian(std::string& out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t getBigEndian(std::string_view data, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(data[at + i]);
  return v;
}

// A fixed-width value must be exactly `bytes` long.
uint64_t readFixed(std::string_view data, int bytes) {
  if (data.size() != static_cast<size_t>(bytes)) badBinary();
  return getBigEndian(data, 0, bytes);
}

constexpr uint16_t kNumericPos = 0x0000, kNumericNeg = 0x4000, kNumericNaN = 0xC000, kNumericPinf = 0xD000,
                   kNumericNinf = 0xF000;

// NumericVar wire form: int16 ndigits, int16 weight, uint16 sign, int16 dscale, then
// ndigits base-10000 digits, most significant first, no leading or trailing zero digits.
void sendNumeric(NumericRep v, std::string& out) {
  __int128 m = numericMantissa(v);
  int scale = numericScale(v);
  unsigned __int128 mag = m < 0 ? -static_cast<unsigned __int128>(m) : m;
  std::string dec;  // decimal digits of mag, most significant first
  for (; mag != 0; mag /= 10) dec.insert(dec.begin(), char('0' + int(mag % 10)));
  // Pad so that both the integer and fraction parts are whole groups of four digits.
  int intDigits = static_cast<int>(dec.size()) - scale;
  int padLeft = intDigits > 0 ? (4 - intDigits % 4) % 4 : -intDigits;
  int fracDigits = scale + ((4 - scale % 4) % 4);
  std::string padded = std::string(size_t(padLeft), '0') + dec;
  padded.append(size_t(fracDigits - scale), '0');
  int totalInt = intDigits > 0 ? intDigits + padLeft : 0;
  std::vector<int> groups;
  for (size_t i = 0; i + 4 <= padded.size(); i += 4) groups.push_back(std::stoi(padded.substr(i, 4)));
  int weight = totalInt / 4 - 1;
  size_t first = 0, last = groups.size();
  while (first < last && groups[first] == 0) {
    ++first;
    --weight;
  }
  while (last > first && groups[last - 1] == 0) --last;
  int ndigits = static_cast<int>(last - first);
  if (ndigits == 0) weight = 0;
  putBigEndian(out, static_cast<uint16_t>(ndigits), 2);
  putBigEndian(out, static_cast<uint16_t>(static_cast<int16_t>(weight)), 2);
  putBigEndian(out, m < 0 ? kNumericNeg : kNumericPos, 2);
  putBigEndian(out, static_cast<uint16_t>(scale), 2);
  for (size_t i = first; i < last; ++i) putBigEndian(out, static_cast<uint16_t>(groups[i]), 2);
}

NumericRep recvNumeric(std::string_view data) {
  if (data.size() < 8) badBinary();
  int ndigits = static_cast<int16_t>(getBigEndian(data, 0, 2));
  int weight = static_cast<int16_t>(getBigEndian(data, 2, 2));
  uint16_t sign = static_cast<uint16_t>(getBigEndian(data, 4, 2));
  int dscale = static_cast<int16_t>(getBigEndian(data, 6, 2));
  if (ndigits < 0 || data.size() != 8 + 2 * size_t(ndigits)) badBinary();
  if (sign == kNumericNaN || sign == kNumericPinf || sign == kNumericNinf) raiseNumericSpecialUnsupported();
  if (sign != kNumericPos && sign != kNumericNeg) badBinary("invalid sign in external \"numeric\" value");
  if (dscale < 0 || dscale > 0x3fff) badBinary("invalid scale in external \"numeric\" value");
  // Read the digits as a mantissa at scale 4 * (ndigits - weight - 1), decimal-shifting
  // when that scale would be negative. Digits beyond dscale are truncated away, as
  // numeric_recv does, before they are added: base-10000 groups pad the last fractional
  // group with zeros, which could push a mantissa that fits dscale past the limit.
  static constexpr unsigned kPow10[] = {1, 10, 100, 1000, 10000};
  unsigned __int128 mag = 0;
  const unsigned __int128 limit = (static_cast<unsigned __int128>(1) << 119) - 1;
  int scale = -4 * (weight + 1);  // of mag; each group read adds its digits
  for (int i = 0; i < ndigits; ++i) {
    int d = static_cast<int>(getBigEndian(data, 8 + 2 * size_t(i), 2));
    if (d > 9999) badBinary("invalid digit in external \"numeric\" value");
    const int beyond = 4 * (i - weight) - dscale;  // of the digits read so far, past dscale
    if (beyond >= 4) continue;
    const int take = beyond > 0 ? 4 - beyond : 4;
    mag = mag * kPow10[take] + unsigned(d) / kPow10[4 - take];
    scale += take;
    if (mag > limit) raiseNumericOverflow();
  }
  for (; scale < 0; ++scale) {
    mag *= 10;
    if (mag > limit) raiseNumericOverflow();
  }
  __int128 m = static_cast<__int128>(mag);
  if (sign == kNumericNeg) m = -m;
  if (scale > kNumericMaxScale || dscale > kNumericMaxScale) raiseNumericOverflow();
  // Digits beyond dscale are truncated away, as numeric_recv does.
  return numericTrunc(makeNumeric(m, scale), dscale);
}

}  // namespace

void formatBinary(SqlType type, const void* value, std::string& out) {
  // oid and the reg* types: oidsend's unsigned 32-bit integer.
  if (!type.isArray() && isOidAlias(type.alias))
    return putBigEndian(out, static_cast<uint32_t>(loadRaw<int64_t>(value)), 4);
  switch (type.id) {
    case TypeId::Bool: out.push_back(loadRaw<uint8_t>(value) ? 1 : 0); return;
    case TypeId::Int2: return putBigEndian(out, static_cast<uint16_t>(loadRaw<int16_t>(value)), 2);
    case TypeId::Int4:
    case TypeId::Date: return putBigEndian(out, static_cast<uint32_t>(loadRaw<int32_t>(value)), 4);
    case TypeId::Int8:
    case TypeId::Timestamp:
    case TypeId::TimestampTz: return putBigEndian(out, static_cast<uint64_t>(loadRaw<int64_t>(value)), 8);
    case TypeId::Float4: return putBigEndian(out, loadRaw<uint32_t>(value), 4);
    case TypeId::Float8: return putBigEndian(out, loadRaw<uint64_t>(value), 8);
    case TypeId::Numeric: return sendNumeric(loadRaw<NumericRep>(value), out);
    case TypeId::Unknown:
    case TypeId::Char:
    case TypeId::Varchar:
    case TypeId::Text:
    case TypeId::Bytea: out.append(loadRaw<const VarString*>(value)->view()); return;
    case TypeId::Uuid: {
      unsigned char bytes[16];
      uuidToBytes(loadRaw<UuidRep>(value), bytes);
      out.append(reinterpret_cast<const char*>(bytes), 16);
      return;
    }
    case TypeId::Interval: {  // interval_send: time int64, day int32, month int32
      Interval v = unpackInterval(loadRaw<IntervalRep>(value));
      putBigEndian(out, static_cast<uint64_t>(v.usecs), 8);
      putBigEndian(out, static_cast<uint32_t>(v.days), 4);
      return putBigEndian(out, static_cast<uint32_t>(v.months), 4);
    }
    case TypeId::Array: return formatArrayBinary(type, loadRaw<const VarString*>(value), out);
    case TypeId::Record: return formatRecordBinary(loadRaw<const VarString*>(value), out);
    case TypeId::Json: out.append(loadRaw<const VarString*>(value)->view()); return;
    case TypeId::Jsonb: return jsonbSend(loadRaw<const VarString*>(value), out);
  }
}

void parseBinary(SqlType type, std::string_view data, void* out, Arena& arena) {
  if (!type.isArray() && isOidAlias(type.alias))
    return storeRaw(out, static_cast<int64_t>(static_cast<uint32_t>(readFixed(data, 4))));
  switch (type.id) {
    case TypeId::Bool: return storeRaw<uint8_t>(out, readFixed(data, 1) != 0);
    case TypeId::Int2: return storeRaw(out, static_cast<int16_t>(readFixed(data, 2)));
    case TypeId::Int4: return storeRaw(out, static_cast<int32_t>(readFixed(data, 4)));
    case TypeId::Date: return storeRaw(out, checkDateRange(static_cast<int32_t>(readFixed(data, 4))));
    case TypeId::Int8: return storeRaw(out, static_cast<int64_t>(readFixed(data, 8)));
    case TypeId::Timestamp:
    case TypeId::TimestampTz: return storeRaw(out, checkTimestampRange(static_cast<int64_t>(readFixed(data, 8))));
    case TypeId::Float4: return storeRaw(out, static_cast<uint32_t>(readFixed(data, 4)));
    case TypeId::Float8: return storeRaw(out, readFixed(data, 8));
    case TypeId::Numeric: return storeRaw(out, numericApplyTypmod(recvNumeric(data), type.typmod));
    case TypeId::Unknown:
    case TypeId::Char:
    case TypeId::Varchar:
    case TypeId::Text: {
      checkUtf8(data);
      return storeRaw(out, coerceString(arena.makeString(data), type, false, arena));
    }
    case TypeId::Bytea: return storeRaw<const VarString*>(out, arena.makeString(data));
    case TypeId::Uuid:
      if (data.size() != 16) badBinary();
      return storeRaw(out, uuidFromBytes(reinterpret_cast<const unsigned char*>(data.data())));
    case TypeId::Interval: {
      if (data.size() != 16) badBinary("incorrect binary data format");
      Interval v{static_cast<int32_t>(getBigEndian(data, 12, 4)), static_cast<int32_t>(getBigEndian(data, 8, 4)),
                 static_cast<int64_t>(getBigEndian(data, 0, 8))};
      return storeRaw(out, packInterval(intervalApplyTypmod(v, type.typmod)));
    }
    case TypeId::Array: return storeRaw(out, parseArrayBinary(type, data, arena));
    case TypeId::Record: anonymousRecordInput();
    case TypeId::Json: return storeRaw(out, jsonIn(data, arena));
    case TypeId::Jsonb: return storeRaw(out, jsonbRecv(data, arena));
  }
}

}  // namespace duet
