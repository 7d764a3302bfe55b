// The direct-call path of StatementRunner: a statement that is one routine call on its
// parameters (PreparedPlan::directCall, recognised by the planner) runs the routine on the
// parameter tuple itself and encodes its result as it comes back, instead of running the
// plan's code. Owns the encoder every such call reuses.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/compiler.h"
#include "session/routine_cache.h"
#include "session/session_state.h"
#include "session/value_io.h"

namespace duet {

class DirectCaller {
 public:
  DirectCaller(SessionState& state, RoutineCache& routines) : state_(state), routines_(routines) {}

  // Sends the rows and the tag and returns true, or returns false having sent nothing when
  // the compiled routine does not match the plan (the caller runs the plan instead).
  bool call(PreparedPlan& plan, const uint8_t* params, const std::vector<int16_t>& formats, ResultSink& sink);

 private:
  SessionState& state_;
  RoutineCache& routines_;
  RowEncoder encoder_;
};

}  // namespace duet
