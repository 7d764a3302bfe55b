// The precompiled half of every compiled query (Umbra's "Tidy Tuples" split): the hash
// tables, sort buffers and output formatting that generated code calls. Generated code
// passes tuples in TupleLayout format (engine/storage/layout.h); the structures here know
// the layouts and use the type library's hash, compare and format functions on them.
// Their arrays and arenas count against the statement's memory limit
// (engine/limits/statement_memory.h).
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "compiler/runtime/changed_rows.h"
#include "compiler/runtime/value_set.h"
#include "engine/limits/statement_memory.h"
#include "engine/storage/layout.h"
#include "engine/types/value.h"

namespace duet {
class Table;
class UndoLog;
struct TypeContext;
}  // namespace duet

namespace duet::rt {

// Receives the rows a query produces (the final projection), one tuple at a time.
class RowConsumer {
 public:
  virtual ~RowConsumer() = default;
  virtual void consume(const uint8_t* tuple) = 0;
};

// A growable list of tuples of one layout; strings copied into its own arena so the rows
// stay valid after the statement arena or the source table changes.
class TupleBuffer {
 public:
  explicit TupleBuffer(TupleLayout layout) : layout_(std::move(layout)) {}
  virtual ~TupleBuffer() = default;
  uint8_t* append(const uint8_t* tuple);  // copy() and add to the rows
  size_t size() const { return rows_.size(); }
  uint8_t* at(size_t i) const { return rows_[i]; }
  const TupleLayout& layout() const { return layout_; }
  StatementVector<uint8_t*>& rows() { return rows_; }

 protected:
  uint8_t* copy(const uint8_t* tuple);  // a copy in the buffer's arena, strings too
  TupleLayout layout_;
  StatementVector<uint8_t*> rows_;
  Arena arena_;
};

// Hash table from key tuples to fixed-size, zero-initialised state blocks: GROUP BY,
// DISTINCT, and (with no state) the seen set of an aggregate with DISTINCT. Entry memory: [key tuple][state bytes].
// Whether two key tuples of one layout are equal as GROUP BY and DISTINCT see them (NULLs
// equal, as compareTuples == 0), with the per-column work decided once per table: fixed-
// width values that are equal exactly when their bytes are (integers, dates, timestamps,
// booleans, uuids) and byte strings of the C collation (text, varchar, bytea) are compared
// as bytes; the rest (numeric 1.5 = 1.50, floats' -0 and NaN, char's trailing spaces, ...)
// by compareValues.
class KeyEquality {
 public:
  explicit KeyEquality(const TupleLayout& layout);
  bool operator()(const uint8_t* a, const uint8_t* b) const;
  // Whether keys are one value of at most 8 bytes compared as bytes (an integer, a date):
  // then two keys without NULLs are equal exactly when their word()s are.
  bool oneWord() const { return columns_.size() == 1 && columns_[0].kind == Kind::Bytes && columns_[0].size <= 8; }
  uint64_t word(const uint8_t* key) const {
    const uint8_t* p = key + columns_[0].offset;
    auto as = [p](auto v) {  // a load of the key's own width, not a memcpy call
      std::memcpy(&v, p, sizeof v);
      return static_cast<uint64_t>(v);
    };
    switch (columns_[0].size) {
      case 8: return as(uint64_t{});
      case 4: return as(uint32_t{});
      case 2: return as(uint16_t{});
      default: return as(uint8_t{});
    }
  }

 private:
  // Compare: compareValues; PaddedString: character(n), equal without trailing spaces.
  enum class Kind : uint8_t { Bytes, String, PaddedString, Compare };
  struct Column {
    Kind kind;
    uint32_t offset, size;
    SqlType type;
  };
  std::vector<Column> columns_;
};

// Keys are compared as GROUP BY, DISTINCT and joins need (KeyEquality); their hashes come
// from the generated code (Codegen::keyHash, PostgreSQL's hash functions per type as
// hashTuple combines them), or from hashTuple where the runtime looks a key up itself.
class GroupTable {
 public:
  GroupTable(TupleLayout keyLayout, uint32_t stateSize);
  // Returns the entry's state block; *isNew is set when the group was just created.
  uint8_t* findOrInsert(const uint8_t* keyTuple, bool* isNew) {
    return findOrInsert(keyTuple, hashKey(keyTuple), isNew);
  }
  uint8_t* findOrInsert(const uint8_t* keyTuple, uint64_t hash, bool* isNew);
  size_t size() const { return entries_.size(); }
  uint8_t* entry(size_t i) const { return entries_[i]; }  // the key tuple; state follows
  uint32_t stateOffset() const { return keyLayout_.size; }

 private:
  uint64_t hashKey(const uint8_t* key) const;
  void grow();
  TupleLayout keyLayout_;
  KeyEquality equal_;
  uint32_t stateSize_;
  StatementVector<uint8_t*> entries_;
  StatementVector<uint32_t> slots_;  // open addressing; 0 empty, else entry index + 1
  StatementVector<uint64_t> hashes_;
  Arena arena_;
};

// Join hash table: key tuple -> list of payload tuples (the build side's rows, with the
// columns the plan reads of them: Codegen::StoredRow).
// finish() lays the entries out by bucket, each with its hash and its key's and row's
// addresses side by side, so that a probe reads the bucket's bounds and then one short run
// of entries (chained lists spread over four arrays cost a cache miss per step). Integer
// keys of a dense range (TPC-H's part and customer keys, CH's items) get a bucket per key
// value instead of per hash: no more buckets than hashing takes, and probes in key order
// (CH's stock by item) read buckets, entries and rows in order (DuckDB's perfect hash join).
class JoinTable {
 public:
  JoinTable(TupleLayout keyLayout, TupleLayout rowLayout);
  void insert(const uint8_t* keyTuple, const uint8_t* rowTuple, uint64_t hash);
  void finish();  // build the index after all inserts
  // Takes over the rows of a partial table built by a parallel worker (before finish);
  // their memory stays with `part`, which must outlive this table.
  void absorb(JoinTable& part);
  // Iterates matches of the key whose hash is `hash`: start with cursor = 0, returns null
  // when exhausted.
  const uint8_t* next(const uint8_t* keyTuple, uint64_t hash, uint64_t* cursor) const;
  // FULL JOIN: rows whose key has a NULL are kept too (they match nothing but are still
  // emitted); finish() puts them after the indexed rows.
  void keepNullKeys() { keepNullKeys_ = true; }
  // Every row, for the pass over the unmatched ones after probing.
  TupleBuffer& rows() { return rows_; }
  // NOT IN's question after finish(): no rows at all, or whether a kept row has a NULL key.
  bool empty() const { return rows_.size() == 0; }
  bool hasNullKeys() const { return nullKeyRows_.size() != 0; }
  // After finish(), for tables of at most kFilterKeys keys: a Bloom filter of one hash over
  // the keys' hashes (bit (hash >> 32) & filterMask(), 16 bits per key), which generated
  // code tests before calling next(), so that a probe row whose key no entry has costs a
  // load and a test (TPC-H Q8's lineitems of 1,451 parts of 200,000: DuckDB's dynamic
  // filters). Null for a bigger table, whose filter would no longer fit the cache.
  static constexpr size_t kFilterKeys = size_t{1} << 16;
  const uint64_t* filterWords() const { return filter_.empty() ? nullptr : filter_.data(); }
  uint64_t filterMask() const { return filterMask_; }
  // Whether finish() gave each key value a bucket of its own (a dense integer range).
  bool bucketPerKey() const { return directKeys_; }

 private:
  TupleLayout keyLayout_;
  KeyEquality equal_;
  bool keepNullKeys_ = false;
  TupleBuffer rows_;
  TupleBuffer nullKeyRows_;
  TupleBuffer keys_;
  StatementVector<uint64_t> hashes_;  // per inserted key, until finish()
  StatementVector<uint64_t> words_;   // and its word, with wordKeys_
  struct Entry {
    uint64_t hash;
    uint64_t word;  // the key itself when KeyEquality::oneWord(): compared without reading it
    const uint8_t* key;
    const uint8_t* row;
  };
  bool wordKeys_;            // KeyEquality::oneWord(): Entry::word decides equality
  bool directKeys_ = false;  // bucket b holds the key word lowestKey_ + b
  uint64_t lowestKey_ = 0;
  StatementVector<Entry> entries_;     // by bucket, in insertion order within one
  StatementVector<uint32_t> buckets_;  // bucket b's entries are [buckets_[b], buckets_[b + 1])
  StatementVector<uint64_t> filter_;
  uint64_t filterMask_ = 0;
};

struct SortSpec {
  int column;
  bool descending;
  bool nullsFirst;
};

class Sorter : public TupleBuffer {
 public:
  Sorter(TupleLayout layout, std::vector<SortSpec> keys) : TupleBuffer(std::move(layout)), keys_(std::move(keys)) {}
  // ORDER BY ... LIMIT: only the first `bound` rows in sort order are wanted. The sorter
  // then keeps those in a heap as rows arrive and does not copy a row that cannot be
  // among them.
  void setBound(uint64_t bound) { bound_ = bound; }
  void add(const uint8_t* tuple);
  // Sorts the rows; stable: rows with equal keys keep their order of arrival.
  void sort();
  // Fills this (empty) sorter with the rows of sorted partial runs, in order; the rows'
  // memory stays with the parts, which must outlive this sorter.
  void mergeSorted(const std::vector<Sorter*>& parts);

 protected:
  int compare(const uint8_t* a, const uint8_t* b) const { return compareKeys(a, b, 0, keys_.size()); }
  // compare() over sort keys [from, to) only.
  int compareKeys(const uint8_t* a, const uint8_t* b, size_t from, size_t to) const;
  const std::vector<SortSpec>& keys() const { return keys_; }

 private:
  struct Kept {
    uint8_t* row;
    uint64_t arrival;  // breaks ties, so that the bounded sort is stable too
  };
  bool before(const Kept& x, const Kept& y) const;
  std::vector<SortSpec> keys_;
  uint64_t bound_ = UINT64_MAX;
  StatementVector<Kept> heap_;  // bounded: the best rows so far, the last in order on top
  uint64_t arrivals_ = 0;
};

struct QueryContext;
class ParallelRun;
struct Instrumentation;
struct CodeTiers;

// An advisory lock's key as PostgreSQL's pg_locks shows it: one bigint, or (`pair`) two
// int4 keys, the first in the high half (classid, objid and objsubid 2).
struct AdvisoryLockKey {
  uint64_t value = 0;
  bool pair = false;
};

// A PL/pgSQL routine's dynamic SQL (EXECUTE, compiler/plpgsql/dynamic_sql.h), which the
// session parses, plans and runs as it runs a client's statements
// (SessionServices::executeDynamic).
enum class DynamicUse : uint8_t {
  Execute,      // EXECUTE: any statements; the last one's rows and row count are the result
  Cursor,       // FOR ... IN EXECUTE: one statement that returns rows (else 42P11, unrun)
  ReturnQuery,  // RETURN QUERY EXECUTE: statements that all return rows (else 42601); all rows count
};
struct DynamicQuery {
  std::string_view sql;
  const TupleLayout* paramLayout = nullptr;  // $1..$n: the USING values, a tuple at `params`
  const uint8_t* params = nullptr;
  DynamicUse use = DynamicUse::Execute;
  // A STABLE or IMMUTABLE routine's: only read-only statements (0A000 otherwise), as
  // PostgreSQL's SPI runs them for such a function.
  bool readOnly = false;
};
// Receives the rows of a dynamic query's statements.
class DynamicRows : public RowConsumer {
 public:
  // A statement's rows follow, tuples of `layout`, its columns named `names`.
  virtual void start(const TupleLayout& layout, const std::vector<std::string>& names) = 0;
};
struct DynamicOutcome {
  bool returnedRows = false;  // the last statement returns rows (SELECT, ... RETURNING, SHOW, EXPLAIN)
  uint64_t processed = 0;     // PostgreSQL's SPI_processed: what GET DIAGNOSTICS ROW_COUNT reads
};

struct Portal;  // portal.h

// What compiled code asks of the session it runs in: calls to user-defined routines
// (found and compiled by the session) and notices for the client.
class SessionServices {
 public:
  virtual ~SessionServices() = default;
  // Runs routine `oid` on arguments `args` (a tuple of `argLayout`: its argument types,
  // which for a polymorphic routine are the actual types the call resolved). A scalar
  // result goes to `result` (a one-column tuple of the result type); when `rows` is set,
  // the routine's rows are appended there instead (a set, or its one row).
  virtual void callRoutine(QueryContext& ctx, uint32_t oid, const TupleLayout& argLayout, const uint8_t* args,
                           uint8_t* result, TupleBuffer* rows) = 0;
  // RAISE NOTICE and friends: severity as PostgreSQL names it ("NOTICE", "WARNING", ...).
  virtual void notice(const char* severity, std::string message) = 0;
  // EXECUTE: runs `query`'s statements in the calling statement's transaction, with its
  // clock and settings; their rows go to `rows`.
  virtual DynamicOutcome executeDynamic(QueryContext& ctx, const DynamicQuery& query, DynamicRows& rows) {
    (void)ctx, (void)query, (void)rows;
    throw std::logic_error("EXECUTE outside a session");
  }
  // An EXCEPTION block caught an error and rolled the undo log back to its start: DDL the
  // block ran (through EXECUTE) is undone, so plans and routine code made since are stale.
  virtual void subtransactionRolledBack() {}
  // current_setting(name): the session's value of a setting; null if there is no such
  // setting. Called from a snapshot's parallel workers too (settings do not change then).
  virtual const std::string* currentSetting(std::string_view name) const = 0;
  // set_config(name, value, is_local): SET (SET LOCAL when `local`) from a query; returns
  // the value the setting now shows.
  virtual std::string setSetting(std::string_view name, std::string_view value, bool local) {
    (void)name, (void)value, (void)local;
    throw std::logic_error("set_config() outside a session");
  }
  // pg_notify(channel, payload): NOTIFY from a query.
  virtual void notify(std::string_view channel, std::string_view payload) {
    (void)channel, (void)payload;
    throw std::logic_error("pg_notify() outside a session");
  }
  // txid_current(): the running transaction's id, given at its first call
  // (session/transaction_state.h).
  virtual int64_t transactionId() { throw std::logic_error("txid_current() outside a session"); }
  // The advisory lock functions (transaction_functions.h, session/advisory_locks.h). Takes
  // one more hold of lock `key`, until the session gives it back or (`transactionScope`)
  // until the transaction ends; whether it was granted. A lock another session holds in a
  // conflicting mode is not granted: with `wait` (pg_advisory_lock, not pg_try_...) that
  // raises 55P03, as the serial executor cannot wait for the holder.
  virtual bool advisoryLock(AdvisoryLockKey key, bool shared, bool transactionScope, bool wait) {
    (void)key, (void)shared, (void)transactionScope, (void)wait;
    throw std::logic_error("advisory locks outside a session");
  }
  // pg_advisory_unlock[_shared]: gives back one session-level hold; false (with a WARNING)
  // when the session has none in that mode.
  virtual bool advisoryUnlock(AdvisoryLockKey key, bool shared) {
    (void)key, (void)shared;
    throw std::logic_error("advisory locks outside a session");
  }
  // COMMIT / ROLLBACK [AND CHAIN] in a procedure (docs/plpgsql.md): ends the transaction
  // the CALL runs in and starts the next one (its now() is ctx's from then on), or raises
  // 2D000 where the call may not end it (a transaction block, a function, an EXCEPTION
  // block's body).
  virtual void endTransactionInCall(QueryContext& ctx, bool commit, bool chain) {
    (void)ctx, (void)commit, (void)chain;
    throw std::logic_error("transaction control outside a session");
  }
  // An EXCEPTION block's body (a subtransaction) starts or ends: no COMMIT or ROLLBACK meanwhile.
  virtual void subtransaction(bool started) { (void)started; }
  // pg_advisory_unlock_all: gives back every session-level hold.
  virtual void advisoryUnlockAll() { throw std::logic_error("advisory locks outside a session"); }
  // nextval, currval, setval and lastval of the sequence with relation oid `oid`
  // (sequence_functions.h).
  virtual int64_t nextval(uint32_t oid) = 0;
  virtual int64_t currval(uint32_t oid) = 0;
  virtual void setval(uint32_t oid, int64_t value, bool isCalled) = 0;
  virtual int64_t lastval() = 0;
  // Where sequence `oid` stands (SELECT last_value, is_called FROM s): the value it handed
  // out last, or will hand out next when not yet called.
  virtual int64_t sequenceValue(uint32_t oid, bool* isCalled) = 0;
  // The session's cursors (portal.h), which PL/pgSQL's OPEN, FETCH, MOVE and CLOSE use.
  // Opens cursor `name` for rows of `layout` (42P03 "cursor ... already in use"); it
  // stays open until CLOSE or the end of the transaction, also after the routine returns.
  virtual Portal& openCursor(std::string name, const TupleLayout& layout, std::vector<std::string> columnNames,
                             bool scrollable) {
    (void)name, (void)layout, (void)columnNames, (void)scrollable;
    throw std::logic_error("cursors outside a session");
  }
  // Cursor `name`, or null when there is none open.
  virtual Portal* findCursor(std::string_view name) {
    (void)name;
    throw std::logic_error("cursors outside a session");
  }
  // CLOSE: 24000 for a cursor a FOR loop reads.
  virtual void closeCursor(Portal& portal) {
    (void)portal;
    throw std::logic_error("cursors outside a session");
  }
  // WHERE CURRENT OF cursor `name` on `table` (Portal::currentRow): 34000 when there is no
  // such cursor, 24000 when it is held over the commit of the transaction that opened it.
  virtual uint64_t currentRowOf(std::string_view name, const Table& table) {
    (void)name, (void)table;
    throw std::logic_error("cursors outside a session");
  }
  // The name OPEN gives a cursor whose variable is NULL: "<unnamed portal N>", one not in use.
  virtual std::string unnamedCursorName() { throw std::logic_error("cursors outside a session"); }
  // How many cursors the session has opened so far; after an EXCEPTION block caught an
  // error, the cursors opened since that count close (a subtransaction's abort).
  virtual uint64_t cursorsOpened() { return 0; }
  virtual void closeCursorsOpenedSince(uint64_t opened) { (void)opened; }
};

// The session compiled code runs in, for `what` ("nextval()"): 0A000 "<what> is not
// supported here" where there is none (a parallel worker's context).
SessionServices& sessionFor(QueryContext* ctx, const char* what);

// clock_timestamp() read so that a transaction can be replayed: a transaction's clock is
// its start timestamp (now()) plus the monotonic time elapsed since, never going back.
// Every offset handed out is kept, in order: with the start timestamp and random()'s
// starting state it is what a redo log records, and a replay hands out the same values.
// (One entry per call: a transaction reading the clock in a long loop keeps them all.)
struct TransactionClock {
  int64_t start = 0;  // microseconds since 2000-01-01 UTC, the transaction's now()
  std::chrono::steady_clock::time_point monotonicStart;
  std::vector<int64_t> readings;  // offsets from `start`, microseconds
  // A replay (recovery from the redo log) hands these out instead of reading the clock.
  std::vector<int64_t> replayOffsets;
  size_t replayNext = 0;

  void restart(int64_t startTimestamp);
  int64_t read();  // start + a new offset, not below the last one
};

// Everything one execution of a compiled query needs; generated code receives a pointer
// and reads some fields at their offsets, so it stays a standard-layout type (checked below).
struct QueryContext {
  const uint8_t* params = nullptr;  // parameters as a tuple (layout chosen by the binder)
  UndoLog* undo = nullptr;
  RowConsumer* output = nullptr;
  const std::atomic<bool>* cancel = nullptr;
  const std::atomic<bool>* timedOut = nullptr;  // set with cancel by statement_timeout
  const TypeContext* typeContext = nullptr;     // time zone etc. for casts
  int64_t affectedRows = 0;                     // INSERT/UPDATE/DELETE count
  // now()/CURRENT_TIMESTAMP: the transaction's start, microseconds since 2000-01-01 UTC
  // (recorded by the session so a replay of the statement sees the same value).
  int64_t transactionTimestamp = 0;
  // statement_timestamp(): when the client's statement began (the transaction's start for
  // its first statement, else a reading of `clock`), the same inside routines it calls.
  int64_t statementTimestamp = 0;
  TransactionClock* clock = nullptr;  // clock_timestamp(); null: now() stands in
  // random(): the session's generator state (see TransactionState::randomState).
  uint64_t* randomState = nullptr;
  SessionServices* session = nullptr;  // routine calls and notices; null outside a session
  // current_setting(): the session (also in a parallel worker's context, which has no
  // `session`: workers call no routines); null outside a session.
  const SessionServices* settings = nullptr;
  std::vector<std::unique_ptr<TupleBuffer>> buffers;  // per-execution runtime state,
  std::vector<std::unique_ptr<GroupTable>> groups;    // created by generated code
  std::vector<std::unique_ptr<JoinTable>> joins;
  // The sets of IN lists and = ANY (array) (value_set.h), one per place in the code, refilled
  // by each execution of its statement; a subquery's state release leaves them (its cached
  // set is still used by the next run).
  std::vector<std::unique_ptr<ValueSet>> valueSets;
  // INSERT ... ON CONFLICT DO UPDATE's rows changed so far (changed_rows.h), one set per
  // statement in the code, emptied by each execution of its statement.
  std::vector<std::unique_ptr<ChangedRows>> changedRows;
  // Parallel pipelines (parallel_runtime.h): the runs this statement started, and in a
  // worker's own context, the run it belongs to and its number.
  std::vector<std::shared_ptr<ParallelRun>> parallelRuns;
  // The finished hash join tables the leader built before a parallel run, by slot, for
  // the workers' probes (a worker's context gets the leader's).
  std::vector<JoinTable*> sharedJoins;
  ParallelRun* parallel = nullptr;
  uint32_t worker = 0;
  // EXPLAIN ANALYZE: this thread's counters per plan node (instrumentation.h); null when
  // the code was generated without them.
  Instrumentation* instrumentation = nullptr;
  // The statement's optimised tier (code_tiers.h), which its parallel runs switch to once it
  // is ready; null: the code has one tier. In a worker's context: whether the worker
  // running on it is the optimised tier's.
  const CodeTiers* tiers = nullptr;
  bool optimisedCode = false;
};
static_assert(std::is_standard_layout_v<QueryContext>, "generated code reads QueryContext fields by offsetof");

// Describes, for generated code, the layouts it asks runtime structures to use.
struct LayoutPool {
  std::vector<std::unique_ptr<TupleLayout>> layouts;
  const TupleLayout* add(TupleLayout l) {
    layouts.push_back(std::make_unique<TupleLayout>(std::move(l)));
    return layouts.back().get();
  }
};

}  // namespace duet::rt

// The C entry points generated code calls.
extern "C" {
void duet_q_emit(duet::rt::QueryContext* ctx, const uint8_t* tuple);
void duet_q_check_cancel(duet::rt::QueryContext* ctx);
duet::rt::TupleBuffer* duet_q_buffer_new(duet::rt::QueryContext* ctx, const duet::TupleLayout* layout);
void duet_q_buffer_append(duet::rt::TupleBuffer* b, const uint8_t* tuple);
uint64_t duet_q_buffer_size(duet::rt::TupleBuffer* b);
uint8_t* duet_q_buffer_at(duet::rt::TupleBuffer* b, uint64_t i);
// A buffer that may be null (no rows), and its row i or `past` beyond its last.
uint64_t duet_q_buffer_size_or_zero(duet::rt::TupleBuffer* b);
uint8_t* duet_q_buffer_at_or(duet::rt::TupleBuffer* b, uint64_t i, uint8_t* past);
duet::rt::TupleBuffer* duet_q_sorter_new(duet::rt::QueryContext* ctx, const duet::TupleLayout* layout,
                                         const duet::rt::SortSpec* keys, uint32_t nkeys);
// ORDER BY ... LIMIT: the sorter keeps only the first `bound` rows (Sorter::setBound).
void duet_q_sorter_bound(duet::rt::TupleBuffer* sorter, int64_t bound);
void duet_q_sorter_add(duet::rt::TupleBuffer* sorter, const uint8_t* tuple);
void duet_q_sorter_sort(duet::rt::TupleBuffer* sorter);
duet::rt::GroupTable* duet_q_groups_new(duet::rt::QueryContext* ctx, const duet::TupleLayout* keyLayout,
                                        uint32_t stateSize);
// The group of `key`, whose hash generated code computed (Codegen::keyHash).
uint8_t* duet_q_groups_find(duet::rt::GroupTable* t, const uint8_t* key, uint64_t hash, bool* isNew);
uint64_t duet_q_groups_size(duet::rt::GroupTable* t);
uint8_t* duet_q_groups_entry(duet::rt::GroupTable* t, uint64_t i);
// agg(DISTINCT x): `seen` is a GroupTable keyed by [group keys..., x] (no state); records
// the pair and returns true the first time it is seen, so the aggregate takes x only then.
bool duet_q_distinct_first(duet::rt::GroupTable* seen, const uint8_t* groupAndValue);
duet::rt::JoinTable* duet_q_join_new(duet::rt::QueryContext* ctx, const duet::TupleLayout* keyLayout,
                                     const duet::TupleLayout* rowLayout);
void duet_q_join_insert(duet::rt::JoinTable* t, const uint8_t* key, const uint8_t* row, uint64_t hash);
void duet_q_join_finish(duet::rt::JoinTable* t);
void duet_q_join_keep_null_keys(duet::rt::JoinTable* t);
const uint64_t* duet_q_join_filter_words(const duet::rt::JoinTable* t);
uint64_t duet_q_join_filter_mask(const duet::rt::JoinTable* t);
duet::rt::TupleBuffer* duet_q_join_rows(duet::rt::JoinTable* t);
// NOT IN over a finished table that keeps NULL keys: 0 when it has no rows, 2 when some
// row's key is NULL, else 1.
int32_t duet_q_join_not_in_state(const duet::rt::JoinTable* t);
const uint8_t* duet_q_join_next(duet::rt::JoinTable* t, const uint8_t* key, uint64_t hash, uint64_t* cursor);
int64_t duet_q_now(duet::rt::QueryContext* ctx);
double duet_q_random(duet::rt::QueryContext* ctx);
// gen_random_uuid(): a version 4 uuid from the same generator as random().
unsigned __int128 duet_q_gen_random_uuid(duet::rt::QueryContext* ctx);
// setseed(seed): the generator's state from a seed in [-1, 1] (22023 outside), so that
// random() repeats its values after the same seed; void, returned as '' (as a void routine).
const duet::VarString* duet_q_setseed(duet::rt::QueryContext* ctx, double seed);
// make_timestamptz(y, m, d, h, mi, s): a wall-clock time in the session's zone.
int64_t duet_q_make_timestamptz(duet::rt::QueryContext* ctx, int32_t year, int32_t month, int32_t day, int32_t hour,
                                int32_t min, double sec);
int64_t duet_q_statement_timestamp(duet::rt::QueryContext* ctx);
int64_t duet_q_clock_timestamp(duet::rt::QueryContext* ctx);
const duet::VarString* duet_q_current_setting(duet::rt::QueryContext* ctx, const duet::VarString* name);
// pg_notify(channel, payload): NOTIFY, from a query. Returns '' (PostgreSQL's void prints so).
const duet::VarString* duet_q_pg_notify(duet::rt::QueryContext* ctx, const duet::VarString* channel,
                                        const duet::VarString* payload);
// set_config(name, value, is_local): the session's SET, from a query.
const duet::VarString* duet_q_set_config(duet::rt::QueryContext* ctx, const duet::VarString* name,
                                         const duet::VarString* value, bool isLocal);
// current_setting(name, missing_ok) is NULL for an unknown name: this says whether the
// setting exists, raising current_setting's 42704 instead of answering false unless missingOk.
bool duet_q_setting_exists(duet::rt::QueryContext* ctx, const duet::VarString* name, bool missingOk);
// The timestamptz date/time functions (runtime.h's, in the session's time zone), and
// age(timestamp) / age(timestamptz), which count from the transaction's current_date.
duet::NumericRep duet_q_extract_timestamptz(duet::rt::QueryContext* ctx, const duet::VarString* unit, int64_t ts);
double duet_q_date_part_timestamptz(duet::rt::QueryContext* ctx, const duet::VarString* unit, int64_t ts);
int64_t duet_q_date_trunc_timestamptz(duet::rt::QueryContext* ctx, const duet::VarString* unit, int64_t ts);
// to_char(timestamptz, template) and to_timestamp(text, template), in the session's zone.
const duet::VarString* duet_q_to_char_timestamptz(duet::rt::QueryContext* ctx, int64_t ts,
                                                  const duet::VarString* format);
int64_t duet_q_to_timestamp(duet::rt::QueryContext* ctx, const duet::VarString* text, const duet::VarString* format);
__int128 duet_q_timestamptz_age(duet::rt::QueryContext* ctx, int64_t a, int64_t b);
__int128 duet_q_age_timestamp(duet::rt::QueryContext* ctx, int64_t ts);
__int128 duet_q_age_timestamptz(duet::rt::QueryContext* ctx, int64_t ts);
void duet_q_check_limit(int64_t limit, int64_t offset);
// A scalar call of a user-defined function: args and result as SessionServices::callRoutine.
void duet_q_call_routine(duet::rt::QueryContext* ctx, uint32_t oid, const uint8_t* args,
                         const duet::TupleLayout* argLayout, uint8_t* result);
// FROM f(args) and CALL: the routine's rows, in a buffer of `layout` owned by the context.
duet::rt::TupleBuffer* duet_q_call_routine_rows(duet::rt::QueryContext* ctx, uint32_t oid, const uint8_t* args,
                                                const duet::TupleLayout* argLayout, const duet::TupleLayout* layout);
// 21000: a scalar subquery produced a second row.
[[noreturn]] void duet_q_subquery_rows_error();
// A subquery run once per row of its enclosing query frees the runtime state it created
// (buffers, group and join tables) after each run: mark[3] records how much existed before.
void duet_q_state_mark(duet::rt::QueryContext* ctx, uint64_t* mark);
void duet_q_state_release(duet::rt::QueryContext* ctx, const uint64_t* mark);
// WHERE CURRENT OF (plan::NodeKind::CurrentOf): the id of the live row of `table` that
// cursor `name` stands on, or kNoRow (a row deleted since, or none of the table). A NULL
// name is a refcursor variable's: 42704 for its parameter `param` (1-based).
uint64_t duet_q_current_of(duet::rt::QueryContext* ctx, const duet::Table* table, const duet::VarString* name,
                           int32_t param);
// A copy of `s` in the statement arena, for a value that must outlive the state it was read from.
const duet::VarString* duet_q_own_string(const duet::VarString* s);
// A ValueSet (value_set.h) refilled for this execution: `set` as returned last time, or null
// the first time (then one is made in the context). From parameters: n items of `type`
// read from the parameter tuple at valueOffsets[i] (a NULL item where nullOffsets[i] is
// UINT32_MAX, else its null flag is there). From an array: its elements.
duet::rt::ValueSet* duet_q_value_set_params(duet::rt::QueryContext* ctx, duet::rt::ValueSet* set, int32_t type,
                                            const uint8_t* params, const uint32_t* valueOffsets,
                                            const uint32_t* nullOffsets, uint64_t n);
duet::rt::ValueSet* duet_q_value_set_array(duet::rt::QueryContext* ctx, duet::rt::ValueSet* set, int32_t type,
                                           const duet::VarString* array);
// ValueSet::probe (0 false, 1 true, 2 NULL) and ValueSet::find (a position or -1).
int32_t duet_q_value_set_probe(const duet::rt::ValueSet* set, const uint8_t* value, bool isNull);
int64_t duet_q_value_set_find(const duet::rt::ValueSet* set, const uint8_t* value);
// The set's distinct values other than NULL, in sorted order: how many, and the i-th (its
// physical representation).
int64_t duet_q_value_set_count(const duet::rt::ValueSet* set);
const void* duet_q_value_set_value(const duet::rt::ValueSet* set, int64_t i);
// Every duet_q_* entry point, for the JIT to register by name.
struct DuetQuerySymbol {
  const char* name;
  void* address;
};
const DuetQuerySymbol* duet_q_symbols(size_t* count);
}
