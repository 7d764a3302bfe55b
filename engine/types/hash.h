// Hash helpers shared by the value hash functions: 64-bit, well mixed, seedless.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace duet {

// SplitMix64's finaliser: a bijective mix, good avalanche for integer keys.
inline uint64_t hashMix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// MurmurHash64A (Austin Appleby, public domain) over a byte range.
inline uint64_t hashBytes(const void* key, size_t len, uint64_t seed = 0x9747b28c) {
  const uint64_t m = 0xc6a4a7935bd1e995ULL;
  const int r = 47;
  uint64_t h = seed ^ (len * m);
  const unsigned char* p = static_cast<const unsigned char*>(key);
  const unsigned char* end = p + (len / 8) * 8;
  for (; p != end; p += 8) {
    uint64_t k;
    std::memcpy(&k, p, 8);
    k *= m;
    k ^= k >> r;
    k *= m;
    h ^= k;
    h *= m;
  }
  uint64_t tail = 0;
  switch (len & 7) {
    case 7: tail ^= uint64_t(p[6]) << 48; [[fallthrough]];
    case 6: tail ^= uint64_t(p[5]) << 40; [[fallthrough]];
    case 5: tail ^= uint64_t(p[4]) << 32; [[fallthrough]];
    case 4: tail ^= uint64_t(p[3]) << 24; [[fallthrough]];
    case 3: tail ^= uint64_t(p[2]) << 16; [[fallthrough]];
    case 2: tail ^= uint64_t(p[1]) << 8; [[fallthrough]];
    case 1:
      tail ^= uint64_t(p[0]);
      h ^= tail;
      h *= m;
  }
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return h;
}

}  // namespace duet
