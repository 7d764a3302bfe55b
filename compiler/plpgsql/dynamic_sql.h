// Dynamic SQL in PL/pgSQL routines: EXECUTE, FOR ... IN EXECUTE and RETURN QUERY EXECUTE.
// Generated code evaluates the command string and the USING values, then calls the
// duet_plpgsql_execute* functions below, which hand the text to the session
// (rt::SessionServices::executeDynamic): it parses, plans and runs it as it runs a
// client's statements, through the plan cache top-level statements use, so a command
// text is planned and compiled on its first use only. The rows come back in the
// statement's own row type, known only now, and are converted here to the types of the
// targets, which the routine's code was compiled for.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "compiler/plpgsql/compiled_routine.h"

namespace duet::plpgsql {

// One dynamic statement of a routine, constant for its code.
struct DynamicSpec {
  rt::DynamicUse use = rt::DynamicUse::Execute;
  TupleLayout paramLayout;  // the USING values, $1..$n
  // EXECUTE INTO and FOR: the targets' slots, which each row is converted to; RETURN
  // QUERY: the function's result row, which the rows must match.
  TupleLayout targetLayout;
  bool into = false;
  bool strict = false;
  PrintStrictParams printStrictParams = PrintStrictParams::Setting;  // STRICT's DETAIL lists the USING values
  bool readOnly = false;  // the routine is STABLE or IMMUTABLE (RoutineCompileRequest::readOnly)
};

// The command's text when the command is one string literal ('...', E'...', $$...$$), so
// that the compiler can plan it already (to learn the row type of a RECORD target).
std::optional<std::string> constantCommand(const SqlText& command);

// A row of `from` into a tuple of `to`, column by column in order, as PL/pgSQL assigns
// (exec_move_row, without plpgsql.extra_checks): missing columns are NULL, extra ones
// ignored; strings are copied to the statement's arena. FETCH converts so too.
void convertRow(const TupleLayout& from, const uint8_t* row, const TupleLayout& to, uint8_t* out,
                const TypeContext& typeContext);
// The context's type settings (DateStyle, TimeZone, ...), or the defaults.
const TypeContext& typeContextOf(const rt::QueryContext* ctx);

// Registers the duet_plpgsql_execute* functions with the JIT (once).
void registerDynamicSqlRuntime();

}  // namespace duet::plpgsql

extern "C" {
// EXECUTE: runs `command` (null: 22004) with the USING values `params` (spec->paramLayout).
// With INTO, the first row goes to `target` (spec->targetLayout), converted as PL/pgSQL
// assigns; no row: NULLs, or with STRICT P0002; STRICT and more than one row: P0003
// (with the USING values in DETAIL under print_strict_params).
// Returns the rows the last statement returned or changed (ROW_COUNT).
int64_t duet_plpgsql_execute(duet::rt::QueryContext* ctx, const duet::plpgsql::DynamicSpec* spec,
                             const duet::VarString* command, const uint8_t* params, uint8_t* target);
// FOR ... IN EXECUTE: the rows of the one statement `command` must be, as it gave them, in
// a buffer of the context's runtime state.
duet::rt::TupleBuffer* duet_plpgsql_execute_rows(duet::rt::QueryContext* ctx, const duet::plpgsql::DynamicSpec* spec,
                                                 const duet::VarString* command, const uint8_t* params);
// Row `i` of those rows into `target`, converted to the targets' types.
void duet_plpgsql_execute_row(duet::rt::QueryContext* ctx, const duet::plpgsql::DynamicSpec* spec,
                              duet::rt::TupleBuffer* rows, uint64_t i, uint8_t* target);
// RETURN QUERY EXECUTE: the rows of `command`'s statements appended to the call's result
// (42804 unless they have its column types); returns how many.
int64_t duet_plpgsql_return_query_execute(duet::rt::QueryContext* ctx, duet::plpgsql::RoutineFrame* frame,
                                          const duet::plpgsql::DynamicSpec* spec, const duet::VarString* command,
                                          const uint8_t* params);
// OPEN c FOR EXECUTE: runs `command` (one statement that returns rows) and opens portal
// `name` over its rows, of its row type (42P03 before it runs when `name` is open).
void duet_plpgsql_cursor_open_execute(duet::rt::QueryContext* ctx, const duet::plpgsql::DynamicSpec* spec,
                                      const duet::VarString* command, const uint8_t* params,
                                      const duet::VarString* name, bool scrollable);
}
