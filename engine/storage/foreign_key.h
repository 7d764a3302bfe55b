// FOREIGN KEY constraints as the storage layer enforces them: Table::insert/update/erase
// call these for the constraints a table takes part in (Table::addForeignKey), so every
// writer - compiled INSERT/UPDATE/DELETE, COPY FROM, the cascades themselves - checks them
// the same way. A table in no foreign key pays one empty-vector test per row change.
//
// The referenced side is looked up in the unique index of the referenced columns (one hash
// probe or tree descent per row); referencing rows, which only a change of a referenced key
// needs, through an index of the referencing table whose leading columns are the
// referencing ones (a range of the tree, or a hash probe), else by a scan of that table. As in PostgreSQL, a new or
// changed referencing row and a NO ACTION referenced key are checked at the end of the statement (UndoLog::defer; the
// statement's compiled code runs them: duet_undo_run_deferred), so rows that only fit together once the statement is
// done pass; RESTRICT refuses at once. Cascades change the referencing rows through Table, so they are undone with the
// statement and cascade further.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/storage/index.h"
#include "engine/storage/layout.h"
#include "engine/storage/undo_log.h"

namespace duet {

class Table;

// pg_constraint's codes: confupdtype/confdeltype and confmatchtype.
namespace fk_action {
inline constexpr char kNoAction = 'a', kRestrict = 'r', kCascade = 'c', kSetNull = 'n', kSetDefault = 'd';
}
namespace fk_match {
inline constexpr char kSimple = 's', kFull = 'f';
}

struct ForeignKey {
  uint32_t oid = 0;
  std::string name;
  Table* child = nullptr;  // the referencing table
  std::vector<uint32_t> columns;
  Table* parent = nullptr;             // the referenced table
  std::vector<uint32_t> refColumns;    // columns[i] references refColumns[i]
  const Index* parentIndex = nullptr;  // the unique index over refColumns (in its own order)
  char onUpdate = fk_action::kNoAction, onDelete = fk_action::kNoAction, match = fk_match::kSimple;
  bool validated = true;  // false after ADD ... NOT VALID: existing rows were not checked
  // DEFERRABLE: SET CONSTRAINTS may defer its checks to the commit; INITIALLY DEFERRED:
  // they are deferred until it says otherwise (UndoLog::deferredNow). RESTRICT never waits.
  bool deferrable = false, initiallyDeferred = false;
  // SET DEFAULT: a tuple of the referencing table's layout holding each referencing
  // column's default (NULL where there is none), evaluated when the constraint was made.
  std::vector<uint8_t> defaults;
};

// Whether a referencing row's key must be looked up: under MATCH SIMPLE a NULL column
// exempts it; under MATCH FULL only all-NULL does, and a partly NULL key is 23503.
bool foreignKeyApplies(const ForeignKey& fk, const uint8_t* childTuple);
// 23503 unless the referenced table has the row's key.
void checkForeignKeyRow(const ForeignKey& fk, const uint8_t* childTuple);
// checkForeignKeyRow of referencing row `row` as it is at the end of the statement.
void deferForeignKeyRow(const ForeignKey& fk, RowId row, UndoLog& undo);
// A referenced row was deleted (newTuple null) or its key changed from oldTuple's: the
// referencing rows get the constraint's action (or 23503).
void referencedRowChanged(const ForeignKey& fk, const uint8_t* oldTuple, const uint8_t* newTuple, UndoLog& undo);
// Whether some row of the referencing table violates the constraint (ALTER TABLE ADD
// FOREIGN KEY); throws the first violation's 23503.
void validateForeignKey(const ForeignKey& fk);

}  // namespace duet
