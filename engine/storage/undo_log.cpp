// Undo log (see undo_log.h).
#include "engine/storage/undo_log.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "engine/error.h"
#include "engine/storage/foreign_key.h"
#include "engine/storage/table.h"

namespace duet {

thread_local size_t UndoLog::withChanges_ = 0;

UndoLog::~UndoLog() { rollback(); }

void UndoLog::refuseWrite(const char* command) {
  throw SqlError(sqlstate::kReadOnlySqlTransaction,
                 std::string("cannot execute ") + command + " in a read-only transaction");
}

void UndoLog::recordInsert(Table* table, RowId row) { push({Kind::Insert, table, row, nullptr}); }

void UndoLog::recordUpdate(Table* table, RowId row, uint8_t* images) { push({Kind::Update, table, row, images}); }

uint8_t* UndoLog::imageSpace(size_t bytes) {
  constexpr size_t kBlockBytes = 64 * 1024;
  bytes = (bytes + 15) & ~size_t{15};
  if (blocks_.empty() || used_ + bytes > blocks_.back().size) {
    size_t size = std::max(kBlockBytes, bytes);
    // new[] of uint8_t is only max_align_t aligned: over-allocate and align by hand.
    blocks_.push_back(Block{std::make_unique<uint8_t[]>(size + 15), size});
    used_ = 0;
  }
  auto base = reinterpret_cast<uintptr_t>(blocks_.back().bytes.get());
  uint8_t* p = reinterpret_cast<uint8_t*>((base + 15) & ~uintptr_t{15}) + used_;
  used_ += bytes;
  return p;
}

void UndoLog::releaseImagesIfEmpty() {
  if (!records_.empty() || blocks_.empty()) return;
  blocks_.resize(1);
  used_ = 0;
}

void UndoLog::recordErase(Table* table, RowId row, const Chunk* chunk) {
  push({Kind::Erase, table, row, const_cast<Chunk*>(chunk)});
}

void UndoLog::recordAction(std::function<void()> undo, std::function<void()> onCommit) {
  auto* action = new Action{std::move(undo), std::move(onCommit)};
  try {
    push({Kind::Action, nullptr, 0, action});
  } catch (...) {
    delete action;
    throw;
  }
}

void UndoLog::runDeferred() {
  std::vector<std::function<void()>> checks;
  checks.swap(deferred_);
  for (auto& check : checks) check();
}

bool UndoLog::deferredNow(const ForeignKey& fk) const {
  if (!fk.deferrable) return false;
  if (auto it = fkDeferred_.find(&fk); it != fkDeferred_.end()) return it->second;
  return allDeferred_.value_or(fk.initiallyDeferred);
}

void UndoLog::deferToCommit(const ForeignKey& fk, std::function<void()> check) {
  commitChecks_.emplace_back(&fk, std::move(check));
}

void UndoLog::setConstraintMode(const ForeignKey* fk, bool deferred) {
  if (fk) {
    fkDeferred_[fk] = deferred;
  } else {
    allDeferred_ = deferred;
    fkDeferred_.clear();
  }
  if (deferred) return;
  // What no longer waits runs at the end of this statement.
  std::vector<std::pair<const ForeignKey*, std::function<void()>>> waiting;
  for (auto& entry : commitChecks_) {
    if (deferredNow(*entry.first))
      waiting.push_back(std::move(entry));
    else
      defer(std::move(entry.second));
  }
  commitChecks_.swap(waiting);
}

void UndoLog::runCommitChecks() {
  std::vector<std::pair<const ForeignKey*, std::function<void()>>> checks;
  checks.swap(commitChecks_);
  for (auto& [fk, check] : checks) check();
}

bool UndoLog::hasCommitChecks(const Table* t) const {
  for (const auto& [fk, check] : commitChecks_)
    if (fk->child == t || fk->parent == t) return true;
  return false;
}

void UndoLog::rollbackTo(Mark m) {
  deferred_.clear();
  bool had = !records_.empty();
  while (records_.size() > m) {
    Record r = records_.back();
    records_.pop_back();
    switch (r.kind) {
      case Kind::Insert: r.table->undoInsert(r.row); break;
      case Kind::Update: r.table->undoUpdate(r.row, static_cast<uint8_t*>(r.payload)); break;
      case Kind::Erase: r.table->undoErase(r.row); break;
      case Kind::Action: {
        auto* action = static_cast<Action*>(r.payload);
        action->undo();
        delete action;
        break;
      }
    }
  }
  if (had) noteEmptied();
  releaseImagesIfEmpty();
}

void UndoLog::commit() {
  endConstraintModes();
  bool had = !records_.empty();
  // Oldest first: a row's earlier changes release what they replaced before later ones do.
  for (Record& r : records_) {
    switch (r.kind) {
      case Kind::Insert: break;
      case Kind::Update: r.table->commitUpdate(static_cast<uint8_t*>(r.payload)); break;
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
  if (had) noteEmptied();
  releaseImagesIfEmpty();
}

}  // namespace duet
