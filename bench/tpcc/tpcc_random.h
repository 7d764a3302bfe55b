// Random values as the TPC-C specification defines them (clause 4.3.2 for the population,
// clause 2.1.6 for NURand). Used by the loader and the driver; header-only, no state beyond
// the engine.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tpcc {

// The C_LAST constant C used while loading (clause 2.1.6: C_LOAD). The drivers' C_RUN for
// C_LAST must differ from it by 65..119, but neither 96 nor 112 (run_pgbench.sh uses 84).
constexpr int kCLastLoad = 157;

// The run-time constants C_RUN of the drivers (duet_tpcc_driver; run_pgbench.sh passes the
// same numbers with -D): C_LAST's differs from kCLastLoad by 73; C_ID's and OL_I_ID's are
// free (the load does not draw them with NURand).
constexpr int kCLastRun = 84;
constexpr int kCIdRun = 259;
constexpr int kOlIIdRun = 7911;
constexpr int kCLastDelta = kCLastLoad > kCLastRun ? kCLastLoad - kCLastRun : kCLastRun - kCLastLoad;
static_assert(kCLastDelta >= 65 && kCLastDelta <= 119 && kCLastDelta != 96 && kCLastDelta != 112,
              "clause 2.1.6.1: C_RUN for C_LAST must be 65..119 away from C_LOAD, not 96 or 112");

// Characters of an a-string (clause 4.3.2.2 asks for at least the 26 lower- and upper-case
// letters and the 10 digits). None of them needs escaping in COPY's text format.
constexpr std::string_view kAlphanumeric = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

class Random {
 public:
  // One generator per piece of the population (a table of one warehouse, say), seeded from
  // the run's seed and that piece's identity, so a piece's rows do not depend on which thread
  // makes them or in which order. xoshiro256** (Blackman and Vigna), seeded by splitmix64,
  // is fully specified by its definition, so the rows are the same on every platform; it is
  // also a few times cheaper than mt19937_64, whose refills showed in the driver's profile.
  Random(std::uint64_t seed, std::uint64_t piece, std::uint64_t warehouse) {
    std::uint64_t mix = seed ^ (piece * 0x9e3779b97f4a7c15ULL) ^ (warehouse * 0xc2b2ae3d27d4eb4fULL);
    for (std::uint64_t& word : state_) word = splitmix64(mix);
  }

  // Uniform in [lo, hi]. The modulo bias is below 2^-40 for the ranges used here, and unlike
  // std::uniform_int_distribution the result is specified, not implementation-defined.
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }

  bool percent(int p) { return uniform(1, 100) <= p; }

  // "random a-string [x .. y]": alphanumeric characters, length uniform in [x, y].
  std::string aString(int minLen, int maxLen) { return fromAlphabet(kAlphanumeric, minLen, maxLen); }

  // "random n-string [x .. y]": digits, length uniform in [x, y].
  std::string nString(int minLen, int maxLen) { return fromAlphabet("0123456789", minLen, maxLen); }

  // Clause 2.1.6: NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x.
  int nurand(int a, int x, int y, int c) {
    return static_cast<int>((((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1)) + x);
  }

  // Clause 4.3.2.7: a zip code is a random n-string of 4 digits followed by "11111".
  std::string zip() { return nString(4, 4) + "11111"; }

  // I_DATA and S_DATA (clause 4.3.3.1): a-string [26 .. 50], in 10% of the rows with
  // "ORIGINAL" at a random position.
  std::string dataWithOriginal() {
    std::string data = aString(26, 50);
    if (percent(10)) {
      constexpr std::string_view kOriginal = "ORIGINAL";
      data.replace(static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(data.size() - kOriginal.size()))),
                   kOriginal.size(), kOriginal);
    }
    return data;
  }

 private:
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  std::uint64_t next() {
    std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  std::string fromAlphabet(std::string_view alphabet, int minLen, int maxLen) {
    std::string s(static_cast<std::size_t>(uniform(minLen, maxLen)), ' ');
    for (char& ch : s)
      ch = alphabet[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(alphabet.size() - 1)))];
    return s;
  }

  std::uint64_t state_[4];
};

// Clause 4.3.2.3: C_LAST is the concatenation of the syllables for the three digits of a
// number in [0, 999], e.g. 371 -> "PRICALLYOUGHT".
inline std::string lastName(int number) {
  static constexpr std::string_view kSyllables[] = {"BAR", "OUGHT", "ABLE",  "PRI",   "PRES",
                                                    "ESE", "ANTI",  "CALLY", "ATION", "EING"};
  std::string name;
  name += kSyllables[number / 100];
  name += kSyllables[number / 10 % 10];
  name += kSyllables[number % 10];
  return name;
}

}  // namespace tpcc
