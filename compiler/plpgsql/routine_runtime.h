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
// COMMIT / ROLLBACK [AND CHAIN] in a procedure (rt::SessionServices::endTransactionInCall);
// the transaction's cursors close, but those FOR loops read.
void duet_plpgsql_end_transaction(duet::rt::QueryContext* ctx, bool commit, bool chain);
}
