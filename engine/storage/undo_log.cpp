// Undo log (see undo_log.h).
#include "engine/storage/undo_log.h"

#include <cstdlib>

#include "engine/storage/table.h"

namespace duet {

UndoLog::~UndoLog() { rollback(); }

void UndoLog::recordInsert(Table* table, RowId row) {
  records_.push_back({Kind::Insert, table, row, nullptr});
}

void UndoLog::recordUpdate(Table* table, RowId row, uint8_t* images) {
  try {
    records_.push_back({Kind::Update, table, row, images});
  } catch (...) {
    std::free(images);
    throw;
  }
}

void UndoLog::recordErase(Table* table, RowId row, const Chunk* chunk) {
  records_.push_back({Kind::Erase, table, row, const_cast<Chunk*>(chunk)});
}

void UndoLog::recordAction(std::function<void()> undo, std::function<void()> onCommit) {
  auto* action = new Action{std::move(undo), std::move(onCommit)};
  try {
    records_.push_back({Kind::Action, nullptr, 0, action});
  } catch (...) {
    delete action;
    throw;
  }
}

void UndoLog::rollbackTo(Mark m) {
  while (records_.size() > m) {
    Record r = records_.back();
    records_.pop_back();
    switch (r.kind) {
      case Kind::Insert: r.table->undoInsert(r.row); break;
      case Kind::Update:
        r.table->undoUpdate(r.row, static_cast<uint8_t*>(r.payload));
        std::free(r.payload);
        break;
      case Kind::Erase: r.table->undoErase(r.row); break;
      case Kind::Action: {
        auto* action = static_cast<Action*>(r.payload);
        action->undo();
        delete action;
        break;
      }
    }
  }
}

void UndoLog::commit() {
  // Oldest first: a row's earlier changes release what they replaced before later ones do.
  for (Record& r : records_) {
    switch (r.kind) {
      case Kind::Insert: break;
      case Kind::Update:
        r.table->commitUpdate(static_cast<uint8_t*>(r.payload));
        std::free(r.payload);
        break;
      case Kind::Erase: r.table->commitErase(r.row, static_cast<Chunk*>(r.payload)); break;
      case Kind::Action: {
        auto* action = static_cast<Action*>(r.payload);
        if (action->onCommit) action->onCommit();
        delete action;
        break;
      }
    }
  }
  records_.clear();
}

}  // namespace duet
