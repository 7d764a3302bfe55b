// The extended query protocol (docs/session.md): Parse plans a statement at once and keeps
// it as a prepared statement, Bind makes a portal of it with its parameter tuple, Execute
// runs the portal through the StatementRunner (or hands it to a snapshot: SnapshotRouter),
// Sync ends the cycle's implicit transaction. The prepared statements and portals are in
// SessionState (DEALLOCATE and DISCARD drop them too); this part keeps the unnamed
// portal's memory from one cycle to the next.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "session/session_state.h"
#include "session/snapshot_router.h"
#include "session/statement.h"
#include "session/statement_planner.h"
#include "session/statement_runner.h"
#include "session/transaction_control.h"

namespace duet {

class ExtendedProtocol {
 public:
  ExtendedProtocol(SessionState& state, TransactionControl& transaction, StatementPlanner& planner,
                   StatementRunner& runner, SnapshotRouter& router)
      : state_(state), transaction_(transaction), planner_(planner), runner_(runner), router_(router) {}

  // The Session calls of the same names.
  void parse(const std::string& name, std::string_view sql, const std::vector<uint32_t>& paramTypeOids);
  // Parse's work, without its timeout: PREPARE name [(types)] AS statement too.
  void prepare(const std::string& name, std::string_view sql, const std::vector<uint32_t>& paramTypeOids);
  void bind(const std::string& portal, const std::string& statement, const std::vector<BindParam>& params,
            const std::vector<int16_t>& resultFormats);
  StatementDescription describeStatement(const std::string& name);
  StatementDescription describePortal(const std::string& name);
  ExecuteState execute(const std::string& portal, int64_t maxRows, ResultSink& sink);
  void closeStatement(const std::string& name);
  // A Close of a portal closes a cursor of that name too, as in PostgreSQL.
  void closePortal(const std::string& name) {
    if (!state_.portals.erase(name)) state_.cursors.erase(name);
  }
  void fillPortal(const std::string& portal, std::vector<std::vector<std::optional<std::string>>> rows,
                  std::string tag);
  void sync();

 private:
  Portal takeUnnamedPortal();
  // The plan an EXECUTE statement runs (its Describe), or null.
  const PreparedPlan* executedPlan(const sql::Stmt& stmt) const;

  SessionState& state_;
  TransactionControl& transaction_;
  StatementPlanner& planner_;
  StatementRunner& runner_;
  SnapshotRouter& router_;
  // The last unnamed portal's map node, with its parameter tuple and format vector, kept
  // by sync() for the next bind(): a client's call (Bind, Execute, Sync) allocates nothing
  // for its portal.
  std::map<std::string, Portal>::node_type spareUnnamedPortal_;
};

}  // namespace duet
