// A session's temporary objects (docs/sql.md, "Temporary tables"): the tables, views and
// sequences of its schema pg_temp_N, which only its own names reach, dropped by DISCARD
// TEMP and at the session's end, and the tables' ON COMMIT actions. Every drop goes through
// the transaction's undo log, like any DDL. Needs only the SessionState.
#pragma once
#include "session/session_state.h"

namespace duet {

class TempObjects {
 public:
  explicit TempObjects(SessionState& state) : state_(state) {}

  // DISCARD TEMP: every temporary object, then the schema; true when there was one.
  bool dropAll();
  // At commit: ON COMMIT DELETE ROWS tables lose their rows, ON COMMIT DROP ones go (with
  // the temporary views that read them); true when a table went (DDL).
  bool atCommit();

 private:
  // A temporary table with what depends on it: the views that read it and the foreign keys
  // that reference it.
  void dropTable(TableInfo& table);

  SessionState& state_;
};

}  // namespace duet
