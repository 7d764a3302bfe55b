// Planning statements that read or write table data (SELECT, VALUES, INSERT, UPDATE,
// DELETE): names and types bound, the physical plan chosen. What a plan is compiled into
// is compiler/compiler.h's part (planStatement); utility statements (DDL, SET,
// transactions, COPY) are executed by session/ itself.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/binder/plan_request.h"
#include "compiler/parser/ast_stmt.h"
#include "compiler/plan/plan.h"

namespace duet {

class Table;
struct CompiledQuery;

// A statement that is nothing but one call of a routine whose arguments are the
// statement's parameters, as drivers send calls: `SELECT f($1, ...)`, `SELECT * FROM
// f($1, ...)`, `CALL p($1, ...)` (casts that change nothing, such as $1::int on an int
// parameter, and lifted literals count as parameters; a NULL may stand for an argument,
// as for a procedure's OUT arguments in `CALL p($1, NULL)`). The session may then run the
// routine's compiled code on the parameter tuple itself instead of the plan's code, which
// would only copy the parameters into an argument tuple and the result out again.
struct DirectCall {
  enum class Form : uint8_t {
    Value,  // SELECT f(...): one row, the routine's scalar result
    Rows,   // SELECT * FROM f(...) and CALL: the routine's rows (a set, or its OUT row)
  };
  uint32_t routine = 0;  // catalog oid
  Form form = Form::Value;
  // Per argument the routine receives: its parameter (0-based), or kNull.
  static constexpr int kNull = -1;
  std::vector<int> argParams;
  // The statement's output column types: the row a function returning record is
  // compiled for (kept here so that a call builds nothing).
  std::vector<SqlType> resultRow;
  // The types of the arguments as the call passes them: a polymorphic routine's instance.
  std::vector<SqlType> argTypes;
};

struct PreparedPlan {
  PreparedPlan();
  ~PreparedPlan();  // frees the compiled code
  enum class Command : uint8_t { Select, Insert, Update, Delete, Call };
  Command command = Command::Select;
  std::vector<SqlType> paramTypes;    // $1..$n as decided (declared or inferred), then one
                                      // per lifted literal, in parameter-number order
  std::vector<OutputColumn> columns;  // what each returned row holds
  bool returnsRows = false;           // SELECT, or DML with RETURNING
  // CALL: the procedure's OUT and INOUT arguments, in the order of its row: their
  // positions in the argument list (root->exprs) and names (a CALL in PL/pgSQL writes the
  // row back into the variables passed there).
  std::vector<std::pair<int, std::string>> callOutputs;
  std::unique_ptr<CompiledQuery> compiled;
  std::string planOutline;      // plan::outline() of the physical plan compiled
  uint64_t catalogVersion = 0;  // stale once the database's catalog version moves on
  std::string searchPath;       // the session's search path its names were found along (SearchPath::key)
  // How the plan has been used, for tiering (recompiling hot plans with more optimisation):
  // completed executions and their total time, output encoding included. compiled->compileMs
  // holds the compile time. Only the executor thread touches them.
  uint64_t executions = 0;
  uint64_t executionNs = 0;
  // Set when the statement is one routine call on its parameters (see DirectCall); the
  // plan is compiled all the same, for when the compiled routine does not fit it.
  std::optional<DirectCall> directCall;
  uint64_t directCalls = 0;       // executions that ran the routine directly (not counted above)
  plan::ReadFootprint footprint;  // where a read-only run may go (snapshot routing)
  // A cursor's query (PlanRequest::cursorQuery): the tables WHERE CURRENT OF may name, each
  // with the output column, past `columns`, that holds the id of the row it came from
  // (rt::CursorRowIds); cursorForUpdate: the query has FOR UPDATE/SHARE.
  bool cursorForUpdate = false;
  std::vector<std::pair<const Table*, int>> cursorRowIds;
};

// The command a read-only transaction refuses to run, as PostgreSQL names it
// (ExecCheckXactReadOnly), and a non-volatile routine too (CommandIsReadOnly): one that
// changes a table, or a query that locks table rows, which PostgreSQL does by writing
// them. Null for any other plan (writing_command.cpp).
const char* writingCommand(const PreparedPlan& plan, const sql::Stmt& stmt);

// A bound and planned statement before code generation: PL/pgSQL compiles embedded
// statements into the routine's own code. plan->compiled stays null.
struct PlannedStatement {
  std::unique_ptr<PreparedPlan> plan;
  plan::NodePtr root;
};
// Throws SqlError (with position) for unknown names, type errors, unsupported features.
PlannedStatement planTree(const PlanRequest& request);

}  // namespace duet
