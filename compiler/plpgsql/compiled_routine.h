// A PL/pgSQL routine compiled to native code, and how a call runs it. The routine's
// variables live in one tuple (its frame) that the generated functions read and write;
// embedded statements are generated into the same functions, reading the variables as
// their parameters, so a call runs no planner and no interpreter.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/codegen/compiled_query.h"
#include "compiler/planner/planner.h"
#include "compiler/plpgsql/plpgsql.h"
#include "engine/error.h"

namespace duet::plpgsql {

// Per call: what generated code hands to the runtime besides the variables.
struct RoutineFrame {
  // The statement running (CompiledRoutine::statementContexts), or -1. The first member:
  // generated code stores it at the frame's address as each statement starts.
  int32_t statement = -1;
  const std::vector<std::string>* statementContexts = nullptr;
  RoutineFrame* caller = nullptr;   // the routine's call runs inside this one, or none
  std::string_view dynamicSql;      // the command of the EXECUTE running, for CONTEXT
  rt::TupleBuffer* rows = nullptr;  // RETURN NEXT / RETURN QUERY append here
  std::vector<SqlError> caught;     // errors caught by EXCEPTION blocks whose handler runs
};

struct RaiseSpec;    // a RAISE statement's constant parts (routine_runtime.cpp)
struct DynamicSpec;  // a dynamic SQL statement's constant parts (dynamic_sql.h)
struct CursorSpec;   // a cursor statement's constant parts (cursor_runtime.h)
struct StrictSpec;   // a STRICT INTO check's constant parts (strict_params.h)

struct CompiledRoutine {
  // Returns 0 (fell off the end) or 1 (RETURN).
  using Entry = int32_t (*)(rt::QueryContext*, uint8_t* vars, RoutineFrame*);
  Entry entry = nullptr;
  std::string name;           // for error messages: "f(integer)"
  TupleLayout varLayout;      // the frame: one slot per variable, then hidden slots
  TupleLayout argLayout;      // the call's argument tuple
  std::vector<int> argSlots;  // per call argument: its variable slot, or -1 (ignored)
  // Per call argument: for a composite parameter, the slots of its variable's fields, which
  // the call fills from the record value (empty for the others).
  std::vector<std::vector<int>> argFieldSlots;
  // Per call argument: for a composite parameter, the slot whose NULL flag says its
  // variable is NULL as a whole (cleared when the argument is not NULL), else -1.
  std::vector<int> argRowNull;
  std::vector<int> outputSlots;  // OUT / INOUT / TABLE variables: the row of a call
  int returnSlot = -1;           // RETURN <expr> of a function returning one value
  bool returnsSet = false;
  bool procedure = false;     // CALLed: a function inside a CALL makes it atomic
  bool returnsValue = false;  // a scalar function without OUT arguments
  bool strict = false;        // STRICT: a NULL argument makes the result NULL, unrun
  bool voidIsNull = false;    // void: NULL (LANGUAGE sql) rather than an empty value
  TupleLayout rowLayout;      // rows returned by RETURN NEXT / QUERY, or the OUT row
  int resultSlot = -1;        // what a scalar call returns: returnSlot, the one OUT
                              // argument, or -1 (void)
  TupleLayout resultLayout;   // the one-column result tuple of a scalar call
  // A function returning one row of a composite type: the type, whose record a scalar call
  // returns, built from outputSlots (Unknown for others).
  SqlType resultRecord;
  // A function returning one row (RETURNS record or t): the slot whose NULL flag says the
  // row returned is NULL as a whole, so that a call as a value is NULL; -1 for others.
  int resultRowNull = -1;
  std::unique_ptr<CompiledQuery> code;  // machine code, constants and layouts it uses
  std::vector<std::unique_ptr<RaiseSpec>> raises;
  std::vector<std::unique_ptr<DynamicSpec>> dynamicStatements;
  // Per statement, its lines of an error's CONTEXT, as PostgreSQL writes them: `SQL
  // statement "..."` for one that runs SQL, then `PL/pgSQL function f(integer) line 4 at
  // RAISE` (or `SQL function "f" statement 2`).
  std::vector<std::string> statementContexts;
  std::vector<std::unique_ptr<CursorSpec>> cursorStatements;
  std::vector<std::unique_ptr<StrictSpec>> strictChecks;
  double compileMs = 0;
  ~CompiledRoutine();
};

struct RoutineCompileRequest {
  RoutineShape shape;             // name, kind, parameters (as the body parser needs them)
  std::string signature;          // "f(integer)"
  std::string body;               // the AS text
  SqlType returnType;             // a function's single result (Unknown: void / none)
  std::vector<SqlType> rowTypes;  // rows of a call (RoutineCandidate::resultTypes, or for
                                  // a function returning record the caller's definition list)
  bool returnsRecord = false;     // RETURNS [SETOF] record without OUT arguments
  // RETURNS [SETOF] record or a table's row type: the result is rows of rowTypes, and
  // RETURN [NEXT] of a row or record variable gives its fields.
  bool returnsRow = false;
  std::string rowTypeName;  // "record" or the table, for messages
  TableResolver resolveTable;
  RoutineResolver resolveRoutines;
  TypeResolver resolveTypeName;
  TableLookup tableColumns;  // %ROWTYPE / %TYPE, as at CREATE
  bool strict = false;
  // STABLE or IMMUTABLE: its dynamic SQL may only read (PostgreSQL runs it read-only).
  bool readOnly = false;
  bool sqlBody = false;  // LANGUAGE sql: the body is SQL statements (sql_body.cpp)
  // CREATE's check of a LANGUAGE sql body (PostgreSQL's fmgr_sql_validator): statements
  // that cannot be bound and a final statement that does not fit the result fail the
  // compile instead of the call.
  bool validate = false;
  int optLevel = 2;
  int optimiseBudgetMs = kDefaultOptimiseBudgetMs;  // as PlanRequest's
};

// Parses the body, binds and plans every embedded statement and generates one module.
// A statement that cannot be bound (unknown table or column, type error) fails only when
// it runs, with its error, as in PostgreSQL; syntax errors were caught at CREATE.
std::unique_ptr<CompiledRoutine> compileRoutine(const RoutineCompileRequest& request);

// The innermost routine running on this thread (its frame), or null.
RoutineFrame* runningFrame();
// Gives `e` the call stack from `frame` outwards as its CONTEXT, unless it has one: where
// an error was raised is what PostgreSQL reports, also after a handler re-raises it.
void setErrorContext(SqlError& e, const RoutineFrame* frame);

// Runs a call: `args` as argLayout; the scalar result into `result` (one column of the
// return type) when set; the rows (a set, or the OUT row) appended to `rows` when set.
void runRoutine(const CompiledRoutine& routine, rt::QueryContext& ctx, const uint8_t* args, uint8_t* result,
                rt::TupleBuffer* rows);

}  // namespace duet::plpgsql
