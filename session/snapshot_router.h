// Snapshot routing (docs/session.md, docs/snapshots.md): which read-only statements leave
// the executor for a fork()ed snapshot process, and the SnapshotQuery the server runs
// there. Decides on a statement of a simple Query (routeStatement) or a portal's
// (routeExecute); a routed statement of an implicit transaction ends that transaction
// first. Also says whether the session's open block holds the executor, as a read-only
// block served by snapshots does not. Owns the SnapshotQuery until the server takes it.
#pragma once
#include <memory>
#include <vector>

#include "compiler/compiler.h"
#include "session/redo_recorder.h"
#include "session/routine_cache.h"
#include "session/session_state.h"
#include "session/statement.h"
#include "session/statement_planner.h"
#include "session/transaction_control.h"

namespace duet {

class SnapshotRouter {
 public:
  SnapshotRouter(SessionState& state, TransactionControl& transaction, StatementPlanner& planner,
                 RoutineCache& routines, RedoRecorder& redo)
      : state_(state), transaction_(transaction), planner_(planner), routines_(routines), redo_(redo) {}

  // Session::holdsExecutor: an open block that has run a statement, unless it is a
  // read-only block that snapshots serve.
  bool holdsExecutor() const;
  // True (and the SnapshotQuery set) when a statement of a simple Query, or a portal's, goes
  // to a snapshot. A Query's statement goes there wherever it stands in the message, as
  // long as its implicit transaction has changed nothing yet (that transaction then ends:
  // the statements after it start a new one once the snapshot answered).
  bool routeStatement(Statement& st);
  bool routeExecute(Portal& p);
  SnapshotQuery takeSnapshotQuery();

 private:
  bool routingOn() const;
  bool readOnlyBlock() const;
  // The statement's cached plan (kept in st.plan), else a plan tree without code.
  std::shared_ptr<const PreparedPlan> routingPlan(Statement& st);
  // Whether the plans of one statement or Query go to a snapshot: never when they read
  // server state (duet_snapshots); in a read-only block always; else when they walk at
  // least duet.snapshot_min_rows rows (or routing is `always`) and cannot write.
  bool goesToSnapshot(const std::vector<std::shared_ptr<const PreparedPlan>>& plans, bool block) const;
  // A statement of a read-only block goes to its snapshot: the block counts as having read.
  void noteBlockSnapshot(bool block);
  // Whether a snapshot can be had for a routed statement without a fork, where a fork is
  // not allowed (SessionState::besideHolder).
  bool snapshotAvailable(bool block) const;
  SnapshotQuery snapshotQueryBase(bool block) const;

  SessionState& state_;
  TransactionControl& transaction_;
  StatementPlanner& planner_;
  RoutineCache& routines_;
  RedoRecorder& redo_;
  SnapshotQuery snapshotQuery_;
};

}  // namespace duet
