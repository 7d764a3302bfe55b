// ANALYZE's pass over a table: per-column accumulators fed the sampled rows
// (table_analyzer.h).
#include "engine/storage/table_analyzer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "engine/storage/key_ops.h"
#include "engine/types/hash.h"
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
  std::vector<uint64_t> hashes;  // of the sampled values (hashValue), sorted when counted
  bool seen = false;             // a non-NULL value was seen: min and max hold values
  FieldBytes min{}, max{};
  std::vector<FieldBytes> sample;

  ColumnScan(const Table& table, uint32_t c)
      : column(c),
        type(table.layout().types[c]),
        offset(table.layout().offsets[c]),
        fixedWidth(typeLen(table.columns()[c].type)) {}

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

  // `bounded`: the value also goes into the histogram's sample.
  void add(const uint8_t* tuple, bool bounded) {
    if (tuple[column]) {
      ++nulls;
      return;
    }
    const uint8_t* field = tuple + offset;
    uint32_t size = physicalSize(type.id);
    FieldBytes value;
    std::memcpy(value.bytes, field, size);
    widthSum += width(field);
    hashes.push_back(hashValue(type, value.bytes));
    if (!seen) {
      min = max = value;
      seen = true;
    } else if (compareValues(type, value.bytes, min.bytes) < 0) {
      min = value;
    } else if (compareValues(type, value.bytes, max.bytes) > 0) {
      max = value;
    }
    if (bounded) sample.push_back(value);
  }

  // `sampled` of the table's `rows` rows were read.
  ColumnStatistics finish(uint64_t sampled, uint64_t rows) {
    ColumnStatistics s;
    s.analyzed = true;
    uint64_t nonNull = sampled - nulls;
    s.nullFraction = static_cast<double>(nulls) / static_cast<double>(sampled);
    if (nonNull == 0) {  // PostgreSQL: a fixed-width type's length, else 0
      s.width = std::max<int32_t>(fixedWidth, 0);
      return s;
    }
    s.width = static_cast<int32_t>(widthSum / static_cast<double>(nonNull));  // truncated, as PostgreSQL's
    s.distinct = distinctValues(nonNull, static_cast<double>(rows) * (1 - s.nullFraction), sampled == rows);
    s.unique = s.distinct == std::round(static_cast<double>(rows) * (1 - s.nullFraction));
    s.minimum = std::make_shared<StatisticsValue>(type, min.bytes);
    s.maximum = std::make_shared<StatisticsValue>(type, max.bytes);
    s.histogram = histogram(s.distinct);
    return s;
  }

  // The distinct non-NULL values of the table (`total` of them non-NULL) from the `n` of
  // the sample, as PostgreSQL's compute_scalar_stats: all of them when every row was read;
  // a unique column when no sampled value repeats; the values seen when every one repeats;
  // else Haas and Stokes' Duj1 estimator n*d / (n - f1 + f1*n/N), f1 the values seen once.
  double distinctValues(uint64_t n, double total, bool everyRow) {
    std::sort(hashes.begin(), hashes.end());
    double d = 0, once = 0;
    for (size_t i = 0; i < hashes.size();) {
      size_t run = i + 1;
      while (run < hashes.size() && hashes[run] == hashes[i]) ++run;
      d += 1;
      once += run - i == 1;
      i = run;
    }
    if (everyRow) return d;
    double sampledValues = static_cast<double>(n);
    if (once == sampledValues) return std::round(total);
    if (once == 0) return d;
    double estimate = sampledValues * d / ((sampledValues - once) + once * sampledValues / total);
    return std::floor(std::clamp(estimate, d, total) + 0.5);
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
  // Each live row is read when the hash of its position among them falls below the share
  // of kSampleRows in the table: a deterministic sample, blind to periodic patterns in
  // storage order; every row of a small table.
  const uint64_t live = table.liveRowCount();
  const bool everyRow = live <= kSampleRows;
  const uint64_t below = everyRow ? std::numeric_limits<uint64_t>::max()
                                  : static_cast<uint64_t>(static_cast<double>(kSampleRows) / static_cast<double>(live) *
                                                          static_cast<double>(std::numeric_limits<uint64_t>::max()));
  // The histogram sorts about kHistogramSampleRows of them per column: sorting 30,000
  // strings per column would cost more than reading them.
  const uint64_t histogramEvery = std::max<uint64_t>(1, std::min(live, kSampleRows) / kHistogramSampleRows);
  std::vector<ColumnScan> scans;
  scans.reserve(analyzed.size());
  for (uint32_t c : analyzed) scans.emplace_back(table, c);

  std::vector<uint8_t> tuple(table.layout().size);
  uint64_t rows = 0, sampled = 0;
  const ChunkDirectory& directory = table.directory();
  for (uint32_t ci = 0; ci < directory.count; ++ci) {
    const Chunk* chunk = directory.chunks[ci];
    for (uint32_t slot = 0; slot < chunk->used; ++slot) {
      if (!chunk->live[slot]) continue;
      if (everyRow || hashMix64(rows) < below) {
        table.read((RowId{ci} << kChunkShift) | slot, tuple.data());
        for (ColumnScan& scan : scans) scan.add(tuple.data(), sampled % histogramEvery == 0);
        ++sampled;
      }
      ++rows;
    }
  }

  TableStatistics statistics;
  statistics.rows = static_cast<double>(rows);
  statistics.columns.resize(table.columns().size());
  if (previous && previous->columns.size() == statistics.columns.size()) statistics.columns = previous->columns;
  // An empty table has nothing to say about its values: the columns keep what they had,
  // as PostgreSQL keeps its pg_statistic rows then.
  if (sampled > 0)
    for (ColumnScan& scan : scans) statistics.columns[scan.column] = scan.finish(sampled, rows);
  return statistics;
}

}  // namespace duet
