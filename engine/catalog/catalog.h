// The catalog: databases -> schemas -> tables, indexes and routines, plus roles. It owns every
// Table. All DDL takes the transaction's UndoLog, so ROLLBACK (or a failed statement's
// rollbackTo) undoes it; a dropped table or index stays alive inside the log until commit.
// Errors use PostgreSQL's SQLSTATEs and wording.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/catalog/routine.h"
#include "engine/catalog/sequence.h"
#include "engine/storage/table.h"
#include "engine/storage/undo_log.h"

namespace duet {

// The schemas a name is looked up in, in order: a qualified name's own schema, or for a bare
// name the session's search path (session/search_path.h). A schema that does not exist is
// skipped.
using SchemaPath = std::vector<std::string>;

// What becomes of a temporary table's rows at each commit (CREATE TEMP TABLE ... ON COMMIT).
enum class OnCommit : uint8_t { PreserveRows, DeleteRows, Drop };

// The session a temporary schema (pg_temp_N) belongs to, as the redo log names it
// (docs/logging.md, "Temporary tables"): the start of the server it ran in (microseconds
// since 2000) and its number there.
struct TempSessionId {
  int64_t serverStart = 0;
  uint64_t number = 0;
  auto operator<=>(const TempSessionId&) const = default;
};

struct ColumnDef {
  std::string name;
  SqlType type;
  bool notNull = false;
  std::string defaultSql{};  // DEFAULT expression as SQL text, for the binder; empty if none
  // An identity column: 'a' (GENERATED ALWAYS) or 'd' (BY DEFAULT), as pg_attribute's
  // attidentity; 0 for none. Its defaultSql is nextval of its sequence, which the catalogs
  // do not show as a default.
  char identity = 0;
};

enum class KeyKind : uint8_t { PrimaryKey, Unique };

// A PRIMARY KEY or UNIQUE constraint as written; an empty name gets PostgreSQL's default.
struct KeySpec {
  KeyKind kind;
  std::vector<std::string> columns;
  std::string name;
};

// A CHECK constraint. The condition is kept as SQL text, bound again by each INSERT and
// UPDATE plan over the new row (compiler/planner), so the statement's compiled code
// evaluates it.
struct CheckConstraint {
  uint32_t oid = 0;
  std::string name;
  std::string exprSql;  // the condition as written
  // The condition as pg_get_constraintdef prints it inside CHECK (...): (a > 0), and its
  // pretty form a > 0 (compiler/parser/ast_deparse.h).
  std::string expression, prettyExpression;
  std::vector<uint32_t> columns;  // the columns it reads, ascending (pg_constraint.conkey)
  bool validated = true;          // false after ADD ... NOT VALID: existing rows were not checked
};

// FOREIGN KEY (columns) REFERENCES refTable (refColumns) as written; an empty name gets
// PostgreSQL's default (t_a_b_fkey), empty refColumns the referenced primary key.
struct ForeignKeySpec {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::string> refColumns;
  char onUpdate = fk_action::kNoAction, onDelete = fk_action::kNoAction, match = fk_match::kSimple;
  bool notValid = false;
  bool deferrable = false, initiallyDeferred = false;
};

struct CreateTableSpec {
  std::string name;
  std::vector<ColumnDef> columns;
  std::vector<KeySpec> keys;  // column-level and table-level constraints alike
  StorageKind storage = StorageKind::Row;
  uint32_t oid = 0;  // a fixed oid (PostgreSQL's, for the system tables); 0: the next free one
  OnCommit onCommit = OnCommit::PreserveRows;
};

struct TableInfo;
struct Schema;

struct IndexInfo {
  uint32_t oid = 0;
  std::string name;
  TableInfo* table = nullptr;
  std::vector<uint32_t> columns;
  bool unique = false;
  bool primary = false;
  bool constraint = false;  // backs a PRIMARY KEY / UNIQUE constraint (a hash index)
  Index* index = nullptr;
};

struct TableInfo {
  uint32_t oid = 0;
  std::string name;
  Schema* schema = nullptr;
  std::vector<ColumnDef> columns;
  StorageKind storage = StorageKind::Row;
  std::unique_ptr<Table> table;
  IndexInfo* primaryKey = nullptr;
  std::vector<IndexInfo*> indexes;                       // constraint indexes and CREATE INDEX ones
  std::vector<CheckConstraint> checks;                   // in creation order
  std::vector<std::shared_ptr<ForeignKey>> foreignKeys;  // those whose referencing table this is
  OnCommit onCommit = OnCommit::PreserveRows;            // a temporary table's; others keep their rows
  // A system table (pg_catalog.pg_class, duet_snapshots, ...; docs/catalogs.md): its rows
  // are filled in from the catalog or the server's state just before a statement reads
  // it; never part of an archive.
  bool systemView = false;
  int columnIndex(const std::string& column) const;  // -1 if absent
};

// A view: a stored SELECT, planned again wherever a statement reads the view (inlined as
// a subquery in FROM, as PostgreSQL's rewriter does), never materialised.
struct ViewInfo {
  uint32_t oid = 0;
  std::string name;
  Schema* schema = nullptr;
  // The output columns as of CREATE: names (the column list's, else the query's) and types.
  std::vector<ColumnDef> columns;
  std::string query;  // the SELECT as written, without a trailing semicolon
  // The oids of the tables and views the query reads (pg_depend's view -> relation rows):
  // they cannot be dropped without CASCADE while the view exists.
  std::vector<uint32_t> dependsOn;
};

// CREATE TYPE name AS (field type, ...): a named composite type (catalog_types.cpp). Like
// PostgreSQL's, it has a pg_type row and a pg_class row of relkind 'c' (with its fields
// as pg_attribute rows), so its name is taken among the schema's relations too.
struct CompositeTypeInfo {
  uint32_t oid = 0;          // pg_type's
  uint32_t relationOid = 0;  // pg_class's (typrelid)
  std::string name;
  Schema* schema = nullptr;
  std::vector<ColumnDef> fields;  // names and types only
  // The SqlType values of the type have (engine/types/record.h).
  SqlType rowType() const;
};

// A table's row type, usable wherever a composite type is (RETURNS t, variables and
// parameters of type t): named like the table, its oid standing for the row type's.
SqlType tableRowType(const TableInfo& table);

struct Schema {
  uint32_t oid = 0;
  std::string name;
  // Tables, views and indexes share one namespace, as relations do in PostgreSQL.
  std::map<std::string, std::shared_ptr<TableInfo>> tables;
  std::map<std::string, std::shared_ptr<ViewInfo>> views;
  std::map<std::string, std::shared_ptr<IndexInfo>> indexes;
  std::map<std::string, std::shared_ptr<SequenceInfo>> sequences;
  std::map<std::string, std::shared_ptr<CompositeTypeInfo>> types;
  bool hasRelation(const std::string& n) const {
    return tables.count(n) || views.count(n) || indexes.count(n) || sequences.count(n) || types.count(n);
  }
  // Functions and procedures by name; overloads differ in their identity types.
  std::map<std::string, std::vector<std::shared_ptr<RoutineInfo>>> routines;
  // A session's schema of temporary objects (pg_temp_N): the session; unset for others.
  std::optional<TempSessionId> tempOwner;
  bool temporary() const { return tempOwner.has_value(); }
};

// What COMMENT ON names: PostgreSQL's pg_description key (the object's catalog, its oid, and
// a column's number or 0).
struct CommentKey {
  uint32_t classOid = 0, objectOid = 0;
  int32_t subId = 0;
  auto operator<=>(const CommentKey&) const = default;
};
inline constexpr uint32_t kPgClassOid = 1259, kPgNamespaceOid = 2615, kPgProcOid = 1255;

struct Database {
  uint32_t oid = 0;
  std::string name;
  std::string owner;
  std::map<std::string, std::unique_ptr<Schema>> schemas;  // "public", "pg_catalog"
  // COMMENT ON's texts (pg_description); those of dropped objects are not shown.
  std::map<CommentKey, std::string> comments;
  Schema* schema(const std::string& name) const;
};

struct Role {
  uint32_t oid = 0;
  std::string name;
  bool superuser = false;
  // GRANT r TO this role: the roles it is a direct member of, each with its admin option
  // (pg_auth_members). Privileges are not checked yet (issue 24), so membership only shows.
  std::map<std::string, bool> memberOf;
};

class Catalog {
 public:
  // A fresh catalog: database "postgres", superuser role "postgres".
  Catalog();
  ~Catalog();

  // ---- databases and roles
  Database* database(const std::string& name) const;
  Database& createDatabase(const std::string& name, const std::string& owner, UndoLog& undo);
  // Drops it with everything in it. Refusing to drop the connected database (55006) is
  // the caller's decision, as only it knows the sessions.
  void dropDatabase(const std::string& name, bool ifExists, UndoLog& undo);
  const Role* role(const std::string& name) const;
  const Role& createRole(const std::string& name, bool superuser, UndoLog& undo);
  void dropRole(const std::string& name, bool ifExists, UndoLog& undo);
  // ALTER ROLE name [NO]SUPERUSER. 42704 for a role that does not exist (also below).
  void setSuperuser(const std::string& role, bool superuser, UndoLog& undo);
  // GRANT role TO member [WITH ADMIN OPTION]: false (nothing changed) when member already
  // was a member, with the admin option if asked. 0LP01 when role is member, directly or
  // not, or member itself (a loop).
  bool grantRole(const std::string& role, const std::string& member, bool admin, UndoLog& undo);
  // REVOKE [ADMIN OPTION FOR] role FROM member: false when member was not a member.
  bool revokeRole(const std::string& role, const std::string& member, bool adminOnly, UndoLog& undo);
  // Whether `member` is `role` or a member of it, directly or through other roles.
  bool isMemberOf(const std::string& member, const std::string& role) const;
  // ALTER DATABASE name OWNER TO owner: 3D000 for a database that does not exist.
  void setDatabaseOwner(const std::string& database, const std::string& owner, UndoLog& undo);

  // ---- relations: looked up along a SchemaPath (the first schema that has the name);
  // created in a named schema (3F000 if it does not exist).
  TableInfo* findTable(const Database& db, const SchemaPath& path, const std::string& name) const;
  TableInfo& table(const Database& db, const SchemaPath& path, const std::string& name) const;  // 42P01 if absent
  IndexInfo* findIndex(const Database& db, const SchemaPath& path, const std::string& name) const;
  // A table or view (the first schema of the path that has either); both null if neither.
  struct Relation {
    TableInfo* table = nullptr;
    ViewInfo* view = nullptr;
  };
  Relation findRelation(const Database& db, const SchemaPath& path, const std::string& name) const;

  TableInfo& createTable(Database& db, const std::string& schemaName, CreateTableSpec spec, UndoLog& undo);
  void dropTable(Database& db, const SchemaPath& path, const std::string& name, bool ifExists, UndoLog& undo);
  // CREATE [UNIQUE] INDEX [name] ON table (columns): an ordered index. Empty name: t_a_idx.
  IndexInfo& createIndex(TableInfo& table, std::string name, const std::vector<std::string>& columns, bool unique,
                         UndoLog& undo);
  void dropIndex(Database& db, const SchemaPath& path, const std::string& name, bool ifExists, UndoLog& undo);
  // ALTER TABLE ADD PRIMARY KEY / UNIQUE.
  IndexInfo& addKey(TableInfo& table, const KeySpec& key, UndoLog& undo);
  void truncate(TableInfo& table, UndoLog& undo) { table.table->truncate(undo); }

  // ---- ALTER TABLE, ALTER INDEX (catalog_alter.cpp). Each is undone by rollback.
  // RENAME TO: 42P07 if the name is taken by another relation.
  void renameTable(TableInfo& table, const std::string& newName, UndoLog& undo);
  void renameView(ViewInfo& view, const std::string& newName, UndoLog& undo);
  void renameIndex(IndexInfo& index, const std::string& newName, UndoLog& undo);
  // RENAME COLUMN: 42703 for an unknown column, 42701 for a name the table has.
  void renameColumn(TableInfo& table, const std::string& from, const std::string& to, UndoLog& undo);
  // RENAME CONSTRAINT (renames the index behind a key, as PostgreSQL does): 42704 if absent.
  void renameConstraint(TableInfo& table, const std::string& from, const std::string& to, UndoLog& undo);
  // SET DEFAULT (SQL text) / DROP DEFAULT (empty text).
  void setColumnDefault(TableInfo& table, uint32_t column, std::string defaultSql, UndoLog& undo);
  // SET NOT NULL (23502 when a row holds NULL) / DROP NOT NULL (42P16 for a key column).
  void setColumnNotNull(TableInfo& table, uint32_t column, bool notNull, UndoLog& undo);
  // DROP CONSTRAINT: the one place constraints are dropped by name (PRIMARY KEY and UNIQUE
  // drop their index). False when there is none of that name and ifExists; 42704 without.
  bool dropConstraint(TableInfo& table, const std::string& name, bool ifExists, UndoLog& undo);
  // Rebuilds the table with new columns (ADD/DROP COLUMN, ALTER TYPE): `fill` inserts the
  // converted rows into the new Table (its columns all nullable while it runs), recording
  // them in the UndoLog it is given (the new table's own, not the transaction's); then NOT
  // NULL columns are checked (23502), and the indexes rebuilt on their columns' new places
  // (sourceColumn[i]: the old column new column i comes from, -1 for a new one); an index
  // on a column that is gone is dropped. The foreign keys the table takes part in, on
  // either side, move to the new Table with their columns (the caller refuses a rewrite
  // that drops or retypes a column of one). The old Table lives in the undo log until commit.
  void rewriteTable(TableInfo& table, std::vector<ColumnDef> columns, const std::vector<int>& sourceColumn,
                    const std::function<void(Table&, UndoLog&)>& fill, UndoLog& undo);
  // 23502 "column \"c\" of relation \"t\" contains null values" if a row holds NULL in one.
  void checkNoNulls(const TableInfo& table, const Table& rows, const std::vector<uint32_t>& columns) const;
  // ---- CHECK and FOREIGN KEY constraints (catalog_constraints.cpp). The caller validates
  // existing rows (a CHECK needs the compiler; validateForeignKey for a foreign key).
  // 42710 if the table has a constraint of that name.
  CheckConstraint& addCheck(TableInfo& table, CheckConstraint check, UndoLog& undo);
  // 42830 without a PRIMARY KEY/UNIQUE constraint over refColumns, 42804 for column types
  // that cannot be compared. `defaults` (SET DEFAULT) as ForeignKey::defaults.
  ForeignKey& addForeignKey(TableInfo& table, const ForeignKeySpec& spec, TableInfo& referenced,
                            std::vector<uint8_t> defaults, UndoLog& undo);
  // ALTER TABLE DROP CONSTRAINT of a CHECK or FOREIGN KEY; false if it has none of that name.
  bool dropCheckOrForeignKey(TableInfo& table, const std::string& name, UndoLog& undo);
  void dropForeignKey(ForeignKey& fk, UndoLog& undo);
  // The table that owns a Table (a foreign key's ends).
  TableInfo* tableOf(const Database& db, const Table* table) const;
  // Whether a constraint of the table (any kind) is called `name`.
  bool hasConstraint(const TableInfo& table, const std::string& name) const;

  // ---- views (catalog_views.cpp)
  ViewInfo* findView(const Database& db, const SchemaPath& path, const std::string& name) const;
  // CREATE [OR REPLACE] VIEW: `spec` holds name, columns, query and dependencies. 42P07 if
  // the name is taken (by a table, or by a view without OR REPLACE); a replacement must
  // keep the old columns' names and types and may only add columns at the end (42P16). A
  // replaced view keeps its oid.
  ViewInfo& createView(Database& db, const std::string& schemaName, ViewInfo spec, bool orReplace, UndoLog& undo);
  void dropView(ViewInfo& view, UndoLog& undo);
  // The views that read relation `oid`, directly or through other views, each after the
  // views it reads (so dropping them in reverse order never leaves one dangling).
  std::vector<ViewInfo*> dependentViews(const Database& db, uint32_t oid) const;

  // ---- functions and procedures (catalog_routines.cpp). A lookup finds the routines of
  // that name in every schema of the path, in path order; one whose identity types an
  // earlier schema's routine has is hidden by it (PostgreSQL's FuncnameGetCandidates).
  std::vector<RoutineInfo*> findRoutines(const Database& db, const SchemaPath& path, const std::string& name) const;
  RoutineInfo* findRoutine(const Database& db, const SchemaPath& path, const std::string& name,
                           const std::vector<RoutineType>& identity) const;
  // CREATE [OR REPLACE] FUNCTION | PROCEDURE with PostgreSQL's rules for replacing: 42723
  // without OR REPLACE; 42809 for another kind; 42P13 for a changed result type or OUT row,
  // a renamed input parameter or removed defaults. A replaced routine keeps its oid.
  RoutineInfo& createRoutine(Database& db, const std::string& schemaName, RoutineInfo spec, bool orReplace,
                             UndoLog& undo);
  void dropRoutine(RoutineInfo& routine, UndoLog& undo);

  // ---- composite types (catalog_types.cpp)
  CompositeTypeInfo* findType(const Database& db, const SchemaPath& path, const std::string& name) const;
  // CREATE TYPE ... AS: 42710 when a type of that name exists (another composite type, or
  // the row type of a table, view or sequence), 42P07 when an index has it.
  CompositeTypeInfo& createType(Database& db, const std::string& schemaName, CompositeTypeInfo spec, UndoLog& undo);
  void dropType(CompositeTypeInfo& type, UndoLog& undo);

  // CREATE SCHEMA (42P06 when taken, 42939 for a pg_ name); DROP SCHEMA of an empty one;
  // ALTER SCHEMA RENAME TO. Undone by rollback.
  Schema& createSchema(Database& db, const std::string& name, UndoLog& undo);
  void dropSchema(Database& db, const std::string& name, UndoLog& undo);
  void renameSchema(Database& db, const std::string& name, const std::string& newName, UndoLog& undo);
  // Whether a schema holds no relation or routine.
  static bool schemaEmpty(const Schema& schema);
  // A session's schema for temporary objects (pg_temp_N, a name CREATE SCHEMA refuses;
  // dropSchema removes it once empty). Undone by rollback.
  Schema& createTemporarySchema(Database& db, const std::string& name, TempSessionId owner, UndoLog& undo);

  // COMMENT ON ... IS text (nullopt: IS NULL, which removes it); undone by rollback.
  void setComment(Database& db, const CommentKey& key, std::optional<std::string> text, UndoLog& undo);

  // ---- sequences (catalog_sequences.cpp). Their values change outside transactions; what
  // CREATE, ALTER and DROP SEQUENCE change is undoable like other DDL.
  SequenceInfo* findSequence(const Database& db, const SchemaPath& path, const std::string& name) const;
  SequenceInfo* sequenceByOid(const Database& db, uint32_t oid) const;
  // `spec` holds the name, owner and identity flag; `options` the parameters (22023 when
  // they do not fit). 42P07 when the name is taken by any relation.
  SequenceInfo& createSequence(Database& db, const std::string& schemaName, SequenceInfo spec,
                               const SequenceOptions& options, UndoLog& undo);
  void alterSequence(SequenceInfo& sequence, const SequenceOptions& options, UndoLog& undo);
  // OWNED BY table.column (ownerTable 0: OWNED BY NONE).
  void setSequenceOwner(SequenceInfo& sequence, uint32_t ownerTable, const std::string& ownerColumn, UndoLog& undo);
  // ALTER COLUMN ... ADD GENERATED: the column's identity kind ('a', 'd'; 0 for none).
  void setColumnIdentity(TableInfo& table, uint32_t column, char identity, UndoLog& undo);
  void renameSequence(SequenceInfo& sequence, const std::string& newName, UndoLog& undo);
  void dropSequence(SequenceInfo& sequence, UndoLog& undo);
  // The sequences owned by a column of table `oid` (all its columns when `column` is empty).
  std::vector<SequenceInfo*> ownedSequences(const Database& db, uint32_t table, const std::string& column = {}) const;

  uint32_t nextOid() { return nextOid_++; }
  // PostgreSQL's ChooseRelationName: table_col1_col2_label, shortened to fit, then a
  // counter appended until no relation of the schema has the name (t_a_key, t_id_seq);
  // `constraint`: also free among the schema's CHECK and FOREIGN KEY names
  // (ChooseConstraintName).
  std::string chooseName(const Schema& schema, const std::string& table, const std::vector<std::string>& columns,
                         const std::string& label, bool constraint = false) const;

  // Everything, for archives (session/archive_dump.cpp).
  const std::map<std::string, std::shared_ptr<Database>>& databases() const { return databases_; }
  const std::map<std::string, Role>& roles() const { return roles_; }

  // ---- statistics (docs/statistics.md)
  AnalysisQueue& analysisQueue() { return *analysisQueue_; }
  const AnalysisQueue& analysisQueue() const { return *analysisQueue_; }

 private:
  Schema& resolveSchema(const Database& db, const std::string& schemaName) const;
  Schema& addSchema(Database& db, const std::string& name, UndoLog& undo);
  void checkReplacement(const RoutineInfo& old, const RoutineInfo& replacement) const;
  std::shared_ptr<Database> makeDatabase(uint32_t oid, const std::string& name, const std::string& owner);
  void checkNewRelationName(const Schema& schema, const std::string& name) const;
  // Takes a constraint's index off its table (and the table's primary key), for rollback to put back.
  void detachIndex(IndexInfo& index, UndoLog& undo);
  IndexInfo& attachIndex(TableInfo& table, std::string name, std::vector<uint32_t> columns, bool unique, bool primary,
                         bool constraint, UndoLog& undo);
  std::vector<uint32_t> resolveColumns(const TableInfo& table, const std::vector<std::string>& columns,
                                       bool forKey) const;

  std::map<std::string, std::shared_ptr<Database>> databases_;
  std::map<std::string, Role> roles_;
  // Tables due for automatic analysis (analysis_queue.h); every user table reports here.
  std::unique_ptr<AnalysisQueue> analysisQueue_ = std::make_unique<AnalysisQueue>();
  uint32_t nextOid_ = 16384;  // PostgreSQL's FirstNormalObjectId
};

}  // namespace duet
