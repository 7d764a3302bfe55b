#include "compiler/runtime/value_set.h"

#include <algorithm>
#include <cstring>

#include "compiler/runtime/query_runtime.h"
#include "engine/types/array.h"
#include "engine/types/value_io.h"

namespace duet::rt {

void ValueSet::clear() {
  entries_.clear();
  items_ = 0;
  hasNull_ = false;
  strings_.reset();
}

void ValueSet::add(const void* value) {
  Entry e{};
  if (isVarlenaType(type_.id)) {
    const VarString* s;
    std::memcpy(&s, value, sizeof s);
    const VarString* copy = strings_.makeString(s->view());
    std::memcpy(e.value, &copy, sizeof copy);
  } else {
    std::memcpy(e.value, value, physicalSize(type_.id));
  }
  e.position = items_++;
  entries_.push_back(e);
}

void ValueSet::addNull() {
  hasNull_ = true;
  ++items_;
}

void ValueSet::finish() {
  std::stable_sort(entries_.begin(), entries_.end(),
                   [&](const Entry& a, const Entry& b) { return compareValues(type_, a.value, b.value) < 0; });
  auto last = std::unique(entries_.begin(), entries_.end(),
                          [&](const Entry& a, const Entry& b) { return compareValues(type_, a.value, b.value) == 0; });
  entries_.erase(last, entries_.end());
}

int64_t ValueSet::find(const void* value) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), value,
                             [&](const Entry& e, const void* v) { return compareValues(type_, e.value, v) < 0; });
  if (it == entries_.end() || compareValues(type_, it->value, value) != 0) return -1;
  return it->position;
}

int32_t ValueSet::probe(const void* value, bool valueNull) const {
  if (items_ == 0) return 0;
  if (valueNull) return 2;
  if (find(value) >= 0) return 1;
  return hasNull_ ? 2 : 0;
}

}  // namespace duet::rt

namespace {

using duet::rt::QueryContext;
using duet::rt::ValueSet;

ValueSet* refill(QueryContext* ctx, ValueSet* set, int32_t type) {
  if (!set) {
    ctx->valueSets.push_back(std::make_unique<ValueSet>(duet::SqlType{static_cast<duet::TypeId>(type), -1}));
    return ctx->valueSets.back().get();
  }
  set->clear();
  return set;
}

}  // namespace

ValueSet* duet_q_value_set_params(QueryContext* ctx, ValueSet* set, int32_t type, const uint8_t* params,
                                  const uint32_t* valueOffsets, const uint32_t* nullOffsets, uint64_t n) {
  set = refill(ctx, set, type);
  for (uint64_t i = 0; i < n; ++i) {
    if (nullOffsets[i] == UINT32_MAX || params[nullOffsets[i]] != 0)
      set->addNull();
    else
      set->add(params + valueOffsets[i]);
  }
  set->finish();
  return set;
}

ValueSet* duet_q_value_set_array(QueryContext* ctx, ValueSet* set, int32_t type, const duet::VarString* array) {
  set = refill(ctx, set, type);
  duet::ArrayView view(array);
  alignas(16) unsigned char value[16];
  for (uint32_t i = 0; i < view.size(); ++i) {
    if (view.isNull(i)) {
      set->addNull();
    } else {
      view.load(i, value);
      set->add(value);
    }
  }
  set->finish();
  return set;
}

int32_t duet_q_value_set_probe(const ValueSet* set, const uint8_t* value, bool isNull) {
  return set->probe(value, isNull);
}

int64_t duet_q_value_set_find(const ValueSet* set, const uint8_t* value) { return set->find(value); }

int64_t duet_q_value_set_count(const ValueSet* set) { return set->distinctCount(); }

const void* duet_q_value_set_value(const ValueSet* set, int64_t i) { return set->distinctValue(i); }
