// The compiler's entry point for statements that read or write table data (SELECT,
// VALUES, INSERT, UPDATE, DELETE): bind names and types, plan, generate code, JIT-compile.
// Utility statements (DDL, SET, transactions, COPY) are executed by engine/session itself.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/codegen/compiled_query.h"
#include "compiler/plan/plan.h"
#include "compiler/parser/ast_stmt.h"

namespace duet {

class Table;

// A table as the binder sees it: storage plus the catalog facts binding needs.
struct TableBinding {
  Table* table = nullptr;
  uint32_t oid = 0;
  std::string name;
  std::vector<std::string> defaults;  // per column: DEFAULT expression as SQL text, or ""
};
// Resolves a (possibly qualified) table name in the session's database and search path;
// throws 42P01 `relation "x" does not exist` itself when it is unknown.
using TableResolver = std::function<TableBinding(const sql::QualifiedName&)>;

// A function or procedure the binder may call, as the catalog describes it (PostgreSQL's
// pg_proc row, reduced to what binding a call needs).
struct RoutineCandidate {
  uint32_t oid = 0;               // what a compiled call names (the session finds the code)
  std::string name;
  bool procedure = false;
  std::vector<SqlType> argTypes;  // the arguments a call passes, in order
  std::vector<std::string> argNames;
  std::vector<bool> argOutputs;   // per argument: OUT or INOUT (a procedure's CALL passes them)
  std::vector<std::string> defaults;  // per argument: DEFAULT as SQL text, or ""
  SqlType returnType;             // what SELECT f() yields: text (an empty value) for void,
                                  // Unknown for a record
  bool returnsSet = false;
  // RETURNS [SETOF] record without OUT arguments: FROM needs a column definition list,
  // which gives the row (resultNames/resultTypes are empty).
  bool returnsRecord = false;
  // RETURNS [SETOF] t for a table t: its columns are the row (a named composite type).
  bool returnsComposite = false;
  // The row a call produces for SELECT * FROM f(...) and CALL: RETURNS TABLE columns, OUT
  // arguments, or the single result (named after the function).
  std::vector<std::string> resultNames;
  std::vector<SqlType> resultTypes;
};
// The routines named `names` (qualified or found through the search path); empty if none.
using RoutineResolver = std::function<std::vector<RoutineCandidate>(const std::vector<std::string>& names)>;
// PL/pgSQL: the parameter (0-based) holding the routine variable that a column reference
// at `location` (byte offset in the statement text) with these names means, or -1.
using VariableResolver = std::function<int(const std::vector<std::string>& names, uint32_t location)>;

struct OutputColumn {
  std::string name;
  SqlType type;
  uint32_t tableOid = 0;  // for RowDescription, when the column comes straight from a table
  int16_t attnum = 0;
};

// What the lifted literals of a statement are: their kind decides the parameter type.
enum class LiteralType : uint8_t { Int4, Int8, Numeric, Unknown };

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
  uint32_t routine = 0;        // catalog oid
  Form form = Form::Value;
  // Per argument the routine receives: its parameter (0-based), or kNull.
  static constexpr int kNull = -1;
  std::vector<int> argParams;
  // The statement's output column types: the row a function returning record is
  // compiled for (kept here so that a call builds nothing).
  std::vector<SqlType> resultRow;
};

struct PreparedPlan {
  enum class Command : uint8_t { Select, Insert, Update, Delete, Call };
  Command command = Command::Select;
  std::vector<SqlType> paramTypes;   // $1..$n as decided (declared or inferred), then one
                                     // per lifted literal, in parameter-number order
  std::vector<OutputColumn> columns; // what each returned row holds
  bool returnsRows = false;          // SELECT, or DML with RETURNING
  // CALL: the procedure's OUT and INOUT arguments, in the order of its row: their
  // positions in the argument list (root->exprs) and names (a CALL in PL/pgSQL writes the
  // row back into the variables passed there).
  std::vector<std::pair<int, std::string>> callOutputs;
  std::unique_ptr<CompiledQuery> compiled;
  std::string planOutline;           // plan::outline() of the physical plan compiled
  uint64_t catalogVersion = 0;       // stale once the database's catalog version moves on
  // How the plan has been used, for tiering (recompiling hot plans with more optimisation):
  // completed executions and their total time, output encoding included. compiled->compileMs
  // holds the compile time. Only the executor thread touches them.
  uint64_t executions = 0;
  uint64_t executionNs = 0;
  // Set when the statement is one routine call on its parameters (see DirectCall); the
  // plan is compiled all the same, for when the compiled routine does not fit it.
  std::optional<DirectCall> directCall;
  uint64_t directCalls = 0;  // executions that ran the routine directly (not counted above)
  plan::ReadFootprint footprint;  // where a read-only run may go (snapshot routing)
};

struct PlanRequest {
  const sql::Stmt* stmt = nullptr;
  // Types of $1..$n from Parse (Unknown: infer from context, as PostgreSQL does for OID 0).
  std::vector<SqlType> declaredParamTypes;
  // Kinds of the lifted literals, indexed like sql::Param::liftedIndex.
  std::vector<LiteralType> literalTypes;
  // How often each lifted literal occurs (equal numeric literals share one parameter).
  // A literal that occurs once may take the type of a cast applied to it.
  std::vector<int> literalUses;
  // Per lifted literal: the lifted literal with the same string text it equals, or -1
  // (sql::LiftedLiteral::sameTextAs); such parameters count as equal expressions.
  std::vector<int> literalSameAs;
  // Parameter number (1-based) of lifted literal i is explicitParamCount + i + 1.
  int explicitParamCount = 0;
  std::string_view queryText;  // for error positions
  TableResolver resolveTable;
  RoutineResolver resolveRoutines;    // null: only built-in functions exist
  VariableResolver resolveVariable;   // PL/pgSQL embedded statements only
  // LANGUAGE sql bodies: a column of the same name wins over a variable (PostgreSQL
  // resolves an SQL function's argument names after columns), and $n is parameter
  // numberedParams[n-1] ($n counts the routine's arguments, not its frame's slots).
  bool columnsHideVariables = false;
  std::optional<std::vector<int>> numberedParams;
  int optLevel = 1;
  // How long LLVM may optimise the statement's code (duet.max_compile_ms; 0: no limit).
  int optimiseBudgetMs = kDefaultOptimiseBudgetMs;
  // Threads a statement may use (a snapshot process's; the executor's is 1): see
  // compiler/plan/parallel.h.
  uint32_t parallelThreads = 1;
};

// A bound and planned statement before code generation: PL/pgSQL compiles embedded
// statements into the routine's own code. plan->compiled stays null.
struct PlannedStatement {
  std::unique_ptr<PreparedPlan> plan;
  plan::NodePtr root;
};
PlannedStatement planTree(const PlanRequest& request);

// Throws SqlError (with position) for unknown names, type errors, unsupported features.
std::unique_ptr<PreparedPlan> planStatement(const PlanRequest& request);

}  // namespace duet
