// The tree of a PL/pgSQL body, as PostgreSQL's pl_gram.y builds it. Control flow is
// structured (blocks, IF, CASE, loops); every SQL expression and embedded statement stays
// text (SqlText) that the SQL parser has already checked, with the identifiers that may
// name PL/pgSQL variables listed, so that the compiler can bind it with the variables as
// parameters. Offsets are byte offsets into the body text (the decoded AS string).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/runtime/cursor_position.h"
#include "engine/types/type_id.h"

namespace duet::plpgsql {

// A variable's type. Scalars keep their type modifier (numeric(10,2), varchar(5)):
// assignments coerce to it, as in PostgreSQL.
struct VarType {
  enum class Kind : uint8_t { Scalar, Array, Record, Row };
  Kind kind = Kind::Scalar;
  SqlType scalar;  // Scalar; Array: the element type; Row: a composite parameter's type

  std::vector<std::string> table;                        // Row: the table named by %ROWTYPE (or as a type)
  std::vector<std::pair<std::string, SqlType>> columns;  // Row: its columns at CREATE time
};

struct Variable {
  std::string name;
  VarType type;
  bool constant = false;
  bool notNull = false;
  bool parameter = false;  // a routine argument (IN, OUT, INOUT)
  bool output = false;     // OUT or INOUT argument: returned at the end
  bool implicit = false;   // FOUND, or the loop variable an integer FOR declares
  uint32_t location = 0;
};

// An identifier in an SQL text that names a variable in scope: `x`, `blk.x`, or `rec.f`.
// Whether it is really the variable or a column of the same name is decided when the text
// is bound, by the routine's `#variable_conflict` (by default error: both is 42702).
struct VariableRef {
  int variable = -1;               // index into Function::variables
  uint32_t offset = 0;             // in the body, of the identifier's first name
  std::vector<std::string> names;  // as written (folded)
  std::string field;               // set for rec.field
};

// An expression or SQL statement of the body. `text` is what the compiler hands to the SQL
// parser (an expression is parsed as "SELECT " + text); an INTO clause is blanked out, so
// offsets in `text` are offsets from `begin` in the body.
struct SqlText {
  uint32_t begin = 0, end = 0;
  std::string text;
  std::vector<VariableRef> variables;
};

enum class StmtKind : uint8_t {
  Block,
  Assign,
  If,
  Case,
  Loop,
  While,
  ForInt,
  ForQuery,
  Exit,
  Return,
  ReturnNext,
  ReturnQuery,
  Perform,
  ExecSql,
  GetDiagnostics,
  Raise,
  Null,
  TransactionControl,
  CursorOpen,
  CursorFetch,
  CursorClose,
  Execute,
  ForExecute,
  ReturnQueryExecute,
  ForEach,
  Assert,
  ForCursor,
  CursorMove,
};

struct Stmt {
  explicit Stmt(StmtKind k, uint32_t loc) : kind(k), location(loc) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  uint32_t location;  // body offset of the statement's first token
  template <class T>
  const T& as() const {
    return static_cast<const T&>(*this);
  }
};
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

// An assignment or INTO target: a variable, or one field of a record/row variable.
struct Target {
  int variable = -1;
  std::string field;                 // rec.field
  std::optional<SqlText> subscript;  // arr[i]
  uint32_t location = 0;
};

// WHEN condition [OR condition ...]: a condition name (or "others") or SQLSTATE 'xxxxx'.
// A code ending in "000" names a whole class (data_exception is 22000), as in PostgreSQL.
struct ExceptionCondition {
  std::string name;                    // empty for SQLSTATE '...'
  std::vector<std::string> sqlstates;  // empty for others
};

struct ExceptionHandler {
  std::vector<ExceptionCondition> conditions;
  StmtList body;
};

struct Block : Stmt {
  explicit Block(uint32_t loc) : Stmt(StmtKind::Block, loc) {}
  std::string label;
  std::vector<int> declared;                     // variables declared in DECLARE, initialised on entry in order
  std::vector<std::optional<SqlText>> defaults;  // per declared variable: DEFAULT / := value
  StmtList body;
  bool hasExceptions = false;  // an EXCEPTION section: the block is a savepoint
  std::vector<ExceptionHandler> handlers;
  int sqlstateVariable = -1, sqlerrmVariable = -1;  // what the handlers see of the error
};

struct Assign : Stmt {
  explicit Assign(uint32_t loc) : Stmt(StmtKind::Assign, loc) {}
  Target target;
  SqlText value;
};

struct If : Stmt {
  explicit If(uint32_t loc) : Stmt(StmtKind::If, loc) {}
  struct Branch {
    SqlText condition;
    StmtList body;
  };
  std::vector<Branch> branches;  // IF, then each ELSIF
  StmtList elseBody;
};

struct Case : Stmt {
  explicit Case(uint32_t loc) : Stmt(StmtKind::Case, loc) {}
  std::optional<SqlText> subject;  // simple CASE x WHEN ...; absent for searched CASE
  struct When {
    SqlText values;  // simple CASE: a comma list compared with the subject; else a condition
    StmtList body;
  };
  std::vector<When> whens;
  bool hasElse = false;  // without ELSE, no match raises 20000 case_not_found
  StmtList elseBody;
};

struct Loop : Stmt {  // LOOP and WHILE
  explicit Loop(StmtKind k, uint32_t loc) : Stmt(k, loc) {}
  std::string label;
  std::optional<SqlText> condition;  // WHILE
  StmtList body;
};

struct ForInt : Stmt {
  explicit ForInt(uint32_t loc) : Stmt(StmtKind::ForInt, loc) {}
  std::string label;
  int variable = -1;  // an integer variable declared by the loop itself
  bool reverse = false;
  SqlText lower, upper;
  std::optional<SqlText> step;  // BY
  StmtList body;
};

struct ForQuery : Stmt {
  explicit ForQuery(uint32_t loc) : Stmt(StmtKind::ForQuery, loc) {}
  std::string label;
  std::vector<Target> targets;  // one record/row variable, or a list of scalars
  SqlText query;
  StmtList body;
};

// FOREACH target [SLICE n] IN ARRAY expression LOOP: the array's elements in storage
// order, or with SLICE n its n-dimensional slices.
struct ForEach : Stmt {
  explicit ForEach(uint32_t loc) : Stmt(StmtKind::ForEach, loc) {}
  std::string label;
  std::vector<Target> targets;  // one variable, or a list of scalar variables
  int slice = 0;
  SqlText array;
  StmtList body;
};

// FOR r IN c [(arguments)] LOOP: opens bound cursor c, runs the body with each of its rows
// in r (a record the loop declares), and closes c when the loop ends.
struct ForCursor : Stmt {
  explicit ForCursor(uint32_t loc) : Stmt(StmtKind::ForCursor, loc) {}
  std::string label;
  int variable = -1;  // the loop's record
  int cursor = -1;    // Function::cursors
  std::vector<SqlText> arguments;
  StmtList body;
};

// ASSERT condition [, message]: P0004 when the condition is false or NULL, while
// plpgsql.check_asserts is on.
struct Assert : Stmt {
  explicit Assert(uint32_t loc) : Stmt(StmtKind::Assert, loc) {}
  SqlText condition;
  std::optional<SqlText> message;
};

struct Exit : Stmt {  // EXIT and CONTINUE
  explicit Exit(uint32_t loc) : Stmt(StmtKind::Exit, loc) {}
  bool isContinue = false;
  std::string label;  // empty: the innermost loop
  std::optional<SqlText> when;
};

struct Return : Stmt {  // RETURN, RETURN NEXT, RETURN QUERY
  explicit Return(StmtKind k, uint32_t loc) : Stmt(k, loc) {}
  std::optional<SqlText> value;  // RETURN QUERY: the query
  // LANGUAGE sql: `value` is the body's last statement (absent for an empty body). Its
  // first row is the result (RETURN) or all its rows are (RETURN QUERY), checked against
  // the declared result as PostgreSQL's check_sql_fn_retval does (42P13).
  bool finalStatement = false;
};

struct Perform : Stmt {
  explicit Perform(uint32_t loc) : Stmt(StmtKind::Perform, loc) {}
  SqlText query;  // the text after PERFORM; run as SELECT <text>
};

struct ExecSql : Stmt {  // SELECT/INSERT/UPDATE/DELETE, with INTO [STRICT] targets
  explicit ExecSql(uint32_t loc) : Stmt(StmtKind::ExecSql, loc) {}
  SqlText statement;
  bool into = false;
  bool strict = false;
  bool discardRows = false;  // LANGUAGE sql: a statement's rows are dropped, not an error
  bool call = false;         // a CALL (its CONTEXT line says "at CALL")
  std::vector<Target> targets;
};

struct GetDiagnostics : Stmt {
  explicit GetDiagnostics(uint32_t loc) : Stmt(StmtKind::GetDiagnostics, loc) {}
  // CURRENT: RowCount, PgContext. STACKED (the error an exception handler caught): the
  // others, in the order duet_plpgsql_error_text numbers them.
  enum class Item : uint8_t {
    RowCount,
    PgContext,
    ReturnedSqlstate,
    MessageText,
    ExceptionDetail,
    ExceptionHint,
    ExceptionContext,
    ColumnName,
    ConstraintName,
    DatatypeName,
    TableName,
    SchemaName,
  };
  bool stacked = false;
  std::vector<std::pair<Target, Item>> items;
};

enum class RaiseLevel : uint8_t { Debug, Log, Info, Notice, Warning, Exception };

struct Raise : Stmt {
  explicit Raise(uint32_t loc) : Stmt(StmtKind::Raise, loc) {}
  RaiseLevel level = RaiseLevel::Exception;
  bool reraise = false;               // RAISE; inside a handler
  std::optional<std::string> format;  // RAISE level 'format % ...', args
  std::vector<SqlText> args;
  std::optional<ExceptionCondition> condition;  // RAISE level condition_name | SQLSTATE '...'
  enum class Option : uint8_t { Errcode, Message, Detail, Hint, Column, Constraint, Datatype, Table, Schema };
  std::vector<std::pair<Option, SqlText>> options;  // USING option = expr
};

struct Null : Stmt {
  explicit Null(uint32_t loc) : Stmt(StmtKind::Null, loc) {}
};

// FETCH's and MOVE's direction (read_fetch_direction): FORWARD or BACKWARD a count of
// rows, or the row at ABSOLUTE or RELATIVE a position. NEXT is FORWARD 1, PRIOR
// BACKWARD 1, FIRST ABSOLUTE 1, LAST ABSOLUTE -1.
struct FetchDirection {
  using Kind = rt::FetchKind;
  static constexpr int64_t kAll = rt::kFetchAll;  // FORWARD ALL, BACKWARD ALL (PostgreSQL's FETCH_ALL)
  Kind kind = Kind::Forward;
  int64_t count = 1;  // unless `expression` gives it
  std::optional<SqlText> expression;
  bool multipleRows = false;  // a count or ALL: MOVE's only
};

// COMMIT or ROLLBACK [AND [NO] CHAIN].
struct TransactionControl : Stmt {
  explicit TransactionControl(uint32_t loc) : Stmt(StmtKind::TransactionControl, loc) {}
  bool commit = false;
  bool chain = false;
};

// Dynamic SQL: a command string computed when the statement runs, and the values its $1..$n
// stand for (USING). The string's statements are planned and run by the session at run
// time, as it runs a client's (dynamic_sql.h).
struct DynamicQuery {
  SqlText command;              // an expression; its value as text is the SQL to run
  std::vector<SqlText> params;  // USING expressions, $1..$n in order
};

// EXECUTE command [INTO [STRICT] targets] [USING expressions].
struct Execute : Stmt {
  explicit Execute(uint32_t loc) : Stmt(StmtKind::Execute, loc) {}
  DynamicQuery query;
  bool into = false;
  bool strict = false;
  std::vector<Target> targets;
};

// FOR target IN EXECUTE command [USING expressions] LOOP body END LOOP.
struct ForExecute : Stmt {
  explicit ForExecute(uint32_t loc) : Stmt(StmtKind::ForExecute, loc) {}
  std::string label;
  std::vector<Target> targets;  // one record/row variable, or a list of scalars
  DynamicQuery query;
  StmtList body;
};

// RETURN QUERY EXECUTE command [USING expressions].
struct ReturnQueryExecute : Stmt {
  explicit ReturnQueryExecute(uint32_t loc) : Stmt(StmtKind::ReturnQueryExecute, loc) {}
  DynamicQuery query;
};

// A cursor's statements: OPEN c [(arguments)] of a bound cursor, OPEN c [[NO] SCROLL] FOR
// query | FOR EXECUTE command [USING ...] of a refcursor variable, FETCH [direction] [FROM |
// IN] c INTO targets, MOVE [direction] [FROM | IN] c, CLOSE c. The cursor variable's value
// names the portal (a bound cursor's is its own name unless assigned); OPEN of a NULL one
// names it "<unnamed portal N>".
struct CursorStmt : Stmt {
  CursorStmt(StmtKind kind, uint32_t loc) : Stmt(kind, loc) {}
  int cursor = -1;                 // Function::cursors for a bound cursor, else -1
  int variable = -1;               // the cursor variable (a bound cursor's own, or a refcursor)
  std::vector<Target> targets;     // FETCH's
  std::vector<SqlText> arguments;  // OPEN c(...): a value per argument of the cursor, in its order
  FetchDirection direction;        // FETCH's and MOVE's
  // OPEN of a refcursor variable: FOR query, or FOR EXECUTE; [NO] SCROLL.
  std::optional<SqlText> query;
  std::optional<DynamicQuery> dynamic;
  bool scrollable = true;
};

// DECLARE name [[NO] SCROLL] CURSOR [(argument type, ...)] FOR query: a bound cursor.
// OPEN assigns the arguments, then runs its query with the variables' values then; FETCH
// hands out its rows in order.
struct Cursor {
  std::string name;
  int variable = -1;  // its cursor variable: type refcursor, its own name to begin with
  // NO SCROLL: moving backwards is 55000. (PostgreSQL lets a cursor declared without
  // SCROLL move backwards where its plan can; DuetDB keeps the rows, so it always can.)
  bool scrollable = true;
  std::vector<int> arguments;  // variables only its query sees (`k`, `c.k`), in order
  SqlText query;
};

// What a name that is both a variable and a column of an embedded statement means
// (`#variable_conflict`): 42702, the variable, or the column.
enum class VariableConflict : uint8_t { Error, UseVariable, UseColumn };

// Whether STRICT INTO's errors list the statement's parameters in DETAIL
// (`#print_strict_params on|off`); without the option, the plpgsql.print_strict_params
// setting decides when the error is raised.
enum class PrintStrictParams : uint8_t { Setting, On, Off };

struct Function {
  std::vector<Variable> variables;  // parameters first, then FOUND, then declarations in order
  std::vector<Cursor> cursors;
  int found = -1;  // the FOUND variable
  std::unique_ptr<Block> body;
  // LANGUAGE sql: $n names variable numberedParams[n-1] (PL/pgSQL: $n is frame slot n-1),
  // and a table column hides an argument of the same name instead of clashing with it.
  bool sqlBody = false;
  std::vector<int> numberedParams;
  VariableConflict variableConflict = VariableConflict::Error;
  PrintStrictParams printStrictParams = PrintStrictParams::Setting;
};

}  // namespace duet::plpgsql
