// Turns the exception being handled into the SqlError a client is sent: engine errors pass
// through, anything else becomes out-of-memory or an internal error.
#pragma once
#include <exception>
#include <new>

#include "engine/error.h"

namespace duet::wire {

// Call only inside a catch block.
inline SqlError currentError() {
  try {
    throw;
  } catch (const SqlError& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return SqlError(sqlstate::kOutOfMemory, "out of memory");
  } catch (const std::exception& e) {
    return SqlError(sqlstate::kInternalError, e.what());
  } catch (...) {
    return SqlError(sqlstate::kInternalError, "unknown internal error");
  }
}

}  // namespace duet::wire
