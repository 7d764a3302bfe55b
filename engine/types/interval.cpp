// interval input, output, typmods, ordering and arithmetic, following PostgreSQL 15's
// datetime.c (ParseDateTime, DecodeInterval, DecodeISO8601Interval, EncodeInterval) and
// timestamp.c (interval_cmp_value, interval_mul, interval_div, the justify functions).
#include "engine/types/interval.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "engine/error.h"
#include "engine/types/hash.h"

namespace duet {

namespace {

using namespace interval_field;

constexpr int64_t kUsecsPerSec = 1000000;
constexpr int64_t kUsecsPerMinute = 60 * kUsecsPerSec;
constexpr int64_t kUsecsPerHour = 60 * kUsecsPerMinute;
constexpr int64_t kUsecsPerDay = 24 * kUsecsPerHour;

// DecodeInterval's outcomes (DTERR_*).
enum class Err { None, BadFormat, FieldOverflow };

// The field kinds of ParseDateTime.
enum class Tok { Number, Time, Date, Signed, String, Special };

// Units of deltatktbl (DecodeUnits).
enum class Unit { None, Microsec, Millisec, Second, Minute, Hour, Day, Week, Month, Year, Decade, Century, Millennium };

struct UnitName {
  const char* name;
  Unit unit;
};
constexpr UnitName kUnits[] = {
    {"c", Unit::Century},
    {"cent", Unit::Century},
    {"centuries", Unit::Century},
    {"century", Unit::Century},
    {"d", Unit::Day},
    {"day", Unit::Day},
    {"days", Unit::Day},
    {"dec", Unit::Decade},
    {"decade", Unit::Decade},
    {"decades", Unit::Decade},
    {"decs", Unit::Decade},
    {"h", Unit::Hour},
    {"hour", Unit::Hour},
    {"hours", Unit::Hour},
    {"hr", Unit::Hour},
    {"hrs", Unit::Hour},
    {"m", Unit::Minute},
    {"microsecon", Unit::Microsec},
    {"mil", Unit::Millennium},
    {"millennia", Unit::Millennium},
    {"millennium", Unit::Millennium},
    {"millisecon", Unit::Millisec},
    {"mils", Unit::Millennium},
    {"min", Unit::Minute},
    {"mins", Unit::Minute},
    {"minute", Unit::Minute},
    {"minutes", Unit::Minute},
    {"mon", Unit::Month},
    {"mons", Unit::Month},
    {"month", Unit::Month},
    {"months", Unit::Month},
    {"ms", Unit::Millisec},
    {"msec", Unit::Millisec},
    {"msecond", Unit::Millisec},
    {"mseconds", Unit::Millisec},
    {"msecs", Unit::Millisec},
    {"s", Unit::Second},
    {"sec", Unit::Second},
    {"second", Unit::Second},
    {"seconds", Unit::Second},
    {"secs", Unit::Second},
    {"us", Unit::Microsec},
    {"usec", Unit::Microsec},
    {"usecond", Unit::Microsec},
    {"useconds", Unit::Microsec},
    {"usecs", Unit::Microsec},
    {"w", Unit::Week},
    {"week", Unit::Week},
    {"weeks", Unit::Week},
    {"y", Unit::Year},
    {"year", Unit::Year},
    {"years", Unit::Year},
    {"yr", Unit::Year},
    {"yrs", Unit::Year},
};

Unit findUnit(std::string_view word) {
  if (word.size() > 10) word = word.substr(0, 10);  // TOKMAXLEN
  for (const UnitName& u : kUnits)
    if (word == u.name) return u.unit;
  return Unit::None;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool isAlnum(char c) { return isDigit(c) || isAlpha(c); }
char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }
bool isPunct(char c) { return c > ' ' && c < 0x7f && !isAlnum(c); }

struct Field {
  std::string text;
  Tok kind;
};

// ParseDateTime's split of the input into fields (only what DecodeInterval reads).
Err tokenize(std::string_view s, std::vector<Field>& fields) {
  size_t i = 0, n = s.size();
  auto at = [&](size_t k) { return k < n ? s[k] : '\0'; };
  while (i < n) {
    char c = s[i];
    if (isSpace(c)) {
      ++i;
      continue;
    }
    Field f;
    if (isDigit(c)) {
      while (isDigit(at(i))) f.text += s[i++];
      if (at(i) == ':') {
        f.kind = Tok::Time;
        while (isDigit(at(i)) || at(i) == ':' || at(i) == '.') f.text += s[i++];
      } else if (at(i) == '-' || at(i) == '/' || at(i) == '.') {
        char delim = s[i];
        f.text += s[i++];
        if (isDigit(at(i))) {
          f.kind = delim == '.' ? Tok::Number : Tok::Date;
          while (isDigit(at(i))) f.text += s[i++];
          if (at(i) == delim) {
            f.kind = Tok::Date;
            while (isDigit(at(i)) || at(i) == delim) f.text += s[i++];
          }
        } else {
          f.kind = Tok::Date;
          while (isAlnum(at(i)) || at(i) == delim) f.text += lower(s[i++]);
        }
      } else {
        f.kind = Tok::Number;
      }
    } else if (c == '.') {
      f.text += s[i++];
      while (isDigit(at(i))) f.text += s[i++];
      f.kind = Tok::Number;
    } else if (isAlpha(c)) {
      f.kind = Tok::String;
      while (isAlpha(at(i))) f.text += lower(s[i++]);
      bool isDate = at(i) == '-' || at(i) == '/' || at(i) == '.';
      // A word followed by a digit or '+' is a date or zone name unless it is a keyword.
      if (!isDate && (at(i) == '+' || isDigit(at(i))))
        isDate = findUnit(f.text) == Unit::None && f.text != "ago" && f.text != "epoch" && f.text != "infinity";
      if (isDate) {
        f.kind = Tok::Date;
        do {
          f.text += lower(s[i++]);
        } while (at(i) == '+' || at(i) == '-' || at(i) == '/' || at(i) == '_' || at(i) == '.' || at(i) == ':' ||
                 isAlnum(at(i)));
      }
    } else if (c == '+' || c == '-') {
      f.text += s[i++];
      while (isSpace(at(i))) ++i;
      if (isDigit(at(i))) {
        f.kind = Tok::Signed;
        f.text += s[i++];
        while (isDigit(at(i)) || at(i) == ':' || at(i) == '.' || at(i) == '-') f.text += s[i++];
      } else if (isAlpha(at(i))) {
        f.kind = Tok::Special;
        while (isAlpha(at(i))) f.text += lower(s[i++]);
      } else {
        return Err::BadFormat;
      }
    } else if (isPunct(c)) {
      ++i;
      continue;
    } else {
      return Err::BadFormat;
    }
    fields.push_back(std::move(f));
  }
  return Err::None;
}

// pg_itm_in: the fields as DecodeInterval accumulates them.
struct Accum {
  int64_t usec = 0;
  int32_t day = 0, mon = 0, year = 0;
};

bool addOverflows64(int64_t a, int64_t b, int64_t* r) { return __builtin_add_overflow(a, b, r); }

// int64_multiply_add: *sum += val * multiplier.
bool multiplyAdd(int64_t val, int64_t multiplier, int64_t* sum) {
  int64_t product;
  return !__builtin_mul_overflow(val, multiplier, &product) && !__builtin_add_overflow(*sum, product, sum);
}

bool adjustFractMicroseconds(double frac, int64_t scale, Accum& a) {
  if (frac == 0) return true;
  frac *= static_cast<double>(scale);
  auto usec = static_cast<int64_t>(frac);
  frac -= static_cast<double>(usec);
  if (frac > 0.5)
    ++usec;
  else if (frac < -0.5)
    --usec;
  return !addOverflows64(a.usec, usec, &a.usec);
}

bool adjustFractDays(double frac, int scale, Accum& a) {
  if (frac == 0) return true;
  frac *= scale;
  int extraDays = static_cast<int>(frac);
  if (__builtin_add_overflow(a.day, extraDays, &a.day)) return false;
  frac -= extraDays;
  return adjustFractMicroseconds(frac, kUsecsPerDay, a);
}

bool adjustFractYears(double frac, int scale, Accum& a) {
  int extraMonths = static_cast<int>(std::rint(frac * scale * 12));
  return !__builtin_add_overflow(a.mon, extraMonths, &a.mon);
}

bool adjustMicroseconds(int64_t val, double fval, int64_t scale, Accum& a) {
  return multiplyAdd(val, scale, &a.usec) && adjustFractMicroseconds(fval, scale, a);
}

bool adjustDays(int64_t val, int scale, Accum& a) {
  int32_t days;
  if (val < INT32_MIN || val > INT32_MAX) return false;
  return !__builtin_mul_overflow(static_cast<int32_t>(val), scale, &days) &&
         !__builtin_add_overflow(a.day, days, &a.day);
}

bool adjustMonths(int64_t val, Accum& a) {
  if (val < INT32_MIN || val > INT32_MAX) return false;
  return !__builtin_add_overflow(a.mon, static_cast<int32_t>(val), &a.mon);
}

bool adjustYears(int64_t val, int scale, Accum& a) {
  int32_t years;
  if (val < INT32_MIN || val > INT32_MAX) return false;
  return !__builtin_mul_overflow(static_cast<int32_t>(val), scale, &years) &&
         !__builtin_add_overflow(a.year, years, &a.year);
}

// strtoll with C's rules (leading sign, ERANGE); returns the end.
const char* readInt64(const char* p, int64_t* v, bool* overflow) {
  errno = 0;
  char* end;
  long long r = std::strtoll(p, &end, 10);
  *overflow = errno == ERANGE;
  *v = r;
  return end;
}

// ParseFraction: ".123" (or ".") to a double; the whole rest must be the fraction.
Err parseFraction(const char* cp, double* frac) {
  if (*cp != '.') return Err::BadFormat;
  if (cp[1] == '\0') {
    *frac = 0;
    return Err::None;
  }
  errno = 0;
  char* end;
  *frac = std::strtod(cp, &end);
  if (errno != 0 || *end != '\0') return Err::BadFormat;
  return Err::None;
}

// DecodeTimeForInterval: "h:m[:s[.f]]" (or "m:s.f", and "m:s" for MINUTE TO SECOND).
Err decodeTime(const std::string& str, int range, Accum& a) {
  const char* cp = str.c_str();
  int64_t hour, min, sec = 0, fsec = 0;
  bool overflow;
  cp = readInt64(cp, &hour, &overflow);
  if (overflow) return Err::FieldOverflow;
  if (*cp != ':') return Err::BadFormat;
  cp = readInt64(cp + 1, &min, &overflow);
  if (overflow || min > INT32_MAX || min < INT32_MIN) return Err::FieldOverflow;
  auto fraction = [&](const char* p) -> Err {
    double frac;
    Err e = parseFraction(p, &frac);
    if (e != Err::None) return e;
    fsec = static_cast<int64_t>(std::rint(frac * 1000000));
    return Err::None;
  };
  if (*cp == '\0') {
    if (range == (kMinute | kSecond)) {
      if (hour > INT32_MAX || hour < INT32_MIN) return Err::FieldOverflow;
      sec = min;
      min = hour;
      hour = 0;
    }
  } else if (*cp == '.') {
    if (Err e = fraction(cp); e != Err::None) return e;
    if (hour > INT32_MAX || hour < INT32_MIN) return Err::FieldOverflow;
    sec = min;
    min = hour;
    hour = 0;
  } else if (*cp == ':') {
    cp = readInt64(cp + 1, &sec, &overflow);
    if (overflow || sec > INT32_MAX || sec < INT32_MIN) return Err::FieldOverflow;
    if (*cp == '.') {
      if (Err e = fraction(cp); e != Err::None) return e;
    } else if (*cp != '\0') {
      return Err::BadFormat;
    }
  } else {
    return Err::BadFormat;
  }
  if (hour < 0 || min < 0 || min > 59 || sec < 0 || sec > 60 || fsec < 0 || fsec > kUsecsPerSec)
    return Err::FieldOverflow;
  a.usec = fsec;
  if (!multiplyAdd(hour, kUsecsPerHour, &a.usec) || !multiplyAdd(min, kUsecsPerMinute, &a.usec) ||
      !multiplyAdd(sec, kUsecsPerSec, &a.usec))
    return Err::FieldOverflow;
  return Err::None;
}

// The field mask bits DecodeInterval uses to refuse a unit given twice (DTK_M).
enum : int {
  kMYear = 1 << 0,
  kMMonth = 1 << 1,
  kMDay = 1 << 2,
  kMHour = 1 << 3,
  kMMinute = 1 << 4,
  kMSecond = 1 << 5,
  kMMillisec = 1 << 6,
  kMMicrosec = 1 << 7,
  kMWeek = 1 << 8,
  kMDecade = 1 << 9,
  kMCentury = 1 << 10,
  kMMillennium = 1 << 11,
  kMAllSecs = kMSecond | kMMillisec | kMMicrosec,
  kMTime = kMHour | kMMinute | kMAllSecs,
};

Unit defaultUnit(int range) {
  switch (range) {
    case kYear: return Unit::Year;
    case kMonth:
    case kYear | kMonth: return Unit::Month;
    case kDay: return Unit::Day;
    case kHour:
    case kDay | kHour: return Unit::Hour;
    case kMinute:
    case kHour | kMinute:
    case kDay | kHour | kMinute: return Unit::Minute;
    default: return Unit::Second;
  }
}

Err decodeInterval(const std::vector<Field>& fields, int range, Accum& a) {
  int fmask = 0;
  bool isBefore = false;
  bool typeSet = false;
  Unit type = Unit::Second;
  for (size_t k = fields.size(); k-- > 0;) {
    const Field& f = fields[k];
    int tmask = 0;
    Tok kind = f.kind;
    if (kind == Tok::Time) {
      if (Err e = decodeTime(f.text, range, a); e != Err::None) return e;
      tmask = kMTime;
      type = Unit::Day;
      typeSet = true;
    } else if (kind == Tok::Signed && f.text.find(':', 1) != std::string::npos) {
      Accum saved = a;
      if (decodeTime(f.text.substr(1), range, a) == Err::None) {
        if (f.text[0] == '-') {
          if (a.usec == INT64_MIN) return Err::FieldOverflow;
          a.usec = -a.usec;
        }
        tmask = kMTime;
        type = Unit::Day;
        typeSet = true;
        kind = Tok::Time;  // done: not a number below
      } else {
        a = saved;
        kind = Tok::Number;
      }
    }
    if (kind == Tok::Signed || kind == Tok::Date || kind == Tok::Number) {
      if (!typeSet) type = defaultUnit(range);
      typeSet = true;
      int64_t val;
      bool overflow;
      const char* start = f.text.c_str();
      const char* cp = readInt64(start, &val, &overflow);
      if (overflow) return Err::FieldOverflow;
      double fval = 0;
      if (*cp == '-') {  // SQL "years-months"
        int64_t val2;
        cp = readInt64(cp + 1, &val2, &overflow);
        if (overflow || val2 < 0 || val2 >= 12) return Err::FieldOverflow;
        if (*cp != '\0') return Err::BadFormat;
        type = Unit::Month;
        if (*start == '-') val2 = -val2;
        if (val > INT32_MAX || val < INT32_MIN) return Err::FieldOverflow;
        int32_t months;
        if (__builtin_mul_overflow(static_cast<int32_t>(val), 12, &months) ||
            __builtin_add_overflow(months, static_cast<int32_t>(val2), &months))
          return Err::FieldOverflow;
        val = months;
      } else if (*cp == '.') {
        if (Err e = parseFraction(cp, &fval); e != Err::None) return e;
        if (*start == '-') fval = -fval;
      } else if (*cp != '\0') {
        return Err::BadFormat;
      }
      bool ok = true;
      switch (type) {
        case Unit::Microsec: ok = adjustMicroseconds(val, fval, 1, a), tmask = kMMicrosec; break;
        case Unit::Millisec: ok = adjustMicroseconds(val, fval, 1000, a), tmask = kMMillisec; break;
        case Unit::Second:
          ok = adjustMicroseconds(val, fval, kUsecsPerSec, a);
          tmask = fval == 0 ? kMSecond : kMAllSecs;
          break;
        case Unit::Minute: ok = adjustMicroseconds(val, fval, kUsecsPerMinute, a), tmask = kMMinute; break;
        case Unit::Hour:
          ok = adjustMicroseconds(val, fval, kUsecsPerHour, a);
          tmask = kMHour;
          type = Unit::Day;
          break;
        case Unit::Day:
          ok = adjustDays(val, 1, a) && adjustFractMicroseconds(fval, kUsecsPerDay, a);
          tmask = kMDay;
          break;
        case Unit::Week:
          ok = adjustDays(val, 7, a) && adjustFractDays(fval, 7, a);
          tmask = kMWeek;
          break;
        case Unit::Month:
          ok = adjustMonths(val, a) && adjustFractDays(fval, 30, a);
          tmask = kMMonth;
          break;
        case Unit::Year:
          ok = adjustYears(val, 1, a) && adjustFractYears(fval, 1, a);
          tmask = kMYear;
          break;
        case Unit::Decade:
          ok = adjustYears(val, 10, a) && adjustFractYears(fval, 10, a);
          tmask = kMDecade;
          break;
        case Unit::Century:
          ok = adjustYears(val, 100, a) && adjustFractYears(fval, 100, a);
          tmask = kMCentury;
          break;
        case Unit::Millennium:
          ok = adjustYears(val, 1000, a) && adjustFractYears(fval, 1000, a);
          tmask = kMMillennium;
          break;
        case Unit::None: return Err::BadFormat;
      }
      if (!ok) return Err::FieldOverflow;
    } else if (kind == Tok::String || kind == Tok::Special) {
      if (f.text == "@") continue;
      if (f.text == "ago") {
        isBefore = true;
        type = Unit::None;
        typeSet = true;
        continue;
      }
      Unit u = findUnit(f.text);
      if (u == Unit::None) return Err::BadFormat;
      type = u;
      typeSet = true;
    }
    if (tmask & fmask) return Err::BadFormat;
    fmask |= tmask;
  }
  if (fmask == 0) return Err::BadFormat;
  if (isBefore) {
    a.usec = -a.usec;
    a.day = -a.day;
    a.mon = -a.mon;
    a.year = -a.year;
  }
  return Err::None;
}

// ParseISO8601Number: a signed decimal; the integral part and the fraction apart.
Err parseIsoNumber(const char*& str, int64_t* ipart, double* fpart) {
  if (!(isDigit(*str) || *str == '-' || *str == '.')) return Err::BadFormat;
  errno = 0;
  char* end;
  double val = std::strtod(str, &end);
  if (end == str || errno != 0) return Err::BadFormat;
  if (val < static_cast<double>(INT64_MIN) || val > static_cast<double>(INT64_MAX)) return Err::FieldOverflow;
  *ipart = static_cast<int64_t>(val >= 0 ? std::floor(val) : -std::floor(-val));
  *fpart = val - static_cast<double>(*ipart);
  str = end;
  return Err::None;
}

// DecodeISO8601Interval's designator format, P[nY][nM][nW][nD][T[nH][nM][nS]]; the
// alternative format (P0001-02-03T04:05:06) is not read.
Err decodeIso8601(const std::string& text, Accum& a) {
  if (text.size() < 2 || text[0] != 'P') return Err::BadFormat;
  const char* str = text.c_str() + 1;
  bool datePart = true;
  while (*str) {
    if (*str == 'T') {
      datePart = false;
      ++str;
      continue;
    }
    int64_t val;
    double fval;
    if (Err e = parseIsoNumber(str, &val, &fval); e != Err::None) return e;
    char unit = *str;
    if (unit == '\0') return Err::BadFormat;
    ++str;
    bool ok;
    if (datePart) {
      switch (unit) {
        case 'Y': ok = adjustYears(val, 1, a) && adjustFractYears(fval, 1, a); break;
        case 'M': ok = adjustMonths(val, a) && adjustFractDays(fval, 30, a); break;
        case 'W': ok = adjustDays(val, 7, a) && adjustFractDays(fval, 7, a); break;
        case 'D': ok = adjustDays(val, 1, a) && adjustFractMicroseconds(fval, kUsecsPerDay, a); break;
        default: return Err::BadFormat;
      }
    } else {
      switch (unit) {
        case 'H': ok = adjustMicroseconds(val, fval, kUsecsPerHour, a); break;
        case 'M': ok = adjustMicroseconds(val, fval, kUsecsPerMinute, a); break;
        case 'S': ok = adjustMicroseconds(val, fval, kUsecsPerSec, a); break;
        default: return Err::BadFormat;
      }
    }
    if (!ok) return Err::FieldOverflow;
  }
  return Err::None;
}

void appendSeconds(std::string& out, int64_t sec, int64_t fsec) {
  fmt::format_to(std::back_inserter(out), "{:02}", sec < 0 ? -sec : sec);
  if (fsec == 0) return;
  std::string frac = fmt::format("{:06}", fsec < 0 ? -fsec : fsec);
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  out += '.';
  out += frac;
}

void addPostgresPart(std::string& out, int64_t value, const char* unit, bool& isZero, bool& isBefore) {
  if (value == 0) return;
  fmt::format_to(std::back_inserter(out), "{}{}{} {}{}", isZero ? "" : " ", isBefore && value > 0 ? "+" : "", value,
                 unit, value != 1 ? "s" : "");
  isBefore = value < 0;
  isZero = false;
}

}  // namespace

void raiseIntervalOutOfRange() { throw SqlError(sqlstate::kDatetimeFieldOverflow, "interval out of range"); }

std::string intervalTypmodText(int32_t typmod) {
  if (typmod < 0) return "";
  int range = (typmod >> 16) & 0x7FFF, precision = typmod & 0xFFFF;
  const char* fields = "";
  switch (range) {
    case kYear: fields = " year"; break;
    case kMonth: fields = " month"; break;
    case kDay: fields = " day"; break;
    case kHour: fields = " hour"; break;
    case kMinute: fields = " minute"; break;
    case kSecond: fields = " second"; break;
    case kYear | kMonth: fields = " year to month"; break;
    case kDay | kHour: fields = " day to hour"; break;
    case kDay | kHour | kMinute: fields = " day to minute"; break;
    case kDay | kHour | kMinute | kSecond: fields = " day to second"; break;
    case kHour | kMinute: fields = " hour to minute"; break;
    case kHour | kMinute | kSecond: fields = " hour to second"; break;
    case kMinute | kSecond: fields = " minute to second"; break;
    default: break;
  }
  if (precision != kFullPrecision) return fmt::format("{}({})", fields, precision);
  return fields;
}

Interval parseInterval(std::string_view text, int32_t typmod) {
  int range = typmod >= 0 ? (typmod >> 16) & 0x7FFF : kFullRange;
  std::string str(text);
  std::vector<Field> fields;
  Accum a;
  Err e = tokenize(str, fields);
  if (e == Err::None) e = decodeInterval(fields, range, a);
  if (e == Err::BadFormat) {
    a = Accum{};
    e = decodeIso8601(str, a);
  }
  if (e == Err::BadFormat)
    throw SqlError(sqlstate::kInvalidDatetimeFormat,
                   fmt::format("invalid input syntax for type interval: \"{}\"", text));
  if (e == Err::FieldOverflow) throw SqlError("22015", fmt::format("interval field value out of range: \"{}\"", text));
  int64_t months = int64_t(a.year) * 12 + a.mon;
  if (months > INT32_MAX || months < INT32_MIN) raiseIntervalOutOfRange();
  return intervalApplyTypmod({static_cast<int32_t>(months), a.day, a.usec}, typmod);
}

Interval intervalApplyTypmod(Interval v, int32_t typmod) {
  static const int64_t kScales[] = {1000000, 100000, 10000, 1000, 100, 10, 1};
  static const int64_t kOffsets[] = {500000, 50000, 5000, 500, 50, 5, 0};
  if (typmod < 0) return v;
  int range = (typmod >> 16) & 0x7FFF, precision = typmod & 0xFFFF;
  if (range == kYear) {
    v.months = (v.months / 12) * 12;
    v.days = 0;
    v.usecs = 0;
  } else if (range == kMonth || range == (kYear | kMonth)) {
    v.days = 0;
    v.usecs = 0;
  } else if (range == kDay) {
    v.usecs = 0;
  } else if (range == kHour || range == (kDay | kHour)) {
    v.usecs = (v.usecs / kUsecsPerHour) * kUsecsPerHour;
  } else if (range == kMinute || range == (kDay | kHour | kMinute) || range == (kHour | kMinute)) {
    v.usecs = (v.usecs / kUsecsPerMinute) * kUsecsPerMinute;
  }
  if (precision != kFullPrecision && precision >= 0 && precision <= 6) {
    if (v.usecs >= 0)
      v.usecs = ((v.usecs + kOffsets[precision]) / kScales[precision]) * kScales[precision];
    else
      v.usecs = -(((-v.usecs + kOffsets[precision]) / kScales[precision]) * kScales[precision]);
  }
  return v;
}

void formatInterval(const Interval& v, std::string& out) {
  int64_t year = v.months / 12, mon = v.months % 12, mday = v.days;
  int64_t time = v.usecs;
  int64_t hour = time / kUsecsPerHour;
  time -= hour * kUsecsPerHour;
  int64_t min = time / kUsecsPerMinute;
  time -= min * kUsecsPerMinute;
  int64_t sec = time / kUsecsPerSec;
  int64_t fsec = time - sec * kUsecsPerSec;
  bool isZero = true, isBefore = false;
  addPostgresPart(out, year, "year", isZero, isBefore);
  addPostgresPart(out, mon, "mon", isZero, isBefore);
  addPostgresPart(out, mday, "day", isZero, isBefore);
  if (isZero || hour != 0 || min != 0 || sec != 0 || fsec != 0) {
    bool minus = hour < 0 || min < 0 || sec < 0 || fsec < 0;
    // |INT64_MIN| hours cannot happen: hours are at most 2^63 / 3.6e9.
    fmt::format_to(std::back_inserter(out), "{}{}{:02}:{:02}:", isZero ? "" : " ",
                   minus      ? "-"
                   : isBefore ? "+"
                              : "",
                   hour < 0 ? -hour : hour, min < 0 ? -min : min);
    appendSeconds(out, sec, fsec);
  }
}

__int128 intervalSpan(const Interval& v) {
  int64_t dayFraction = v.usecs % kUsecsPerDay;
  int64_t days = v.usecs / kUsecsPerDay;
  days += int64_t(v.months) * 30;
  days += v.days;
  return static_cast<__int128>(dayFraction) + static_cast<__int128>(days) * kUsecsPerDay;
}

int intervalCompare(const Interval& a, const Interval& b) {
  __int128 x = intervalSpan(a), y = intervalSpan(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

uint64_t intervalHash(const Interval& v) {
  auto span = static_cast<unsigned __int128>(intervalSpan(v));
  return hashMix64(static_cast<uint64_t>(span) ^ hashMix64(static_cast<uint64_t>(span >> 64)));
}

Interval intervalAdd(const Interval& a, const Interval& b) {
  Interval r;
  if (__builtin_add_overflow(a.months, b.months, &r.months) || __builtin_add_overflow(a.days, b.days, &r.days) ||
      __builtin_add_overflow(a.usecs, b.usecs, &r.usecs))
    raiseIntervalOutOfRange();
  return r;
}

Interval intervalSub(const Interval& a, const Interval& b) {
  Interval r;
  if (__builtin_sub_overflow(a.months, b.months, &r.months) || __builtin_sub_overflow(a.days, b.days, &r.days) ||
      __builtin_sub_overflow(a.usecs, b.usecs, &r.usecs))
    raiseIntervalOutOfRange();
  return r;
}

Interval intervalNegate(const Interval& a) {
  if (a.months == INT32_MIN || a.days == INT32_MIN || a.usecs == INT64_MIN) raiseIntervalOutOfRange();
  return {-a.months, -a.days, -a.usecs};
}

namespace {

// TSROUND: round to microsecond precision.
double tsRound(double j) { return std::rint(j * 1000000.0) / 1000000.0; }
bool fitsInt32(double d) { return !std::isnan(d) && d >= -2147483648.0 && d < 2147483648.0; }
bool fitsInt64(double d) { return !std::isnan(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0; }

// interval_mul's cascade of fractional months and days into the smaller units, shared
// with interval_div (which multiplies by the reciprocal's quotients).
Interval scaleInterval(const Interval& a, double monthProduct, double dayProduct, double timeProduct) {
  if (!fitsInt32(monthProduct) || !fitsInt32(dayProduct)) raiseIntervalOutOfRange();
  Interval r;
  r.months = static_cast<int32_t>(monthProduct);
  r.days = static_cast<int32_t>(dayProduct);
  double monthRemainderDays = tsRound((monthProduct - r.months) * 30);
  double secRemainder =
      tsRound((dayProduct - r.days + monthRemainderDays - static_cast<int>(monthRemainderDays)) * 86400);
  if (std::fabs(secRemainder) >= 86400) {
    if (__builtin_add_overflow(r.days, static_cast<int>(secRemainder / 86400), &r.days)) raiseIntervalOutOfRange();
    secRemainder -= static_cast<int>(secRemainder / 86400) * 86400;
  }
  if (__builtin_add_overflow(r.days, static_cast<int32_t>(monthRemainderDays), &r.days)) raiseIntervalOutOfRange();
  double time = std::rint(timeProduct + secRemainder * 1000000);
  if (!fitsInt64(time)) raiseIntervalOutOfRange();
  r.usecs = static_cast<int64_t>(time);
  (void)a;
  return r;
}

void tmodulo(int64_t& t, int32_t& q, int64_t u) {
  int64_t whole = t / u;
  t -= whole * u;
  if (whole > INT32_MAX || whole < INT32_MIN) raiseIntervalOutOfRange();
  q = static_cast<int32_t>(whole);
}

}  // namespace

Interval intervalMul(const Interval& a, double factor) {
  return scaleInterval(a, a.months * factor, a.days * factor, static_cast<double>(a.usecs) * factor);
}

Interval intervalDiv(const Interval& a, double factor) {
  if (factor == 0.0) throw SqlError(sqlstate::kDivisionByZero, "division by zero");
  return scaleInterval(a, a.months / factor, a.days / factor, static_cast<double>(a.usecs) / factor);
}

Interval justifyHours(const Interval& a) {
  Interval r = a;
  int32_t wholeDay;
  tmodulo(r.usecs, wholeDay, kUsecsPerDay);
  if (__builtin_add_overflow(r.days, wholeDay, &r.days)) raiseIntervalOutOfRange();
  if (r.days > 0 && r.usecs < 0) {
    r.usecs += kUsecsPerDay;
    r.days--;
  } else if (r.days < 0 && r.usecs > 0) {
    r.usecs -= kUsecsPerDay;
    r.days++;
  }
  return r;
}

Interval justifyDays(const Interval& a) {
  Interval r = a;
  int32_t wholeMonth = r.days / 30;
  r.days -= wholeMonth * 30;
  if (__builtin_add_overflow(r.months, wholeMonth, &r.months)) raiseIntervalOutOfRange();
  if (r.months > 0 && r.days < 0) {
    r.days += 30;
    r.months--;
  } else if (r.months < 0 && r.days > 0) {
    r.days -= 30;
    r.months++;
  }
  return r;
}

Interval justifyInterval(const Interval& a) {
  Interval r = a;
  int32_t wholeDay;
  tmodulo(r.usecs, wholeDay, kUsecsPerDay);
  if (__builtin_add_overflow(r.days, wholeDay, &r.days)) raiseIntervalOutOfRange();
  int32_t wholeMonth = r.days / 30;
  r.days -= wholeMonth * 30;
  if (__builtin_add_overflow(r.months, wholeMonth, &r.months)) raiseIntervalOutOfRange();
  if (r.months > 0 && (r.days < 0 || (r.days == 0 && r.usecs < 0))) {
    r.days += 30;
    r.months--;
  } else if (r.months < 0 && (r.days > 0 || (r.days == 0 && r.usecs > 0))) {
    r.days -= 30;
    r.months++;
  }
  if (r.days > 0 && r.usecs < 0) {
    r.usecs += kUsecsPerDay;
    r.days--;
  } else if (r.days < 0 && r.usecs > 0) {
    r.usecs -= kUsecsPerDay;
    r.days++;
  }
  return r;
}

}  // namespace duet
