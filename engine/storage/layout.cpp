// TupleLayout construction: null flags first, then each field at its natural alignment,
// the whole tuple padded to 16 bytes (see layout.h).
#include "engine/storage/layout.h"

namespace duet {

TupleLayout TupleLayout::of(const std::vector<SqlType>& types) {
  TupleLayout l;
  l.types = types;
  uint32_t off = static_cast<uint32_t>(types.size());  // one null byte per column
  for (const SqlType& t : types) {
    uint32_t align = physicalAlign(t.id);
    off = (off + align - 1) / align * align;
    l.offsets.push_back(off);
    off += physicalSize(t.id);
  }
  l.size = (off + 15) / 16 * 16;
  if (l.size == 0) l.size = 16;
  return l;
}

}  // namespace duet
