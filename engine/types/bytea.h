// bytea: binary strings as PostgreSQL 15 has them. Text input in the hex format ('\x0a0b')
// and the escape format ('ab\\000', octal escapes), output as the bytea_output setting says,
// and the functions of the bytea category: encode/decode (hex, base64, escape), substring,
// position, get_byte/set_byte, the SHA-2 digests, convert_to/convert_from. A value is a
// VarString whose bytes are the value (type_id.h), so ordering is memcmp order, shorter first
// on a tie, as byteacmp (textCompare).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/types/type_context.h"

namespace duet {

// byteain: 22023 for bad hex digits or an odd count, 22P02 for a stray backslash.
std::string parseBytea(std::string_view text);
// byteaout: '\x' and lower-case hex, or the escape format (octal for bytes outside 0x20..0x7e).
void formatBytea(std::string_view bytes, ByteaOutput style, std::string& out);

// encode(bytes, format) and decode(text, format): 'hex', 'base64' (76-character lines) and
// 'escape'; 22023 unrecognized encoding.
std::string byteaEncode(std::string_view bytes, std::string_view format);
std::string byteaDecode(std::string_view text, std::string_view format);

// substring(bytes FROM start [FOR count]) with PostgreSQL's bounds (count < 0: 22011).
std::string_view byteaSubstring(std::string_view bytes, int32_t start);
std::string_view byteaSubstring(std::string_view bytes, int32_t start, int32_t count);
// position(needle IN bytes): 1-based, 0 when absent, 1 for an empty needle.
int32_t byteaPosition(std::string_view bytes, std::string_view needle);
// get_byte / set_byte: index 0-based; 2202E "index n out of valid range, 0..len-1".
int32_t byteaGetByte(std::string_view bytes, int32_t index);
std::string byteaSetByte(std::string_view bytes, int32_t index, int32_t value);

// sha224/sha256/sha384/sha512 (OpenSSL's EVP): the raw digest.
enum class ShaKind : uint8_t { Sha224, Sha256, Sha384, Sha512 };
std::string shaDigest(std::string_view bytes, ShaKind kind);

// convert_to(text, encoding) and convert_from(bytes, encoding), for the server encoding
// UTF8 (and its aliases, as pg_char_to_encoding cleans them: 'utf-8', 'Unicode'); other
// encodings are 22023 invalid source/destination encoding name.
void checkConversionEncoding(std::string_view name, bool destination);

}  // namespace duet
