#include "compiler/runtime/record_functions.h"

#include <cstring>
#include <vector>

#include "engine/storage/layout.h"
#include "engine/types/record.h"

using duet::TupleLayout;
using duet::VarString;

extern "C" {

const VarString* duet_q_record_build(duet::rt::QueryContext*, const uint8_t* tuple, const TupleLayout* layout,
                                     int32_t rowType) {
  size_t n = layout->types.size();
  std::vector<const void*> values(n);
  std::vector<uint8_t> nulls(n);
  for (size_t i = 0; i < n; ++i) {
    nulls[i] = tuple[layout->nullOffset(static_cast<uint32_t>(i))];
    values[i] = tuple + layout->offsets[i];
  }
  return duet::makeRecord({duet::TypeId::Record, rowType}, layout->types, values.data(), nulls.data(),
                          duet::statementArena());
}

void duet_q_record_field(duet::rt::QueryContext*, const VarString* record, int32_t index, uint8_t* tuple,
                         const TupleLayout* layout) {
  duet::RecordView r(record);
  auto i = static_cast<uint32_t>(index);
  if (r.isNull(i)) {
    tuple[layout->nullOffset(0)] = 1;
    return;
  }
  tuple[layout->nullOffset(0)] = 0;
  alignas(16) unsigned char value[16];
  r.load(i, layout->types[0].id, value);
  std::memcpy(tuple + layout->offsets[0], value, duet::physicalSize(layout->types[0].id));
}

bool duet_q_record_null_test(duet::rt::QueryContext*, const VarString* record, bool notNull) {
  duet::RecordView r(record);
  for (uint32_t i = 0; i < r.size(); ++i)
    if (r.isNull(i) == notNull) return false;
  return true;
}

}  // extern "C"
