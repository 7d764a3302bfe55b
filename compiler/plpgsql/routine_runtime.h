// Runtime entry points that generated PL/pgSQL code calls (routine_runtime.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/plpgsql/compiled_routine.h"

namespace duet::plpgsql {

// The constant parts of a RAISE: generated code passes the values (format arguments, then
// USING options, all as text) next to it.
struct RaiseSpec {
  RaiseLevel level = RaiseLevel::Exception;
  bool hasFormat = false;
  std::string format;
  size_t formatArgs = 0;
  std::string sqlstate;       // from a condition name or SQLSTATE '...'; empty: P0001
  std::string conditionName;  // the message when there is no format or MESSAGE
  std::vector<Raise::Option> options;
};

// Registers the duet_plpgsql_* functions with the JIT (once).
void registerRoutineRuntime();

using BlockEntry = int32_t (*)(rt::QueryContext*, uint8_t*, RoutineFrame*);

}  // namespace duet::plpgsql

extern "C" {
// Runs an EXCEPTION block's body (a subtransaction: the session refuses COMMIT meanwhile);
// on SqlError undoes the block's changes, keeps the error for the handlers and returns -1;
// otherwise the body's own result (0, 1, or an exit code).
int32_t duet_plpgsql_try(duet::plpgsql::BlockEntry block, duet::rt::QueryContext* ctx, uint8_t* vars,
                         duet::plpgsql::RoutineFrame* frame);
// Whether the caught error matches one of `codes`: 5-character SQLSTATEs back to back
// ("xx000" a class, "*****" OTHERS), NUL-terminated.
bool duet_plpgsql_error_matches(duet::plpgsql::RoutineFrame* frame, const char* codes);
void duet_plpgsql_pop_error(duet::plpgsql::RoutineFrame* frame);
// GET DIAGNOSTICS PG_CONTEXT: the call stack from this frame's current statement outwards.
const duet::VarString* duet_plpgsql_call_stack(duet::plpgsql::RoutineFrame* frame);
[[noreturn]] void duet_plpgsql_reraise(duet::plpgsql::RoutineFrame* frame);
// Of the error being handled: SQLSTATE (what = 0), the message (1), detail (2), hint
// (3), context (4), column, constraint, data type, table and schema (5-9), empty when it
// has none; 0Z002 outside a handler (GET STACKED DIAGNOSTICS items, numbered from
// GetDiagnostics::Item::ReturnedSqlstate).
const duet::VarString* duet_plpgsql_error_text(duet::plpgsql::RoutineFrame* frame, int32_t what);
void duet_plpgsql_raise(duet::rt::QueryContext* ctx, const duet::plpgsql::RaiseSpec* spec,
                        const duet::VarString* const* values, const uint8_t* nulls);
[[noreturn]] void duet_plpgsql_fail(const char* code, const char* message, const char* detail, const char* hint);
// arr[index] := value: a new array (NULL array: a new one), NULL-padded past the end.
const duet::VarString* duet_plpgsql_array_set(const duet::VarString* array, int32_t index, const void* value,
                                              bool isNull, int32_t elementType);
// ASSERT: whether plpgsql.check_asserts is on (as by default, also where no session is).
bool duet_plpgsql_asserts_enabled(duet::rt::QueryContext* ctx);
// ASSERT's failure: P0004 with `message`, or "assertion failed" when it is null.
[[noreturn]] void duet_plpgsql_assert_failed(const duet::VarString* message);
void duet_plpgsql_append_row(duet::plpgsql::RoutineFrame* frame, const uint8_t* tuple);
// Bound cursors (RoutineFrame::cursors): OPEN makes the buffer its query's rows go to
// (42P03 while open), FETCH returns the next row or null (34000 while closed), CLOSE
// forgets them (34000 while closed). `name` is the cursor's, for the errors.
duet::rt::TupleBuffer* duet_plpgsql_cursor_open(duet::plpgsql::RoutineFrame* frame, int32_t cursor,
                                                const duet::TupleLayout* layout, const char* name, bool scrollable);
const uint8_t* duet_plpgsql_cursor_fetch(duet::plpgsql::RoutineFrame* frame, int32_t cursor, const char* name);
// FETCH (move false) or MOVE in a direction (FetchDirection::Kind) and count: the row
// FETCH lands on or null; *processed is ROW_COUNT.
const uint8_t* duet_plpgsql_cursor_move(duet::plpgsql::RoutineFrame* frame, int32_t cursor, const char* name,
                                        int32_t direction, int64_t count, bool move, int64_t* processed);
void duet_plpgsql_cursor_close(duet::plpgsql::RoutineFrame* frame, int32_t cursor, const char* name);
// COMMIT / ROLLBACK [AND CHAIN] in a procedure (rt::SessionServices::endTransactionInCall);
// the routine's open cursors close with the transaction, but those FOR loops read.
void duet_plpgsql_end_transaction(duet::rt::QueryContext* ctx, duet::plpgsql::RoutineFrame* frame, bool commit,
                                  bool chain);
// FOR over a cursor: pins it for the loop (CLOSE in the body is 24000), and closes it at
// the loop's end.
void duet_plpgsql_cursor_pin(duet::plpgsql::RoutineFrame* frame, int32_t cursor);
void duet_plpgsql_cursor_release(duet::plpgsql::RoutineFrame* frame, int32_t cursor);
}
