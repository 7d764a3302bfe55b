// duet_memory_bandwidth [MIB] [THREADS] [ROUNDS]: how fast this machine's cores read memory,
// the ceiling of a scan-bound query (TPC-H Q6, CH Q6: docs/benchmarks.md). Each thread sums
// the 64-bit words of its own slice of a buffer of MIB mebibytes (default 1024, far beyond
// the caches), all threads at once; the best of ROUNDS rounds (default 5) is printed as
// GB/s (10^9 bytes). The sum is printed too, so the compiler cannot drop the reads.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

uint64_t sumWords(const uint64_t* words, size_t count) {
  // Four independent sums, so the loop is bound by the loads, not by one add chain.
  uint64_t a = 0, b = 0, c = 0, d = 0;
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    a += words[i];
    b += words[i + 1];
    c += words[i + 2];
    d += words[i + 3];
  }
  for (; i < count; ++i) a += words[i];
  return a + b + c + d;
}

}  // namespace

int main(int argc, char** argv) {
  size_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
  unsigned threads = argc > 2 ? static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10))
                              : std::max(1u, std::thread::hardware_concurrency());
  int rounds = argc > 3 ? std::atoi(argv[3]) : 5;
  if (mib == 0 || threads == 0 || rounds <= 0) {
    std::fprintf(stderr, "usage: duet_memory_bandwidth [MIB] [THREADS] [ROUNDS]\n");
    return 2;
  }
  size_t words = mib * (size_t{1} << 20) / sizeof(uint64_t);
  std::vector<uint64_t> buffer(words);
  for (size_t i = 0; i < words; ++i) buffer[i] = i;  // touched: no page faults while timed

  double best = 0;
  uint64_t total = 0;
  for (int r = 0; r < rounds; ++r) {
    std::vector<uint64_t> sums(threads);
    std::vector<std::thread> pool;
    auto start = std::chrono::steady_clock::now();
    for (unsigned t = 0; t < threads; ++t) {
      size_t begin = words * t / threads, end = words * (t + 1) / threads;
      pool.emplace_back([&, t, begin, end] { sums[t] = sumWords(buffer.data() + begin, end - begin); });
    }
    for (auto& th : pool) th.join();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (uint64_t s : sums) total += s;
    best = std::max(best, static_cast<double>(words * sizeof(uint64_t)) / seconds / 1e9);
  }
  std::printf("threads %u, %zu MiB: best of %d rounds %.1f GB/s (checksum %llu)\n", threads, mib, rounds, best,
              static_cast<unsigned long long>(total));
  return 0;
}
