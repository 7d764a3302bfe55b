#include "engine/types/datetime.h"

#include <cstdio>

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/types/scalar_text.h"
#include "engine/types/time_zone.h"

namespace duet {

namespace {

constexpr int kPostgresEpochJulian = 2451545;  // date2j(2000, 1, 1)
constexpr int32_t kUnixEpochDays = -10957;     // 1970-01-01
// Exclusive upper bounds of the finite ranges, as Julian days (PostgreSQL's DATE_END_JULIAN
// and TIMESTAMP_END_JULIAN); both ranges start at Julian day 0, 4714-11-24 BC.
constexpr int kDateEndJulian = 2147483494;      // date2j(5874898, 1, 1)
constexpr int kTimestampEndJulian = 109203528;  // date2j(294277, 1, 1)

enum class Kind { Date, Timestamp, TimestampTz };

const char* kindName(Kind k) {
  return k == Kind::Date ? "date" : k == Kind::Timestamp ? "timestamp" : "timestamp with time zone";
}

[[noreturn]] void badSyntax(Kind k, std::string_view text) {
  throw SqlError(sqlstate::kInvalidDatetimeFormat,
                 fmt::format("invalid input syntax for type {}: \"{}\"", kindName(k), text));
}

[[noreturn]] void fieldOutOfRange(std::string_view text, bool datestyleHint = false) {
  throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("date/time field value out of range: \"{}\"", text), "",
                 datestyleHint ? "Perhaps you need a different \"datestyle\" setting." : "");
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool isLeapYear(int y) { return (y % 4 == 0) && ((y % 100 != 0) || (y % 400 == 0)); }

int daysInMonth(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && isLeapYear(y) ? 29 : kDays[m - 1];
}

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

struct Parsed {
  enum { Finite, Epoch, PosInf, NegInf } special = Finite;
  int year = 0, month = 0, day = 0;  // year in PostgreSQL's numbering (0 = 1 BC)
  int64_t timeUsecs = 0;             // may reach one day (24:00:00)
  bool hasZone = false;
  int32_t zoneEast = 0;                // seconds east of UTC, for a numeric offset
  std::optional<ZoneReference> named;  // a zone abbreviation or name: its offset depends on the time
};

// Reads a run of digits starting at `i`; returns its length (0: none).
size_t readNumber(std::string_view s, size_t i, int64_t* value) {
  size_t start = i;
  int64_t v = 0;
  while (i < s.size() && isDigit(s[i]) && i - start < 12) v = v * 10 + (s[i++] - '0');
  if (i < s.size() && isDigit(s[i])) return 0;  // absurdly long field
  *value = v;
  return i - start;
}

Parsed parse(std::string_view text, Kind kind) {
  size_t b = 0, e = text.size();
  while (b < e && scalarSpace(text[b])) ++b;
  while (e > b && scalarSpace(text[e - 1])) --e;
  std::string_view s = text.substr(b, e - b);
  Parsed p;
  if (equalsIgnoreCase(s, "epoch"))
    p.special = Parsed::Epoch;
  else if (equalsIgnoreCase(s, "infinity"))
    p.special = Parsed::PosInf;
  else if (equalsIgnoreCase(s, "-infinity"))
    p.special = Parsed::NegInf;
  if (p.special != Parsed::Finite) return p;

  size_t i = 0;
  int64_t y, mo, d;
  size_t ylen = readNumber(s, i, &y);
  if (ylen == 0 || i + ylen >= s.size() || s[i + ylen] != '-') badSyntax(kind, text);
  i += ylen + 1;
  size_t n = readNumber(s, i, &mo);
  if (n == 0 || n > 2 || i + n >= s.size() || s[i + n] != '-') badSyntax(kind, text);
  i += n + 1;
  n = readNumber(s, i, &d);
  if (n == 0 || n > 2) badSyntax(kind, text);
  i += n;

  // Time of day.
  int64_t hour = 0, minute = 0, second = 0, frac = 0;
  bool hasTime = false;
  size_t j = i;
  if (j < s.size() && (s[j] == 'T' || s[j] == 't'))
    ++j;
  else
    while (j < s.size() && scalarSpace(s[j])) ++j;
  if (j > i && j < s.size() && isDigit(s[j])) {
    hasTime = true;
    i = j;
    n = readNumber(s, i, &hour);
    if (n == 0 || n > 2 || i + n >= s.size() || s[i + n] != ':') badSyntax(kind, text);
    i += n + 1;
    n = readNumber(s, i, &minute);
    if (n == 0 || n > 2) badSyntax(kind, text);
    i += n;
    if (i < s.size() && s[i] == ':') {
      n = readNumber(s, ++i, &second);
      if (n == 0 || n > 2) badSyntax(kind, text);
      i += n;
      if (i < s.size() && s[i] == '.') {
        ++i;
        // Microseconds, the seventh digit rounding (half up, as PostgreSQL's rint of
        // the fraction does for these non-negative values).
        int digits = 0;
        int64_t f = 0;
        int roundDigit = 0;
        while (i < s.size() && isDigit(s[i])) {
          if (digits < 6)
            f = f * 10 + (s[i] - '0');
          else if (digits == 6)
            roundDigit = s[i] - '0';
          ++digits;
          ++i;
        }
        for (int k = digits; k < 6; ++k) f *= 10;
        frac = f + (roundDigit >= 5 ? 1 : 0);
      }
    }
  }
  (void)hasTime;

  // Time zone.
  j = i;
  while (j < s.size() && scalarSpace(s[j])) ++j;
  if (j < s.size() && (s[j] == '+' || s[j] == '-')) {
    bool west = s[j] == '-';
    i = j + 1;
    int64_t zh = 0, zm = 0, zs = 0, v;
    n = readNumber(s, i, &v);
    if (n == 0) badSyntax(kind, text);
    i += n;
    if (n <= 2) {
      zh = v;
      if (i < s.size() && s[i] == ':') {
        n = readNumber(s, ++i, &zm);
        if (n != 2) badSyntax(kind, text);
        i += n;
        if (i < s.size() && s[i] == ':') {
          n = readNumber(s, ++i, &zs);
          if (n != 2) badSyntax(kind, text);
          i += n;
        }
      }
    } else if (n == 4) {
      zh = v / 100;
      zm = v % 100;
    } else if (n == 6) {
      zh = v / 10000;
      zm = v / 100 % 100;
      zs = v % 100;
    } else {
      badSyntax(kind, text);
    }
    if (zm > 59 || zs > 59) fieldOutOfRange(text);
    int64_t off = zh * 3600 + zm * 60 + zs;
    if (off > 15 * 3600 + 59 * 60 + 59)
      throw SqlError("22009", fmt::format("time zone displacement out of range: \"{}\"", text));
    p.hasZone = true;
    p.zoneEast = static_cast<int32_t>(west ? -off : off);
  } else if (j < s.size() && isAsciiLetter(s[j])) {
    // A zone abbreviation ('PST', 'z') or name ('Europe/Paris', 'EST5EDT'), as
    // PostgreSQL's ParseDateTime delimits it; 'BC' and 'AD' are the era, read below.
    size_t end = j;
    while (end < s.size() && isAsciiLetter(s[end])) ++end;
    std::string_view word = s.substr(j, end - j);
    bool era = equalsIgnoreCase(word, "bc") || equalsIgnoreCase(word, "ad");
    if (!era && end < s.size() && (isDigit(s[end]) || std::string_view("+-/.").find(s[end]) != std::string_view::npos))
      while (end < s.size() && (isAsciiLetter(s[end]) || isDigit(s[end]) ||
                                std::string_view("+-/_.:").find(s[end]) != std::string_view::npos))
        ++end;
    if (!era) {
      std::string_view name = s.substr(j, end - j);
      p.named = resolveZoneReference(name);
      if (!p.named) {
        if (name.size() == word.size()) badSyntax(kind, text);
        std::string lowered(name);
        for (char& c : lowered) c = lower(c);
        throw SqlError(sqlstate::kInvalidParameterValue, fmt::format("time zone \"{}\" not recognized", lowered));
      }
      p.hasZone = true;
      i = end;
    }
  }

  // Era.
  bool bc = false;
  j = i;
  while (j < s.size() && scalarSpace(s[j])) ++j;
  if (j > i && j + 2 == s.size() && equalsIgnoreCase(s.substr(j), "bc")) {
    bc = true;
    i = s.size();
  } else if (j > i && j + 2 == s.size() && equalsIgnoreCase(s.substr(j), "ad")) {
    i = s.size();
  }
  if (i != s.size()) badSyntax(kind, text);

  // Field ranges. A one- or two-digit year is not ISO: PostgreSQL would read the fields
  // as month-day-year and complain about the month.
  if (ylen <= 2 || mo > 12) fieldOutOfRange(text, true);
  if (y == 0 || mo < 1 || d < 1 || y > 9999999 || d > daysInMonth(int(bc ? 1 - y : y), int(mo))) fieldOutOfRange(text);
  if (hour > 24 || minute > 59 || second > 60) fieldOutOfRange(text);
  int64_t t = ((hour * 60 + minute) * 60 + second) * 1000000 + frac;
  if (t > kUsecsPerDay || (second == 60 && frac > 0)) fieldOutOfRange(text);
  p.year = int(bc ? 1 - y : y);
  p.month = int(mo);
  p.day = int(d);
  p.timeUsecs = t;
  return p;
}

// Local time of a finite parse as microseconds since 2000-01-01, or false when the date
// is outside the timestamp range; with zoneSlack, a day beyond it either way: a
// timestamptz's local date may be, if its zone brings it back in range (PostgreSQL checks
// the UTC value; output in a zone far from UTC prints such dates, and they must read back).
bool localTimestamp(const Parsed& p, int64_t* out, bool zoneSlack = false) {
  int64_t julian = dateToJulian(p.year, p.month, p.day);
  const int slack = zoneSlack ? 1 : 0;
  if (julian < -slack || julian >= kTimestampEndJulian + slack) return false;
  *out = (julian - kPostgresEpochJulian) * kUsecsPerDay + p.timeUsecs;
  return true;
}

bool timestampInRange(int64_t ts) {
  return ts >= -int64_t(kPostgresEpochJulian) * kUsecsPerDay &&
         ts < int64_t(kTimestampEndJulian - kPostgresEpochJulian) * kUsecsPerDay;
}

[[noreturn]] void timestampOutOfRange(std::string_view text) {
  throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("timestamp out of range: \"{}\"", text));
}

[[noreturn]] void timestampOutOfRange() { throw SqlError(sqlstate::kDatetimeFieldOverflow, "timestamp out of range"); }

void appendYmd(int julian, std::string& out, bool* bc) {
  int y, m, d;
  julianToDate(julian, &y, &m, &d);
  *bc = y <= 0;
  fmt::format_to(std::back_inserter(out), "{:04}-{:02}-{:02}", *bc ? 1 - y : y, m, d);
}

void appendTimeOfDay(int64_t usecs, std::string& out) {
  int64_t secs = usecs / 1000000, frac = usecs % 1000000;
  fmt::format_to(std::back_inserter(out), "{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
  if (frac != 0) {
    char buf[16];  // ".%06d" of a value in [1, 999999] is 7 bytes; room for any int
    std::snprintf(buf, sizeof buf, ".%06d", int(frac));
    int len = 7;
    while (buf[len - 1] == '0') --len;  // PostgreSQL trims trailing zeros
    out.append(buf, static_cast<size_t>(len));
  }
}

// "+HH", "+HH:MM" or "+HH:MM:SS" as EncodeTimezone prints it.
void appendZone(int32_t east, std::string& out) {
  int32_t a = east < 0 ? -east : east;
  fmt::format_to(std::back_inserter(out), "{}{:02}", east < 0 ? '-' : '+', a / 3600);
  if (a % 3600 != 0) {
    fmt::format_to(std::back_inserter(out), ":{:02}", a / 60 % 60);
    if (a % 60 != 0) fmt::format_to(std::back_inserter(out), ":{:02}", a % 60);
  }
}

void formatLocal(int64_t local, std::string& out, const int32_t* zoneEast) {
  int64_t days = floorDiv(local, kUsecsPerDay);
  bool bc;
  appendYmd(static_cast<int>(days + kPostgresEpochJulian), out, &bc);
  out.push_back(' ');
  appendTimeOfDay(local - days * kUsecsPerDay, out);
  if (zoneEast) appendZone(*zoneEast, out);
  if (bc) out.append(" BC");
}

}  // namespace

int dateToJulian(int year, int month, int day) {
  int julian, century;
  if (month > 2) {
    month += 1;
    year += 4800;
  } else {
    month += 13;
    year += 4799;
  }
  century = year / 100;
  julian = year * 365 - 32167;
  julian += year / 4 - century + century / 4;
  julian += 7834 * month / 256 + day;
  return julian;
}

void julianToDate(int jd, int* year, int* month, int* day) {
  unsigned int julian = static_cast<unsigned int>(jd), quad, extra;
  int y;
  julian += 32044;
  quad = julian / 146097;
  extra = (julian - quad * 146097) * 4 + 3;
  julian += 60 + quad * 3 + extra / 146097;
  quad = julian / 1461;
  julian -= quad * 1461;
  y = static_cast<int>(julian * 4 / 1461);
  julian = ((y != 0) ? ((julian + 305) % 365) : ((julian + 306) % 366)) + 123;
  y += static_cast<int>(quad * 4);
  *year = y - 4800;
  quad = julian * 2141 / 65536;
  *day = static_cast<int>(julian - 7834 * quad / 256);
  *month = static_cast<int>((quad + 10) % 12 + 1);
}

int32_t parseDate(std::string_view text) {
  Parsed p = parse(text, Kind::Date);
  switch (p.special) {
    case Parsed::Epoch: return kUnixEpochDays;
    case Parsed::PosInf: return kDatePosInfinity;
    case Parsed::NegInf: return kDateNegInfinity;
    case Parsed::Finite: break;
  }
  int64_t julian = dateToJulian(p.year, p.month, p.day);
  if (julian < 0 || julian >= kDateEndJulian)
    throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("date out of range: \"{}\"", text));
  return static_cast<int32_t>(julian - kPostgresEpochJulian);
}

int64_t parseTimestamp(std::string_view text) {
  Parsed p = parse(text, Kind::Timestamp);
  switch (p.special) {
    case Parsed::Epoch: return kUnixEpochDays * kUsecsPerDay;
    case Parsed::PosInf: return kTimestampPosInfinity;
    case Parsed::NegInf: return kTimestampNegInfinity;
    case Parsed::Finite: break;
  }
  int64_t ts;
  if (!localTimestamp(p, &ts) || !timestampInRange(ts)) timestampOutOfRange(text);
  return ts;
}

int64_t parseTimestampTz(std::string_view text, const TypeContext& ctx) {
  Parsed p = parse(text, Kind::TimestampTz);
  switch (p.special) {
    case Parsed::Epoch: return kUnixEpochDays * kUsecsPerDay;
    case Parsed::PosInf: return kTimestampPosInfinity;
    case Parsed::NegInf: return kTimestampNegInfinity;
    case Parsed::Finite: break;
  }
  int64_t local;
  if (!localTimestamp(p, &local, true)) timestampOutOfRange(text);
  int32_t zone = p.named     ? zoneOffsetForLocal(*p.named, floorDiv(local, 1000000) - int64_t(kUnixEpochDays) * 86400)
                 : p.hasZone ? p.zoneEast
                             : sessionOffsetForLocal(ctx, local);
  int64_t ts = local - int64_t(zone) * 1000000;
  if (!timestampInRange(ts)) timestampOutOfRange(text);
  return ts;
}

void formatDate(int32_t days, std::string& out) {
  if (days == kDatePosInfinity) return out.append("infinity"), void();
  if (days == kDateNegInfinity) return out.append("-infinity"), void();
  bool bc;
  appendYmd(days + kPostgresEpochJulian, out, &bc);
  if (bc) out.append(" BC");
}

void formatTimestamp(int64_t ts, std::string& out) {
  if (ts == kTimestampPosInfinity) return out.append("infinity"), void();
  if (ts == kTimestampNegInfinity) return out.append("-infinity"), void();
  formatLocal(ts, out, nullptr);
}

void formatTimestampTz(int64_t ts, std::string& out, const TypeContext& ctx) {
  if (ts == kTimestampPosInfinity) return out.append("infinity"), void();
  if (ts == kTimestampNegInfinity) return out.append("-infinity"), void();
  int32_t zone = sessionOffsetAt(ctx, ts);
  formatLocal(ts + int64_t(zone) * 1000000, out, &zone);
}

int64_t dateToTimestamp(int32_t days) {
  if (days == kDatePosInfinity) return kTimestampPosInfinity;
  if (days == kDateNegInfinity) return kTimestampNegInfinity;
  if (days + int64_t(kPostgresEpochJulian) >= kTimestampEndJulian)
    throw SqlError(sqlstate::kDatetimeFieldOverflow, "date out of range for timestamp");
  return days * kUsecsPerDay;
}

int64_t dateToTimestampTz(int32_t days, const TypeContext& ctx) {
  int64_t local = dateToTimestamp(days);
  if (local == kTimestampPosInfinity || local == kTimestampNegInfinity) return local;
  int64_t ts = local - int64_t(sessionOffsetForLocal(ctx, local)) * 1000000;
  if (!timestampInRange(ts)) throw SqlError(sqlstate::kDatetimeFieldOverflow, "date out of range for timestamp");
  return ts;
}

int32_t timestampToDate(int64_t ts) {
  if (ts == kTimestampPosInfinity) return kDatePosInfinity;
  if (ts == kTimestampNegInfinity) return kDateNegInfinity;
  return static_cast<int32_t>(floorDiv(ts, kUsecsPerDay));
}

int32_t timestampTzToDate(int64_t ts, const TypeContext& ctx) {
  if (ts == kTimestampPosInfinity || ts == kTimestampNegInfinity) return timestampToDate(ts);
  return timestampToDate(ts + int64_t(sessionOffsetAt(ctx, ts)) * 1000000);
}

int64_t timestampToTimestampTz(int64_t ts, const TypeContext& ctx) {
  if (ts == kTimestampPosInfinity || ts == kTimestampNegInfinity) return ts;
  int64_t r = ts - int64_t(sessionOffsetForLocal(ctx, ts)) * 1000000;
  if (!timestampInRange(r)) timestampOutOfRange();
  return r;
}

int64_t timestampTzToTimestamp(int64_t ts, const TypeContext& ctx) {
  if (ts == kTimestampPosInfinity || ts == kTimestampNegInfinity) return ts;
  int64_t r = ts + int64_t(sessionOffsetAt(ctx, ts)) * 1000000;
  if (!timestampInRange(r)) timestampOutOfRange();
  return r;
}

int32_t checkDateRange(int32_t days) {
  if (days != kDatePosInfinity && days != kDateNegInfinity &&
      (days + int64_t(kPostgresEpochJulian) < 0 || days + int64_t(kPostgresEpochJulian) >= kDateEndJulian))
    throw SqlError(sqlstate::kDatetimeFieldOverflow, "date out of range");
  return days;
}

int64_t checkTimestampRange(int64_t usecs) {
  if (usecs != kTimestampPosInfinity && usecs != kTimestampNegInfinity && !timestampInRange(usecs))
    timestampOutOfRange();
  return usecs;
}

int32_t dateAddDays(int32_t days, int64_t n) {
  if (days == kDatePosInfinity || days == kDateNegInfinity) return days;
  int64_t r = int64_t(days) + n;
  if (r + kPostgresEpochJulian < 0 || r + kPostgresEpochJulian >= kDateEndJulian)
    throw SqlError(sqlstate::kDatetimeFieldOverflow, "date out of range");
  return static_cast<int32_t>(r);
}

int32_t dateDiff(int32_t a, int32_t b) {
  if (a == kDatePosInfinity || a == kDateNegInfinity || b == kDatePosInfinity || b == kDateNegInfinity)
    throw SqlError(sqlstate::kDatetimeFieldOverflow, "cannot subtract infinite dates");
  return a - b;
}

bool parseTimeZoneSetting(std::string_view text, int32_t* offsetSecondsEast) {
  // 'UTC0' is a POSIX zone, not a tz database file ('GMT0' is one).
  if (equalsIgnoreCase(text, "utc0")) {
    *offsetSecondsEast = 0;
    return true;
  }
  // POSIX "UTC+3" / "GMT-05:30": the offset counts hours west of Greenwich.
  if (text.size() > 4 && (equalsIgnoreCase(text.substr(0, 3), "utc") || equalsIgnoreCase(text.substr(0, 3), "gmt")) &&
      (text[3] == '+' || text[3] == '-')) {
    std::string_view num = text.substr(4);
    int64_t h = 0, m = 0;
    size_t n = readNumber(num, 0, &h);
    if (n == 0 || n > 2) return false;
    if (n < num.size()) {
      if (num[n] != ':') return false;
      size_t k = readNumber(num, n + 1, &m);
      if (k != 2 || n + 1 + k != num.size() || m > 59) return false;
    }
    if (h > 15) return false;
    int32_t west = static_cast<int32_t>(h * 3600 + m * 60);
    *offsetSecondsEast = text[3] == '+' ? -west : west;
    return true;
  }
  return false;
}

int32_t timeZoneFromHoursEast(double hours) { return static_cast<int32_t>(hours * 3600 + (hours < 0 ? -0.5 : 0.5)); }

}  // namespace duet
