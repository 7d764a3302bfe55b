// bytea input, output and functions, transcribed from PostgreSQL 15's varlena.c (byteain,
// byteaout, bytea_substring, byteapos, byteaGetByte/SetByte), encode.c (hex, base64 and
// escape codings) and cryptohashfuncs.c.
#include "engine/types/bytea.h"

#include <openssl/evp.h>

#include <algorithm>

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/types/strings.h"

namespace duet {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

[[noreturn]] void invalidBytea() {
  throw SqlError(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type bytea");
}

// The bytes of the (UTF-8) character at `at`, as PostgreSQL quotes a bad one (pg_mblen).
std::string_view characterAt(std::string_view s, size_t at) {
  auto lead = static_cast<unsigned char>(s[at]);
  size_t n = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
  return s.substr(at, n);
}

int hexValue(std::string_view s, size_t at) {
  if (int v = hexDigitValue(s[at]); v >= 0) return v;
  throw SqlError(sqlstate::kInvalidParameterValue,
                 fmt::format("invalid hexadecimal digit: \"{}\"", characterAt(s, at)));
}

// hex_decode: pairs of hex digits; blanks between the pairs are skipped.
std::string hexDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size() / 2);
  for (size_t i = 0; i < s.size();) {
    if (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r') {
      ++i;
      continue;
    }
    int high = hexValue(s, i++);
    if (i >= s.size())
      throw SqlError(sqlstate::kInvalidParameterValue, "invalid hexadecimal data: odd number of digits");
    int low = hexValue(s, i++);
    out.push_back(static_cast<char>((high << 4) | low));
  }
  return out;
}

void hexEncode(std::string_view bytes, std::string& out) {
  for (unsigned char c : bytes) {
    out.push_back(kHexDigits[c >> 4]);
    out.push_back(kHexDigits[c & 15]);
  }
}

bool isOctal(char c, char highest = '7') { return c >= '0' && c <= highest; }

// The escape format's reading (byteain and esc_decode alike): a backslash is followed by
// another one or by three octal digits, the first at most 3.
std::string escapeDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s[i] != '\\') {
      out.push_back(s[i++]);
    } else if (i + 3 < s.size() && isOctal(s[i + 1], '3') && isOctal(s[i + 2]) && isOctal(s[i + 3])) {
      out.push_back(static_cast<char>(((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) | (s[i + 3] - '0')));
      i += 4;
    } else if (i + 1 < s.size() && s[i + 1] == '\\') {
      out.push_back('\\');
      i += 2;
    } else {
      invalidBytea();
    }
  }
  return out;
}

// esc_encode: NUL and bytes with the high bit set as octal, the backslash doubled.
void escapeEncode(std::string_view bytes, std::string& out) {
  for (unsigned char c : bytes) {
    if (c == 0 || c >= 0x80) {
      out.push_back('\\');
      out.push_back(static_cast<char>('0' + (c >> 6)));
      out.push_back(static_cast<char>('0' + ((c >> 3) & 7)));
      out.push_back(static_cast<char>('0' + (c & 7)));
    } else if (c == '\\') {
      out.append("\\\\");
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
}

// pg_base64_encode: a newline after every 76 characters written, checked after each byte
// read (so 57 bytes end with one).
std::string base64Encode(std::string_view bytes) {
  std::string out;
  size_t lineEnd = 76;
  int pos = 2;
  uint32_t buf = 0;
  for (unsigned char c : bytes) {
    buf |= uint32_t{c} << (pos * 8);
    if (--pos < 0) {
      for (int shift : {18, 12, 6, 0}) out.push_back(kBase64[(buf >> shift) & 0x3f]);
      pos = 2;
      buf = 0;
    }
    if (out.size() >= lineEnd) {
      out.push_back('\n');
      lineEnd = out.size() + 76;
    }
  }
  if (pos != 2) {
    out.push_back(kBase64[(buf >> 18) & 0x3f]);
    out.push_back(kBase64[(buf >> 12) & 0x3f]);
    out.push_back(pos == 0 ? kBase64[(buf >> 6) & 0x3f] : '=');
    out.push_back('=');
  }
  return out;
}

int base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// pg_base64_decode: blanks skipped; '=' ends the data after two or three symbols of a group.
std::string base64Decode(std::string_view s) {
  std::string out;
  uint32_t buf = 0;
  int pos = 0, end = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    int b = 0;
    if (c == '=') {
      if (!end) {
        if (pos == 2)
          end = 1;
        else if (pos == 3)
          end = 2;
        else
          throw SqlError(sqlstate::kInvalidParameterValue, "unexpected \"=\" while decoding base64 sequence");
      }
    } else {
      b = base64Value(c);
      if (b < 0)
        throw SqlError(sqlstate::kInvalidParameterValue,
                       fmt::format("invalid symbol \"{}\" found while decoding base64 sequence", characterAt(s, i)));
    }
    buf = (buf << 6) + static_cast<uint32_t>(b);
    if (++pos == 4) {
      out.push_back(static_cast<char>((buf >> 16) & 255));
      if (end == 0 || end > 1) out.push_back(static_cast<char>((buf >> 8) & 255));
      if (end == 0 || end > 2) out.push_back(static_cast<char>(buf & 255));
      buf = 0;
      pos = 0;
    }
  }
  if (pos != 0)
    throw SqlError(sqlstate::kInvalidParameterValue, "invalid base64 end sequence", {},
                   "Input data is missing padding, is truncated, or is otherwise corrupted.");
  return out;
}

[[noreturn]] void unrecognizedEncoding(std::string_view format) {
  throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("unrecognized encoding: \"{}\"", format));
}

[[noreturn]] void indexOutOfRange(int32_t index, size_t len) {
  throw SqlError("2202E", fmt::format("index {} out of valid range, 0..{}", index, static_cast<int64_t>(len) - 1));
}

}  // namespace

std::string parseBytea(std::string_view text) {
  if (text.size() >= 2 && text[0] == '\\' && text[1] == 'x') return hexDecode(text.substr(2));
  return escapeDecode(text);
}

void formatBytea(std::string_view bytes, ByteaOutput style, std::string& out) {
  if (style == ByteaOutput::Hex) {
    out.append("\\x");
    return hexEncode(bytes, out);
  }
  // byteaout's escape style: printable ASCII as is, the backslash doubled, the rest octal.
  for (unsigned char c : bytes) {
    if (c == '\\') {
      out.append("\\\\");
    } else if (c < 0x20 || c > 0x7e) {
      out.push_back('\\');
      out.push_back(static_cast<char>('0' + (c >> 6)));
      out.push_back(static_cast<char>('0' + ((c >> 3) & 7)));
      out.push_back(static_cast<char>('0' + (c & 7)));
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
}

std::string byteaEncode(std::string_view bytes, std::string_view format) {
  std::string out;
  if (format == "hex")
    hexEncode(bytes, out);
  else if (format == "base64")
    out = base64Encode(bytes);
  else if (format == "escape")
    escapeEncode(bytes, out);
  else
    unrecognizedEncoding(format);
  return out;
}

std::string byteaDecode(std::string_view text, std::string_view format) {
  if (format == "hex") return hexDecode(text);
  if (format == "base64") return base64Decode(text);
  if (format == "escape") return escapeDecode(text);
  unrecognizedEncoding(format);
}

std::string_view byteaSubstring(std::string_view bytes, int32_t start) {
  int64_t from = std::max<int64_t>(start, 1) - 1;
  return from >= static_cast<int64_t>(bytes.size()) ? std::string_view{} : bytes.substr(static_cast<size_t>(from));
}

std::string_view byteaSubstring(std::string_view bytes, int32_t start, int32_t count) {
  if (count < 0) throw SqlError("22011", "negative substring length not allowed");
  int64_t end = int64_t{start} + count;  // exclusive, 1-based; no overflow in 64 bits
  if (end < 1) return {};
  int64_t from = std::max<int64_t>(start, 1) - 1;
  int64_t size = static_cast<int64_t>(bytes.size());
  if (from >= size) return {};
  return bytes.substr(static_cast<size_t>(from), static_cast<size_t>(std::min(end - 1, size) - from));
}

int32_t byteaPosition(std::string_view bytes, std::string_view needle) {
  if (needle.empty()) return 1;
  size_t at = bytes.find(needle);
  return at == std::string_view::npos ? 0 : static_cast<int32_t>(at) + 1;
}

int32_t byteaGetByte(std::string_view bytes, int32_t index) {
  if (index < 0 || static_cast<size_t>(index) >= bytes.size()) indexOutOfRange(index, bytes.size());
  return static_cast<unsigned char>(bytes[static_cast<size_t>(index)]);
}

std::string byteaSetByte(std::string_view bytes, int32_t index, int32_t value) {
  if (index < 0 || static_cast<size_t>(index) >= bytes.size()) indexOutOfRange(index, bytes.size());
  std::string out(bytes);
  out[static_cast<size_t>(index)] = static_cast<char>(value);
  return out;
}

std::string shaDigest(std::string_view bytes, ShaKind kind) {
  const EVP_MD* md = kind == ShaKind::Sha224   ? EVP_sha224()
                     : kind == ShaKind::Sha256 ? EVP_sha256()
                     : kind == ShaKind::Sha384 ? EVP_sha384()
                                               : EVP_sha512();
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!EVP_Digest(bytes.data(), bytes.size(), digest, &size, md, nullptr))
    throw SqlError(sqlstate::kInternalError, "could not compute SHA-2 hash");
  return std::string(reinterpret_cast<const char*>(digest), size);
}

void checkConversionEncoding(std::string_view name, bool destination) {
  // clean_encoding_name: letters and digits only, lower case.
  std::string clean;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) clean.push_back(c);
  }
  if (clean == "utf8" || clean == "unicode") return;
  throw SqlError(sqlstate::kInvalidParameterValue,
                 fmt::format("invalid {} encoding name \"{}\"", destination ? "destination" : "source", name));
}

}  // namespace duet
