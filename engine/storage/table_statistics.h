// What ANALYZE learns about a table's contents (docs/statistics.md): the row count, and
// per column the NULL fraction, the number of distinct values, the average width, the
// smallest and largest value and a histogram of a sample. The planner reads them through
// Table::statistics(); pg_stats, pg_class.reltuples and pg_stat_user_tables show them.
// They are a deterministic function of the rows (table_analyzer.h), never of timing.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "engine/storage/layout.h"

namespace duet {

// One value the statistics keep (a minimum, a maximum, a histogram bound), owning its
// string or array: the physical representation value_io.h describes, for compareValues,
// hashValue and formatText.
class StatisticsValue {
 public:
  // Copies the value at `field` (its type's physical representation, strings deep).
  StatisticsValue(SqlType type, const uint8_t* field);
  SqlType type() const { return layout_->types[0]; }
  const void* value() const { return tuple_.get() + layout_->offsets[0]; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::shared_ptr<const TupleLayout> layout_;  // one column of `type`
  std::unique_ptr<uint8_t, Free> tuple_;       // copyKeyDeep of a one-column tuple
};

struct ColumnStatistics {
  double nullFraction = 0;  // of the rows at analysis, 0..1
  // Distinct non-NULL values, a positive estimated count (exact for tables of up to
  // kSampleRows rows). For PostgreSQL's n_distinct form see pgNDistinct().
  double distinct = 0;
  // Whether no non-NULL value occurs twice (known exactly only when counted exactly).
  bool unique = false;
  // Average stored width of the non-NULL values in bytes, as PostgreSQL's stawidth: the
  // type's length for fixed-width types, the bytes plus the varlena header for strings.
  int32_t width = 0;
  // Smallest and largest non-NULL value by compareValues; null when every value is NULL.
  std::shared_ptr<const StatisticsValue> minimum, maximum;
  // Up to kHistogramBounds values in ascending order from a sample of the rows, splitting
  // it into equal-sized buckets (PostgreSQL's histogram_bounds, but over all values: no
  // most-common values are taken out). Empty for fewer than two distinct values.
  std::vector<std::shared_ptr<const StatisticsValue>> histogram;
  bool analyzed = false;  // false: this column was never analysed (ANALYZE t (other columns))

  // n_distinct as PostgreSQL reports it: -1 * (1 - nullFraction) for a unique column, a
  // negative fraction -(distinct / rows) when distinct values exceed a tenth of the rows
  // (then they are thought to grow with the table), else the count.
  double pgNDistinct(double rows) const;
};

struct TableStatistics {
  double rows = 0;                        // live rows when analysed
  std::vector<ColumnStatistics> columns;  // one per table column, in table order
  int64_t analyzedAt = 0;                 // microseconds since 2000-01-01 UTC (PostgreSQL's epoch)
  bool automatic = false;                 // by auto-analysis rather than the ANALYZE statement
};

// ANALYZE reads about this many rows of a table, all rows of a smaller one, whose
// statistics are then exact: PostgreSQL samples 300 * default_statistics_target rows too.
inline constexpr uint64_t kSampleRows = 30000;
// PostgreSQL's default_statistics_target (100) buckets: histogram_bounds has up to 101 values.
inline constexpr uint32_t kHistogramBounds = 101;
// The histogram's bounds come from about this many of the sampled values (30 per bucket).
inline constexpr uint64_t kHistogramSampleRows = 3000;

}  // namespace duet
