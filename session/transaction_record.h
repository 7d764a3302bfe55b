// What the redo log keeps of a committed write transaction (docs/logging.md): not its row
// changes but its inputs, in the order they ran, so that running them again on the state
// the transaction started from gives the same state (the executor is serial and every
// statement deterministic once its time and random inputs are fixed). The log itself
// (logging/) stores the encoded record as opaque bytes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace duet {

struct LoggedStatement {
  std::string sql;  // one statement's text; literals stay in it (the simple protocol)
  // Extended protocol: the declared types of $1..$n and the values bound, as text.
  std::vector<uint32_t> paramTypeOids;
  std::vector<std::optional<std::string>> params;
  // The session's settings that were not at their default when it ran (search_path,
  // TimeZone, DateStyle, ...): they decide how its text is read and its values computed.
  std::vector<std::pair<std::string, std::string>> settings;
  // Its nondeterministic inputs: statement_timestamp(), random()'s state when it began,
  // and the clock_timestamp() offsets (microseconds after now()) it read, in order.
  int64_t statementTimestamp = 0;
  uint64_t randomState = 0;
  std::vector<int64_t> clockOffsets;
  // The answers its advisory lock requests got, in order (session/advisory_locks.h).
  std::vector<bool> lockOutcomes;
  std::optional<std::string> copyData;  // COPY ... FROM STDIN: the data it read
  // Not written to the log: DECLARE, FETCH, MOVE or CLOSE of this cursor, kept in the
  // record only if a statement of the transaction used it in WHERE CURRENT OF
  // (RedoRecorder::keepCursorStatements).
  std::string cursor;
};

struct LoggedTransaction {
  std::string database;
  std::string user;
  int64_t startTimestamp = 0;  // now()
  std::vector<LoggedStatement> statements;
  // The server run that wrote it (its start, EngineState::startTimestamp): a replay that
  // reaches a later run's records ends the temporary objects of every earlier run's
  // sessions, which that run's end took along.
  int64_t serverStart = 0;
  // A transaction of a session that has had temporary objects (docs/logging.md,
  // "Temporary tables"): its number in its server run (TempSessionId, 0 for any other
  // session) and the name of its temporary schema. Replay runs such records in a session
  // of their own, which keeps that schema.
  uint64_t tempSession = 0;
  std::string tempSchema;
  // Its txid_current() (0: it asked for none). A record without statements only says that
  // ids up to this one were handed out (an archive's first record).
  uint64_t transactionId = 0;
  // A CALL whose procedures ended transactions (COMMIT / ROLLBACK inside them) logs each of
  // its transactions, committed or not, as a record of its own holding the CALL: this is
  // the transaction's number in the call, from 1 (0 for every other record), and callEnded
  // marks the one the call's return ended. Replay runs the CALL once for the run of records
  // (docs/logging.md, "Procedures that commit").
  uint32_t callTransaction = 0;
  bool callEnded = false;
};

std::string encodeTransaction(const LoggedTransaction& t);
// Throws std::runtime_error on a malformed record (the log's checksum passed, so only a
// record written by a different version could be).
LoggedTransaction decodeTransaction(std::string_view bytes);

}  // namespace duet
