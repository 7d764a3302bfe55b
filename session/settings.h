// A session's run-time settings (PostgreSQL's GUCs): SET, SET LOCAL, RESET, SHOW and
// current_setting(). Values are kept as the text SHOW prints; each setting's normaliser
// validates what SET gives and rewrites it into that form (on/off, "5s", "ISO, MDY").
//
// Transaction semantics follow PostgreSQL: a SET is undone when its transaction rolls
// back, and a SET LOCAL lasts only until its transaction ends.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "engine/types/type_context.h"

namespace duet {

// ASCII lower case: setting names and keyword values compare case-insensitively.
std::string lower(std::string_view s);

struct SettingDef {
  const char* name;          // canonical spelling: SHOW ALL and ParameterStatus use it
  const char* defaultValue;  // already normalised
  bool reported;             // sent as ParameterStatus when it changes
  bool readOnly;             // SET raises 55P02
  // Validates a value and returns it normalised; throws SqlError (22023) when invalid.
  // Null accepts any text as is.
  std::string (*normalise)(const SettingDef& def, std::string_view value);
  const char* description;
  // Who the session is (role, session_authorization): left out of nonDefaultValues(), as a
  // snapshot's session and a replay are opened as that user anyway.
  bool identity = false;
  // A list of names (search_path: PostgreSQL's GUC_LIST_QUOTE): SET quotes each element
  // where an identifier needs it.
  bool quotedList = false;
};

// PostgreSQL's message levels (elog.h), lowest first. A notice reaches the client when its
// level is at least client_min_messages, or is INFO (elog.c, should_output_to_client).
enum class MessageLevel : uint8_t { Debug5, Debug4, Debug3, Debug2, Debug1, Log, Info, Notice, Warning, Error };
// The level a normalised client_min_messages value names.
MessageLevel clientMessageLevel(std::string_view value);

// The known settings, in SHOW ALL order (alphabetical by lower-case name).
const std::vector<SettingDef>& settingDefinitions();
// Case-insensitive lookup; null when unknown.
const SettingDef* findSetting(std::string_view name);
// A SET's value list as the one text the setting takes: the items joined by ", ", each
// quoted as an identifier where it needs it for a list of names (SettingDef::quotedList).
std::string joinSettingValues(const std::vector<std::string>& items, const SettingDef* def);
// A routine's SET clause value as pg_get_functiondef writes it after TO: a literal, or for a
// list of names (search_path) a literal per name ('public', 'pg_temp').
std::string setClauseValue(const std::string& name, const std::string& value);
// Kilobytes of a normalised memory setting ("0", "512kB", "64MB", "1GB", "1TB").
int64_t parseKb(const std::string& v);

class Settings {
 public:
  Settings();

  // The value SHOW prints; 42704 `unrecognized configuration parameter "x"` if unknown.
  const std::string& get(std::string_view name) const;
  // The value, or null for an unknown name (current_setting(name, true)).
  const std::string* find(std::string_view name) const;
  // SET name = value. `local` (SET LOCAL) reverts at the end of the transaction.
  void set(std::string_view name, std::string_view value, bool local);
  void reset(std::string_view name, bool local);  // back to the session default
  // A SET LOCAL (or a SET later undone by one) is in force: it ends with the transaction.
  bool hasLocalChanges() const;
  void resetAll();
  // Startup parameters become the session defaults that RESET returns to.
  void setSessionDefault(std::string_view name, std::string_view value);

  // The transaction that the SETs since the last call belong to ended.
  void endTransaction(bool committed);
  // SAVEPOINT keeps the values as they are; ROLLBACK TO SAVEPOINT puts them back (the SETs
  // since are undone, as in PostgreSQL), the running transaction's access mode aside.
  struct Saved {
    std::map<std::string, std::string> values;
    std::map<std::string, std::pair<std::string, std::optional<std::string>>> pending;
  };
  Saved save() const;
  void restore(const Saved& saved);

  // Reported settings whose value changed since the last call: for ParameterStatus.
  std::vector<std::pair<std::string, std::string>> takeReportChanges();
  std::vector<std::pair<std::string, std::string>> reportedValues() const;
  // name, value, description for SHOW ALL.
  std::vector<std::vector<std::string>> showAll() const;

  // What the type library needs to read and print values.
  const TypeContext& typeContext() const { return typeContext_; }
  // The session's catalog, for the reg* types' names (TypeContext::catalog).
  void setCatalogLookup(const CatalogLookup* lookup) { typeContext_.catalog = lookup; }
  int idleInTransactionTimeoutMs() const { return idleTimeoutMs_; }
  int statementTimeoutMs() const { return statementTimeoutMs_; }
  int maxCompileMs() const { return maxCompileMs_; }
  CompileTiers compileTiers() const { return compileTiers_; }  // duet.compile_tier
  uint32_t maxParallelWorkersPerGather() const { return maxParallelWorkers_; }
  // duet.direct_calls: off runs routine calls through their plans (PreparedPlan::directCall),
  // so tests and benchmarks can compare both paths on one server.
  bool directCalls() const { return directCalls_; }
  MessageLevel clientMinMessages() const { return clientMinMessages_; }
  // Snapshot routing (docs/snapshots.md).
  enum class SnapshotRouting : uint8_t { Auto, Always, Never };
  SnapshotRouting snapshotRouting() const { return snapshotRouting_; }
  int snapshotMaxAgeMs() const { return snapshotMaxAgeMs_; }
  int64_t snapshotMinRows() const { return snapshotMinRows_; }
  int64_t snapshotMemoryLimitKb() const { return snapshotMemoryLimitKb_; }
  int64_t executorMemoryLimitKb() const { return executorMemoryLimitKb_; }
  // max_stack_depth in kB: applied to the executing thread before each statement.
  int64_t maxStackDepthKb() const { return maxStackDepthKb_; }
  // Settings whose value differs from the built-in default, as (name, value): what a
  // snapshot's session must be opened with to behave like this one (identity ones aside,
  // every custom placeholder included).
  std::vector<std::pair<std::string, std::string>> nonDefaultValues() const;
  // Moves on whenever a value may have changed (not for transaction_read_only), from 1 on:
  // what is computed from the values can be kept until then.
  uint64_t version() const { return version_; }
  // default_transaction_read_only: the access mode each transaction starts in.
  bool defaultTransactionReadOnly() const { return defaultReadOnly_; }
  // transaction_read_only shows the running transaction's access mode, which the session
  // keeps with the transaction (TransactionState) and SET of it changes there: this only
  // updates what SHOW and current_setting() print, before each statement.
  void showTransactionReadOnly(bool on);

 private:
  struct Pending {
    std::string before;                     // value when the transaction first touched it
    std::optional<std::string> sessionSet;  // last non-LOCAL value set in the transaction
  };
  const SettingDef& def(std::string_view name) const;
  // Custom placeholders (PostgreSQL's "app.user"): a dotted name that is no setting becomes
  // one of text, empty by default, when it is first set; 42602 for a name that is not
  // identifiers separated by dots.
  const SettingDef* findCustom(std::string_view name) const;
  const SettingDef& defineIfCustom(std::string_view name);
  struct Custom {
    std::string name;
    SettingDef def;
  };
  std::map<std::string, std::unique_ptr<Custom>> custom_;  // lower-case name -> definition
  void assign(const SettingDef& def, std::string value);
  void remember(const SettingDef& def);
  void refreshDerived();

  std::map<std::string, std::string> values_;        // lower-case name -> value
  std::map<std::string, std::string> defaults_;      // RESET targets
  std::map<std::string, Pending> pending_;           // changed in the current transaction
  std::map<std::string, std::string> reportedSent_;  // what the client last saw
  bool maybeUnreported_ = true;                      // a value changed since takeReportChanges last looked
  uint64_t version_ = 0;                             // moves on with every change of a value (version())
  TypeContext typeContext_;
  int idleTimeoutMs_ = 0;
  int statementTimeoutMs_ = 0;
  int maxCompileMs_ = 1000;
  CompileTiers compileTiers_ = CompileTiers::Adaptive;
  uint32_t maxParallelWorkers_ = 0;
  bool directCalls_ = true;
  MessageLevel clientMinMessages_ = MessageLevel::Notice;
  SnapshotRouting snapshotRouting_ = SnapshotRouting::Auto;
  int snapshotMaxAgeMs_ = 1000;
  int64_t snapshotMinRows_ = 100000;
  int64_t snapshotMemoryLimitKb_ = 0;
  int64_t executorMemoryLimitKb_ = 0;
  int64_t maxStackDepthKb_ = 2048;
  bool defaultReadOnly_ = false;
  bool shownReadOnly_ = false;  // transaction_read_only's value
};

}  // namespace duet
