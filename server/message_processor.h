// The per-connection protocol state machine, run on the executor thread: it decodes a batch
// of framed frontend messages, drives the Session and encodes every response into one
// output buffer. The connection runs at most one batch at a time, so the state here is only
// ever touched by one executor task at once.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "session/session_api.h"
#include "snapshot/snapshot_manager.h"

namespace duet::wire {

class WireResultSink;

// A statement the session sent to a snapshot process: the batch stopped after its message,
// and the connection streams the snapshot's answer before it goes on.
struct SnapshotHandoff {
  SnapshotQuery query;
  std::shared_ptr<snapshot::SnapshotProcess> process;
  bool simpleQuery = false;  // a Query message: ReadyForQuery follows the answer
  // Statements of the Query after the routed one wait: they run on the executor once the
  // snapshot answered (Session::resumeQuery), so that step touches table data.
  bool continuesQuery = false;
  size_t consumed = 0;  // bytes of the batch handled, the handed-off message included
  // An Execute with a row limit: the snapshot's answer is not forwarded but collected here
  // (its messages whole), and the portal hands it out `pieceRows` rows at a time.
  std::string portal;
  int64_t pieceRows = 0;
  std::string answer;
};

class MessageProcessor {
 public:
  // `batch` holds complete messages (type byte, length, body). `violation`, when set, is a
  // malformed message that followed them: it is reported as FATAL after the batch.
  // Returns true when the connection must be closed once `out` is written.
  // A statement that goes to a snapshot ends the batch early: `handoff` says where, and
  // which snapshot (acquired here, on the executor, between two transactions). Beside
  // another session's open block (Executor::runningBesideHolder), a message that cannot
  // go to an existing snapshot ends it too, undone: `rest` says where it starts, and the
  // connection submits the rest again to run once the block has ended. Once `out` holds
  // kYieldAnswerAt bytes the batch ends too, so that the client gets them before the rest
  // runs: a pipeline's answers never pile up on the executor.
  struct Rest {
    size_t at;
    bool waitsForBlock;
  };
  static constexpr size_t kYieldAnswerAt = size_t{1} << 20;
  bool process(Session& session, std::string_view batch, const std::optional<std::string>& violation, std::string& out,
               snapshot::SnapshotManager* snapshots, std::optional<SnapshotHandoff>& handoff,
               std::optional<Rest>& rest);
  // Executor thread, after the snapshot's answer went to the client: a failed statement
  // fails the session's transaction as one run here would; ReadyForQuery ends a Query,
  // after the statements that followed the routed one ran (a next one that goes to a
  // snapshot too is handed off again: the result). For an Execute with a row limit, the
  // collected answer fills the portal and its first piece is sent.
  std::optional<SnapshotHandoff> snapshotAnswered(Session& session, const SnapshotHandoff& handoff, bool failed,
                                                  std::string& out, snapshot::SnapshotManager* snapshots);

 private:
  // Returns true when the connection must close.
  bool handle(Session& session, char type, std::string_view body, WireResultSink& sink, std::string& out);
  bool handleCopyMessage(Session& session, char type, std::string_view body, WireResultSink& sink, std::string& out);
  void simpleQuery(Session& session, std::string_view body, WireResultSink& sink, std::string& out);
  // One step of a simple Query (its start, or what follows a statement that went to a
  // snapshot), answered as its outcome asks: ReadyForQuery once it is done or failed;
  // nothing yet while it waits for COPY data or a snapshot (toSnapshot_ set).
  void queryStep(Session& session, const std::function<QueryState()>& step, WireResultSink& sink, std::string& out);
  void bind(Session& session, std::string_view body);
  void describe(Session& session, std::string_view body, std::string& out);
  void execute(Session& session, std::string_view body, WireResultSink& sink, std::string& out);
  // Leaves COPY IN mode after an error and reports it (ReadyForQuery for a simple query).
  void failCopy(Session& session, const SqlError& error, std::string& out);
  // Reports an extended-protocol error and starts skipping until Sync.
  void reportExtendedError(Session& session, const SqlError& error, std::string& out);

  // The rows of a collected snapshot answer go to the portal, then its first piece to `out`.
  void fillPortalFromSnapshot(Session& session, const SnapshotHandoff& handoff, bool failed, std::string& out);
  // Takes a snapshot for the session's pending snapshot query (a read-only block keeps
  // its first one); on failure reports the error as the statement's and returns nullopt.
  std::optional<SnapshotHandoff> handOff(Session& session, snapshot::SnapshotManager* snapshots, bool simpleQuery,
                                         std::string& out);

  bool skipTillSync_ = false;
  bool toSnapshot_ = false;     // the message just handled went to a snapshot
  std::string snapshotPortal_;  // and for an Execute, its portal and row limit (0: all)
  int64_t snapshotPieceRows_ = 0;
  // The snapshot of the session's open read-only block: every statement of it reads there.
  std::shared_ptr<snapshot::SnapshotProcess> blockSnapshot_;
  bool copyIn_ = false;
  bool copyFromSimpleQuery_ = false;
  std::string copyData_;
};

}  // namespace duet::wire
