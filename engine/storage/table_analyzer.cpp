// ANALYZE's pass over a table: per-column accumulators fed row by row (table_analyzer.h).
#include "engine/storage/table_analyzer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "engine/storage/distinct_counter.h"
#include "engine/storage/key_ops.h"
#include "engine/types/value_io.h"

namespace duet {
namespace {

// A field's bytes (at most 16: numeric, interval, uuid), aligned as the types need.
struct alignas(16) FieldBytes {
  uint8_t bytes[16];
};

// PostgreSQL's stored size of a numeric: a 1-byte varlena header, a 2-byte numeric
// header and 2 bytes per base-10000 digit group of the integer and fraction parts.
int32_t numericWidth(NumericRep v) {
  __int128 mantissa = numericMantissa(v);
  if (mantissa < 0) mantissa = -mantissa;
  int scale = numericScale(v);
  int digits = 0;
  for (__int128 m = mantissa; m != 0; m /= 10) ++digits;
  int integerDigits = std::max(digits - scale, 0);
  int fractionDigits = digits == 0 ? 0 : scale;
  return 3 + 2 * ((integerDigits + 3) / 4 + (fractionDigits + 3) / 4);
}

// One column's accumulators.
struct ColumnScan {
  uint32_t column;
  SqlType type;
  uint32_t offset;  // of the field in the tuple
  int16_t fixedWidth;
  uint64_t nulls = 0;
  double widthSum = 0;
  DistinctCounter distinct;
  bool seen = false;  // a non-NULL value was seen: min and max hold values
  FieldBytes min{}, max{};
  std::vector<FieldBytes> sample;

  ColumnScan(const Table& table, uint32_t c, bool exact)
      : column(c),
        type(table.layout().types[c]),
        offset(table.layout().offsets[c]),
        fixedWidth(typeLen(table.columns()[c].type)),
        distinct(exact) {}

  int32_t width(const uint8_t* field) const {
    if (fixedWidth > 0) return fixedWidth;
    if (type.id == TypeId::Numeric) {
      NumericRep v;
      std::memcpy(&v, field, sizeof v);
      return numericWidth(v);
    }
    const VarString* s;
    std::memcpy(&s, field, sizeof s);
    // A short varlena (up to 126 bytes) has a 1-byte header, a longer one 4 bytes.
    return static_cast<int32_t>(s->len) + (s->len <= 126 ? 1 : 4);
  }

  void add(const uint8_t* tuple, bool sampled) {
    if (tuple[column]) {
      ++nulls;
      return;
    }
    const uint8_t* field = tuple + offset;
    uint32_t size = physicalSize(type.id);
    FieldBytes value;
    std::memcpy(value.bytes, field, size);
    widthSum += width(field);
    distinct.add(hashValue(type, value.bytes));
    if (!seen) {
      min = max = value;
      seen = true;
    } else if (compareValues(type, value.bytes, min.bytes) < 0) {
      min = value;
    } else if (compareValues(type, value.bytes, max.bytes) > 0) {
      max = value;
    }
    if (sampled) sample.push_back(value);
  }

  ColumnStatistics finish(uint64_t rows) {
    ColumnStatistics s;
    s.analyzed = true;
    uint64_t nonNull = rows - nulls;
    s.nullFraction = static_cast<double>(nulls) / static_cast<double>(rows);
    if (nonNull == 0) {  // PostgreSQL: a fixed-width type's length, else 0
      s.width = std::max<int32_t>(fixedWidth, 0);
      return s;
    }
    s.width = static_cast<int32_t>(widthSum / static_cast<double>(nonNull));  // truncated, as PostgreSQL's
    // A sketch may overshoot: there are never more distinct values than values.
    s.distinct = std::min(std::round(distinct.estimate()), static_cast<double>(nonNull));
    s.unique = s.distinct == static_cast<double>(nonNull);
    s.minimum = std::make_shared<StatisticsValue>(type, min.bytes);
    s.maximum = std::make_shared<StatisticsValue>(type, max.bytes);
    s.histogram = histogram(s.distinct);
    return s;
  }

  // kHistogramBounds values from the sorted sample, evenly spaced from its first to its last.
  std::vector<std::shared_ptr<const StatisticsValue>> histogram(double distinctValues) {
    std::vector<std::shared_ptr<const StatisticsValue>> bounds;
    if (distinctValues < 2 || sample.size() < 2) return bounds;
    std::stable_sort(sample.begin(), sample.end(), [this](const FieldBytes& a, const FieldBytes& b) {
      return compareValues(type, a.bytes, b.bytes) < 0;
    });
    size_t count = std::min<size_t>(kHistogramBounds, sample.size());
    const FieldBytes* last = nullptr;
    for (size_t i = 0; i < count; ++i) {
      const FieldBytes& v = sample[i * (sample.size() - 1) / (count - 1)];
      if (last && compareValues(type, last->bytes, v.bytes) == 0) continue;  // bounds are distinct
      bounds.push_back(std::make_shared<StatisticsValue>(type, v.bytes));
      last = &v;
    }
    if (bounds.size() < 2) bounds.clear();
    return bounds;
  }
};

}  // namespace

StatisticsValue::StatisticsValue(SqlType type, const uint8_t* field)
    : layout_(std::make_shared<const TupleLayout>(TupleLayout::of({type}))) {
  std::vector<uint8_t> tuple(layout_->size, 0);
  std::memcpy(tuple.data() + layout_->offsets[0], field, physicalSize(type.id));
  tuple_.reset(copyKeyDeep(*layout_, tuple.data()));
}

double ColumnStatistics::pgNDistinct(double rows) const {
  if (distinct == 0) return 0;  // every value NULL (or never analysed)
  if (unique) return -(1.0 - nullFraction);
  if (distinct > 0.1 * rows) return -(distinct / rows);
  return distinct;
}

TableStatistics analyzeTable(const Table& table, const std::vector<uint32_t>& columns,
                             const TableStatistics* previous) {
  std::vector<uint32_t> analyzed = columns;
  if (analyzed.empty()) {
    analyzed.resize(table.columns().size());
    std::iota(analyzed.begin(), analyzed.end(), 0u);
  }
  const uint64_t live = table.liveRowCount();
  const bool exact = live <= kExactDistinctRows;
  const uint64_t sampleEvery = std::max<uint64_t>(1, (live + kHistogramSampleRows - 1) / kHistogramSampleRows);
  std::vector<ColumnScan> scans;
  scans.reserve(analyzed.size());
  for (uint32_t c : analyzed) scans.emplace_back(table, c, exact);

  std::vector<uint8_t> tuple(table.layout().size);
  uint64_t rows = 0;
  const ChunkDirectory& directory = table.directory();
  for (uint32_t ci = 0; ci < directory.count; ++ci) {
    const Chunk* chunk = directory.chunks[ci];
    for (uint32_t slot = 0; slot < chunk->used; ++slot) {
      if (!chunk->live[slot]) continue;
      table.read((RowId{ci} << kChunkShift) | slot, tuple.data());
      bool sampled = rows % sampleEvery == 0;
      for (ColumnScan& scan : scans) scan.add(tuple.data(), sampled);
      ++rows;
    }
  }

  TableStatistics statistics;
  statistics.rows = static_cast<double>(rows);
  statistics.columns.resize(table.columns().size());
  if (previous && previous->columns.size() == statistics.columns.size()) statistics.columns = previous->columns;
  // An empty table has nothing to say about its values: the columns keep what they had,
  // as PostgreSQL keeps its pg_statistic rows then.
  if (rows > 0)
    for (ColumnScan& scan : scans) statistics.columns[scan.column] = scan.finish(rows);
  return statistics;
}

}  // namespace duet
