// ANALYZE and automatic analysis (table_analysis.h).
#include "session/table_analysis.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "engine/catalog/system_rows.h"
#include "engine/storage/table_analyzer.h"

namespace duet {
namespace {

constexpr int64_t kPostgresEpochUnixMicros = 946'684'800'000'000;

// Now, in microseconds since 2000-01-01 UTC: when an automatic analysis ran (what
// pg_stat_user_tables shows; nothing else reads it).
int64_t now() {
  auto unixMicros =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch());
  return unixMicros.count() - kPostgresEpochUnixMicros;
}

void analyze(Table& table, const std::vector<uint32_t>& columns, bool automatic, int64_t at) {
  TableStatistics statistics = analyzeTable(table, columns, table.statistics());
  statistics.analyzedAt = at;
  statistics.automatic = automatic;
  table.setStatistics(std::move(statistics), columns.empty());
}

// The column numbers a column list names (empty: all): 42703 for a missing column,
// 42701 for one named twice, as PostgreSQL's ANALYZE.
std::vector<uint32_t> columnsNamed(const TableInfo& table, const std::vector<std::string>& names) {
  std::vector<uint32_t> columns;
  for (const std::string& name : names) {
    int c = table.columnIndex(name);
    if (c < 0)
      throw SqlError(sqlstate::kUndefinedColumn,
                     fmt::format("column \"{}\" of relation \"{}\" does not exist", name, table.name));
    if (std::find(columns.begin(), columns.end(), static_cast<uint32_t>(c)) != columns.end())
      throw SqlError(sqlstate::kDuplicateColumn,
                     fmt::format("column \"{}\" of relation \"{}\" appears more than once", name, table.name));
    columns.push_back(static_cast<uint32_t>(c));
  }
  return columns;
}

}  // namespace

void TableAnalysis::run(const sql::VacuumStmt& stmt, ResultSink& sink) {
  const int64_t at = state_.txn.statementTimestamp();
  if (stmt.tables.empty()) {
    forEachSchema(*state_.db, [&](const Schema& s) {
      if (s.temporary() && &s != state_.tempSchema()) return;  // other sessions' temporary tables
      for (const auto& [name, t] : s.tables)
        if (!t->systemView) analyze(*t->table, {}, false, at);
    });
    return;
  }
  // Every name is checked before any table is analysed.
  std::vector<std::pair<TableInfo*, std::vector<uint32_t>>> targets;
  for (size_t i = 0; i < stmt.tables.size(); ++i) {
    const sql::QualifiedName& name = stmt.tables[i];
    SchemaPath path = state_.relationPath(name);
    Catalog::Relation r = state_.engine.catalog.findRelation(*state_.db, path, name.name());
    if (r.view && !r.table) {
      state_.sendNotice(sink, Notice::make("WARNING", "01000",
                                           fmt::format("skipping \"{}\" --- cannot analyze non-tables or special "
                                                       "system tables",
                                                       name.name())));
      continue;
    }
    TableInfo& table = state_.tableByName(name);
    targets.emplace_back(&table, columnsNamed(table, stmt.columns[i]));
  }
  for (auto& [table, columns] : targets)
    if (!table->systemView) analyze(*table->table, columns, false, at);
}

void TableAnalysis::analyzeDue(EngineState& engine) {
  AnalysisQueue& queue = engine.catalog.analysisQueue();
  if (queue.due.empty() || engine.snapshotProcess) return;
  const int64_t at = now();
  // Analysing a table takes it off the queue (Table::setStatistics).
  while (!queue.due.empty()) analyze(*queue.due.front(), {}, true, at);
}

}  // namespace duet
