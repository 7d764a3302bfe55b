// TPC-C consistency conditions 1-4 (clauses 3.3.2.1 to 3.3.2.4) on an in-process session,
// as check.py checks them over the wire: the same single-table aggregates, compared here.
#pragma once

#include "bench/tpcc/inprocess_session.h"

namespace tpcc {

// Prints one line per condition (and up to ten places where one broke) to stdout; returns
// false if any is broken. Throws std::runtime_error if a query fails.
bool checkConsistency(InProcessDb& db);

}  // namespace tpcc
