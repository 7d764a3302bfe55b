// Converting byte offsets into the positions PostgreSQL reports: 1-based, counted in
// characters (UTF-8 code points) from the start of the whole query string.
#pragma once
#include <cstdint>
#include <string_view>

namespace duet::sql {

inline int sqlPosition(std::string_view query, uint32_t byteOffset) {
  if (byteOffset > query.size()) byteOffset = static_cast<uint32_t>(query.size());
  int chars = 0;
  for (uint32_t i = 0; i < byteOffset; ++i)
    if ((static_cast<unsigned char>(query[i]) & 0xC0) != 0x80) ++chars;
  return chars + 1;
}

}  // namespace duet::sql
