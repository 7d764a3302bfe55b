// The rows of the live system relations (SystemRelation::fill null; docs/catalogs.md): the
// server's state now, which changes without DDL (sessions, counters, settings, snapshots),
// made before every statement that reads them. Such a statement stays on the executor:
// a snapshot's copy of this state is out of date.
#pragma once
#include <vector>

#include "engine/catalog/system_relations.h"
#include "session/session_state.h"

namespace duet {

std::vector<SystemRow> liveSystemRows(const SystemRelation& relation, const SessionState& reader);

}  // namespace duet
