// What the binder is given for one statement: the statement, its parameters and lifted
// literals, and how names resolve (tables, routines, PL/pgSQL variables) in the session that
// asks - plus the settings planning and compiling it follow (optimisation level and budget,
// threads). The planner and the routine compiler fill it; the binder reads it.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/parser/ast_stmt.h"
#include "compiler/plan/compile_tiers.h"
#include "engine/types/polymorphic.h"
#include "engine/types/type_id.h"

namespace duet {

class Table;

// duet.max_compile_ms's default: how long LLVM may optimise one statement or routine.
inline constexpr int kDefaultOptimiseBudgetMs = 1000;

// A view as the binder sees it: its stored query, planned where it is read.
struct ViewBinding {
  std::string query;                 // the SELECT's text
  std::vector<std::string> columns;  // its column names as of CREATE VIEW
};

// A table as the binder sees it: storage plus the catalog facts binding needs; or a view
// (`view` set, no table).
// A CHECK constraint of a table: its name and its condition as SQL text.
struct CheckBinding {
  std::string name;
  std::string exprSql;
};
struct TableBinding {
  Table* table = nullptr;
  uint32_t oid = 0;
  std::string name;
  std::vector<std::string> defaults;  // per column: DEFAULT expression as SQL text, or ""
  std::shared_ptr<const ViewBinding> view;
  // Per column: 'a' for GENERATED ALWAYS AS IDENTITY, 'd' for BY DEFAULT, 0 for none.
  std::vector<char> identity = {};
  std::vector<CheckBinding> checks{};  // what INSERT and UPDATE plans check on each new row
};
// Resolves a (possibly qualified) table or view name in the session's database and search
// path; throws 42P01 `relation "x" does not exist` itself when it is unknown.
using TableResolver = std::function<TableBinding(const sql::QualifiedName&)>;

// A function or procedure the binder may call, as the catalog describes it (PostgreSQL's
// pg_proc row, reduced to what binding a call needs).
struct RoutineCandidate {
  uint32_t oid = 0;  // what a compiled call names (the session finds the code)
  std::string name;
  bool procedure = false;
  std::vector<SqlType> argTypes;  // the arguments a call passes, in order
  std::vector<std::string> argNames;
  std::vector<bool> argOutputs;       // per argument: OUT or INOUT (a procedure's CALL passes them)
  std::vector<std::string> defaults;  // per argument: DEFAULT as SQL text, or ""
  // Per argument: the polymorphic pseudo-type it is declared with (its argTypes entry is
  // Unknown until a call resolves it), or None.
  std::vector<Polymorphic> argPoly;
  // The last argument is VARIADIC: an array a call may give as a list of its elements.
  bool variadic = false;
  SqlType returnType;  // what SELECT f() yields: text (an empty value) for void,
                       // Unknown for a record or a set of a composite type, the
                       // composite type for one row of it
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
  // Polymorphic results (returnType's, and per resultTypes entry), resolved per call as the
  // arguments are; None for the others.
  Polymorphic returnPoly = Polymorphic::None;
  std::vector<Polymorphic> resultPoly;
  bool polymorphic() const {
    for (Polymorphic p : argPoly)
      if (p != Polymorphic::None) return true;
    return false;
  }
};
// The routines named `names` (qualified or found through the search path); empty if none.
using RoutineResolver = std::function<std::vector<RoutineCandidate>(const std::vector<std::string>& names)>;
// The named composite type (CREATE TYPE ... AS, a table's row type) a type name the parser
// does not know means, found through the search path; nullopt when it names none.
using TypeResolver = std::function<std::optional<SqlType>(const std::vector<std::string>& names)>;
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
enum class LiteralType : uint8_t { Int4, Int8, Numeric, Bool, Unknown };

// The literal type of a sql::LiftedLiteral's kind.
inline LiteralType literalType(TypeId kind) {
  switch (kind) {
    case TypeId::Int4: return LiteralType::Int4;
    case TypeId::Int8: return LiteralType::Int8;
    case TypeId::Numeric: return LiteralType::Numeric;
    case TypeId::Bool: return LiteralType::Bool;
    default: return LiteralType::Unknown;
  }
}

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
  // When set, called with each table or view the statement itself names (not those the
  // views it reads name), and the name as written: what CREATE VIEW records as the view's
  // dependencies, and where it qualifies bare names.
  std::function<void(const TableBinding&, const sql::QualifiedName&)> noteRelation;
  // When set, called with each * and t.* of the statement's select lists (not of the views
  // it reads): its byte offset and the column references, comma-separated, that name the
  // same columns (CREATE VIEW keeps its query with them, so that the view's columns are
  // the ones * meant when it was created).
  std::function<void(uint32_t location, const std::string& columns)> noteStar;
  RoutineResolver resolveRoutines;   // null: only built-in functions exist
  TypeResolver resolveTypeName;      // null: only built-in types exist
  VariableResolver resolveVariable;  // PL/pgSQL embedded statements only
  // LANGUAGE sql bodies: a column of the same name wins over a variable (PostgreSQL
  // resolves an SQL function's argument names after columns), and $n is parameter
  // numberedParams[n-1] ($n counts the routine's arguments, not its frame's slots).
  bool columnsHideVariables = false;
  // PL/pgSQL's `#variable_conflict use_variable`: a variable wins over a column instead.
  bool variablesHideColumns = false;
  std::optional<std::vector<int>> numberedParams;
  // The statement is a cursor's query (DECLARE, PL/pgSQL's OPEN and FOR): its rows also
  // carry the row ids WHERE CURRENT OF reads (PreparedPlan::cursorRowIds).
  bool cursorQuery = false;
  // The statement's code (duet.compile_tier), and the optimised tier's LLVM level.
  CompileTiers compileTiers = CompileTiers::Adaptive;
  int optLevel = 1;
  // How long LLVM may optimise the statement's code (duet.max_compile_ms; 0: no limit).
  int optimiseBudgetMs = kDefaultOptimiseBudgetMs;
  // Threads a statement may use (a snapshot process's; the executor's is 1): see
  // compiler/planner/parallel.h.
  uint32_t parallelThreads = 1;
};

}  // namespace duet
