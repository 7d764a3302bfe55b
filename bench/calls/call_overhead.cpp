// duet_call_overhead: what the engine spends on one call of a trivial function, without
// the network. An engine and a session in this process; `ident(a int)` returns its
// argument; each mode times N calls after a warmup and prints nanoseconds per call:
//   prepared-direct   Bind + Execute + Sync of a prepared `SELECT ident($1)` (direct call)
//   prepared-plan     the same with duet.direct_calls = off (the plan's code calls it)
//   simple            a simple Query `SELECT ident(<n>)` (parse, plan-cache lookup, call)
//   simple-plan       the same with duet.direct_calls = off
// Modes alternate in rounds, so a noisy machine disturbs them alike.
//
//   duet_call_overhead [CALLS per mode and round, default 200000] [ROUNDS, default 3]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "session/sql_engine.h"

namespace {

class CountingSink final : public duet::IgnoringSink {
 public:
  long rows = 0;
  void dataRow(const duet::Field*, std::size_t) override { ++rows; }
};

struct Mode {
  const char* name;
  bool prepared;
  bool direct;
};

double nsPerCall(duet::Session& s, const Mode& mode, long calls, CountingSink& sink) {
  s.simpleQuery(mode.direct ? "SET duet.direct_calls = on" : "SET duet.direct_calls = off", sink);
  std::vector<duet::BindParam> params(1);
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < calls; ++i) {
    if (mode.prepared) {
      params[0].value = std::to_string(i);
      s.bind("", "call", params, {});
      s.execute("", 0, sink);
      s.sync();
    } else {
      s.simpleQuery("SELECT ident(" + std::to_string(i) + ")", sink);
    }
  }
  std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
  return elapsed.count() / static_cast<double>(calls);
}

}  // namespace

int main(int argc, char** argv) {
  long calls = argc > 1 ? std::atol(argv[1]) : 200000;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  auto engine = duet::createSqlEngine(duet::EngineConfig{"/tmp/duet_call_overhead", 0});
  auto session = engine->openSession({{"user", "postgres"}, {"database", "postgres"}});
  CountingSink sink;
  session->simpleQuery("CREATE FUNCTION ident(a int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN a; END $$", sink);
  session->parse("call", "SELECT ident($1)", {23});
  const Mode modes[] = {{"prepared-direct", true, true},
                        {"prepared-plan", true, false},
                        {"simple", false, true},
                        {"simple-plan", false, false}};
  for (const Mode& m : modes) nsPerCall(*session, m, calls / 10 + 1, sink);  // warm up, compile
  for (int r = 0; r < rounds; ++r) {
    std::printf("round %d:", r + 1);
    for (const Mode& m : modes) std::printf("  %s %.0f ns", m.name, nsPerCall(*session, m, calls, sink));
    std::printf("\n");
  }
  return sink.rows > 0 ? 0 : 1;
}
