#include "engine/types/record.h"

#include <fmt/format.h>

#include <array>
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
struct RowType {
  std::vector<RecordField> fields;
  uint32_t typeOid = 0;  // named composites only
  std::string name;
};
struct RowTypeRegistry {
  std::mutex mutex;
  std::deque<RowType> types;
};

RowTypeRegistry& registry() {
  static RowTypeRegistry r;
  return r;
}

SqlType intern(RowType type) {
  RowTypeRegistry& r = registry();
  std::lock_guard lock(r.mutex);
  for (size_t i = 0; i < r.types.size(); ++i)
    if (r.types[i].typeOid == type.typeOid && r.types[i].name == type.name && r.types[i].fields == type.fields)
      return {TypeId::Record, static_cast<int32_t>(i)};
  r.types.push_back(std::move(type));
  return {TypeId::Record, static_cast<int32_t>(r.types.size() - 1)};
}

uint32_t align4(uint32_t n) { return (n + 3) & ~3u; }

}  // namespace

SqlType recordType(const std::vector<RecordField>& fields) { return intern({fields, 0, {}}); }

SqlType compositeType(uint32_t typeOid, const std::string& name, const std::vector<RecordField>& fields) {
  return intern({fields, typeOid, name});
}

const std::vector<RecordField>& recordFields(SqlType type) {
  RowTypeRegistry& r = registry();
  std::lock_guard lock(r.mutex);
  return r.types.at(static_cast<size_t>(type.typmod)).fields;
}

uint32_t compositeTypeOid(SqlType type) {
  if (type.id != TypeId::Record || type.typmod < 0) return 0;
  RowTypeRegistry& r = registry();
  std::lock_guard lock(r.mutex);
  return r.types.at(static_cast<size_t>(type.typmod)).typeOid;
}

std::string compositeTypeName(SqlType type) {
  if (type.id != TypeId::Record || type.typmod < 0) return {};
  RowTypeRegistry& r = registry();
  std::lock_guard lock(r.mutex);
  return r.types.at(static_cast<size_t>(type.typmod)).name;
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

namespace {

[[noreturn]] void malformedRecord(std::string_view text, const char* detail) {
  throw SqlError(sqlstate::kInvalidTextRepresentation, fmt::format("malformed record literal: \"{}\"", text), detail);
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

// PostgreSQL's record_in: white space around the parentheses is skipped, inside them it is
// part of the field; a field is NULL only when nothing at all stands for it.
const VarString* parseRecordText(SqlType type, std::string_view text, Arena& arena, const TypeContext& ctx) {
  const std::vector<RecordField>& fields = recordFields(type);
  size_t at = 0;
  while (at < text.size() && isSpace(text[at])) ++at;
  if (at == text.size() || text[at] != '(') malformedRecord(text, "Missing left parenthesis.");
  ++at;
  std::vector<SqlType> types;
  std::vector<std::array<unsigned char, 16>> values(fields.size());
  std::vector<const void*> pointers(fields.size());
  std::vector<uint8_t> nulls(fields.size(), 0);
  std::string field;
  for (size_t i = 0; i < fields.size(); ++i) {
    types.push_back(fields[i].type);
    pointers[i] = values[i].data();
    if (i > 0) {
      if (at >= text.size() || text[at] != ',') malformedRecord(text, "Too few columns.");
      ++at;
    }
    if (at < text.size() && (text[at] == ',' || text[at] == ')')) {
      nulls[i] = 1;
      continue;
    }
    field.clear();
    bool quoted = false;
    while (true) {
      if (at >= text.size()) malformedRecord(text, "Unexpected end of input.");
      char c = text[at++];
      if (c == '\\') {
        if (at >= text.size()) malformedRecord(text, "Unexpected end of input.");
        field.push_back(text[at++]);
      } else if (c == '"') {
        if (!quoted) {
          quoted = true;
        } else if (at < text.size() && text[at] == '"') {
          field.push_back('"');  // "" inside quotes
          ++at;
        } else {
          quoted = false;
        }
      } else if (!quoted && (c == ',' || c == ')')) {
        --at;
        break;
      } else {
        field.push_back(c);
      }
    }
    parseText(fields[i].type, field, values[i].data(), arena, ctx);
  }
  if (at >= text.size() || text[at] != ')') malformedRecord(text, "Too many columns.");
  ++at;
  while (at < text.size() && isSpace(text[at])) ++at;
  if (at != text.size()) malformedRecord(text, "Junk after right parenthesis.");
  return makeRecord(type, types, pointers.data(), nulls.data(), arena);
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
