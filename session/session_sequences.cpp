// nextval, currval, setval and lastval for one session (see session_sequences.h).
#include "session/session_sequences.h"

#include <fmt/format.h>

#include "engine/types/text_functions.h"
#include "session/session_state.h"

namespace duet {

SequenceInfo& SessionSequences::sequence(uint32_t oid) {
  if (byOidVersion_ != state_.engine.catalogVersion) {
    byOid_.clear();
    for (const auto& [schemaName, schema] : state_.db->schemas)
      for (const auto& [name, s] : schema->sequences) byOid_[s->oid] = s.get();
    byOidVersion_ = state_.engine.catalogVersion;
  }
  auto it = byOid_.find(oid);
  if (it != byOid_.end()) return *it->second;
  std::optional<std::string> name = state_.catalogLookup.nameOf(TypeAlias::RegClass, oid);
  if (!name) throw SqlError("XX000", fmt::format("could not open relation with OID {}", oid));
  throw SqlError(sqlstate::kWrongObjectType, fmt::format("\"{}\" is not a sequence", *name));
}

void SessionSequences::noteChange(uint32_t oid) {
  changedInStatement = true;
  changedInTransaction_.insert(oid);
}

int64_t SessionSequences::nextval(uint32_t oid) {
  SequenceInfo& s = sequence(oid);
  state_.txn.undo().checkWritable("nextval()");
  int64_t value = s.next();
  noteChange(oid);
  current_[oid] = value;
  lastUsed_ = oid;
  return value;
}

int64_t SessionSequences::currval(uint32_t oid) {
  SequenceInfo& s = sequence(oid);
  auto it = current_.find(oid);
  if (it == current_.end())
    throw SqlError(sqlstate::kObjectNotInPrerequisiteState,
                   fmt::format("currval of sequence \"{}\" is not yet defined in this session", s.name));
  return it->second;
}

void SessionSequences::setval(uint32_t oid, int64_t value, bool isCalled) {
  SequenceInfo& s = sequence(oid);
  state_.txn.undo().checkWritable("setval()");
  s.set(value, isCalled);
  noteChange(oid);
  // As PostgreSQL's do_setval: currval follows only a value counted as handed out.
  if (isCalled) current_[oid] = value;
}

int64_t SessionSequences::lastval() {
  if (lastUsed_ == 0)
    throw SqlError(sqlstate::kObjectNotInPrerequisiteState, "lastval is not yet defined in this session");
  // A sequence dropped since is PostgreSQL's same error.
  if (byOidVersion_ != state_.engine.catalogVersion || !byOid_.count(lastUsed_)) {
    if (!state_.engine.catalog.sequenceByOid(*state_.db, lastUsed_))
      throw SqlError(sqlstate::kObjectNotInPrerequisiteState, "lastval is not yet defined in this session");
  }
  return current_.at(lastUsed_);
}

int64_t SessionSequences::value(uint32_t oid, bool* isCalled) {
  SequenceInfo& s = sequence(oid);
  *isCalled = s.isCalled;
  return s.lastValue;
}

std::vector<LoggedStatement> SessionSequences::positions() {
  std::vector<LoggedStatement> out;
  for (uint32_t oid : changedInTransaction_) {
    const SequenceInfo* s = state_.engine.catalog.sequenceByOid(*state_.db, oid);
    if (!s) continue;  // created by what was rolled back, or dropped
    LoggedStatement l;
    std::string name = quoteIdent(s->schema->name) + "." + quoteIdent(s->name);
    l.sql = fmt::format("SELECT pg_catalog.setval({}, {}, {})", quoteLiteral(name), s->lastValue, s->isCalled);
    l.statementTimestamp = state_.txn.statementTimestamp();
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace duet
