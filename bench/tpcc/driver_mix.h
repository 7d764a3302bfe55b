// The TPC-C mix as the drivers run it: terminals drawing their inputs (driver_inputs.h) and
// transaction types by the --mix weights, each calling through a CallRunner until the run
// ends, with progress lines and the final report (driver_report.h). Shared by
// duet_tpcc_driver (a connection per terminal) and duet_tpcc_inprocess (one in-process
// session).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "bench/tpcc/driver_calls.h"
#include "bench/tpcc/driver_report.h"

namespace tpcc {

// What a terminal runs its calls with.
class CallRunner {
 public:
  virtual ~CallRunner() = default;
  // Runs one call as one transaction; reports failures in the Outcome rather than throwing.
  virtual Outcome run(const Call& call) = 0;
};

// The options both drivers share.
struct MixOptions {
  RunInfo info;
  std::string mixText = "45/43/4/4/4";
  double progress = 0;   // seconds between progress lines; 0: none
  std::string jsonPath;  // empty: no JSON
};

// Adds --duration, --warmup, --seed, --mix, --progress and --json (with the defaults already
// in options).
void addMixOptions(CLI::App& app, MixOptions& options);
// Reads --mix into options.info.mix; returns "" or what is wrong with it.
std::string parseMix(MixOptions& options);

// Runs the mix: terminal t calls through runners[t] on its own thread, drawing its inputs
// from generators seeded by info.seed and t, for warmup plus measured seconds; the calling
// thread prints the progress lines. Returns the figures of all terminals merged.
RunStats runMix(const std::vector<CallRunner*>& runners, const MixOptions& options);

// Prints the report and writes the JSON if asked; returns the exit status: 1 if a call
// failed or the JSON could not be written, else 0.
int reportMix(const MixOptions& options, const RunStats& stats);

}  // namespace tpcc
