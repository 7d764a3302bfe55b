// The catalogs' rows for table statistics (system_rows.h, docs/statistics.md): pg_stats
// and pg_stat_user_tables, from each table's TableStatistics and analysis counters.
#include <optional>

#include "engine/catalog/system_rows.h"
#include "engine/types/array.h"
#include "engine/types/value_io.h"

namespace duet {
namespace {

using Row = SystemRow;
const SystemValue kNull{};

SystemValue timestampOrNull(int64_t t) { return t ? SystemValue(t) : kNull; }

// histogram_bounds as PostgreSQL prints an anyarray: the values' text forms in an array
// literal, quoted where needed.
SystemValue boundsText(const std::vector<std::shared_ptr<const StatisticsValue>>& bounds) {
  if (bounds.empty()) return kNull;
  TypeContext context;
  std::vector<std::string> texts;
  for (const auto& b : bounds) formatText(b->type(), b->value(), texts.emplace_back(), context);
  std::vector<std::optional<std::string_view>> values(texts.begin(), texts.end());
  Arena arena;
  std::string out;
  formatArrayText(makeTextArray(values, arena), out, context);
  return out;
}

}  // namespace

std::vector<SystemRow> fillStatistics(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    for (const auto& [name, t] : s.tables) {
      const TableStatistics* statistics = t->systemView ? nullptr : t->table->statistics();
      if (!statistics) continue;
      for (size_t c = 0; c < t->columns.size() && c < statistics->columns.size(); ++c) {
        const ColumnStatistics& column = statistics->columns[c];
        if (!column.analyzed) continue;
        // most_common_vals .. elem_count_histogram but histogram_bounds: not computed.
        rows.push_back({s.name, name, t->columns[c].name, false, column.nullFraction, int64_t{column.width},
                        column.pgNDistinct(statistics->rows), kNull, kNull, boundsText(column.histogram), kNull, kNull,
                        kNull, kNull});
      }
    }
  });
  return rows;
}

std::vector<SystemRow> fillUserTableStats(const Catalog&, const Database& db) {
  std::vector<Row> rows;
  forEachSchema(db, [&](const Schema& s) {
    if (s.name == "pg_catalog" || s.name == "information_schema") return;
    for (const auto& [name, t] : s.tables) {
      if (t->systemView || !t->table) continue;
      const Table& table = *t->table;
      auto live = static_cast<int64_t>(table.liveRowCount());
      const int64_t zero = 0;
      // seq_scan .. n_tup_hot_upd, n_live_tup, n_dead_tup, n_mod_since_analyze,
      // n_ins_since_vacuum, last_vacuum .. last_autoanalyze, vacuum_count .. autoanalyze_count
      rows.push_back({static_cast<int64_t>(t->oid),
                      s.name,
                      name,
                      zero,
                      zero,
                      zero,
                      zero,
                      zero,
                      zero,
                      zero,
                      zero,
                      live,
                      zero,
                      static_cast<int64_t>(table.modifiedSinceAnalysis()),
                      zero,
                      kNull,
                      kNull,
                      timestampOrNull(table.lastAnalysisAt()),
                      timestampOrNull(table.lastAutoAnalysisAt()),
                      zero,
                      zero,
                      static_cast<int64_t>(table.analysisCount()),
                      static_cast<int64_t>(table.autoAnalysisCount())});
    }
  });
  return rows;
}

}  // namespace duet
