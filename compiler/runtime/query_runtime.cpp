#include "compiler/runtime/query_runtime.h"

#include "compiler/runtime/catalog_functions.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>
#include <fmt/printf.h>

#include "compiler/runtime/aggregate_runtime.h"
#include "compiler/runtime/array_functions.h"
#include "compiler/runtime/instrumentation.h"
#include "compiler/runtime/parallel_runtime.h"
#include "compiler/runtime/record_functions.h"
#include "compiler/runtime/window_runtime.h"
#include "engine/error.h"
#include "engine/limits/interrupts.h"
#include "engine/storage/key_ops.h"
#include "engine/storage/table.h"
#include "engine/types/raw_value.h"
#include "engine/types/strings.h"
#include "engine/types/uuid.h"
#include "engine/types/value_io.h"

namespace duet::rt {

namespace {

bool isNullAt(const TupleLayout& l, const uint8_t* t, size_t c) { return t[l.nullOffset(c)] != 0; }

// Deep-copies the string fields of a tuple into `arena` so the copy owns its bytes.
void ownStrings(const TupleLayout& l, uint8_t* t, Arena& arena) {
  for (size_t c = 0; c < l.types.size(); ++c) {
    if (!isVarlenaType(l.types[c].id) || isNullAt(l, t, c)) continue;
    auto** field = reinterpret_cast<const VarString**>(t + l.offsets[c]);
    if (*field) *field = arena.makeString((*field)->view());
  }
}

}  // namespace

uint8_t* TupleBuffer::copy(const uint8_t* tuple) {
  auto* c = static_cast<uint8_t*>(arena_.allocate(layout_.size, 16));
  std::memcpy(c, tuple, layout_.size);
  ownStrings(layout_, c, arena_);
  return c;
}

uint8_t* TupleBuffer::append(const uint8_t* tuple) {
  rows_.push_back(copy(tuple));
  return rows_.back();
}

int Sorter::compareKeys(const uint8_t* a, const uint8_t* b, size_t from, size_t to) const {
  const TupleLayout& l = layout_;
  for (size_t i = from; i < to; ++i) {
    const SortSpec& k = keys_[i];
    bool na = isNullAt(l, a, k.column), nb = isNullAt(l, b, k.column);
    if (na || nb) {
      if (na && nb) continue;
      return na == k.nullsFirst ? -1 : 1;
    }
    int c = compareValues(l.types[k.column], a + l.offsets[k.column], b + l.offsets[k.column]);
    if (c != 0) return k.descending ? -c : c;
  }
  return 0;
}

bool Sorter::before(const Kept& x, const Kept& y) const {
  int c = compare(x.row, y.row);
  return c < 0 || (c == 0 && x.arrival < y.arrival);
}

void Sorter::add(const uint8_t* tuple) {
  if (bound_ == UINT64_MAX) {
    append(tuple);
    return;
  }
  auto cmp = [this](const Kept& x, const Kept& y) { return before(x, y); };
  uint64_t arrival = arrivals_++;
  if (heap_.size() < bound_) {
    heap_.push_back({copy(tuple), arrival});
    std::push_heap(heap_.begin(), heap_.end(), cmp);
  } else if (!heap_.empty() && compare(tuple, heap_.front().row) < 0) {
    // It goes before the last row kept (on equal keys the earlier arrival stays).
    std::pop_heap(heap_.begin(), heap_.end(), cmp);
    heap_.back() = {copy(tuple), arrival};
    std::push_heap(heap_.begin(), heap_.end(), cmp);
  }
}

void Sorter::sort() {
  if (bound_ != UINT64_MAX) {
    std::sort_heap(heap_.begin(), heap_.end(), [this](const Kept& x, const Kept& y) { return before(x, y); });
    for (const Kept& k : heap_) rows_.push_back(k.row);
    heap_.clear();
    return;
  }
  std::stable_sort(rows_.begin(), rows_.end(), [&](const uint8_t* a, const uint8_t* b) { return compare(a, b) < 0; });
}

void Sorter::mergeSorted(const std::vector<Sorter*>& parts) {
  size_t total = 0;
  for (const Sorter* p : parts) total += p->size();
  rows_.reserve(total);
  // A heap of the parts' next rows; on equal keys the lower part goes first.
  struct Head {
    uint32_t part;
    size_t next;
  };
  auto after = [&](const Head& x, const Head& y) {
    int c = compare(parts[x.part]->at(x.next), parts[y.part]->at(y.next));
    return c > 0 || (c == 0 && x.part > y.part);
  };
  std::vector<Head> heap;
  for (uint32_t p = 0; p < parts.size(); ++p)
    if (parts[p]->size()) heap.push_back({p, 0});
  std::make_heap(heap.begin(), heap.end(), after);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), after);
    Head& h = heap.back();
    rows_.push_back(parts[h.part]->at(h.next));
    if (++h.next < parts[h.part]->size()) {
      std::push_heap(heap.begin(), heap.end(), after);
    } else {
      heap.pop_back();
    }
  }
}

KeyEquality::KeyEquality(const TupleLayout& layout) {
  for (size_t c = 0; c < layout.types.size(); ++c) {
    SqlType t = layout.types[c];
    Kind kind = Kind::Compare;
    if (isIntegerLike(t.id) || t.id == TypeId::Uuid)
      kind = Kind::Bytes;
    else if (t.id == TypeId::Text || t.id == TypeId::Varchar || t.id == TypeId::Bytea)
      kind = Kind::String;
    else if (t.id == TypeId::Char)
      kind = Kind::PaddedString;
    columns_.push_back({kind, layout.offsets[c], physicalSize(t.id), t});
  }
}

bool KeyEquality::operator()(const uint8_t* a, const uint8_t* b) const {
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (a[c] != b[c]) return false;  // the null flags (TupleLayout::nullOffset)
    if (a[c]) continue;
    const Column& col = columns_[c];
    const uint8_t* x = a + col.offset;
    const uint8_t* y = b + col.offset;
    switch (col.kind) {
      case Kind::Bytes:
        if (std::memcmp(x, y, col.size) != 0) return false;
        break;
      case Kind::String:
      case Kind::PaddedString: {
        std::string_view u = loadRaw<const VarString*>(x)->view(), v = loadRaw<const VarString*>(y)->view();
        if (col.kind == Kind::PaddedString) {
          u = bpcharTrim(u);
          v = bpcharTrim(v);
        }
        if (u.size() != v.size() || std::memcmp(u.data(), v.data(), u.size()) != 0) return false;
        break;
      }
      case Kind::Compare:
        if (compareValues(col.type, x, y) != 0) return false;
        break;
    }
  }
  return true;
}

GroupTable::GroupTable(TupleLayout keyLayout, uint32_t stateSize)
    : keyLayout_(std::move(keyLayout)), equal_(keyLayout_), stateSize_((stateSize + 15) & ~15u) {
  slots_.assign(64, 0);
}

uint64_t GroupTable::hashKey(const uint8_t* key) const { return hashTuple(keyLayout_, key); }

void GroupTable::grow() {
  StatementVector<uint32_t> bigger(slots_.size() * 2, 0);
  size_t mask = bigger.size() - 1;
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    size_t s = hashes_[i] & mask;
    while (bigger[s]) s = (s + 1) & mask;
    bigger[s] = i + 1;
  }
  slots_.swap(bigger);
}

uint8_t* GroupTable::findOrInsert(const uint8_t* key, uint64_t h, bool* isNew) {
  size_t mask = slots_.size() - 1;
  for (size_t s = h & mask;; s = (s + 1) & mask) {
    uint32_t e = slots_[s];
    if (!e) break;
    if (hashes_[e - 1] == h && equal_(entries_[e - 1], key)) {
      *isNew = false;
      return entries_[e - 1] + keyLayout_.size;
    }
  }
  auto* entry = static_cast<uint8_t*>(arena_.allocate(keyLayout_.size + stateSize_, 16));
  std::memcpy(entry, key, keyLayout_.size);
  std::memset(entry + keyLayout_.size, 0, stateSize_);
  ownStrings(keyLayout_, entry, arena_);
  entries_.push_back(entry);
  hashes_.push_back(h);
  if (entries_.size() * 2 > slots_.size()) {
    grow();
  } else {
    size_t s = h & mask;
    while (slots_[s]) s = (s + 1) & mask;
    slots_[s] = static_cast<uint32_t>(entries_.size());
  }
  *isNew = true;
  return entry + keyLayout_.size;
}

JoinTable::JoinTable(TupleLayout keyLayout, TupleLayout rowLayout)
    : keyLayout_(keyLayout),
      equal_(keyLayout),
      rows_(rowLayout),
      nullKeyRows_(std::move(rowLayout)),
      keys_(std::move(keyLayout)),
      wordKeys_(equal_.oneWord()) {}

void JoinTable::insert(const uint8_t* key, const uint8_t* row, uint64_t hash) {
  if (tupleHasNull(keyLayout_, key)) {  // a NULL key can never match
    if (keepNullKeys_) nullKeyRows_.append(row);
    return;
  }
  rows_.append(row);
  keys_.append(key);
  hashes_.push_back(hash);
  if (wordKeys_) words_.push_back(equal_.word(key));
}

void JoinTable::finish() {
  size_t n = keys_.size();
  size_t buckets = std::bit_ceil(std::max<size_t>(16, n * 2));
  size_t mask = buckets - 1;
  // One-word keys within a range no wider than the hashed buckets would be: a bucket per
  // key value (directKeys_).
  if (wordKeys_ && n > 0) {
    auto [low, high] = std::minmax_element(words_.begin(), words_.end());
    if (*high - *low < buckets) {
      directKeys_ = true;
      lowestKey_ = *low;
      buckets = *high - *low + 1;
    }
  }
  auto bucketOf = [&](size_t i) { return directKeys_ ? words_[i] - lowestKey_ : hashes_[i] & mask; };
  buckets_.assign(buckets + 1, 0);
  for (size_t i = 0; i < n; ++i) ++buckets_[bucketOf(i) + 1];
  for (size_t b = 0; b < buckets; ++b) buckets_[b + 1] += buckets_[b];
  entries_.resize(n);
  StatementVector<uint32_t> filled(buckets_.begin(), buckets_.end() - 1);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* key = keys_.at(i);
    entries_[filled[bucketOf(i)]++] = {hashes_[i], wordKeys_ ? words_[i] : 0, key, rows_.at(i)};
  }
  if (n <= kFilterKeys) {
    size_t bits = std::bit_ceil(std::max<size_t>(512, n * 16));
    filter_.assign(bits / 64, 0);
    filterMask_ = bits - 1;
    for (size_t i = 0; i < n; ++i) {
      uint64_t bit = (hashes_[i] >> 32) & filterMask_;
      filter_[bit >> 6] |= uint64_t{1} << (bit & 63);
    }
  }
  StatementVector<uint64_t>().swap(hashes_);
  StatementVector<uint64_t>().swap(words_);
  for (const uint8_t* row : nullKeyRows_.rows()) rows_.append(row);  // past every indexed entry
}

void JoinTable::absorb(JoinTable& part) {
  rows_.rows().insert(rows_.rows().end(), part.rows_.rows().begin(), part.rows_.rows().end());
  keys_.rows().insert(keys_.rows().end(), part.keys_.rows().begin(), part.keys_.rows().end());
  hashes_.insert(hashes_.end(), part.hashes_.begin(), part.hashes_.end());
  words_.insert(words_.end(), part.words_.begin(), part.words_.end());
  nullKeyRows_.rows().insert(nullKeyRows_.rows().end(), part.nullKeyRows_.rows().begin(),
                             part.nullKeyRows_.rows().end());
}

const uint8_t* JoinTable::next(const uint8_t* key, uint64_t hash, uint64_t* cursor) const {
  if (entries_.empty() || tupleHasNull(keyLayout_, key)) return nullptr;  // NULL matches nothing
  uint64_t probe = wordKeys_ ? equal_.word(key) : 0;
  size_t bucket;
  if (directKeys_) {
    bucket = probe - lowestKey_;  // below the lowest key: past the highest
    if (bucket >= buckets_.size() - 1) return nullptr;
  } else {
    bucket = hash & (buckets_.size() - 2);
  }
  size_t end = buckets_[bucket + 1];
  for (size_t i = *cursor ? *cursor : buckets_[bucket]; i < end; ++i) {
    const Entry& e = entries_[i];
    if (e.hash == hash && (wordKeys_ ? e.word == probe : equal_(e.key, key))) {
      *cursor = i + 1;  // where the next call goes on (never 0)
      return e.row;
    }
  }
  *cursor = 0;
  return nullptr;
}

void TransactionClock::restart(int64_t startTimestamp) {
  start = startTimestamp;
  monotonicStart = std::chrono::steady_clock::now();
  readings.clear();  // replayOffsets stay: a replayed statement's come before its transaction starts
}

int64_t TransactionClock::read() {
  if (replayNext < replayOffsets.size()) {
    readings.push_back(replayOffsets[replayNext++]);
    return start + readings.back();
  }
  auto elapsed = std::chrono::steady_clock::now() - monotonicStart;
  int64_t offset = std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count();
  if (!readings.empty()) offset = std::max(offset, readings.back());
  readings.push_back(offset);
  return start + offset;
}

SessionServices& sessionFor(QueryContext* ctx, const char* what) {
  if (!ctx->session) throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("{} is not supported here", what));
  return *ctx->session;
}

}  // namespace duet::rt

using namespace duet;
using namespace duet::rt;

namespace {

// splitmix64 over the session's generator state: one 64-bit state, cheap, good enough for
// random() and gen_random_uuid(); the state is what the redo log records per statement.
uint64_t nextRandom(QueryContext* ctx) {
  uint64_t z = (*ctx->randomState += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

extern "C" {

void duet_q_emit(QueryContext* ctx, const uint8_t* tuple) { ctx->output->consume(tuple); }

void duet_q_check_cancel(QueryContext* ctx) {
  if (ctx->cancel && ctx->cancel->load(std::memory_order_relaxed)) raiseQueryCanceled(ctx->timedOut);
}

TupleBuffer* duet_q_buffer_new(QueryContext* ctx, const TupleLayout* layout) {
  ctx->buffers.push_back(std::make_unique<TupleBuffer>(*layout));
  return ctx->buffers.back().get();
}
void duet_q_buffer_append(TupleBuffer* b, const uint8_t* tuple) { b->append(tuple); }
uint64_t duet_q_buffer_size(TupleBuffer* b) { return b->size(); }
uint8_t* duet_q_buffer_at(TupleBuffer* b, uint64_t i) { return b->at(i); }
uint64_t duet_q_buffer_size_or_zero(TupleBuffer* b) { return b ? b->size() : 0; }
uint8_t* duet_q_buffer_at_or(TupleBuffer* b, uint64_t i, uint8_t* past) { return b && i < b->size() ? b->at(i) : past; }

TupleBuffer* duet_q_sorter_new(QueryContext* ctx, const TupleLayout* layout, const SortSpec* keys, uint32_t nkeys) {
  ctx->buffers.push_back(std::make_unique<Sorter>(*layout, std::vector<SortSpec>(keys, keys + nkeys)));
  return ctx->buffers.back().get();
}
void duet_q_sorter_bound(TupleBuffer* sorter, int64_t bound) {
  if (bound == INT64_MAX) return;  // no LIMIT after all (NULL), or one too big to matter
  static_cast<Sorter*>(sorter)->setBound(static_cast<uint64_t>(std::max<int64_t>(bound, 0)));
}
void duet_q_sorter_add(TupleBuffer* sorter, const uint8_t* tuple) { static_cast<Sorter*>(sorter)->add(tuple); }
void duet_q_sorter_sort(TupleBuffer* sorter) { static_cast<Sorter*>(sorter)->sort(); }

GroupTable* duet_q_groups_new(QueryContext* ctx, const TupleLayout* keyLayout, uint32_t stateSize) {
  ctx->groups.push_back(std::make_unique<GroupTable>(*keyLayout, stateSize));
  return ctx->groups.back().get();
}
uint8_t* duet_q_groups_find(GroupTable* t, const uint8_t* key, uint64_t hash, bool* isNew) {
  return t->findOrInsert(key, hash, isNew);
}
uint64_t duet_q_groups_size(GroupTable* t) { return t->size(); }
uint8_t* duet_q_groups_entry(GroupTable* t, uint64_t i) { return t->entry(i); }
bool duet_q_distinct_first(GroupTable* seen, const uint8_t* groupAndValue) {
  bool isNew = false;
  seen->findOrInsert(groupAndValue, &isNew);
  return isNew;
}

JoinTable* duet_q_join_new(QueryContext* ctx, const TupleLayout* keyLayout, const TupleLayout* rowLayout) {
  ctx->joins.push_back(std::make_unique<JoinTable>(*keyLayout, *rowLayout));
  return ctx->joins.back().get();
}
void duet_q_join_insert(JoinTable* t, const uint8_t* key, const uint8_t* row, uint64_t hash) {
  t->insert(key, row, hash);
}
void duet_q_join_finish(JoinTable* t) { t->finish(); }
void duet_q_join_keep_null_keys(JoinTable* t) { t->keepNullKeys(); }
const uint64_t* duet_q_join_filter_words(const JoinTable* t) { return t->filterWords(); }
uint64_t duet_q_join_filter_mask(const JoinTable* t) { return t->filterMask(); }
TupleBuffer* duet_q_join_rows(JoinTable* t) { return &t->rows(); }
int32_t duet_q_join_not_in_state(const JoinTable* t) { return t->empty() ? 0 : t->hasNullKeys() ? 2 : 1; }
const uint8_t* duet_q_join_next(JoinTable* t, const uint8_t* key, uint64_t hash, uint64_t* cursor) {
  return t->next(key, hash, cursor);
}
int64_t duet_q_now(QueryContext* ctx) { return ctx->transactionTimestamp; }
int64_t duet_q_statement_timestamp(QueryContext* ctx) { return ctx->statementTimestamp; }
int64_t duet_q_clock_timestamp(QueryContext* ctx) {
  return ctx->clock ? ctx->clock->read() : ctx->transactionTimestamp;
}

// random(): the top 53 bits of a draw make a double in [0, 1) as PostgreSQL's random() returns.
double duet_q_random(QueryContext* ctx) { return static_cast<double>(nextRandom(ctx) >> 11) * 0x1.0p-53; }

// Two draws from the same generator, so a replayed statement makes the same uuid.
UuidRep duet_q_gen_random_uuid(QueryContext* ctx) {
  uint64_t high = nextRandom(ctx);
  return makeRandomUuid(high, nextRandom(ctx));
}

const VarString* duet_q_setseed(QueryContext* ctx, double seed) {
  if (!(seed >= -1.0 && seed <= 1.0))
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::sprintf("setseed parameter %g is out of allowed range [-1,1]", seed));
  // As PostgreSQL's pg_prng_fseed: the seed scaled to 52 bits.
  *ctx->randomState = static_cast<uint64_t>(static_cast<int64_t>(seed * static_cast<double>((1ULL << 52) - 1)));
  return statementArena().makeString("");
}

namespace {
const std::string* findSetting(QueryContext* ctx, const VarString* name) {
  return ctx->settings ? ctx->settings->currentSetting(name->view()) : nullptr;
}
[[noreturn]] void raiseUnknownSetting(const VarString* name) {
  throw SqlError(sqlstate::kUndefinedObject, fmt::format("unrecognized configuration parameter \"{}\"", name->view()));
}
}  // namespace

const VarString* duet_q_current_setting(QueryContext* ctx, const VarString* name) {
  const std::string* value = findSetting(ctx, name);
  if (!value) raiseUnknownSetting(name);
  return statementArena().makeString(*value);
}

const VarString* duet_q_set_config(QueryContext* ctx, const VarString* name, const VarString* value, bool isLocal) {
  if (!ctx->session) throw SqlError(sqlstate::kFeatureNotSupported, "set_config() is not supported here");
  return statementArena().makeString(ctx->session->setSetting(name->view(), value->view(), isLocal));
}

const VarString* duet_q_pg_notify(QueryContext* ctx, const VarString* channel, const VarString* payload) {
  if (!ctx->session) throw SqlError(sqlstate::kFeatureNotSupported, "pg_notify() is not supported here");
  ctx->session->notify(channel->view(), payload->view());
  return statementArena().makeString("");
}

bool duet_q_setting_exists(QueryContext* ctx, const VarString* name, bool missingOk) {
  if (findSetting(ctx, name)) return true;
  if (!missingOk) raiseUnknownSetting(name);
  return false;
}

void duet_q_check_limit(int64_t limit, int64_t offset) {
  if (limit < 0) throw SqlError("2201W", "LIMIT must not be negative");
  if (offset < 0) throw SqlError("2201X", "OFFSET must not be negative");
}

void duet_q_subquery_rows_error() {
  throw SqlError(sqlstate::kCardinalityViolation, "more than one row returned by a subquery used as an expression");
}

void duet_q_state_mark(QueryContext* ctx, uint64_t* mark) {
  mark[0] = ctx->buffers.size();
  mark[1] = ctx->groups.size();
  mark[2] = ctx->joins.size();
}

void duet_q_state_release(QueryContext* ctx, const uint64_t* mark) {
  ctx->buffers.resize(mark[0]);
  ctx->groups.resize(mark[1]);
  ctx->joins.resize(mark[2]);
}

uint64_t duet_q_current_of(QueryContext* ctx, const Table* table, const VarString* name, int32_t param) {
  if (!name) throw SqlError("42704", fmt::format("no value found for parameter {}", param));
  uint64_t row = sessionFor(ctx, "WHERE CURRENT OF").currentRowOf(name->view(), *table);
  return row != kNoRow && table->isLive(row) ? row : kNoRow;
}

const VarString* duet_q_own_string(const VarString* s) { return statementArena().makeString(s->view()); }

void duet_q_call_routine(QueryContext* ctx, uint32_t oid, const uint8_t* args, const TupleLayout* argLayout,
                         uint8_t* result) {
  sessionFor(ctx, "calling a user-defined function").callRoutine(*ctx, oid, *argLayout, args, result, nullptr);
}

TupleBuffer* duet_q_call_routine_rows(QueryContext* ctx, uint32_t oid, const uint8_t* args,
                                      const TupleLayout* argLayout, const TupleLayout* layout) {
  TupleBuffer* rows = duet_q_buffer_new(ctx, layout);
  sessionFor(ctx, "calling a user-defined function").callRoutine(*ctx, oid, *argLayout, args, nullptr, rows);
  return rows;
}

const DuetQuerySymbol* duet_q_symbols(size_t* count) {
  // What SQL calls by name is registered from compiler/functions/builtin_functions.cpp.
#define DUET_Q(fn) {#fn, reinterpret_cast<void*>(&fn)}
  static const DuetQuerySymbol symbols[] = {
      DUET_Q(duet_q_emit),
      DUET_Q(duet_q_reg_exists),
      DUET_Q(duet_q_relation_exists),
      DUET_Q(duet_q_relation_size),
      DUET_Q(duet_q_node_start),
      DUET_Q(duet_q_node_row),
      DUET_Q(duet_q_node_end),
      DUET_Q(duet_q_agg_rows_add),
      DUET_Q(duet_q_agg_rows_sorted),
      DUET_Q(duet_q_check_cancel),
      DUET_Q(duet_q_buffer_new),
      DUET_Q(duet_q_buffer_append),
      DUET_Q(duet_q_buffer_size),
      DUET_Q(duet_q_buffer_at),
      DUET_Q(duet_q_buffer_size_or_zero),
      DUET_Q(duet_q_record_build),
      DUET_Q(duet_q_record_field),
      DUET_Q(duet_q_array_element_texts),
      DUET_Q(duet_q_record_null_test),
      DUET_Q(duet_q_buffer_at_or),
      DUET_Q(duet_q_sorter_new),
      DUET_Q(duet_q_sorter_sort),
      DUET_Q(duet_q_window_new),
      DUET_Q(duet_q_window_partition),
      DUET_Q(duet_q_window_group_starts),
      DUET_Q(duet_q_window_groups),
      DUET_Q(duet_q_window_range_bound),
      DUET_Q(duet_q_window_argument_error),
      DUET_Q(duet_q_groups_new),
      DUET_Q(duet_q_groups_find),
      DUET_Q(duet_q_groups_size),
      DUET_Q(duet_q_groups_entry),
      DUET_Q(duet_q_distinct_first),
      DUET_Q(duet_q_join_new),
      DUET_Q(duet_q_join_insert),
      DUET_Q(duet_q_join_finish),
      DUET_Q(duet_q_join_keep_null_keys),
      DUET_Q(duet_q_join_filter_words),
      DUET_Q(duet_q_join_filter_mask),
      DUET_Q(duet_q_join_rows),
      DUET_Q(duet_q_join_not_in_state),
      DUET_Q(duet_q_join_next),
      DUET_Q(duet_q_setting_exists),
      DUET_Q(duet_q_check_limit),
      DUET_Q(duet_q_call_routine),
      DUET_Q(duet_q_call_routine_rows),
      DUET_Q(duet_q_subquery_rows_error),
      DUET_Q(duet_q_state_mark),
      DUET_Q(duet_q_state_release),
      DUET_Q(duet_q_own_string),
      DUET_Q(duet_q_current_of),
      DUET_Q(duet_q_changed_rows_fresh),
      DUET_Q(duet_q_changed_rows_add),
      DUET_Q(duet_q_changed_rows_check),
      DUET_Q(duet_q_value_set_params),
      DUET_Q(duet_q_value_set_array),
      DUET_Q(duet_q_value_set_probe),
      DUET_Q(duet_q_value_set_find),
      DUET_Q(duet_q_value_set_count),
      DUET_Q(duet_q_value_set_value),
      DUET_Q(duet_q_parallel_run),
      DUET_Q(duet_q_parallel_partials),
      DUET_Q(duet_q_parallel_partial),
      DUET_Q(duet_q_parallel_set_partial),
      DUET_Q(duet_q_morsel_next),
      DUET_Q(duet_q_join_shared),
      DUET_Q(duet_q_join_share),
      DUET_Q(duet_q_join_merge),
      DUET_Q(duet_q_sorter_merge),
      DUET_Q(duet_q_sorter_bound),
      DUET_Q(duet_q_sorter_add),
      DUET_Q(duet_q_gather_start),
      DUET_Q(duet_q_gather_put),
      DUET_Q(duet_q_gather_next),
      DUET_Q(duet_q_gather_end),
  };
#undef DUET_Q
  *count = sizeof symbols / sizeof symbols[0];
  return symbols;
}
}
