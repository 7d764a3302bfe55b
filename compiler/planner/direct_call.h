// Recognising a planned statement that is one routine call on its parameters
// (DirectCall, planner.h), so the session can skip the plan's code for it.
#pragma once
#include <optional>
#include <vector>

#include "compiler/planner/planner.h"

namespace duet {

// A smallint or integer parameter passed to a wider integer argument: the one conversion
// a direct call makes itself (exact for every value). Drivers send small numbers as
// smallint (psycopg does), so a call of an integer function usually needs it.
bool widensInteger(const SqlType& from, const SqlType& to);

// The DirectCall that the plan rooted at `root` amounts to, or nullopt. `paramTypes` are
// the statement's parameter types as decided.
std::optional<DirectCall> directCallOf(const plan::Node& root, const std::vector<SqlType>& paramTypes);

}  // namespace duet
