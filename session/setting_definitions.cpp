// The settings DuetDB knows, with PostgreSQL 15's defaults and validation messages. Many
// only exist so that clients and tools that SET or SHOW them work; the ones that change
// behaviour are read through Settings (session/settings.h).
#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <span>
#include <vector>

#include "engine/error.h"
#include "engine/limits/stack_depth.h"
#include "engine/types/time_zone.h"
#include "session/search_path.h"
#include "session/settings.h"

namespace duet {
namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

[[noreturn]] void invalidValue(const SettingDef& def, std::string_view value, std::string hint = {}) {
  throw SqlError(sqlstate::kInvalidParameterValue,
                 fmt::format("invalid value for parameter \"{}\": \"{}\"", def.name, value), {}, std::move(hint));
}

std::string boolValue(const SettingDef& def, std::string_view value) {
  std::string v = lower(trim(value));
  if (v == "on" || v == "true" || v == "yes" || v == "1" || v == "t" || v == "y") return "on";
  if (v == "off" || v == "false" || v == "no" || v == "0" || v == "f" || v == "n") return "off";
  throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("parameter \"{}\" requires a Boolean value", def.name));
}

// check_search_path: a list of identifiers, whether the schemas exist or not.
std::string searchPathValue(const SettingDef& def, std::string_view value) {
  std::vector<std::string> names;
  if (!splitSearchPath(value, names))
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("invalid value for parameter \"{}\": \"{}\"", def.name, value),
                   "List syntax is invalid.");
  return std::string(value);
}

// Only "on" is implemented (the parser treats backslashes in '' literals as ordinary).
std::string onlyOn(const SettingDef& def, std::string_view value) {
  if (boolValue(def, value) != "on") {
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("{} = off is not supported", def.name));
  }
  return "on";
}

// PostgreSQL's hint for an invalid enum value: the values it offers, in order.
std::string availableValues(std::span<const char* const> names) {
  std::string hint = "Available values: ";
  for (size_t i = 0; i < names.size(); ++i) {
    hint += i ? ", " : "";
    hint += names[i];
  }
  return hint + ".";
}

std::string enumValue(const SettingDef& def, std::string_view value, std::initializer_list<const char*> allowed) {
  // Any case, but not trimmed: PostgreSQL rejects ' hex' for an enum setting.
  std::string v = lower(value);
  for (const char* a : allowed) {
    if (v == a) return v;
  }
  invalidValue(def, value, availableValues(std::span(allowed.begin(), allowed.size())));
}

std::string integerIn(const SettingDef& def, std::string_view value, long min, long max) {
  std::string v = trim(value);
  long n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size()) invalidValue(def, value);
  if (n < min || n > max) {
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("{} is outside the valid range for parameter \"{}\" ({} .. {})", n, def.name, min, max));
  }
  return std::to_string(n);
}

// An amount with an optional unit, as PostgreSQL reads memory and time settings. `units`
// lists name and multiplier relative to the base unit, largest first; SHOW prints the
// largest unit that divides the amount exactly.
struct Unit {
  const char* name;
  long long factor;
};
std::string withUnits(const SettingDef& def, std::string_view value, std::initializer_list<Unit> units,
                      const char* baseName, long long max) {
  std::string v = trim(value);
  long long n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc()) invalidValue(def, value);
  std::string unit = trim(std::string_view(end, v.data() + v.size() - end));
  if (!unit.empty()) {
    const Unit* found = nullptr;
    for (const Unit& u : units) {
      if (unit == u.name) found = &u;
    }
    if (!found) {
      throw SqlError(sqlstate::kInvalidParameterValue,
                     fmt::format("invalid value for parameter \"{}\": \"{}\"", def.name, value), {},
                     fmt::format("Valid units for this parameter are {}.", baseName));
    }
    n *= found->factor;
  }
  if (n < 0 || n > max) {
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("{} is outside the valid range for parameter \"{}\" (0 .. {})", n, def.name, max));
  }
  if (n == 0) return "0";
  for (const Unit& u : units) {
    if (n % u.factor == 0) return fmt::format("{}{}", n / u.factor, u.name);
  }
  return std::to_string(n);
}

std::string timeMs(const SettingDef& def, std::string_view value) {
  return withUnits(def, value, {{"d", 86'400'000}, {"h", 3'600'000}, {"min", 60'000}, {"s", 1'000}, {"ms", 1}},
                   "\"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\"", 2'147'483'647);
}

std::string memoryKb(const SettingDef& def, std::string_view value) {
  return withUnits(def, value, {{"TB", 1LL << 30}, {"GB", 1 << 20}, {"MB", 1 << 10}, {"kB", 1}},
                   "\"B\", \"kB\", \"MB\", \"GB\", and \"TB\"", 2'147'483'647);
}

// PostgreSQL bounds it by the stack rlimit; DuetDB by the stack of the thread that runs
// statements (engine/limits/stack_depth.h), which validation runs on.
std::string maxStackDepth(const SettingDef& def, std::string_view value) {
  std::string v = memoryKb(def, value);
  long long kb = parseKb(v);
  if (kb < 100) {
    throw SqlError(
        sqlstate::kInvalidParameterValue,
        fmt::format("{} kB is outside the valid range for parameter \"{}\" (100 .. 2147483647)", kb, def.name));
  }
  if (static_cast<size_t>(kb) > maxStackDepthLimitKb()) {
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("\"max_stack_depth\" must not exceed {}kB.", maxStackDepthLimitKb()), {},
                   "Increase the platform's stack depth limit via \"ulimit -s\" or local equivalent.");
  }
  return v;
}

// PostgreSQL's encoding names (pg_enc2name_tbl) and the aliases it reads (pg_encname_tbl),
// compared as PostgreSQL compares them (clean_encoding_name): case and every character but
// letters and digits ignored, so asyncpg's 'utf-8' with its quotes is UTF8. UTF8 and SQL_ASCII (no
// conversion at all) are the client encodings DuetDB sends; the others it knows as
// PostgreSQL does but cannot convert to (0A000, as PostgreSQL says of a missing conversion).
std::string clientEncoding(const SettingDef& def, std::string_view value) {
  std::string v = lower(trim(value));
  v.erase(std::remove_if(v.begin(), v.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }),
          v.end());
  if (v == "utf8" || v == "unicode") return "UTF8";
  if (v == "sqlascii") return "SQL_ASCII";
  static const std::pair<const char*, const char*> kOthers[] = {
      {"abc", "WIN1258"},
      {"alt", "WIN866"},
      {"big5", "BIG5"},
      {"euccn", "EUC_CN"},
      {"eucjis2004", "EUC_JIS_2004"},
      {"eucjp", "EUC_JP"},
      {"euckr", "EUC_KR"},
      {"euctw", "EUC_TW"},
      {"gb18030", "GB18030"},
      {"gbk", "GBK"},
      {"iso88591", "LATIN1"},
      {"iso885910", "LATIN6"},
      {"iso885913", "LATIN7"},
      {"iso885914", "LATIN8"},
      {"iso885915", "LATIN9"},
      {"iso885916", "LATIN10"},
      {"iso88592", "LATIN2"},
      {"iso88593", "LATIN3"},
      {"iso88594", "LATIN4"},
      {"iso88595", "ISO_8859_5"},
      {"iso88596", "ISO_8859_6"},
      {"iso88597", "ISO_8859_7"},
      {"iso88598", "ISO_8859_8"},
      {"iso88599", "LATIN5"},
      {"johab", "JOHAB"},
      {"koi8", "KOI8R"},
      {"koi8r", "KOI8R"},
      {"koi8u", "KOI8U"},
      {"latin1", "LATIN1"},
      {"latin10", "LATIN10"},
      {"latin2", "LATIN2"},
      {"latin3", "LATIN3"},
      {"latin4", "LATIN4"},
      {"latin5", "LATIN5"},
      {"latin6", "LATIN6"},
      {"latin7", "LATIN7"},
      {"latin8", "LATIN8"},
      {"latin9", "LATIN9"},
      {"mskanji", "SJIS"},
      {"muleinternal", "MULE_INTERNAL"},
      {"shiftjis", "SJIS"},
      {"shiftjis2004", "SHIFT_JIS_2004"},
      {"sjis", "SJIS"},
      {"tcvn", "WIN1258"},
      {"tcvn5712", "WIN1258"},
      {"uhc", "UHC"},
      {"vscii", "WIN1258"},
      {"win", "WIN1251"},
      {"win1250", "WIN1250"},
      {"win1251", "WIN1251"},
      {"win1252", "WIN1252"},
      {"win1253", "WIN1253"},
      {"win1254", "WIN1254"},
      {"win1255", "WIN1255"},
      {"win1256", "WIN1256"},
      {"win1257", "WIN1257"},
      {"win1258", "WIN1258"},
      {"win866", "WIN866"},
      {"win874", "WIN874"},
      {"windows1250", "WIN1250"},
      {"windows1251", "WIN1251"},
      {"windows1252", "WIN1252"},
      {"windows1253", "WIN1253"},
      {"windows1254", "WIN1254"},
      {"windows1255", "WIN1255"},
      {"windows1256", "WIN1256"},
      {"windows1257", "WIN1257"},
      {"windows1258", "WIN1258"},
      {"windows866", "WIN866"},
      {"windows874", "WIN874"},
  };
  for (const auto& [alias, name] : kOthers) {
    if (v == alias) {
      throw SqlError(sqlstate::kFeatureNotSupported,
                     fmt::format("invalid value for parameter \"{}\": \"{}\"", def.name, value),
                     fmt::format("Conversion between {} and UTF8 is not supported.", name));
    }
  }
  invalidValue(def, value);
}

// Only what PostgreSQL has built in: the heap access method, the two tablespaces.
std::string tableAccessMethod(const SettingDef& def, std::string_view value) {
  if (value == "heap") return "heap";
  throw SqlError(sqlstate::kInvalidParameterValue,
                 fmt::format("invalid value for parameter \"{}\": \"{}\"", def.name, value),
                 fmt::format("Table access method \"{}\" does not exist.", value));
}

std::string defaultTablespace(const SettingDef& def, std::string_view value) {
  if (value.empty() || value == "pg_default" || value == "pg_global") return std::string(value);
  throw SqlError(sqlstate::kInvalidParameterValue,
                 fmt::format("invalid value for parameter \"{}\": \"{}\"", def.name, value),
                 fmt::format("Tablespace \"{}\" does not exist.", value));
}

// Kept for old dumps: off is the only value, as in PostgreSQL 12 and later.
std::string defaultWithOids(const SettingDef& def, std::string_view value) {
  if (boolValue(def, value) != "off") {
    throw SqlError(sqlstate::kFeatureNotSupported, "tables declared WITH OIDS are not supported");
  }
  return "off";
}

std::string xmlOption(const SettingDef& def, std::string_view value) {
  return enumValue(def, value, {"content", "document"});
}

// Output is always ISO; the field order only matters for input and is kept as given.
std::string dateStyle(const SettingDef& def, std::string_view value) {
  std::string order = "MDY";
  std::string_view rest = value;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string word = lower(trim(rest.substr(0, comma)));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (word == "iso" || word == "default") {
      // the one output style; "MDY" alone keeps it too, as in PostgreSQL
    } else if (word == "mdy" || word == "us" || word == "noneuropean") {
      order = "MDY";
    } else if (word == "dmy" || word == "european" || word == "euro") {
      order = "DMY";
    } else if (word == "ymd") {
      order = "YMD";
    } else if (word == "postgres" || word == "sql" || word == "german") {
      throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("DateStyle \"{}\" is not supported", trim(value)), {},
                     "Only the ISO output style is implemented.");
    } else {
      invalidValue(def, value, fmt::format("Unrecognized key word: \"{}\".", word));
    }
  }
  return "ISO, " + order;
}

// tz database names, POSIX offsets and numbers of hours, printed as PostgreSQL prints them
// ('america/new_york' shows as America/New_York, 5.5 as <+05:30>-05:30); like PostgreSQL,
// surrounding spaces make a name invalid.
std::string timeZone(const SettingDef& def, std::string_view value) {
  std::optional<ResolvedTimeZone> zone = resolveTimeZoneSetting(value);
  if (!zone) invalidValue(def, value);
  return zone->name;
}

// PostgreSQL's client_message_level_options, matched in any case but, as in PostgreSQL, not
// trimmed. Hidden names are accepted but not offered in the hint; a name shows as the first
// one of its level ("debug" as "debug2").
struct LevelName {
  const char* name;
  MessageLevel level;
  bool hidden;
};
constexpr LevelName kClientMessageLevels[] = {
    {"debug5", MessageLevel::Debug5, false}, {"debug4", MessageLevel::Debug4, false},
    {"debug3", MessageLevel::Debug3, false}, {"debug2", MessageLevel::Debug2, false},
    {"debug1", MessageLevel::Debug1, false}, {"debug", MessageLevel::Debug2, true},
    {"log", MessageLevel::Log, false},       {"info", MessageLevel::Info, true},
    {"notice", MessageLevel::Notice, false}, {"warning", MessageLevel::Warning, false},
    {"error", MessageLevel::Error, false}};

const LevelName* findLevelName(std::string_view name) {
  for (const LevelName& l : kClientMessageLevels) {
    if (name == l.name) return &l;
  }
  return nullptr;
}

std::string clientMinMessages(const SettingDef& def, std::string_view value) {
  if (const LevelName* found = findLevelName(lower(value))) {
    for (const LevelName& l : kClientMessageLevels) {
      if (l.level == found->level) return l.name;
    }
  }
  std::vector<const char*> offered;
  for (const LevelName& l : kClientMessageLevels) {
    if (!l.hidden) offered.push_back(l.name);
  }
  invalidValue(def, value, availableValues(offered));
}

std::string isolation(const SettingDef& def, std::string_view value) {
  return enumValue(def, value, {"serializable", "repeatable read", "read committed", "read uncommitted"});
}

std::string synchronousCommit(const SettingDef& def, std::string_view value) {
  std::string v = lower(trim(value));
  if (v == "local" || v == "remote_write" || v == "remote_apply") return v;
  return boolValue(def, value);
}

std::string intervalStyle(const SettingDef& def, std::string_view value) {
  return enumValue(def, value, {"postgres", "postgres_verbose", "sql_standard", "iso_8601"});
}

std::string byteaOutput(const SettingDef& def, std::string_view value) {
  return enumValue(def, value, {"escape", "hex"});
}

std::string extraFloatDigits(const SettingDef& def, std::string_view value) { return integerIn(def, value, -15, 3); }

std::string tableStorage(const SettingDef& def, std::string_view value) {
  return enumValue(def, value, {"row", "column"});
}

std::string compileTier(const SettingDef& def, std::string_view value) {
  return enumValue(def, value, {"adaptive", "cheap", "optimized"});
}

std::string snapshotRouting(const SettingDef& def, std::string_view value) {
  return enumValue(def, value, {"auto", "always", "never"});
}

std::string rowCount(const SettingDef& def, std::string_view value) { return integerIn(def, value, 0, 2'147'483'647); }

std::string parallelWorkers(const SettingDef& def, std::string_view value) { return integerIn(def, value, 0, 1024); }

}  // namespace

MessageLevel clientMessageLevel(std::string_view value) {
  const LevelName* found = findLevelName(value);
  return found ? found->level : MessageLevel::Notice;  // values are validated when set
}

const std::vector<SettingDef>& settingDefinitions() {
  static const std::vector<SettingDef> defs = [] {
    std::vector<SettingDef> d = {
        {"application_name", "", true, false, nullptr,
         "Sets the application name to be reported in statistics and logs."},
        {"block_size", "8192", false, true, nullptr, "Shows the size of a disk block."},
        {"bytea_output", "hex", false, false, byteaOutput, "Sets the output format for bytea."},
        {"check_function_bodies", "on", false, false, boolValue,
         "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE."},
        {"client_encoding", "UTF8", true, false, clientEncoding, "Sets the client's character set encoding."},
        {"client_min_messages", "notice", false, false, clientMinMessages,
         "Sets the message levels that are sent to the client."},
        {"DateStyle", "ISO, MDY", true, false, dateStyle, "Sets the display format for date and time values."},
        // A DuetDB setting: a dotted name, which PostgreSQL accepts as a custom placeholder,
        // so a script that sets it loads into both (bench/tpcc/schema.sql does).
        {"duet.default_storage", "column", false, false, tableStorage,
         "Sets how CREATE TABLE stores a table that does not say WITH (storage = ...)."},
        {"default_table_access_method", "heap", false, false, tableAccessMethod,
         "Sets the default table access method for new tables."},
        {"default_tablespace", "", false, false, defaultTablespace,
         "Sets the default tablespace to create tables and indexes in."},
        {"default_with_oids", "off", false, false, defaultWithOids,
         "WITH OIDS is no longer supported; this can only be false."},
        {"default_transaction_isolation", "read committed", false, false, isolation,
         "Sets the transaction isolation level of each new transaction."},
        {"default_transaction_read_only", "off", true, false, boolValue,
         "Sets the default read-only status of new transactions."},
        {"duet.compile_tier", "adaptive", false, false, compileTier,
         "Sets which code statements get: adaptive (cheap at once, optimized when ready), cheap or optimized."},
        {"duet.direct_calls", "on", false, false, boolValue,
         "Runs a statement that is one routine call on its parameters without its plan."},
        {"duet.executor_memory_limit", "1GB", false, false, memoryKb,
         "Sets how much memory a statement on the executor may hold, its answer included (0: no limit)."},
        {"duet.max_compile_ms", "1s", false, false, timeMs,
         "Sets how long LLVM may optimise a statement's code; past it the code is finished as it is."},
        // Snapshot routing (docs/snapshots.md): where read-only statements run.
        {"duet.snapshot_max_age", "1s", false, false, timeMs,
         "Sets the oldest snapshot a new read-only query accepts; an older one is forked anew."},
        {"duet.snapshot_memory_limit", "1GB", false, false, memoryKb,
         "Sets how much memory a query on a snapshot may allocate (0: no limit)."},
        {"duet.snapshot_min_rows", "100000", false, false, rowCount,
         "Sets how many rows a read-only query must read to go to a snapshot in auto mode."},
        {"duet.snapshot_routing", "auto", false, false, snapshotRouting,
         "Sends read-only queries to forked snapshots: auto (costly ones), always or never."},
        {"enable_hashjoin", "on", false, false, boolValue, "Enables the planner's use of hash join plans."},
        {"enable_indexscan", "on", false, false, boolValue, "Enables the planner's use of index-scan plans."},
        {"enable_seqscan", "on", false, false, boolValue, "Enables the planner's use of sequential-scan plans."},
        {"escape_string_warning", "on", false, false, boolValue,
         "Warn about backslash escapes in ordinary string literals."},
        {"extra_float_digits", "1", false, false, extraFloatDigits,
         "Sets the number of digits displayed for floating-point values."},
        {"idle_in_transaction_session_timeout", "0", false, false, timeMs,
         "Sets the maximum allowed idle time between queries, when in a transaction."},
        {"in_hot_standby", "off", true, true, nullptr, "Shows whether hot standby is currently active."},
        {"integer_datetimes", "on", true, true, nullptr, "Shows whether datetimes are integer based."},
        {"IntervalStyle", "postgres", true, false, intervalStyle, "Sets the display format for interval values."},
        {"is_superuser", "on", true, true, nullptr, "Shows whether the current user is a superuser."},
        {"jit", "on", false, false, boolValue, "Allow JIT compilation."},
        {"lc_messages", "C", false, false, nullptr, "Sets the language in which messages are displayed."},
        {"lc_monetary", "C", false, false, nullptr, "Sets the locale for formatting monetary amounts."},
        {"lc_numeric", "C", false, false, nullptr, "Sets the locale for formatting numbers."},
        {"lc_time", "C", false, false, nullptr, "Sets the locale for formatting date and time values."},
        {"lock_timeout", "0", false, false, timeMs, "Sets the maximum allowed duration of any wait for a lock."},
        {"maintenance_work_mem", "64MB", false, false, memoryKb,
         "Sets the maximum memory to be used for maintenance operations."},
        {"max_stack_depth", "2MB", false, false, maxStackDepth, "Sets the maximum stack depth, in kilobytes."},
        {"max_parallel_workers_per_gather", "2", false, false, parallelWorkers,
         "Sets the maximum number of parallel processes per executor node."},
        {"max_identifier_length", "63", false, true, nullptr, "Shows the maximum identifier length."},
        {"max_index_keys", "32", false, true, nullptr, "Shows the maximum number of index keys."},
        // PL/pgSQL's own setting (PostgreSQL defines it when the language loads).
        {"plpgsql.check_asserts", "on", false, false, boolValue, "Perform checks given in ASSERT statements."},
        {"plpgsql.print_strict_params", "off", false, false, boolValue,
         "Print information about parameters in the DETAIL portion of the error messages generated on INTO ... STRICT "
         "failures."},
        {"quote_all_identifiers", "off", false, false, boolValue,
         "When generating SQL fragments, quote all identifiers."},
        // SET ROLE and SET SESSION AUTHORIZATION: the session's user is the one role they
        // may name (UtilityStatements checks it against the catalog).
        {"role", "none", false, false, nullptr, "Sets the current role.", true},
        {"row_security", "on", false, false, boolValue, "Enable row security."},
        {"search_path", "\"$user\", public", false, false, searchPathValue,
         "Sets the schema search order for names that are not schema-qualified.", false, true},
        {"server_encoding", "UTF8", true, true, nullptr, "Shows the server (database) character set encoding."},
        {"server_version", "15.0 (DuetDB 0.1)", true, true, nullptr, "Shows the server version."},
        {"server_version_num", "150000", false, true, nullptr, "Shows the server version as an integer."},
        {"session_authorization", "", true, false, nullptr, "Sets the session user name.", true},
        {"synchronize_seqscans", "on", false, false, boolValue, "Enable synchronized sequential scans."},
        {"standard_conforming_strings", "on", true, false, onlyOn,
         "Causes '...' strings to treat backslashes literally."},
        {"statement_timeout", "0", false, false, timeMs, "Sets the maximum allowed duration of any statement."},
        {"synchronous_commit", "on", false, false, synchronousCommit,
         "Sets the current transaction's synchronization level."},
        {"TimeZone", "UTC", true, false, timeZone, "Sets the time zone for displaying and interpreting time stamps."},
        {"transaction_isolation", "read committed", false, false, isolation,
         "Sets the current transaction's isolation level."},
        {"transaction_read_only", "off", false, false, boolValue, "Sets the current transaction's read-only status."},
        {"xmloption", "content", false, false, xmlOption,
         "Sets whether XML data in implicit parsing and serialization operations is to be considered as documents or "
         "content fragments."},
        {"work_mem", "4MB", false, false, memoryKb, "Sets the maximum memory to be used for query workspaces."},
    };
    std::sort(d.begin(), d.end(),
              [](const SettingDef& a, const SettingDef& b) { return lower(a.name) < lower(b.name); });
    return d;
  }();
  return defs;
}

// Every statement looks a setting up (the plan cache key holds search_path): a binary
// search comparing case-insensitively in place, with no lower-cased copies.
const SettingDef* findSetting(std::string_view name) {
  auto fold = [](char c) { return static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); };
  auto less = [&](std::string_view a, std::string_view b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                        [&](char x, char y) { return fold(x) < fold(y); });
  };
  const std::vector<SettingDef>& defs = settingDefinitions();
  auto it = std::lower_bound(defs.begin(), defs.end(), name,
                             [&](const SettingDef& d, std::string_view n) { return less(d.name, n); });
  if (it == defs.end() || less(name, it->name)) return nullptr;
  return &*it;
}

}  // namespace duet
