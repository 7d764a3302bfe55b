// Sequence parameters and values, with PostgreSQL's rules and messages (sequence.c:
// init_params, nextval_internal, do_setval).
#include "engine/catalog/sequence.h"

#include <fmt/format.h>

#include "engine/error.h"

namespace duet {
namespace {

constexpr const char* kSequenceGeneratorLimitExceeded = "2200H";

struct Bounds {
  int64_t min, max;
};
Bounds typeBounds(TypeId type) {
  switch (type) {
    case TypeId::Int2: return {INT16_MIN, INT16_MAX};
    case TypeId::Int4: return {INT32_MIN, INT32_MAX};
    default: return {INT64_MIN, INT64_MAX};
  }
}

[[noreturn]] void invalid(const std::string& message) { throw SqlError(sqlstate::kInvalidParameterValue, message); }

}  // namespace

const char* sequenceTypeName(TypeId type) {
  switch (type) {
    case TypeId::Int2: return "smallint";
    case TypeId::Int4: return "integer";
    default: return "bigint";
  }
}

void SequenceInfo::apply(const SequenceOptions& o, bool creating) {
  SequenceInfo s = *this;  // changed, then kept only when every check passes
  bool resetMax = false, resetMin = false;
  if (o.type) {
    if (*o.type != TypeId::Int2 && *o.type != TypeId::Int4 && *o.type != TypeId::Int8)
      invalid(identity ? "identity column type must be smallint, integer, or bigint"
                       : "sequence type must be smallint, integer, or bigint");
    if (!creating) {
      // Bounds that were the old type's own follow the new type, unless given.
      Bounds old = typeBounds(s.type);
      resetMax = s.maxValue == old.max;
      resetMin = s.minValue == old.min;
    }
    s.type = *o.type;
  } else if (creating) {
    s.type = TypeId::Int8;
  }
  Bounds bounds = typeBounds(s.type);
  if (o.increment) {
    if (*o.increment == 0) invalid("INCREMENT must not be zero");
    s.increment = *o.increment;
  } else if (creating) {
    s.increment = 1;
  }
  if (o.cycle) {
    s.cycle = *o.cycle;
  } else if (creating) {
    s.cycle = false;
  }
  if (o.maxValue) {
    s.maxValue = *o.maxValue;
  } else if (creating || o.noMaxValue || resetMax) {
    s.maxValue = s.increment > 0 || resetMax ? bounds.max : -1;
  }
  if (s.maxValue < bounds.min || s.maxValue > bounds.max)
    invalid(
        fmt::format("MAXVALUE ({}) is out of range for sequence data type {}", s.maxValue, sequenceTypeName(s.type)));
  if (o.minValue) {
    s.minValue = *o.minValue;
  } else if (creating || o.noMinValue || resetMin) {
    s.minValue = s.increment < 0 || resetMin ? bounds.min : 1;
  }
  if (s.minValue < bounds.min || s.minValue > bounds.max)
    invalid(
        fmt::format("MINVALUE ({}) is out of range for sequence data type {}", s.minValue, sequenceTypeName(s.type)));
  if (s.minValue >= s.maxValue)
    invalid(fmt::format("MINVALUE ({}) must be less than MAXVALUE ({})", s.minValue, s.maxValue));
  if (o.start) {
    s.start = *o.start;
  } else if (creating) {
    s.start = s.increment > 0 ? s.minValue : s.maxValue;
  }
  if (s.start < s.minValue)
    invalid(fmt::format("START value ({}) cannot be less than MINVALUE ({})", s.start, s.minValue));
  if (s.start > s.maxValue)
    invalid(fmt::format("START value ({}) cannot be greater than MAXVALUE ({})", s.start, s.maxValue));
  if (o.restart) {
    s.lastValue = o.restartWith ? *o.restartWith : s.start;
    s.isCalled = false;
  } else if (creating) {
    s.lastValue = s.start;
    s.isCalled = false;
  }
  // The current value must fit new bounds too (PostgreSQL words it as RESTART's).
  if (s.lastValue < s.minValue)
    invalid(fmt::format("RESTART value ({}) cannot be less than MINVALUE ({})", s.lastValue, s.minValue));
  if (s.lastValue > s.maxValue)
    invalid(fmt::format("RESTART value ({}) cannot be greater than MAXVALUE ({})", s.lastValue, s.maxValue));
  if (o.cache) {
    if (*o.cache <= 0) invalid(fmt::format("CACHE ({}) must be greater than zero", *o.cache));
    s.cache = *o.cache;
  } else if (creating) {
    s.cache = 1;
  }
  *this = std::move(s);
}

int64_t SequenceInfo::next() {
  if (!isCalled) {
    isCalled = true;
    return lastValue;
  }
  int64_t value = lastValue;
  // Written so that no step overflows int64 (as nextval_internal does).
  if (increment > 0) {
    if ((maxValue >= 0 && value > maxValue - increment) || (maxValue < 0 && value + increment > maxValue)) {
      if (!cycle)
        throw SqlError(kSequenceGeneratorLimitExceeded,
                       fmt::format("nextval: reached maximum value of sequence \"{}\" ({})", name, maxValue));
      value = minValue;
    } else {
      value += increment;
    }
  } else {
    if ((minValue < 0 && value < minValue - increment) || (minValue >= 0 && value + increment < minValue)) {
      if (!cycle)
        throw SqlError(kSequenceGeneratorLimitExceeded,
                       fmt::format("nextval: reached minimum value of sequence \"{}\" ({})", name, minValue));
      value = maxValue;
    } else {
      value += increment;
    }
  }
  lastValue = value;
  return value;
}

void SequenceInfo::set(int64_t value, bool called) {
  if (value < minValue || value > maxValue)
    throw SqlError(
        sqlstate::kNumericValueOutOfRange,
        fmt::format("setval: value {} is out of bounds for sequence \"{}\" ({}..{})", value, name, minValue, maxValue));
  lastValue = value;
  isCalled = called;
}

}  // namespace duet
