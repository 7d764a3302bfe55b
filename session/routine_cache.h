// The routines a session's statements call (docs/session.md, "Routines"): the catalog's
// functions and procedures as the binder's RoutineCandidates, their machine code - compiled
// when first needed and cached engine-wide (EngineState::routines) with what its
// compilation looked up, kept while that is unchanged - and a call from compiled code.
// Needs only the SessionState.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "session/session_state.h"

namespace duet {

// A routine's SET clauses in force while it is compiled or runs, as PostgreSQL's
// fmgr_security_definer applies proconfig: the session's settings as they were come back
// when the scope ends, however it ends (so a plain SET inside the routine is undone too).
// Costs nothing for a routine without SET clauses.
class RoutineSettingsScope {
 public:
  RoutineSettingsScope(Settings& settings, const std::vector<std::pair<std::string, std::string>>& config);
  ~RoutineSettingsScope();
  RoutineSettingsScope(const RoutineSettingsScope&) = delete;
  RoutineSettingsScope& operator=(const RoutineSettingsScope&) = delete;

 private:
  Settings& settings_;
  std::optional<Settings::Saved> saved_;
};

class CallTransactions;

class RoutineCache {
 public:
  explicit RoutineCache(SessionState& state) : state_(state) {}
  // Where a function called inside a CALL makes it atomic (no COMMIT in what it calls).
  void setCallTransactions(CallTransactions* calls) { calls_ = calls; }

  // SessionServices::callRoutine: find or compile the code, then run it.
  void callRoutine(rt::QueryContext& ctx, uint32_t oid, const std::vector<SqlType>& argTypes, const uint8_t* args,
                   uint8_t* result, rt::TupleBuffer* rows);
  std::vector<RoutineCandidate> routineCandidates(const std::vector<std::string>& names) const;
  const RoutineInfo* routineByOid(uint32_t oid) const;
  // The routine's code for the current catalog, compiled now if there is none that fits.
  // `row`: the rows the caller takes, which a function returning record is compiled for.
  // `argTypes`: the call's argument types, which a polymorphic routine is compiled for.
  // (A later DROP or OR REPLACE of the routine may remove the entry.)
  CachedRoutine& compiledRoutine(uint32_t oid, const std::vector<SqlType>& row = {},
                                 const std::vector<SqlType>& argTypes = {});
  // Compiles the routine (validate: RoutineCompileRequest::validate) and caches the code
  // with what the compilation read of the catalog, under the caller's search path; its
  // names are looked up with its SET clauses in force.
  CachedRoutine& compileAndCache(const RoutineInfo& info, bool validate, const std::vector<SqlType>& recordRow = {},
                                 const std::vector<SqlType>& polymorphicArgs = {});
  // After a rollback undid DDL: drops the code of routines that are gone or changed back.
  void discardStaleRoutines();
  // Drops every compiled version of a routine (OR REPLACE, DROP).
  void forgetCompiledRoutine(uint32_t oid);
  // What the PL/pgSQL front end needs to know of a routine and of the tables it names.
  // Polymorphic parameters take their types from `binding` (by default the validator's).
  plpgsql::RoutineShape routineShape(const RoutineInfo& info,
                                     const binder::PolymorphicBinding& binding = binder::kValidatorBinding) const;
  plpgsql::TableLookup tableColumnsLookup() const;

 private:
  RoutineCandidate candidateOf(const RoutineInfo& r) const;
  // The SqlType of a routine's composite parameter or result type (42704 when it is gone).
  SqlType compositeType(const RoutineType& t) const;
  // A function returning record returns `recordRow` (a call's column definition list;
  // empty when CREATE validates an SQL body, which then checks only that it returns rows).
  // A polymorphic routine is compiled for `polymorphicArgs`, a call's argument types.
  plpgsql::RoutineCompileRequest compileRequest(const RoutineInfo& info, const std::vector<SqlType>& recordRow,
                                                const std::vector<SqlType>& polymorphicArgs);
  bool stillFits(const RoutineInfo& info, const CachedRoutine& cached) const;
  // What a lookup finds now, as text: equal fingerprints, equal catalog for the code.
  std::string tableFingerprint(const std::vector<std::string>& name) const;
  std::string routinesFingerprint(const std::vector<std::string>& names) const;
  std::string routineDefinition(const RoutineInfo& info) const;

  SessionState& state_;
  CallTransactions* calls_ = nullptr;
};

}  // namespace duet
