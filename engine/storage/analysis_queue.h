// The tables due for automatic analysis (docs/statistics.md). A table counts the rows
// it inserts, updates and deletes; once the count since its last analysis passes
// autovacuum's analyze threshold (50 + 10% of its rows then) it puts itself here, once.
// The session analyses the tables here before it next plans a statement
// (session/table_analysis.h), so the write path pays one counter and one comparison, and
// statements pay one emptiness test. The catalog owns the queue; a table leaves it when
// analysed or destroyed.
#pragma once
#include <cstdint>
#include <vector>

namespace duet {

class Table;

struct AnalysisQueue {
  std::vector<Table*> due;  // in the order they became due
  // Moves on with every analysis (of any table): what shows statistics refills on a change.
  uint64_t version = 0;
};

}  // namespace duet
