// What every child fork()ed from the executor does first, snapshot or archive writer: only
// the executor thread came along, so the child detaches from what the server's other
// threads own.
#pragma once
#include <sys/types.h>

namespace duet::snapshot {

// Dies with the server (and exits at once if the server is already gone); takes `name` as
// its thread name; keeps descriptors below keepBelow (stdio, and the caller's own) and
// closes the rest, as a copy of a client's socket would keep that connection open; default
// signal handling, SIGPIPE ignored; CPU priority `nice`, below the executor's; first in
// line for the OOM killer.
void becomeForkedChild(pid_t parent, const char* name, int keepBelow, int nice);

}  // namespace duet::snapshot
