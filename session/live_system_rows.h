// The rows of the live system relations (SystemRelation::fill null; docs/catalogs.md): the
// server's state now, which changes without DDL (sessions, counters, settings, snapshots),
// made before every statement that reads them. Such a statement stays on the executor:
// a snapshot's copy of this state is out of date. And the fill of every system table a
// plan reads, static or live, before it runs.
#pragma once
#include <vector>

#include "compiler/compiler.h"
#include "engine/catalog/system_relations.h"
#include "session/session_state.h"

namespace duet {

std::vector<SystemRow> liveSystemRows(const SystemRelation& relation, const SessionState& reader);

// Fills the system tables the plan reads whose rows may be stale (docs/catalogs.md): a live
// one always, a static one when the catalog version moved on since its last fill.
void fillSystemTables(SessionState& state, const PreparedPlan& plan);

}  // namespace duet
