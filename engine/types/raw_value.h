// Unaligned-safe reads and writes of a value's physical representation (value.h), for the
// type library's functions that take values as `const void*`.
#pragma once
#include <cstring>

namespace duet {

template <typename T>
T loadRaw(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
void storeRaw(void* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

}  // namespace duet
