#include "engine/types/time_zone.h"

#include <pthread.h>

#include <date/tz.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/types/posix_tz_rule.h"
#include "engine/types/time_zone_abbreviations.h"

namespace duet {

namespace {

// Where the date library (built with USE_OS_TZDB) and PostgreSQL's Debian build
// (--with-system-tzdata) both read the zones from.
constexpr const char* kZoneInfoDir = "/usr/share/zoneinfo/";

constexpr int64_t kSecondsPerDay = 86400;
// 2000-01-01 (PostgreSQL's timestamp epoch) in Unix seconds.
constexpr int64_t kPostgresEpochUnixSeconds = 946684800;
// The tz database lists transitions up to 2037 and describes the years after by the POSIX
// rule in the file's footer. That rule repeats every 400 Gregorian years (146097 days, a
// whole number of weeks), so instants from 2400 on are folded back into [2400, 2800):
// this keeps the date library's year arithmetic (years up to 32767) valid for PostgreSQL's
// timestamps, which reach the year 294276.
constexpr int64_t kFoldStart = 13569465600;  // 2400-01-01 in Unix seconds
constexpr int64_t kFourHundredYears = 146097 * kSecondsPerDay;
// The earliest timestamp PostgreSQL has (4714-11-24 BC), in Unix seconds.
constexpr int64_t kEarliestTimestamp = -210866803200;

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

std::string lowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The POSIX TZ rule a TZif version 2+ file ends with ("\nEST5EDT,M3.2.0,M11.1.0\n"): it
// gives the offsets after the file's last transition, which the date library ignores.
// Empty when the file has none.
std::string readTzifFooter(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.size() < 6 || data.compare(0, 4, "TZif") != 0 || data[4] < '2' || data.back() != '\n') return {};
  size_t start = data.rfind('\n', data.size() - 2);
  if (start == std::string::npos) return {};
  return data.substr(start + 1, data.size() - start - 2);
}

// The interval of constant offset that contains an instant.
struct OffsetInterval {
  int32_t offsetEast;
  int64_t end;  // the next transition, Unix seconds
};

}  // namespace

class NamedTimeZone {
 public:
  NamedTimeZone(const date::time_zone* rules, std::unique_ptr<PosixTzRule> footer)
      : rules_(rules), footer_(std::move(footer)) {}

  OffsetInterval at(int64_t unixSeconds) const {
    int64_t shift = 0;
    if (unixSeconds >= kFoldStart) {
      shift = (unixSeconds - kFoldStart) / kFourHundredYears * kFourHundredYears;
      unixSeconds -= shift;
    }
    date::sys_seconds t{std::chrono::seconds{unixSeconds}};
    date::sys_info info = rules_->get_info(t);
    int64_t end = info.end.time_since_epoch().count();
    int32_t offset = static_cast<int32_t>(info.offset.count());
    if (end >= kFoldStart && footer_) {  // past the last listed transition
      PosixTzRule::Interval rule = footer_->at(unixSeconds);
      offset = rule.offsetEast;
      end = rule.end;
    }
    return {offset, end + shift};
  }

  // The abbreviation in effect at an instant. Past the listed transitions, those of the
  // last listed one (the footer's rule keeps no names here).
  std::string abbreviationAt(int64_t unixSeconds) const {
    if (unixSeconds >= kFoldStart) unixSeconds = kFoldStart - 1;
    return rules_->get_info(date::sys_seconds{std::chrono::seconds{unixSeconds}}).abbrev;
  }

  // pg_interpret_timezone_abbrev: the offset of the latest interval at or before the
  // instant that the zone called `abbreviation`, else of the earliest one after it;
  // nothing when the zone's listed intervals never use that name.
  std::optional<int32_t> abbreviationOffset(std::string_view abbreviation, int64_t unixSeconds) const {
    auto infoAt = [&](int64_t t) { return rules_->get_info(date::sys_seconds{std::chrono::seconds{t}}); };
    int64_t t = std::min(unixSeconds, kFoldStart - 1);
    for (date::sys_info info = infoAt(t);; info = infoAt(info.begin.time_since_epoch().count() - 1)) {
      if (info.abbrev == abbreviation) return static_cast<int32_t>(info.offset.count());
      if (info.begin.time_since_epoch().count() <= kEarliestTimestamp) break;
    }
    for (date::sys_info info = infoAt(t); info.end.time_since_epoch().count() < kFoldStart;) {
      info = infoAt(info.end.time_since_epoch().count());
      if (info.abbrev == abbreviation) return static_cast<int32_t>(info.offset.count());
    }
    return std::nullopt;
  }

  // True when one offset covers every timestamp PostgreSQL can represent.
  bool isFixed() const {
    return !footerHasRules() && rules_->get_info(date::sys_seconds{std::chrono::seconds{kEarliestTimestamp}})
                                        .end.time_since_epoch()
                                        .count() >= kFoldStart;
  }

 private:
  bool footerHasRules() const { return footer_ && footer_->at(kFoldStart).end < kFoldStart + kFourHundredYears; }

  const date::time_zone* rules_;
  std::unique_ptr<PosixTzRule> footer_;  // null: the last listed offset holds for ever
};

int32_t utcOffsetAt(const NamedTimeZone& zone, int64_t unixSeconds) { return zone.at(unixSeconds).offsetEast; }

// PostgreSQL's DetermineTimeZoneOffset: find the first transition after the wall time
// read as UTC minus a day (offsets are under a day, transitions over two days apart), and
// compare both readings of the wall time with it.
int32_t utcOffsetForLocal(const NamedTimeZone& zone, int64_t local) {
  OffsetInterval before = zone.at(local - kSecondsPerDay);
  if (before.end > local + kSecondsPerDay) return before.offsetEast;  // no transition near
  int64_t boundary = before.end;
  int32_t after = zone.at(boundary).offsetEast;
  int64_t beforeTime = local - before.offsetEast, afterTime = local - after;
  if (beforeTime < boundary && afterTime < boundary) return before.offsetEast;
  if (beforeTime > boundary && afterTime >= boundary) return after;
  // The transition skips this wall time (spring forward: the "before" reading is the later
  // instant) or repeats it (fall back): PostgreSQL takes the "before" offset in the first
  // case and the "after" offset in the second.
  return beforeTime > afterTime ? before.offsetEast : after;
}

int32_t sessionOffsetAt(const TypeContext& ctx, int64_t utcMicros) {
  if (!ctx.namedZone) return ctx.timeZoneOffsetSeconds;
  return utcOffsetAt(*ctx.namedZone, floorDiv(utcMicros, 1000000) + kPostgresEpochUnixSeconds);
}

int32_t sessionOffsetForLocal(const TypeContext& ctx, int64_t localMicros) {
  if (!ctx.namedZone) return ctx.timeZoneOffsetSeconds;
  return utcOffsetForLocal(*ctx.namedZone, floorDiv(localMicros, 1000000) + kPostgresEpochUnixSeconds);
}

std::string sessionZoneAbbreviation(const TypeContext& ctx, int64_t utcMicros) {
  if (ctx.namedZone) return ctx.namedZone->abbreviationAt(floorDiv(utcMicros, 1000000) + kPostgresEpochUnixSeconds);
  if (!ctx.fixedZoneAbbreviation.empty()) return std::string(ctx.fixedZoneAbbreviation);
  int32_t offset = ctx.timeZoneOffsetSeconds;
  if (offset == 0) return "UTC";
  int32_t a = offset < 0 ? -offset : offset;
  std::string s = fmt::format("{}{:02}", offset < 0 ? '-' : '+', a / 3600);
  if (a % 3600) s += fmt::format(":{:02}", a % 3600 / 60);
  return s;
}

namespace {

// The tz database's zones by lower-case name, built on first use (reading the zone list
// takes milliseconds; each zone's transitions are loaded when first asked for).
const std::map<std::string, const date::time_zone*>& zonesByLowerName() {
  static const auto* index = [] {
    auto* m = new std::map<std::string, const date::time_zone*>;
    for (const date::time_zone& z : date::get_tzdb().zones) (*m)[lowerAscii(z.name())] = &z;
    return m;
  }();
  return *index;
}

// Abbreviations of fixed zones, kept for the process's life (TypeContext holds views of
// them); guarded by resolveCached's mutex.
std::string_view intern(std::string s) {
  static std::set<std::string> strings;
  return *strings.insert(std::move(s)).first;
}

// A fixed offset east as pg_tzset_offset names it: "<+05:30>-05:30", abbreviation "+05:30".
ResolvedTimeZone offsetZone(int32_t east) {
  int32_t a = east < 0 ? -east : east;
  std::string offset = fmt::format("{:02}", a / 3600);
  if (a % 3600 != 0) {
    offset += fmt::format(":{:02}", a % 3600 / 60);
    if (a % 60 != 0) offset += fmt::format(":{:02}", a % 60);
  }
  ResolvedTimeZone r;
  r.fixedOffsetEast = east;
  r.name = east < 0 ? fmt::format("<-{}>+{}", offset, offset) : fmt::format("<+{}>-{}", offset, offset);
  r.abbreviation = intern((east < 0 ? "-" : "+") + offset);
  return r;
}

// check_timezone's numeric hours east ('5.5', '+05'), or the name offsetZone gives them
// (which the setting holds, and PostgreSQL reads back as a POSIX zone).
std::optional<ResolvedTimeZone> resolveNumericHours(std::string_view value) {
  if (value.size() > 3 && value[0] == '<' && (value[1] == '+' || value[1] == '-')) {
    // <+hh[:mm[:ss]]>-hh[:mm[:ss]], exactly as offsetZone spells it.
    int32_t fields[3] = {0, 0, 0};
    size_t i = 2;
    for (int f = 0; f < 3 && i < value.size() && value[i] != '>'; ++f) {
      if (f > 0 && value[i++] != ':') return std::nullopt;
      size_t start = i;
      while (i < value.size() && i - start < 3 && value[i] >= '0' && value[i] <= '9')
        fields[f] = fields[f] * 10 + (value[i++] - '0');
      if (i == start) return std::nullopt;
    }
    int32_t seconds = fields[0] * 3600 + fields[1] * 60 + fields[2];
    ResolvedTimeZone r = offsetZone(value[1] == '-' ? -seconds : seconds);
    if (r.name != value || seconds >= 168 * 3600) return std::nullopt;
    return r;
  }
  std::string text(value);
  char* end = nullptr;
  double hours = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') return std::nullopt;
  if (!(std::fabs(hours) < 168)) return std::nullopt;     // "UTC timezone offset is out of range"
  return offsetZone(static_cast<int32_t>(hours * 3600));  // truncated, as PostgreSQL's long
}

std::optional<ResolvedTimeZone> resolveUncached(std::string_view setting) {
  std::string key = lowerAscii(setting);
  const auto& zones = zonesByLowerName();
  // PostgreSQL also finds the copies under posix/ (the same data, printed with the prefix)
  // and refuses those under right/, which count leap seconds.
  std::string prefix;
  std::string_view rest = key;
  if (key.rfind("posix/", 0) == 0) {
    prefix = "posix/";
    rest.remove_prefix(prefix.size());
  } else if (key.rfind("right/", 0) == 0 && zones.count(std::string(rest.substr(6)))) {
    throw SqlError(sqlstate::kInvalidParameterValue,
                   fmt::format("time zone \"{}\" appears to use leap seconds", setting),
                   "PostgreSQL does not support leap seconds.");
  }
  auto it = zones.find(std::string(rest));
  if (it != zones.end()) {
    const date::time_zone* rules = it->second;
    // A footer the POSIX parser cannot read leaves the last listed offset in force, as
    // the date library alone would.
    std::string rule = readTzifFooter(kZoneInfoDir + rules->name());
    auto zone = std::make_unique<NamedTimeZone>(rules, rule.empty() ? nullptr : PosixTzRule::parse(rule));
    ResolvedTimeZone r;
    r.name = prefix + rules->name();
    if (zone->isFixed()) {
      r.fixedOffsetEast = utcOffsetAt(*zone, 0);
      r.abbreviation = intern(zone->abbreviationAt(0));
    } else {
      // Kept for the life of the process: sessions hold the pointer in their TypeContext.
      static std::vector<std::unique_ptr<NamedTimeZone>> loaded;  // guarded by resolveTimeZone's mutex
      r.zone = zone.get();
      loaded.push_back(std::move(zone));
    }
    return r;
  }
  int32_t offset = 0;
  if (!parseTimeZoneSetting(setting, &offset)) return std::nullopt;
  ResolvedTimeZone r;
  r.name = std::string(setting);
  for (char& c : r.name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  r.fixedOffsetEast = offset;
  r.abbreviation = intern(r.name.substr(0, 3));  // UTC or GMT
  return r;
}

// Resolves and caches zones: the TimeZone setting's numeric hours only when `setting`.
std::optional<ResolvedTimeZone> resolveCached(std::string_view text, bool setting) {
  // Sessions on the network threads (startup parameters) and the executor resolve zones.
  // Only valid names are cached, by lower-case spelling, so the cache stays as small as the
  // set of zones in use and each zone's rules are loaded once.
  static std::mutex mutex;
  static std::map<std::string, ResolvedTimeZone> cache;
  // A snapshot process (fork() from the executor) resolves zones too: the mutex is taken
  // around fork() so that no other thread holds it in the child's copy.
  static bool forkSafe = [] {
    pthread_atfork([] { mutex.lock(); }, [] { mutex.unlock(); }, [] { mutex.unlock(); });
    return true;
  }();
  (void)forkSafe;
  std::lock_guard<std::mutex> lock(mutex);
  if (setting)
    if (std::optional<ResolvedTimeZone> r = resolveNumericHours(text)) return r;
  std::string key = lowerAscii(text);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  std::optional<ResolvedTimeZone> r = resolveUncached(text);
  if (r) cache.emplace(std::move(key), *r);
  return r;
}

}  // namespace

std::optional<ResolvedTimeZone> resolveTimeZone(std::string_view name) { return resolveCached(name, false); }

std::optional<ResolvedTimeZone> resolveTimeZoneSetting(std::string_view value) { return resolveCached(value, true); }

std::optional<ZoneReference> resolveZoneReference(std::string_view name) {
  ZoneReference r;
  std::string_view zoneName = name;
  if (const TimeZoneAbbreviation* a = findTimeZoneAbbreviation(name)) {
    if (a->zone.empty()) {
      r.fixedOffsetEast = a->offsetEast;
      return r;
    }
    r.abbreviation = a->name;
    zoneName = a->zone;
  }
  std::optional<ResolvedTimeZone> zone = resolveTimeZone(zoneName);
  if (!zone) return std::nullopt;
  r.fixedOffsetEast = zone->fixedOffsetEast;
  r.zone = zone->zone;
  return r;
}

int32_t zoneOffsetAt(const ZoneReference& zone, int64_t unixSeconds) {
  if (!zone.zone) return zone.fixedOffsetEast;
  int32_t offset = utcOffsetAt(*zone.zone, unixSeconds);
  if (zone.abbreviation.empty()) return offset;
  return zone.zone->abbreviationOffset(zone.abbreviation, unixSeconds).value_or(offset);
}

// DetermineTimeZoneAbbrevOffset: the abbreviation's meaning at the instant the zone itself
// gives the wall-clock time, else the zone's own offset for it.
int32_t zoneOffsetForLocal(const ZoneReference& zone, int64_t localUnixSeconds) {
  if (!zone.zone) return zone.fixedOffsetEast;
  int32_t offset = utcOffsetForLocal(*zone.zone, localUnixSeconds);
  if (zone.abbreviation.empty()) return offset;
  return zone.zone->abbreviationOffset(zone.abbreviation, localUnixSeconds - offset).value_or(offset);
}

}  // namespace duet
