// One connection of duet_tpcc_driver: the five calls prepared once, then run one at a time
// in autocommit, with PostgreSQL's serialization failures and deadlocks retried.
#pragma once

#include <string>

#include "bench/tpcc/driver_mix.h"
#include "bench/tpcc/pg_copy.h"

namespace tpcc {

class Terminal final : public CallRunner {
 public:
  // Connects and prepares the statements; throws std::runtime_error if either fails.
  explicit Terminal(const ConnectionOptions& options);

  // Runs one call (one transaction: autocommit). A call that fails leaves no transaction
  // open, so the terminal goes on with the next; if the connection broke, it reconnects.
  Outcome run(const Call& call) override;

 private:
  void prepare();

  Connection connection_;
};

}  // namespace tpcc
