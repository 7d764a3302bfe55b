// ANALYZE's estimator (engine/storage/table_analyzer.h): exact statistics on small tables,
// distinct counts from a sample within a few percent on a large one, the same result
// twice, and the analysis queue that automatic analysis reads.
#include <catch2/catch.hpp>

#include <string>

#include "engine/storage/table.h"
#include "engine/storage/table_analyzer.h"
#include "tests/unit/storage_test_util.h"

using namespace duet;
using duet::test::TupleBuf;

namespace {

// id int8 unique, grp int4 with `groups` values, tag text ('t' + id % 50, NULL for every
// fifth row).
void fill(Table& t, int64_t rows, int32_t groups) {
  UndoLog undo;
  for (int64_t i = 0; i < rows; ++i) {
    TupleBuf buf(t.layout());
    buf.set<int64_t>(0, i).set<int32_t>(1, static_cast<int32_t>(i % groups));
    if (i % 5 == 0)
      buf.null(2);
    else
      buf.str(2, "t" + std::to_string(i % 50));
    t.insert(buf.data(), undo);
  }
  undo.commit();
}

Table makeTable(StorageKind kind = StorageKind::Row) {
  return Table("t", {{"id", {TypeId::Int8}}, {"grp", {TypeId::Int4}}, {"tag", {TypeId::Text}}}, kind);
}

int64_t int64Of(const StatisticsValue& v) { return *static_cast<const int64_t*>(v.value()); }

}  // namespace

TEST_CASE("analysis of a small table is exact", "[storage][statistics]") {
  for (StorageKind kind : {StorageKind::Row, StorageKind::Column}) {
    Table t = makeTable(kind);
    fill(t, 1000, 7);
    TableStatistics s = analyzeTable(t, {}, nullptr);
    CHECK(s.rows == 1000);
    REQUIRE(s.columns.size() == 3);
    const ColumnStatistics& id = s.columns[0];
    CHECK(id.distinct == 1000);
    CHECK(id.unique);
    CHECK(id.nullFraction == 0);
    CHECK(id.width == 8);
    CHECK(id.pgNDistinct(s.rows) == -1);
    CHECK(int64Of(*id.minimum) == 0);
    CHECK(int64Of(*id.maximum) == 999);
    REQUIRE(id.histogram.size() == kHistogramBounds);
    CHECK(int64Of(*id.histogram.front()) == 0);
    CHECK(int64Of(*id.histogram.back()) == 999);
    CHECK(s.columns[1].distinct == 7);
    CHECK(s.columns[1].pgNDistinct(s.rows) == 7);
    const ColumnStatistics& tag = s.columns[2];
    CHECK(tag.nullFraction == Approx(0.2));
    CHECK(tag.distinct == 40);  // i % 50 for i not a multiple of 5
    CHECK(tag.width == 3);      // "t" and two digits mostly, plus a 1-byte header
  }
}

TEST_CASE("a column list analyses only its columns", "[storage][statistics]") {
  Table t = makeTable();
  fill(t, 100, 3);
  TableStatistics first = analyzeTable(t, {1}, nullptr);
  CHECK_FALSE(first.columns[0].analyzed);
  CHECK(first.columns[1].analyzed);
  TableStatistics second = analyzeTable(t, {0}, &first);
  CHECK(second.columns[0].analyzed);
  CHECK(second.columns[1].distinct == 3);  // kept from the first
}

TEST_CASE("distinct counts of a large table are close and deterministic", "[storage][statistics]") {
  Table t = makeTable();
  fill(t, 200000, 12345);
  TableStatistics a = analyzeTable(t, {}, nullptr);
  TableStatistics b = analyzeTable(t, {}, nullptr);
  CHECK(a.columns[0].distinct == Approx(200000).epsilon(0.03));
  CHECK(a.columns[1].distinct == Approx(12345).epsilon(0.03));
  CHECK(a.columns[2].distinct == 40);  // every value repeats in the sample: all of them seen
  CHECK(a.columns[0].unique);          // no sampled value repeats
  CHECK(a.columns[2].nullFraction == Approx(0.2).epsilon(0.05));
  for (size_t c = 0; c < 3; ++c) {
    CHECK(a.columns[c].distinct == b.columns[c].distinct);
    CHECK(a.columns[c].histogram.size() == b.columns[c].histogram.size());
  }
  CHECK(int64Of(*a.columns[0].maximum) > 199000);  // the sample's largest
}

TEST_CASE("a table queues itself for analysis past 50 + 10% changes", "[storage][statistics]") {
  AnalysisQueue queue;
  Table t = makeTable();
  t.setAnalysisQueue(&queue);
  fill(t, 50, 5);
  CHECK(queue.due.empty());
  fill(t, 1, 5);
  REQUIRE(queue.due.size() == 1);
  TableStatistics s = analyzeTable(t, {}, nullptr);
  s.automatic = true;
  t.setStatistics(std::move(s), true);
  CHECK(queue.due.empty());
  CHECK(t.modifiedSinceAnalysis() == 0);
  CHECK(t.autoAnalysisCount() == 1);
  CHECK(queue.version == 1);
  fill(t, 55, 5);  // threshold now 50 + 5
  CHECK(queue.due.empty());
  fill(t, 1, 5);
  CHECK(queue.due.size() == 1);
  {
    Table other = makeTable();
    other.setAnalysisQueue(&queue);
    fill(other, 60, 5);
    CHECK(queue.due.size() == 2);
  }
  CHECK(queue.due.size() == 1);  // a destroyed table leaves the queue
}
