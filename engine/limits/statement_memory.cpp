#include "engine/limits/statement_memory.h"

#include <fmt/format.h>

#include "engine/error.h"

namespace duet {

namespace {
struct StatementMemory {
  int64_t limit = 0;    // bytes; 0: none
  int64_t working = 0;  // held by the running statement's runtime structures
  int64_t answer = 0;   // written for the client by the current message
  int depth = 0;        // nested scopes
};
thread_local StatementMemory tMemory;

[[noreturn]] void raiseOutOfMemory(size_t request) {
  throw SqlError(sqlstate::kOutOfMemory, "out of memory",
                 fmt::format("Failed on request of size {}: the statement would hold more than "
                             "duet.executor_memory_limit ({} kB).",
                             request, tMemory.limit / 1024),
                 "Queries that read many rows run on snapshots (duet.snapshot_routing), which have "
                 "a limit of their own; the limit is a setting.");
}

void check(size_t request, int64_t after) {
  if (tMemory.limit > 0 && after > tMemory.limit) raiseOutOfMemory(request);
}
}  // namespace

StatementMemoryScope::StatementMemoryScope(int64_t limitBytes) : savedLimit_(tMemory.limit) {
  if (tMemory.depth++ == 0) tMemory.working = 0;
  tMemory.limit = limitBytes;
}

StatementMemoryScope::~StatementMemoryScope() {
  --tMemory.depth;
  tMemory.limit = savedLimit_;
}

void chargeStatementMemory(size_t bytes) {
  int64_t after = tMemory.working + static_cast<int64_t>(bytes);
  check(bytes, after + tMemory.answer);
  tMemory.working = after;
}

void releaseStatementMemory(size_t bytes) {
  tMemory.working = std::max<int64_t>(0, tMemory.working - static_cast<int64_t>(bytes));
}

void chargeAnswerMemory(size_t bytes) {
  int64_t after = tMemory.answer + static_cast<int64_t>(bytes);
  check(bytes, after + tMemory.working);
  tMemory.answer = after;
}

void startMessageAnswer() { tMemory.answer = 0; }

}  // namespace duet
