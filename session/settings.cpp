#include "session/settings.h"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <charconv>

#include "engine/error.h"
#include "engine/types/text_functions.h"
#include "engine/types/time_zone.h"

namespace duet {

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::string setClauseValue(const std::string& name, const std::string& value) {
  const SettingDef* def = findSetting(name);
  if (!def || !def->quotedList) return quoteLiteral(value);
  std::string out;
  size_t at = 0;
  while (true) {
    size_t comma = value.find(',', at);
    std::string item = value.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (item.size() >= 2 && item.front() == '"' && item.back() == '"') item = item.substr(1, item.size() - 2);
    out += (out.empty() ? "" : ", ") + quoteLiteral(item);
    if (comma == std::string::npos) return out;
    at = comma + 1;
  }
}

std::string joinSettingValues(const std::vector<std::string>& items, const SettingDef* def) {
  std::string v;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) v += ", ";
    v += def && def->quotedList ? quoteIdent(items[i]) : items[i];
  }
  return v;
}

namespace {

// Milliseconds of a normalised time setting ("0", "1500ms", "5s", "2min", "1h", "1d").
int parseMs(const std::string& v) {
  long long n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  std::string_view unit(end, v.data() + v.size() - end);
  long long factor = unit == "s"     ? 1000
                     : unit == "min" ? 60'000
                     : unit == "h"   ? 3'600'000
                     : unit == "d"   ? 86'400'000
                                     : 1;
  long long ms = n * factor;
  return ms > 2'147'483'647 ? 2'147'483'647 : static_cast<int>(ms);
}

}  // namespace

int64_t parseKb(const std::string& v) {
  long long n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  std::string_view unit(end, v.data() + v.size() - end);
  long long factor = unit == "MB" ? 1LL << 10 : unit == "GB" ? 1LL << 20 : unit == "TB" ? 1LL << 30 : 1;
  return n * factor;
}

Settings::Settings() {
  for (const SettingDef& d : settingDefinitions()) {
    values_[lower(d.name)] = d.defaultValue;
    defaults_[lower(d.name)] = d.defaultValue;
  }
  refreshDerived();
}

const SettingDef& Settings::def(std::string_view name) const {
  const SettingDef* d = findSetting(name);
  if (!d) d = findCustom(name);
  if (!d) {
    throw SqlError(sqlstate::kUndefinedObject, fmt::format("unrecognized configuration parameter \"{}\"", name));
  }
  return *d;
}

const SettingDef* Settings::findCustom(std::string_view name) const {
  if (custom_.empty()) return nullptr;
  auto it = custom_.find(lower(name));
  return it == custom_.end() ? nullptr : &it->second->def;
}

const SettingDef& Settings::defineIfCustom(std::string_view name) {
  if (const SettingDef* d = findSetting(name)) return *d;
  if (const SettingDef* d = findCustom(name)) return *d;
  if (name.find('.') == std::string_view::npos) return def(name);  // 42704
  // PostgreSQL's valid_custom_variable_name: simple identifiers separated by dots.
  bool valid = true;
  size_t start = 0;
  while (valid && start <= name.size()) {
    size_t dot = std::min(name.find('.', start), name.size());
    std::string_view part = name.substr(start, dot - start);
    auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); };
    valid = !part.empty() && letter(part[0]);
    for (char c : part) valid = valid && (letter(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '$');
    start = dot + 1;
  }
  if (!valid) {
    throw SqlError("42602", fmt::format("invalid configuration parameter name \"{}\"", name),
                   "Custom parameter names must be two or more simple identifiers separated by dots.");
  }
  auto custom = std::make_unique<Custom>();
  custom->name = lower(name);
  custom->def = SettingDef{nullptr, "", false, false, nullptr, "", false};
  custom->def.name = custom->name.c_str();
  const SettingDef& d = custom->def;
  values_.emplace(custom->name, "");
  defaults_.emplace(custom->name, "");
  custom_.emplace(custom->name, std::move(custom));
  return d;
}

const std::string& Settings::get(std::string_view name) const {
  static const std::string kEmpty;
  auto it = values_.find(lower(def(name).name));
  return it == values_.end() ? kEmpty : it->second;  // a placeholder a ROLLBACK TO forgot
}

const std::string* Settings::find(std::string_view name) const {
  if (!findSetting(name) && !findCustom(name)) return nullptr;
  return &get(name);
}

void Settings::setSessionDefault(std::string_view name, std::string_view value) {
  const SettingDef& d = defineIfCustom(name);
  std::string v = d.normalise ? d.normalise(d, value) : std::string(value);
  defaults_[lower(d.name)] = v;
  values_[lower(d.name)] = v;
  reportedSent_.erase(lower(d.name));
  refreshDerived();
}

void Settings::remember(const SettingDef& d) {
  std::string key = lower(d.name);
  if (!pending_.count(key)) pending_[key] = Pending{values_[key], std::nullopt};
}

void Settings::assign(const SettingDef& d, std::string value) {
  values_[lower(d.name)] = std::move(value);
  refreshDerived();
}

void Settings::set(std::string_view name, std::string_view value, bool local) {
  const SettingDef& d = defineIfCustom(name);
  if (d.readOnly) {
    throw SqlError("55P02", fmt::format("parameter \"{}\" cannot be changed", d.name));
  }
  std::string v = d.normalise ? d.normalise(d, value) : std::string(value);
  remember(d);
  if (!local) pending_[lower(d.name)].sessionSet = v;
  assign(d, std::move(v));
}

void Settings::reset(std::string_view name, bool local) {
  const SettingDef& d = defineIfCustom(name);
  if (d.readOnly) {
    throw SqlError("55P02", fmt::format("parameter \"{}\" cannot be changed", d.name));
  }
  std::string v = defaults_[lower(d.name)];
  remember(d);
  if (!local) pending_[lower(d.name)].sessionSet = v;
  assign(d, std::move(v));
}

void Settings::resetAll() {
  for (const SettingDef& d : settingDefinitions()) {
    // RESET ALL leaves the running transaction's access mode alone (GUC_NO_RESET_ALL).
    if (!d.readOnly && std::string_view(d.name) != "transaction_read_only") reset(d.name, false);
  }
  for (const auto& [key, custom] : custom_) reset(key, false);
}

void Settings::showTransactionReadOnly(bool on) {
  if (on == shownReadOnly_) return;  // the common case, checked at every statement
  shownReadOnly_ = on;
  values_["transaction_read_only"] = on ? "on" : "off";
}

bool Settings::hasLocalChanges() const {
  for (const auto& [name, pending] : pending_) {
    auto it = values_.find(name);
    if (!pending.sessionSet || it == values_.end() || it->second != *pending.sessionSet) return true;
  }
  return false;
}

void Settings::endTransaction(bool committed) {
  if (pending_.empty()) return;
  for (auto& [key, p] : pending_) {
    // Committed: the last plain SET survives, SET LOCAL does not. Rolled back: nothing does.
    values_[key] = committed && p.sessionSet ? *p.sessionSet : p.before;
  }
  pending_.clear();
  refreshDerived();
}

Settings::Saved Settings::save() const {
  Saved saved;
  saved.values = values_;
  for (const auto& [key, p] : pending_) saved.pending.emplace(key, std::make_pair(p.before, p.sessionSet));
  return saved;
}

void Settings::restore(const Saved& saved) {
  bool readOnly = shownReadOnly_;
  values_ = saved.values;
  pending_.clear();
  for (const auto& [key, p] : saved.pending) pending_.emplace(key, Pending{p.first, p.second});
  values_["transaction_read_only"] = readOnly ? "on" : "off";
  refreshDerived();
}

std::vector<std::pair<std::string, std::string>> Settings::takeReportChanges() {
  std::vector<std::pair<std::string, std::string>> changes;
  if (!maybeUnreported_) return changes;  // the common case: a statement changed no setting
  maybeUnreported_ = false;
  for (const SettingDef& d : settingDefinitions()) {
    if (!d.reported) continue;
    std::string key = lower(d.name);
    auto sent = reportedSent_.find(key);
    if (sent == reportedSent_.end() || sent->second != values_[key]) {
      changes.emplace_back(d.name, values_[key]);
      reportedSent_[key] = values_[key];
    }
  }
  return changes;
}

std::vector<std::pair<std::string, std::string>> Settings::reportedValues() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const SettingDef& d : settingDefinitions()) {
    if (d.reported) out.emplace_back(d.name, values_.at(lower(d.name)));
  }
  return out;
}

std::vector<std::vector<std::string>> Settings::showAll() const {
  std::vector<std::vector<std::string>> rows;
  for (const SettingDef& d : settingDefinitions()) {
    rows.push_back({d.name, values_.at(lower(d.name)), d.description});
  }
  return rows;
}

void Settings::refreshDerived() {
  maybeUnreported_ = true;
  ++version_;
  if (std::optional<ResolvedTimeZone> zone = resolveTimeZoneSetting(values_["timezone"])) {
    typeContext_.timeZoneOffsetSeconds = zone->fixedOffsetEast;
    typeContext_.namedZone = zone->zone;
    typeContext_.fixedZoneAbbreviation = zone->abbreviation;
  }
  typeContext_.extraFloatDigits = std::stoi(values_["extra_float_digits"]);
  typeContext_.byteaOutput = values_["bytea_output"] == "escape" ? ByteaOutput::Escape : ByteaOutput::Hex;
  idleTimeoutMs_ = parseMs(values_["idle_in_transaction_session_timeout"]);
  statementTimeoutMs_ = parseMs(values_["statement_timeout"]);
  maxCompileMs_ = parseMs(values_["duet.max_compile_ms"]);
  const std::string& tier = values_["duet.compile_tier"];
  compileTiers_ = tier == "cheap"       ? CompileTiers::Cheap
                  : tier == "optimized" ? CompileTiers::Optimised
                                        : CompileTiers::Adaptive;
  maxParallelWorkers_ = static_cast<uint32_t>(std::stoul(values_["max_parallel_workers_per_gather"]));
  directCalls_ = values_["duet.direct_calls"] == "on";
  clientMinMessages_ = clientMessageLevel(values_["client_min_messages"]);
  const std::string& routing = values_["duet.snapshot_routing"];
  snapshotRouting_ = routing == "always"  ? SnapshotRouting::Always
                     : routing == "never" ? SnapshotRouting::Never
                                          : SnapshotRouting::Auto;
  snapshotMaxAgeMs_ = parseMs(values_["duet.snapshot_max_age"]);
  snapshotMinRows_ = std::stoll(values_["duet.snapshot_min_rows"]);
  snapshotMemoryLimitKb_ = parseKb(values_["duet.snapshot_memory_limit"]);
  executorMemoryLimitKb_ = parseKb(values_["duet.executor_memory_limit"]);
  maxStackDepthKb_ = parseKb(values_["max_stack_depth"]);
  defaultReadOnly_ = values_["default_transaction_read_only"] == "on";
  shownReadOnly_ = values_["transaction_read_only"] == "on";
}

std::vector<std::pair<std::string, std::string>> Settings::nonDefaultValues() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const SettingDef& d : settingDefinitions()) {
    const std::string& value = values_.at(lower(d.name));
    if (!d.readOnly && !d.identity && value != d.defaultValue) out.emplace_back(d.name, value);
  }
  // Every placeholder, empty ones too: they exist for current_setting() there.
  for (const auto& [key, custom] : custom_) {
    auto it = values_.find(key);
    out.emplace_back(key, it == values_.end() ? std::string() : it->second);
  }
  return out;
}

}  // namespace duet
