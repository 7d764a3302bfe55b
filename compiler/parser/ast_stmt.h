// Statement nodes. Each statement records the byte range of its own text in the query
// (without the terminating semicolon).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/parser/ast_expr.h"

namespace duet::sql {

enum class StmtKind : uint8_t {
  Empty,   // nothing between two semicolons (or an empty query)
  Select,  // SELECT, VALUES, set operations
  Insert,
  Update,
  Delete,
  CreateTable,
  CreateIndex,
  AlterTable,
  Drop,
  Truncate,
  Transaction,  // BEGIN, START TRANSACTION, COMMIT, ROLLBACK, SAVEPOINT, RELEASE, SET TRANSACTION,
                // SET SESSION CHARACTERISTICS
  Set,          // SET, SET TIME ZONE, RESET
  Show,
  Discard,
  Vacuum,
  Checkpoint,
  CreateDatabase,
  CreateRole,
  Copy,
  Prepare,
  Execute,
  Deallocate,
  Explain,
  CreateFunction,
  DropRoutine,
  CreateView,
  Call,  // ast_routine.h
  Listen,
  Unlisten,
  Notify,
  Lock,
  DeclareCursor,
  Fetch,  // FETCH and MOVE
  ClosePortal,
  CreateSequence,
  AlterSequence,
  AlterRoutine,  // ast_routine.h
  Comment,       // ast_routine.h
  CreateSchema,
  AlterSchema,
  AlterRole,      // ALTER ROLE | USER name [WITH] options
  GrantRole,      // GRANT role TO role, REVOKE role FROM role
  AlterDatabase,  // ALTER DATABASE name OWNER TO role
  CreateType,     // CREATE TYPE name AS (field type, ...)
};

struct Stmt {
  explicit Stmt(StmtKind k) : kind(k) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  uint32_t begin = 0, end = 0;  // byte range of the statement's text

  template <class T>
  T& as() {
    return static_cast<T&>(*this);
  }
  template <class T>
  const T& as() const {
    return static_cast<const T&>(*this);
  }
};
using StmtPtr = std::unique_ptr<Stmt>;

// A possibly qualified object name: {"t"}, {"s", "t"}, {"db", "s", "t"}.
struct QualifiedName {
  std::vector<std::string> parts;
  uint32_t location = 0;
  const std::string& name() const { return parts.back(); }
};

// A generic "name [= value]" option: WITH (...) storage parameters, COPY, CREATE DATABASE,
// CREATE ROLE, VACUUM and EXPLAIN options. Values are kept as text; words are folded.
struct DefElem {
  enum class ValueKind : uint8_t { None, Word, Number, String };
  std::string name;
  ValueKind valueKind = ValueKind::None;
  std::string value;
  uint32_t location = 0;
};

struct EmptyStmt : Stmt {
  EmptyStmt() : Stmt(StmtKind::Empty) {}
};

// ---- SELECT ----

struct Alias {
  std::string name;
  std::vector<std::string> columns;  // t AS a (x, y)
};

enum class TableRefKind : uint8_t { Table, Subquery, Join, Function };
struct TableRef {
  explicit TableRef(TableRefKind k, uint32_t loc) : kind(k), location(loc) {}
  virtual ~TableRef() = default;
  TableRefKind kind;
  uint32_t location;
  template <class T>
  T& as() {
    return static_cast<T&>(*this);
  }
  template <class T>
  const T& as() const {
    return static_cast<const T&>(*this);
  }
};
using TableRefPtr = std::unique_ptr<TableRef>;

struct RangeTable : TableRef {
  explicit RangeTable(uint32_t loc) : TableRef(TableRefKind::Table, loc) {}
  QualifiedName name;
  std::optional<Alias> alias;
  bool only = false;  // ONLY t
};

struct RangeSubquery : TableRef {
  explicit RangeSubquery(uint32_t loc) : TableRef(TableRefKind::Subquery, loc) {}
  ~RangeSubquery() override;  // defined where SelectStmt is complete (ast.cpp)
  std::unique_ptr<SelectStmt> subquery;
  std::optional<Alias> alias;  // always set: PostgreSQL 15 requires one
  bool lateral = false;        // LATERAL: it may read the FROM items before it
};

// FROM f(args) [AS] alias [(columns)]: the rows a function returns. A column definition
// list, `AS [alias] (a int, b text)`, names and types the columns of a function returning
// record: `columnTypes` then runs parallel to alias->columns (the alias name may be empty).
struct RangeFunction : TableRef {
  explicit RangeFunction(uint32_t loc) : TableRef(TableRefKind::Function, loc) {}
  std::unique_ptr<FuncCall> call;
  std::optional<Alias> alias;
  std::vector<TypeName> columnTypes;
  uint32_t definitionLocation = 0;  // the list's first column, for errors about the list
  bool ordinality = false;          // WITH ORDINALITY: a bigint column numbering the rows
};

enum class JoinType : uint8_t { Inner, Left, Right, Full, Cross };
struct JoinRef : TableRef {
  explicit JoinRef(uint32_t loc) : TableRef(TableRefKind::Join, loc) {}
  ~JoinRef() override;  // frees a chain of joins without recursing along it (ast.cpp)
  JoinType type = JoinType::Inner;
  bool natural = false;
  TableRefPtr left, right;
  ExprPtr on;                       // ON condition, or null
  std::vector<std::string> using_;  // USING (a, b)
  std::optional<Alias> alias;       // (a JOIN b ...) AS j (x, y)
};

struct ResTarget {
  ExprPtr expr;       // a ColumnRef with star for * and t.*
  std::string alias;  // empty when none was given
  uint32_t location = 0;
};

enum class SetOpKind : uint8_t { Union, Intersect, Except };

struct SelectStmt;
// WITH name [(columns)] AS [[NOT] MATERIALIZED] (query)
struct CommonTableExpr {
  CommonTableExpr();
  CommonTableExpr(CommonTableExpr&&) noexcept;
  ~CommonTableExpr();  // defined where SelectStmt is complete (ast.cpp)
  std::string name;
  std::vector<std::string> columns;
  std::unique_ptr<SelectStmt> query;  // null for a data-modifying one
  // WITH name AS (INSERT | UPDATE | DELETE ... RETURNING ...): the statement (query null).
  StmtPtr dml;
  // AS [NOT] MATERIALIZED: computed once for all its reads, or planned where each reads it.
  enum class Materialized : uint8_t { Default, Always, Never } materialized = Materialized::Default;
  uint32_t location = 0;
};
enum class LockStrength : uint8_t { None, KeyShare, Share, NoKeyUpdate, Update };

// WITH [RECURSIVE] ...: named queries a statement (and its subqueries) may read; SELECT,
// INSERT, UPDATE and DELETE have one.
struct WithList {
  std::vector<CommonTableExpr> with;
  bool withRecursive = false;
};

struct SelectStmt : Stmt, WithList {
  SelectStmt() : Stmt(StmtKind::Select) {}
  ~SelectStmt() override;  // frees a chain of UNIONs without recursing along it (ast.cpp)
  enum class Body : uint8_t { Simple, Values, SetOp } body = Body::Simple;

  // Body::Simple
  bool distinct = false;
  std::vector<ExprPtr> distinctOn;  // DISTINCT ON (...)
  std::vector<ResTarget> targets;
  std::vector<TableRefPtr> from;
  ExprPtr where;
  std::vector<ExprPtr> groupBy;  // integer Literals are output column positions
  bool groupByDistinct = false;  // GROUP BY DISTINCT: each grouping set once
  ExprPtr having;
  std::vector<WindowDef> windows;  // WINDOW name AS (...), ...

  // Body::Values
  std::vector<std::vector<ExprPtr>> values;

  // Body::SetOp
  SetOpKind setOp = SetOpKind::Union;
  bool setAll = false;
  std::unique_ptr<SelectStmt> left, right;

  // Apply to the whole statement, whatever the body.
  std::vector<SortBy> orderBy;
  ExprPtr limit;  // null for none and for LIMIT ALL
  ExprPtr offset;
  LockStrength locking = LockStrength::None;  // FOR UPDATE etc.: accepted, recorded
  // The FROM items its FOR UPDATE/SHARE ... OF clauses name (a cursor's WHERE CURRENT OF
  // finds those tables' rows); lockingAll when a clause names none (every table).
  std::vector<std::string> lockedItems;
  bool lockingAll = false;
};

// ---- INSERT / UPDATE / DELETE ----

struct SetClause {
  std::vector<std::string> columns;  // one for "c = x"; several for "(a, b) = ..."
  std::vector<uint32_t> columnLocations;
  ExprPtr value;  // for several columns: a Row or a scalar SubLink
  bool multi = false;
};

// INSERT's ON CONFLICT clause: which unique index decides a conflict (inferred from
// columns, named by its constraint, or, with neither, every unique index for DO NOTHING)
// and what a conflicting row does instead of being inserted.
struct OnConflictClause {
  std::vector<std::string> columns;  // ON CONFLICT (a, b): the columns the arbiter indexes
  std::vector<uint32_t> columnLocations;
  ExprPtr indexWhere;          // ON CONFLICT (a, b) WHERE ...: a partial index's predicate
  std::string constraint;      // ON CONFLICT ON CONSTRAINT name
  bool update = false;         // DO UPDATE; else DO NOTHING
  std::vector<SetClause> set;  // DO UPDATE SET ...
  ExprPtr where;               // DO UPDATE ... WHERE
  uint32_t location = 0;       // of ON
};

struct InsertStmt : Stmt, WithList {
  InsertStmt() : Stmt(StmtKind::Insert) {}
  QualifiedName table;
  std::string alias;
  std::vector<std::string> columns;
  std::vector<uint32_t> columnLocations;
  // OVERRIDING SYSTEM VALUE (values for GENERATED ALWAYS identity columns are taken) or
  // OVERRIDING USER VALUE (values for identity columns are ignored).
  enum class Overriding : uint8_t { None, System, User } overriding = Overriding::None;
  std::unique_ptr<SelectStmt> source;  // VALUES or SELECT; null for DEFAULT VALUES
  std::unique_ptr<OnConflictClause> onConflict;
  std::vector<ResTarget> returning;
};

struct UpdateStmt : Stmt, WithList {
  UpdateStmt() : Stmt(StmtKind::Update) {}
  QualifiedName table;
  std::string alias;
  std::vector<SetClause> set;
  std::vector<TableRefPtr> from;
  ExprPtr where;
  std::unique_ptr<ColumnRef> currentOf;  // WHERE CURRENT OF cursor: as DeleteStmt's
  std::vector<ResTarget> returning;
};

struct DeleteStmt : Stmt, WithList {
  DeleteStmt() : Stmt(StmtKind::Delete) {}
  QualifiedName table;
  std::string alias;
  std::vector<TableRefPtr> using_;
  ExprPtr where;
  // WHERE CURRENT OF cursor (in place of `where`): the cursor's name as a column reference
  // of one name, which in PL/pgSQL may name a refcursor variable holding the portal's name.
  std::unique_ptr<ColumnRef> currentOf;
  std::vector<ResTarget> returning;
};

// ---- DDL ----

// One parameter of CREATE/ALTER SEQUENCE or of an identity column's option list.
struct SequenceOption {
  enum class Kind : uint8_t {
    As,            // AS type
    Increment,     // INCREMENT [BY] n
    MinValue,      // MINVALUE n
    NoMinValue,    // NO MINVALUE
    MaxValue,      // MAXVALUE n
    NoMaxValue,    // NO MAXVALUE
    Start,         // START [WITH] n
    Restart,       // RESTART [[WITH] n] (ALTER only)
    Cache,         // CACHE n
    Cycle,         // CYCLE
    NoCycle,       // NO CYCLE
    OwnedBy,       // OWNED BY table.column | NONE
    SequenceName,  // SEQUENCE NAME name (identity columns)
  };
  Kind kind = Kind::As;
  int64_t value = 0;
  bool hasValue = false;  // RESTART with a value
  TypeName type;          // AS
  QualifiedName name;     // OWNED BY (empty parts: NONE), SEQUENCE NAME
  uint32_t location = 0;
};

enum class ConstraintKind : uint8_t { NotNull, Null, Default, PrimaryKey, Unique, Check, ForeignKey, Identity };
struct Constraint {
  ConstraintKind kind = ConstraintKind::NotNull;
  std::string name;                     // CONSTRAINT name, or empty
  std::vector<std::string> columns;     // table constraints: the key columns
  ExprPtr expr;                         // DEFAULT value or CHECK condition
  uint32_t exprBegin = 0, exprEnd = 0;  // byte range of expr's text (DEFAULT kept as text)
  QualifiedName refTable;               // FOREIGN KEY / REFERENCES
  std::vector<std::string> refColumns;
  // GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [(options)]
  bool identityAlways = false;
  std::vector<SequenceOption> sequenceOptions;
  // FOREIGN KEY: PostgreSQL's pg_constraint codes (confupdtype, confdeltype: 'a' NO ACTION,
  // 'r' RESTRICT, 'c' CASCADE, 'n' SET NULL, 'd' SET DEFAULT; confmatchtype 's', 'f', 'p').
  char onUpdate = 'a', onDelete = 'a', match = 's';
  bool deferrable = false;         // DEFERRABLE (or INITIALLY DEFERRED)
  bool initiallyDeferred = false;  // INITIALLY DEFERRED
  bool notValid = false;           // NOT VALID: existing rows are not checked
  uint32_t location = 0;
};

struct ColumnDef {
  std::string name;
  TypeName type;
  std::vector<Constraint> constraints;
  uint32_t location = 0;
  uint32_t collateAt = 0;  // where COLLATE is (its collation exists: knownCollation), 0: none
};

// LIKE source [INCLUDING | EXCLUDING option ...] in CREATE TABLE's column list.
struct TableLikeClause {
  enum Option : uint32_t { Defaults = 1, Constraints = 2, Indexes = 4 };  // the ones DuetDB has
  QualifiedName source;
  uint32_t including = 0;  // Option bits (INCLUDING ALL: every bit)
  size_t position = 0;     // how many column definitions precede it
};

struct SelectStmt;
struct CreateTableStmt : Stmt {
  CreateTableStmt() : Stmt(StmtKind::CreateTable) {}
  ~CreateTableStmt() override;  // defined where SelectStmt is complete (ast.cpp)
  QualifiedName table;
  bool ifNotExists = false;
  bool temporary = false;
  // ON COMMIT PRESERVE ROWS | DELETE ROWS | DROP (Unspecified when absent).
  enum class OnCommit : uint8_t { Unspecified, PreserveRows, DeleteRows, Drop } onCommit = OnCommit::Unspecified;
  std::vector<ColumnDef> columns;
  std::vector<Constraint> constraints;  // table constraints
  std::vector<TableLikeClause> likes;
  std::vector<DefElem> options;  // WITH (storage = column, fillfactor = 10, ...)
  // CREATE TABLE ... AS query [WITH [NO] DATA], and SELECT ... INTO table, which the
  // parser turns into one: the query as text (queryText: SELECT INTO's without its INTO
  // clause), the column names given, whether rows are copied.
  std::unique_ptr<SelectStmt> query;
  std::string queryText;
  std::vector<std::string> columnNames;
  bool withData = true;
  bool selectInto = false;
};

struct IndexElem {
  std::string column;  // set for a plain column
  ExprPtr expr;        // set for an expression
  SortDir dir = SortDir::Default;
  NullsOrder nulls = NullsOrder::Default;
  uint32_t location = 0;
};

struct CreateIndexStmt : Stmt {
  CreateIndexStmt() : Stmt(StmtKind::CreateIndex) {}
  std::string name;  // empty: a name is generated
  QualifiedName table;
  bool unique = false, ifNotExists = false, concurrently = false;
  std::string method;  // USING method, empty when not given
  std::vector<IndexElem> elems;
  std::vector<DefElem> options;
  ExprPtr where;  // partial index predicate
};

enum class DropBehavior : uint8_t { Default, Restrict, Cascade };

// One command of ALTER TABLE (several, comma-separated, run in order as one statement).
enum class AlterTableAction : uint8_t {
  AddConstraint,     // ADD [CONSTRAINT n] PRIMARY KEY | UNIQUE | ... (...)
  Owner,             // OWNER TO role (what a dump says)
  AddColumn,         // ADD [COLUMN] [IF NOT EXISTS] column definition
  DropColumn,        // DROP [COLUMN] [IF EXISTS] name [CASCADE | RESTRICT]
  AlterColumnType,   // ALTER [COLUMN] name [SET DATA] TYPE type [USING expr]
  SetDefault,        // ALTER [COLUMN] name SET DEFAULT expr
  DropDefault,       // ALTER [COLUMN] name DROP DEFAULT
  SetNotNull,        // ALTER [COLUMN] name SET NOT NULL
  DropNotNull,       // ALTER [COLUMN] name DROP NOT NULL
  AddIdentity,       // ALTER [COLUMN] name ADD GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [(...)]
  DropConstraint,    // DROP CONSTRAINT [IF EXISTS] name [CASCADE | RESTRICT]
  RenameColumn,      // RENAME [COLUMN] name TO newName (alone in its statement)
  RenameConstraint,  // RENAME CONSTRAINT name TO newName (alone)
  RenameRelation,    // RENAME TO newName (alone)
};
struct AlterTableCmd {
  AlterTableAction action = AlterTableAction::AddConstraint;
  Constraint constraint;                // AddConstraint, AddIdentity (its Identity constraint)
  std::string owner;                    // Owner
  ColumnDef column;                     // AddColumn
  std::string name;                     // the column or constraint the command is about
  std::string newName;                  // Rename*
  TypeName type;                        // AlterColumnType
  ExprPtr expr;                         // SET DEFAULT's value, ALTER TYPE's USING (null: none)
  uint32_t exprBegin = 0, exprEnd = 0;  // its text
  bool ifExists = false, ifNotExists = false;
  DropBehavior behavior = DropBehavior::Default;
  uint32_t location = 0;
};
// ALTER TABLE and ALTER INDEX (which takes RENAME TO only).
struct AlterTableStmt : Stmt {
  AlterTableStmt() : Stmt(StmtKind::AlterTable) {}
  QualifiedName table;
  bool index = false;  // ALTER INDEX
  bool ifExists = false;
  std::vector<AlterTableCmd> cmds;
};

// CREATE [OR REPLACE] [TEMP] VIEW name [(columns)] [WITH (options)] AS query
// [WITH [CASCADED | LOCAL] CHECK OPTION]. The query's text is its byte range in the statement.
struct CreateViewStmt : Stmt {
  CreateViewStmt() : Stmt(StmtKind::CreateView) {}
  QualifiedName view;
  bool orReplace = false;
  bool temporary = false;
  bool recursive = false;  // CREATE RECURSIVE VIEW
  std::vector<std::string> columns;
  std::vector<DefElem> options;
  std::unique_ptr<SelectStmt> query;
  bool checkOption = false;
};

// CREATE [TEMP] SEQUENCE [IF NOT EXISTS] name [options]
struct CreateSequenceStmt : Stmt {
  CreateSequenceStmt() : Stmt(StmtKind::CreateSequence) {}
  QualifiedName name;
  bool ifNotExists = false;
  bool temporary = false;
  std::vector<SequenceOption> options;
};

// ALTER SEQUENCE [IF EXISTS] name options | RENAME TO new | OWNER TO role
struct AlterSequenceStmt : Stmt {
  AlterSequenceStmt() : Stmt(StmtKind::AlterSequence) {}
  QualifiedName name;
  bool ifExists = false;
  std::vector<SequenceOption> options;
  std::string newName;  // RENAME TO
  std::string owner;    // OWNER TO (accepted: DuetDB keeps no owners)
};

// CREATE SCHEMA [IF NOT EXISTS] name [AUTHORIZATION role] | CREATE SCHEMA AUTHORIZATION role
struct CreateSchemaStmt : Stmt {
  CreateSchemaStmt() : Stmt(StmtKind::CreateSchema) {}
  std::string name;  // the role's when only AUTHORIZATION is given
  bool ifNotExists = false;
  std::string authorization;
};

// ALTER SCHEMA name OWNER TO role | RENAME TO newName
struct AlterSchemaStmt : Stmt {
  AlterSchemaStmt() : Stmt(StmtKind::AlterSchema) {}
  std::string name, owner, newName;
};

// CREATE TYPE name AS (field type, ...): a composite type (other CREATE TYPE forms are
// 0A000 in the parser).
struct CreateTypeStmt : Stmt {
  CreateTypeStmt() : Stmt(StmtKind::CreateType) {}
  QualifiedName name;
  struct Field {
    std::string name;
    TypeName type;
    uint32_t location = 0;
  };
  std::vector<Field> fields;
};

enum class ObjectType : uint8_t { Table, Index, Database, Role, View, Sequence, Schema, Type };
struct DropStmt : Stmt {
  DropStmt() : Stmt(StmtKind::Drop) {}
  ObjectType object = ObjectType::Table;
  std::vector<QualifiedName> names;
  bool ifExists = false;
  bool concurrently = false;
  DropBehavior behavior = DropBehavior::Default;
};

struct TruncateStmt : Stmt {
  TruncateStmt() : Stmt(StmtKind::Truncate) {}
  std::vector<QualifiedName> tables;
  bool restartIdentity = false;
  DropBehavior behavior = DropBehavior::Default;
};

// ---- transactions and session ----

enum class TransactionKind : uint8_t {
  Begin,
  Start,
  Commit,
  Rollback,
  Savepoint,
  Release,
  RollbackTo,
  SetTransaction,
  SetSessionCharacteristics,  // SET SESSION CHARACTERISTICS AS TRANSACTION: the defaults
  SetConstraints,             // SET CONSTRAINTS {ALL | name, ...} {DEFERRED | IMMEDIATE}
};
enum class IsolationLevel : uint8_t { Default, ReadUncommitted, ReadCommitted, RepeatableRead, Serializable };
struct TransactionStmt : Stmt {
  TransactionStmt() : Stmt(StmtKind::Transaction) {}
  TransactionKind action = TransactionKind::Begin;
  std::string savepoint;  // SAVEPOINT / RELEASE / ROLLBACK TO
  bool chain = false;     // COMMIT / ROLLBACK AND CHAIN
  IsolationLevel isolation = IsolationLevel::Default;
  std::optional<bool> readOnly;    // READ ONLY / READ WRITE
  std::optional<bool> deferrable;  // [NOT] DEFERRABLE
  bool local = false;              // SET LOCAL SESSION CHARACTERISTICS: until the transaction ends
  // SET CONSTRAINTS: the names (none for ALL) and DEFERRED (true) or IMMEDIATE.
  std::vector<QualifiedName> constraints;
  bool deferred = false;
};

struct SetStmt : Stmt {
  SetStmt() : Stmt(StmtKind::Set) {}
  enum class Action : uint8_t { Set, SetDefault, Reset, ResetAll } action = Action::Set;
  std::string name;             // folded; SET TIME ZONE sets "timezone"
  std::vector<DefElem> values;  // value list; DefElem::name unused
  bool local = false;           // SET LOCAL
};

struct ShowStmt : Stmt {
  ShowStmt() : Stmt(StmtKind::Show) {}
  std::string name;  // "all" for SHOW ALL; "timezone" for SHOW TIME ZONE
};

struct DiscardStmt : Stmt {
  DiscardStmt() : Stmt(StmtKind::Discard) {}
  std::string target;  // all, plans, sequences, temp
};

struct VacuumStmt : Stmt {
  VacuumStmt() : Stmt(StmtKind::Vacuum) {}
  bool isAnalyze = false;        // the ANALYZE statement rather than VACUUM
  std::vector<DefElem> options;  // FULL, ANALYZE, VERBOSE, FREEZE, or (option [value], ...)
  std::vector<QualifiedName> tables;
  std::vector<std::vector<std::string>> columns;  // per table, its column list (empty: all)
};

struct CheckpointStmt : Stmt {
  CheckpointStmt() : Stmt(StmtKind::Checkpoint) {}
};

struct CreateDatabaseStmt : Stmt {
  CreateDatabaseStmt() : Stmt(StmtKind::CreateDatabase) {}
  std::string name;
  std::vector<DefElem> options;
};

struct CreateRoleStmt : Stmt {
  CreateRoleStmt() : Stmt(StmtKind::CreateRole) {}
  std::string name;
  bool isUser = false;           // CREATE USER implies LOGIN
  std::vector<DefElem> options;  // superuser, login, password 'x', ... (names folded)
};

struct AlterRoleStmt : Stmt {
  AlterRoleStmt() : Stmt(StmtKind::AlterRole) {}
  std::string name;
  std::vector<DefElem> options;  // as CreateRoleStmt's
};

// GRANT roles TO members [WITH ADMIN OPTION], REVOKE [ADMIN OPTION FOR] roles FROM members.
struct GrantRoleStmt : Stmt {
  GrantRoleStmt() : Stmt(StmtKind::GrantRole) {}
  bool grant = true;
  std::vector<std::string> roles, members;
  bool adminOption = false;  // GRANT: WITH ADMIN OPTION; REVOKE: only the admin option
};

struct AlterDatabaseStmt : Stmt {
  AlterDatabaseStmt() : Stmt(StmtKind::AlterDatabase) {}
  std::string name;
  std::string owner;
};

// ---- COPY, prepared statements, EXPLAIN ----

struct CopyStmt : Stmt {
  CopyStmt() : Stmt(StmtKind::Copy) {}
  QualifiedName table;                // unset when `query` is
  std::unique_ptr<SelectStmt> query;  // COPY (SELECT ...) TO STDOUT
  std::vector<std::string> columns;
  bool isFrom = false;           // FROM STDIN; otherwise TO STDOUT
  std::string file;              // a file name instead of STDIN/STDOUT, if given
  std::vector<DefElem> options;  // old-style options are normalised to the new names
};

struct PrepareStmt : Stmt {
  PrepareStmt() : Stmt(StmtKind::Prepare) {}
  std::string name;
  std::vector<TypeName> paramTypes;
  StmtPtr stmt;  // its begin/end give the prepared statement's own text
};

struct ExecuteStmt : Stmt {
  ExecuteStmt() : Stmt(StmtKind::Execute) {}
  std::string name;
  std::vector<ExprPtr> args;
  std::vector<std::pair<uint32_t, uint32_t>> argRanges;  // each argument's text: begin, end
};

struct DeallocateStmt : Stmt {
  DeallocateStmt() : Stmt(StmtKind::Deallocate) {}
  std::string name;  // empty for ALL
  bool all = false;
};

// ---- LISTEN / NOTIFY, LOCK ----

struct ListenStmt : Stmt {
  ListenStmt() : Stmt(StmtKind::Listen) {}
  std::string channel;
};

struct UnlistenStmt : Stmt {
  UnlistenStmt() : Stmt(StmtKind::Unlisten) {}
  std::string channel;  // empty for UNLISTEN *
};

struct NotifyStmt : Stmt {
  NotifyStmt() : Stmt(StmtKind::Notify) {}
  std::string channel, payload;
};

struct LockStmt : Stmt {
  LockStmt() : Stmt(StmtKind::Lock) {}
  std::vector<QualifiedName> tables;
  std::string mode;  // "access exclusive" (the default), "row share", ...
  bool nowait = false;
};

// ---- SQL cursors ----

struct DeclareCursorStmt : Stmt {
  DeclareCursorStmt() : Stmt(StmtKind::DeclareCursor) {}
  std::string name;
  bool binary = false;
  bool scroll = false;    // SCROLL
  bool noScroll = false;  // NO SCROLL
  bool hold = false;      // WITH HOLD
  StmtPtr query;          // its begin/end give the query's own text
};

// FETCH or MOVE [direction] [FROM | IN] name.
struct FetchStmt : Stmt {
  enum class Direction : uint8_t { Forward, Backward, Absolute, Relative };
  FetchStmt() : Stmt(StmtKind::Fetch) {}
  bool move = false;
  Direction direction = Direction::Forward;
  int64_t count = 1;  // Forward/Backward: rows (kAll for ALL); Absolute/Relative: the position
  static constexpr int64_t kAll = INT64_MAX;
  std::string name;
};

struct ClosePortalStmt : Stmt {
  ClosePortalStmt() : Stmt(StmtKind::ClosePortal) {}
  std::string name;  // empty for CLOSE ALL
};

struct ExplainStmt : Stmt {
  ExplainStmt() : Stmt(StmtKind::Explain) {}
  std::vector<DefElem> options;  // ANALYZE, VERBOSE, or (option [value], ...)
  StmtPtr stmt;
};

}  // namespace duet::sql
