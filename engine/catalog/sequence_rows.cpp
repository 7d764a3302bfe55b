// The catalogs' rows for sequences (system_rows.h): pg_sequence, pg_sequences,
// information_schema.sequences, and pg_depend's rows that tie a SERIAL's or identity
// column's sequence to its column (what psql's "Owned by" and pg_get_serial_sequence read).
#include "engine/catalog/system_rows.h"

namespace duet {
namespace {

using Row = SystemRow;
const SystemValue kNull{};
constexpr int64_t kPgClass = kPgClassOid;  // pg_depend's classid and refclassid

template <typename F>
void forEachSequence(const Database& db, F f) {
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, sequence] : s.sequences) f(s, *sequence);
  });
}

int64_t precisionBits(TypeId type) { return type == TypeId::Int2 ? 16 : type == TypeId::Int4 ? 32 : 64; }

}  // namespace

const TableInfo* sequenceOwner(const Database& db, const SequenceInfo& sequence) {
  if (sequence.ownerTable == 0) return nullptr;
  const TableInfo* owner = nullptr;
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, t] : s.tables)
      if (t->oid == sequence.ownerTable) owner = t.get();
  });
  return owner;
}

const SequenceInfo* identitySequence(const Database& db, const TableInfo& table, const std::string& column) {
  const SequenceInfo* found = nullptr;
  forEachSequence(db, [&](const Schema&, const SequenceInfo& s) {
    if (s.identity && s.ownerTable == table.oid && s.ownerColumn == column) found = &s;
  });
  return found;
}

std::vector<SystemRow> fillSequences(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSequence(db, [&](const Schema&, const SequenceInfo& s) {
    rows.push_back({static_cast<int64_t>(s.oid), static_cast<int64_t>(typeOid(s.type)), s.start, s.increment,
                    s.maxValue, s.minValue, s.cache, s.cycle});
  });
  return rows;
}

std::vector<SystemRow> fillSequencesView(const Catalog& catalog, const Database& db) {
  std::vector<Row> rows;
  std::string owner = catalog.role(db.owner) ? db.owner : "postgres";
  forEachSequence(db, [&](const Schema& schema, const SequenceInfo& s) {
    rows.push_back({schema.name, s.name, owner, static_cast<int64_t>(typeOid(s.type)), s.start, s.minValue, s.maxValue,
                    s.increment, s.cycle, s.cache, s.isCalled ? SystemValue(s.lastValue) : kNull});
  });
  return rows;
}

std::vector<SystemRow> fillInfoSequences(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSequence(db, [&](const Schema& schema, const SequenceInfo& s) {
    if (s.identity) return;  // shown as its column's identity_* instead
    rows.push_back({db.name, schema.name, s.name, std::string(sequenceTypeName(s.type)), precisionBits(s.type),
                    int64_t{2}, int64_t{0}, std::to_string(s.start), std::to_string(s.minValue),
                    std::to_string(s.maxValue), std::to_string(s.increment), std::string(s.cycle ? "YES" : "NO")});
  });
  return rows;
}

std::vector<SystemRow> fillDepends(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSequence(db, [&](const Schema&, const SequenceInfo& s) {
    const TableInfo* owner = sequenceOwner(db, s);
    if (!owner) return;
    rows.push_back({kPgClass, static_cast<int64_t>(s.oid), int64_t{0}, kPgClass, static_cast<int64_t>(owner->oid),
                    static_cast<int64_t>(owner->columnIndex(s.ownerColumn) + 1), std::string(s.identity ? "i" : "a")});
  });
  return rows;
}

}  // namespace duet
