// Anonymous composite values (PostgreSQL's "record"): ROW(a, b), the rows a function
// returning a record gives (information_schema._pg_expandarray), and what `(r).field`
// reads. Their field names and types are known when a statement is bound, so they live in
// a row type that `SqlType{TypeId::Record, typmod}` names, as PostgreSQL's typmod of a
// record names its "blessed" tuple descriptor; the value itself is one allocation that
// flows through tuples, sorts and hash tables like a string.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types/type_context.h"
#include "engine/types/type_id.h"
#include "engine/types/value.h"

namespace duet {

struct RecordField {
  std::string name;
  SqlType type;
  bool operator==(const RecordField&) const = default;
};

// The row type of `fields`, interned: equal field lists give the same type. Row types live
// as long as the process (a statement's plan may hold one after the statement); forked
// snapshot processes inherit them. Thread-safe.
SqlType recordType(const std::vector<RecordField>& fields);
// A named composite type (CREATE TYPE ... AS, docs/plpgsql.md "Composite types"): a row
// type of its own, never equal to an anonymous one with the same fields, that prints as
// `name` and is sent to clients as pg_type oid `typeOid`. Interned by (oid, name, fields):
// a type dropped and created again gets another oid, hence another row type.
SqlType compositeType(uint32_t typeOid, const std::string& name, const std::vector<RecordField>& fields);
// The fields of a record type (`type.id` must be Record).
const std::vector<RecordField>& recordFields(SqlType type);
// A named composite's pg_type oid and name; 0 and "" for an anonymous record type (and
// for typmod -1, "record" itself).
uint32_t compositeTypeOid(SqlType type);
std::string compositeTypeName(SqlType type);

// A record value begins like a VarString (`len` counts the bytes after the len field), so
// whatever copies strings copies records unchanged:
//   offset 0   uint32 len
//   offset 4   uint32 count         number of fields
//   offset 8   uint32 rowType       the typmod of its SqlType: output needs the field types
//   offset 12  uint8  nulls[count]  1 = NULL
//   then, at recordSlotsOffset(count), a 16-byte slot per field holding its physical value
//   (zero when NULL); a varlena field's slot holds the uint32 offset (from the start) of
//   its VarString, stored after the slots (4-byte aligned).
// Fields are read with memcpy: a copy made by Arena::makeString is only 4-byte aligned.
inline constexpr uint32_t kRecordHeaderSize = 12;
inline uint32_t recordSlotsOffset(uint32_t count) { return (kRecordHeaderSize + count + 15) & ~15u; }

// Read access to a record value.
class RecordView {
 public:
  explicit RecordView(const VarString* record) : base_(reinterpret_cast<const unsigned char*>(record)) {}
  uint32_t size() const;
  SqlType type() const;
  bool isNull(uint32_t i) const { return base_[kRecordHeaderSize + i] != 0; }
  // Writes field i's physical representation (value.h) to `out`, which must hold 16 bytes;
  // a varlena field becomes a pointer into the record itself. The caller names the field's
  // type (it knows it from the record's type), so reading a field asks no registry.
  void load(uint32_t i, TypeId fieldType, void* out) const;

 private:
  const unsigned char* base_;
};

// A record of `type`, whose fields have `fieldTypes` (recordFields(type)'s types, passed in
// so that building a record per row asks no registry), from their physical values
// (nulls[i] != 0: NULL), in `arena`.
const VarString* makeRecord(SqlType type, std::span<const SqlType> fieldTypes, const void* const* values,
                            const uint8_t* nulls, Arena& arena);
// The types of a record type's fields, in order.
std::vector<SqlType> recordFieldTypes(SqlType type);

// record_out: '(1,abc,)', a field quoted when it is empty or holds '"', '\', '(', ')', ','
// or white space, '"' and '\' doubled inside quotes; NULL is nothing.
void formatRecordText(const VarString* record, std::string& out, const TypeContext& ctx);
// record_send: int32 field count, then per field its type's OID, int32 length (-1: NULL)
// and its binary form.
void formatRecordBinary(const VarString* record, std::string& out);
// record_in and record_recv of an anonymous record: 0A000, as in PostgreSQL.
[[noreturn]] void anonymousRecordInput();
// record_in of a named composite type: '(1,abc,)', each field read by its type's text
// input (an empty unquoted field is NULL; quotes and backslashes as formatRecordText
// writes them); 22P02 "malformed record literal" with PostgreSQL's details.
const VarString* parseRecordText(SqlType type, std::string_view text, Arena& arena, const TypeContext& ctx);
// btrecordcmp: field by field, NULL after every value and equal to NULL.
int compareRecords(const VarString* a, const VarString* b);
uint64_t hashRecord(const VarString* record);

}  // namespace duet
