#include "engine/types/record.h"

#include <deque>
#include <mutex>

#include "engine/error.h"
#include "engine/types/hash.h"
#include "engine/types/raw_value.h"
#include "engine/types/value_io.h"

namespace duet {

namespace {

// Every row type made so far; a type's typmod is its index. A deque: references handed
// out by recordFields stay valid as types are added.
struct RowTypeRegistry {
  std::mutex mutex;
  std::deque<std::vector<RecordField>> types;
};

RowTypeRegistry& registry() {
  static RowTypeRegistry r;
  return r;
}

uint32_t align4(uint32_t n) { return (n + 3) & ~3u; }

}  // namespace

SqlType recordType(const std::vector<RecordField>& fields) {
  RowTypeRegistry& r = registry();
  std::lock_guard lock(r.mutex);
  for (size_t i = 0; i < r.types.size(); ++i)
    if (r.types[i] == fields) return {TypeId::Record, static_cast<int32_t>(i)};
  r.types.push_back(fields);
  return {TypeId::Record, static_cast<int32_t>(r.types.size() - 1)};
}

const std::vector<RecordField>& recordFields(SqlType type) {
  RowTypeRegistry& r = registry();
  std::lock_guard lock(r.mutex);
  return r.types.at(static_cast<size_t>(type.typmod));
}

uint32_t RecordView::size() const { return loadRaw<uint32_t>(base_ + 4); }

SqlType RecordView::type() const { return {TypeId::Record, static_cast<int32_t>(loadRaw<uint32_t>(base_ + 8))}; }

std::vector<SqlType> recordFieldTypes(SqlType type) {
  std::vector<SqlType> types;
  for (const RecordField& f : recordFields(type)) types.push_back(f.type);
  return types;
}

void RecordView::load(uint32_t i, TypeId fieldType, void* out) const {
  const unsigned char* slot = base_ + recordSlotsOffset(size()) + size_t(i) * 16;
  if (isVarlenaType(fieldType)) {
    storeRaw(out, reinterpret_cast<const VarString*>(base_ + loadRaw<uint32_t>(slot)));
    return;
  }
  std::memcpy(out, slot, 16);
}

const VarString* makeRecord(SqlType type, std::span<const SqlType> fields, const void* const* values,
                            const uint8_t* nulls, Arena& arena) {
  auto count = static_cast<uint32_t>(fields.size());
  uint32_t slots = recordSlotsOffset(count);
  size_t total = slots + size_t(count) * 16;
  for (uint32_t i = 0; i < count; ++i)
    if (!nulls[i] && isVarlenaType(fields[i].id))
      total = align4(static_cast<uint32_t>(total)) + sizeof(VarString) + loadRaw<const VarString*>(values[i])->len;
  if (total > UINT32_MAX) throw SqlError(sqlstate::kProgramLimitExceeded, "record value is too large");
  auto* base = static_cast<unsigned char*>(arena.allocate(total, 16));
  // Zeroed: equal records are equal bytes, whatever the padding held.
  std::memset(base, 0, total);
  storeRaw<uint32_t>(base, static_cast<uint32_t>(total - sizeof(uint32_t)));
  storeRaw<uint32_t>(base + 4, count);
  storeRaw<uint32_t>(base + 8, static_cast<uint32_t>(type.typmod));
  auto at = static_cast<uint32_t>(slots + size_t(count) * 16);
  for (uint32_t i = 0; i < count; ++i) {
    unsigned char* slot = base + slots + size_t(i) * 16;
    if (nulls[i]) {
      base[kRecordHeaderSize + i] = 1;
      continue;
    }
    if (!isVarlenaType(fields[i].id)) {
      std::memcpy(slot, values[i], physicalSize(fields[i].id));
      continue;
    }
    const auto* s = loadRaw<const VarString*>(values[i]);
    uint32_t offset = align4(at);
    std::memcpy(base + offset, s, sizeof(VarString) + s->len);
    storeRaw<uint32_t>(slot, offset);
    at = offset + static_cast<uint32_t>(sizeof(VarString)) + s->len;
  }
  return reinterpret_cast<const VarString*>(base);
}

void anonymousRecordInput() {
  throw SqlError(sqlstate::kFeatureNotSupported, "input of anonymous composite types is not implemented");
}

void formatRecordText(const VarString* record, std::string& out, const TypeContext& ctx) {
  RecordView r(record);
  const std::vector<RecordField>& fields = recordFields(r.type());
  out.push_back('(');
  std::string field;
  alignas(16) unsigned char value[16];
  for (uint32_t i = 0; i < r.size(); ++i) {
    if (i) out.push_back(',');
    if (r.isNull(i)) continue;
    r.load(i, fields[i].type.id, value);
    field.clear();
    formatText(fields[i].type, value, field, ctx);
    bool quote = field.empty();
    for (char c : field)
      quote = quote || c == '"' || c == '\\' || c == '(' || c == ')' || c == ',' || c == ' ' || c == '\t' ||
              c == '\n' || c == '\r' || c == '\v' || c == '\f';
    if (!quote) {
      out += field;
      continue;
    }
    out.push_back('"');
    for (char c : field) {
      if (c == '"' || c == '\\') out.push_back(c);
      out.push_back(c);
    }
    out.push_back('"');
  }
  out.push_back(')');
}

namespace {

void appendInt32(std::string& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

}  // namespace

void formatRecordBinary(const VarString* record, std::string& out) {
  RecordView r(record);
  const std::vector<RecordField>& fields = recordFields(r.type());
  appendInt32(out, r.size());
  alignas(16) unsigned char value[16];
  for (uint32_t i = 0; i < r.size(); ++i) {
    appendInt32(out, typeOid(fields[i].type));
    if (r.isNull(i)) {
      appendInt32(out, 0xffffffffu);
      continue;
    }
    r.load(i, fields[i].type.id, value);
    size_t lengthAt = out.size();
    appendInt32(out, 0);
    formatBinary(fields[i].type, value, out);
    auto length = static_cast<uint32_t>(out.size() - lengthAt - 4);
    for (int k = 0; k < 4; ++k) out[lengthAt + k] = static_cast<char>((length >> (24 - 8 * k)) & 0xff);
  }
}

int compareRecords(const VarString* a, const VarString* b) {
  RecordView ra(a), rb(b);
  const std::vector<RecordField>& fields = recordFields(ra.type());
  uint32_t n = std::min(ra.size(), rb.size());
  alignas(16) unsigned char va[16], vb[16];
  for (uint32_t i = 0; i < n; ++i) {
    bool na = ra.isNull(i), nb = rb.isNull(i);
    if (na || nb) {
      if (na != nb) return na ? 1 : -1;
      continue;
    }
    ra.load(i, fields[i].type.id, va);
    rb.load(i, fields[i].type.id, vb);
    if (int c = compareValues(fields[i].type, va, vb)) return c;
  }
  return ra.size() < rb.size() ? -1 : ra.size() > rb.size() ? 1 : 0;
}

uint64_t hashRecord(const VarString* record) {
  RecordView r(record);
  const std::vector<RecordField>& fields = recordFields(r.type());
  uint64_t h = hashMix64(r.size());
  alignas(16) unsigned char value[16];
  for (uint32_t i = 0; i < r.size(); ++i) {
    uint64_t field = 0x6b43a9b5ULL;  // NULL's hash
    if (!r.isNull(i)) {
      r.load(i, fields[i].type.id, value);
      field = hashValue(fields[i].type, value);
    }
    h = hashMix64(h * 31 + field);
  }
  return h;
}

}  // namespace duet
