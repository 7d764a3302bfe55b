#include "engine/invariant.h"

#include <fmt/format.h>

#include "engine/error.h"

namespace duet {

void failInvariant(const char* what, const char* file, int line) {
  throw SqlError(sqlstate::kInternalError, fmt::format("internal error: {} ({}:{})", what, file, line));
}

}  // namespace duet
