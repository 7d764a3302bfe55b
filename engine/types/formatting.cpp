// The template patterns of to_char and its inverses, after PostgreSQL 15's formatting.c:
// a template is parsed into nodes (a keyword with its modifiers, or a literal character),
// which the date/time and number processors below walk.
#include "engine/types/formatting.h"

#include <fmt/format.h>
#include <fmt/printf.h>

#include <cctype>
#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

#include "engine/error.h"
#include "engine/types/datetime.h"
#include "engine/types/datetime_functions.h"
#include "engine/types/numeric.h"
#include "engine/types/time_zone.h"
#include "engine/types/type_errors.h"

namespace duet {

namespace {

constexpr int kPostgresEpochJulian = 2451545;  // date2j(2000, 1, 1)
constexpr int kUnixEpochJulian = 2440588;      // date2j(1970, 1, 1)
constexpr int64_t kUsecsPerSec = 1000000;

const char* const kMonthsFull[] = {"January", "February", "March",     "April",   "May",      "June",
                                   "July",    "August",   "September", "October", "November", "December"};
const char* const kMonthsShort[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
const char* const kDaysFull[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
const char* const kDaysShort[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
// Roman month numbers, December first (formatting.c's rm_months_upper).
const char* const kRomanMonths[] = {"XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I"};

// ---------------------------------------------------------------------------------------
// Templates

enum class Dch {
  ADdots,
  AMdots,
  AD,
  AM,
  BCdots,
  BC,
  CC,
  DAY,
  DDD,
  DD,
  DY,
  D,
  FF1,
  FF2,
  FF3,
  FF4,
  FF5,
  FF6,
  FX,
  HH24,
  HH12,
  HH,
  IDDD,
  ID,
  IW,
  IYYY,
  IYY,
  IY,
  I,
  J,
  MI,
  MM,
  MONTH,
  MON,
  MS,
  OF,
  PMdots,
  PM,
  Q,
  RM,
  SSSSS,
  SSSS,
  SS,
  TZH,
  TZM,
  TZ,
  US,
  WW,
  W,
  YCommaYYY,
  YYYY,
  YYY,
  YY,
  Y
};
enum class Num { Comma, Dec, Zero, Nine, B, C, D, E, FM, G, L, MI, PL, PR, RN, SG, SP, S, TH, V, th, rn };

// How a name prints: MONTH, Month, month.
enum class Case : uint8_t { Upper, Capital, Lower };

struct Keyword {
  const char* name;
  int id;  // a Dch or a Num
  Case letterCase;
  bool isDigit;      // reads digits (to_timestamp): a following field may start right after it
  bool isoWeekMode;  // IYYY, IW, ...: the ISO week-date convention
};

// Keywords as PostgreSQL's DCH_keywords lists them: at each position the first that
// matches is taken, so longer ones come first.
#define K(name, id, c, digit, iso) {name, static_cast<int>(Dch::id), Case::c, digit, iso}
const Keyword kDchKeywords[] = {
    K("A.D.", ADdots, Upper, false, false), K("A.M.", AMdots, Upper, false, false),
    K("AD", AD, Upper, false, false),       K("AM", AM, Upper, false, false),
    K("B.C.", BCdots, Upper, false, false), K("BC", BC, Upper, false, false),
    K("CC", CC, Upper, true, false),        K("DAY", DAY, Upper, false, false),
    K("DDD", DDD, Upper, true, false),      K("DD", DD, Upper, true, false),
    K("DY", DY, Upper, false, false),       K("Day", DAY, Capital, false, false),
    K("Dy", DY, Capital, false, false),     K("D", D, Upper, true, false),
    K("FF1", FF1, Upper, true, false),      K("FF2", FF2, Upper, true, false),
    K("FF3", FF3, Upper, true, false),      K("FF4", FF4, Upper, true, false),
    K("FF5", FF5, Upper, true, false),      K("FF6", FF6, Upper, true, false),
    K("FX", FX, Upper, false, false),       K("HH24", HH24, Upper, true, false),
    K("HH12", HH12, Upper, true, false),    K("HH", HH, Upper, true, false),
    K("IDDD", IDDD, Upper, true, true),     K("ID", ID, Upper, true, true),
    K("IW", IW, Upper, true, true),         K("IYYY", IYYY, Upper, true, true),
    K("IYY", IYY, Upper, true, true),       K("IY", IY, Upper, true, true),
    K("I", I, Upper, true, true),           K("J", J, Upper, true, false),
    K("MI", MI, Upper, true, false),        K("MM", MM, Upper, true, false),
    K("MONTH", MONTH, Upper, false, false), K("MON", MON, Upper, false, false),
    K("MS", MS, Upper, true, false),        K("Month", MONTH, Capital, false, false),
    K("Mon", MON, Capital, false, false),   K("OF", OF, Upper, false, false),
    K("P.M.", PMdots, Upper, false, false), K("PM", PM, Upper, false, false),
    K("Q", Q, Upper, true, false),          K("RM", RM, Upper, false, false),
    K("SSSSS", SSSSS, Upper, true, false),  K("SSSS", SSSS, Upper, true, false),
    K("SS", SS, Upper, true, false),        K("TZH", TZH, Upper, true, false),
    K("TZM", TZM, Upper, true, false),      K("TZ", TZ, Upper, false, false),
    K("US", US, Upper, true, false),        K("WW", WW, Upper, true, false),
    K("W", W, Upper, true, false),          K("Y,YYY", YCommaYYY, Upper, true, false),
    K("YYYY", YYYY, Upper, true, false),    K("YYY", YYY, Upper, true, false),
    K("YY", YY, Upper, true, false),        K("Y", Y, Upper, true, false),
    K("a.d.", ADdots, Lower, false, false), K("a.m.", AMdots, Lower, false, false),
    K("ad", AD, Lower, false, false),       K("am", AM, Lower, false, false),
    K("b.c.", BCdots, Lower, false, false), K("bc", BC, Lower, false, false),
    K("cc", CC, Lower, true, false),        K("day", DAY, Lower, false, false),
    K("ddd", DDD, Lower, true, false),      K("dd", DD, Lower, true, false),
    K("dy", DY, Lower, false, false),       K("d", D, Lower, true, false),
    K("ff1", FF1, Lower, true, false),      K("ff2", FF2, Lower, true, false),
    K("ff3", FF3, Lower, true, false),      K("ff4", FF4, Lower, true, false),
    K("ff5", FF5, Lower, true, false),      K("ff6", FF6, Lower, true, false),
    K("fx", FX, Lower, false, false),       K("hh24", HH24, Lower, true, false),
    K("hh12", HH12, Lower, true, false),    K("hh", HH, Lower, true, false),
    K("iddd", IDDD, Lower, true, true),     K("id", ID, Lower, true, true),
    K("iw", IW, Lower, true, true),         K("iyyy", IYYY, Lower, true, true),
    K("iyy", IYY, Lower, true, true),       K("iy", IY, Lower, true, true),
    K("i", I, Lower, true, true),           K("j", J, Lower, true, false),
    K("mi", MI, Lower, true, false),        K("mm", MM, Lower, true, false),
    K("month", MONTH, Lower, false, false), K("mon", MON, Lower, false, false),
    K("ms", MS, Lower, true, false),        K("of", OF, Lower, false, false),
    K("p.m.", PMdots, Lower, false, false), K("pm", PM, Lower, false, false),
    K("q", Q, Lower, true, false),          K("rm", RM, Lower, false, false),
    K("sssss", SSSSS, Lower, true, false),  K("ssss", SSSS, Lower, true, false),
    K("ss", SS, Lower, true, false),        K("tzh", TZH, Lower, true, false),
    K("tzm", TZM, Lower, true, false),      K("tz", TZ, Lower, false, false),
    K("us", US, Lower, true, false),        K("ww", WW, Lower, true, false),
    K("w", W, Lower, true, false),          K("y,yyy", YCommaYYY, Lower, true, false),
    K("yyyy", YYYY, Lower, true, false),    K("yyy", YYY, Lower, true, false),
    K("yy", YY, Lower, true, false),        K("y", Y, Lower, true, false),
};
#undef K

#define K(name, id) {name, static_cast<int>(Num::id), Case::Upper, false, false}
const Keyword kNumKeywords[] = {
    K(",", Comma), K(".", Dec), K("0", Zero), K("9", Nine), K("B", B),   K("C", C),   K("D", D),   K("EEEE", E),
    K("FM", FM),   K("G", G),   K("L", L),    K("MI", MI),  K("PL", PL), K("PR", PR), K("RN", RN), K("SG", SG),
    K("SP", SP),   K("S", S),   K("TH", TH),  K("V", V),    K("b", B),   K("c", C),   K("d", D),   K("eeee", E),
    K("fm", FM),   K("g", G),   K("l", L),    K("mi", MI),  K("pl", PL), K("pr", PR), K("rn", rn), K("sg", SG),
    K("sp", SP),   K("s", S),   K("th", th),  K("v", V),
};
#undef K

// Date/time keyword modifiers.
constexpr int kFillMode = 1, kTranslate = 2, kThUpper = 4, kThLower = 8, kSpell = 16;

struct Node {
  enum Kind : uint8_t { Action, Char, Separator, Space } kind;
  const Keyword* key = nullptr;
  int suffix = 0;
  std::string text;  // a literal character (UTF-8 bytes)
};

bool isSeparatorChar(unsigned char c) {
  // ASCII punctuation other than letters and digits counts as a separator (is_separator_char).
  return c > 0x20 && c < 0x7F && !std::isalnum(c) && c != '"';
}

size_t utf8Length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  if ((lead & 0xF8) == 0xF0) return 4;
  return 1;
}

template <size_t N>
const Keyword* findKeyword(std::string_view s, const Keyword (&table)[N]) {
  for (const Keyword& k : table) {
    size_t len = std::strlen(k.name);
    if (s.size() >= len && s.compare(0, len, k.name) == 0) return &k;
  }
  return nullptr;
}

int prefixSuffix(std::string_view s) {
  if (s.starts_with("FM") || s.starts_with("fm")) return kFillMode;
  if (s.starts_with("TM") || s.starts_with("tm")) return kTranslate;
  return 0;
}
int postfixSuffix(std::string_view s) {
  if (s.starts_with("TH")) return kThUpper;
  if (s.starts_with("th")) return kThLower;
  if (s.starts_with("SP")) return kSpell;
  return 0;
}

// parse_format: keywords (with FM/TM before and TH/th/SP after, for dates), "quoted text"
// (a backslash quotes the next character), \" outside quotes, and other characters.
template <size_t N>
std::vector<Node> parseTemplate(std::string_view s, const Keyword (&table)[N], bool datetime) {
  std::vector<Node> nodes;
  size_t i = 0;
  while (i < s.size()) {
    int suffix = 0;
    if (datetime) {
      if (int p = prefixSuffix(s.substr(i))) {
        suffix |= p;
        i += 2;
      }
    }
    if (i < s.size()) {
      if (const Keyword* k = findKeyword(s.substr(i), table)) {
        i += std::strlen(k->name);
        if (datetime && i < s.size())
          if (int p = postfixSuffix(s.substr(i))) {
            suffix |= p;
            i += 2;
          }
        nodes.push_back({Node::Action, k, suffix, {}});
        continue;
      }
    } else {
      break;
    }
    if (s[i] == '"') {
      ++i;
      while (i < s.size()) {
        if (s[i] == '"') {
          ++i;
          break;
        }
        if (s[i] == '\\' && i + 1 < s.size()) ++i;
        size_t len = std::min(utf8Length(s[i]), s.size() - i);
        nodes.push_back({Node::Char, nullptr, 0, std::string(s.substr(i, len))});
        i += len;
      }
      continue;
    }
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '"') ++i;
    size_t len = std::min(utf8Length(s[i]), s.size() - i);
    Node::Kind kind = Node::Char;
    unsigned char c = s[i];
    if (datetime && len == 1 && isSeparatorChar(c))
      kind = Node::Separator;
    else if (std::isspace(c))
      kind = Node::Space;
    nodes.push_back({kind, nullptr, 0, std::string(s.substr(i, len))});
    i += len;
  }
  return nodes;
}

// ---------------------------------------------------------------------------------------
// Date/time to text

// struct pg_tm as to_char receives it (with tm_yday and tm_wday), plus the zone.
struct FormatTm {
  int64_t year = 0, mon = 0, mday = 0, hour = 0, min = 0, sec = 0, fsec = 0;
  int64_t yday = 0;
  int wday = 0;
  int32_t gmtoff = 0;  // seconds east of UTC
  std::string zone;    // the abbreviation, empty for timestamp and interval
  bool hasZone = false;
};

int julianDayOfWeek(int julian) {  // j2day: 0 = Sunday
  int d = (julian + 1) % 7;
  return d < 0 ? d + 7 : d;
}

FormatTm timestampFields(int64_t local) {
  FormatTm tm;
  int64_t days = local / kUsecsPerDay;
  int64_t time = local % kUsecsPerDay;
  if (time < 0) {
    time += kUsecsPerDay;
    --days;
  }
  int y, m, d;
  int julian = static_cast<int>(days + kPostgresEpochJulian);
  julianToDate(julian, &y, &m, &d);
  tm.year = y;
  tm.mon = m;
  tm.mday = d;
  tm.hour = time / (3600 * kUsecsPerSec);
  tm.min = time / (60 * kUsecsPerSec) % 60;
  tm.sec = time / kUsecsPerSec % 60;
  tm.fsec = time % kUsecsPerSec;
  tm.wday = julianDayOfWeek(julian);
  tm.yday = julian - dateToJulian(y, 1, 1) + 1;
  return tm;
}

[[noreturn]] void invalidForInterval() {
  throw SqlError(sqlstate::kInvalidDatetimeFormat, "invalid format specification for an interval value", "",
                 "Intervals are not tied to specific calendar dates.");
}

// str_numth: "st", "nd", "rd" or "th" after the digits of `num`.
std::string ordinalSuffix(std::string_view num, bool upper) {
  if (num.empty() || !std::isdigit(static_cast<unsigned char>(num.back())))
    throw SqlError(sqlstate::kInvalidTextRepresentation, fmt::format("\"{}\" is not a number", num));
  char last = num.back();
  if (num.size() > 1 && num[num.size() - 2] == '1') last = '0';
  const char* s = last == '1' ? "st" : last == '2' ? "nd" : last == '3' ? "rd" : "th";
  std::string out = s;
  if (upper)
    for (char& c : out) c = static_cast<char>(std::toupper(c));
  return out;
}

std::string caseOf(std::string_view name, Case c) {
  std::string out(name);
  for (size_t i = 0; i < out.size(); ++i) {
    unsigned char ch = out[i];
    if (c == Case::Upper || (c == Case::Capital && i == 0))
      out[i] = static_cast<char>(std::toupper(ch));
    else
      out[i] = static_cast<char>(std::tolower(ch));
  }
  return out;
}

// printf's %0*lld: zero-padded to `width` (a minus sign counts).
std::string padded(int64_t v, int width) {
  std::string digits = std::to_string(v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v));
  int signWidth = v < 0 ? 1 : 0;
  if (static_cast<int>(digits.size()) + signWidth < width) digits.insert(0, width - digits.size() - signWidth, '0');
  return (v < 0 ? "-" : "") + digits;
}

int64_t adjustYear(int64_t year, bool interval) { return interval ? year : (year <= 0 ? -(year - 1) : year); }

std::string formatDatetime(const FormatTm& tm, const std::vector<Node>& nodes, bool interval) {
  std::string out;
  for (const Node& n : nodes) {
    if (n.kind != Node::Action) {
      out += n.text;
      continue;
    }
    bool fm = n.suffix & kFillMode;
    Case letterCase = n.key->letterCase;
    std::string s;  // a number, which TH/th may follow
    bool numeric = true;
    auto name = [&](std::string_view full, bool pad) {
      numeric = false;
      std::string v = caseOf(full, letterCase);
      // TM prints the localized name without padding.
      if (pad && !fm && !(n.suffix & kTranslate) && v.size() < 9) v.append(9 - v.size(), ' ');
      out += v;
    };
    auto fraction = [&](int digits, int64_t value) { s = padded(value, digits); };
    switch (static_cast<Dch>(n.key->id)) {
      case Dch::AMdots:
      case Dch::PMdots:
        numeric = false;
        out += caseOf(tm.hour % 24 >= 12 ? "P.M." : "A.M.", letterCase);
        break;
      case Dch::AM:
      case Dch::PM:
        numeric = false;
        out += caseOf(tm.hour % 24 >= 12 ? "PM" : "AM", letterCase);
        break;
      case Dch::HH:
      case Dch::HH12: s = padded(tm.hour % 12 == 0 ? 12 : tm.hour % 12, fm ? 0 : tm.hour >= 0 ? 2 : 3); break;
      case Dch::HH24: s = padded(tm.hour, fm ? 0 : tm.hour >= 0 ? 2 : 3); break;
      case Dch::MI: s = padded(tm.min, fm ? 0 : tm.min >= 0 ? 2 : 3); break;
      case Dch::SS: s = padded(tm.sec, fm ? 0 : tm.sec >= 0 ? 2 : 3); break;
      case Dch::FF1: fraction(1, tm.fsec / 100000); break;
      case Dch::FF2: fraction(2, tm.fsec / 10000); break;
      case Dch::FF3:
      case Dch::MS: fraction(3, tm.fsec / 1000); break;
      case Dch::FF4: fraction(4, tm.fsec / 100); break;
      case Dch::FF5: fraction(5, tm.fsec / 10); break;
      case Dch::FF6:
      case Dch::US: fraction(6, tm.fsec); break;
      case Dch::SSSS:
      case Dch::SSSSS: s = std::to_string(tm.hour * 3600 + tm.min * 60 + tm.sec); break;
      case Dch::TZ:
        if (interval) invalidForInterval();
        numeric = false;
        if (tm.hasZone) out += letterCase == Case::Lower ? caseOf(tm.zone, Case::Lower) : tm.zone;
        break;
      case Dch::TZH:
        if (interval) invalidForInterval();
        numeric = false;
        out += fmt::sprintf("%c%02d", tm.gmtoff >= 0 ? '+' : '-', std::abs(tm.gmtoff) / 3600);
        break;
      case Dch::TZM:
        if (interval) invalidForInterval();
        numeric = false;
        out += fmt::sprintf("%02d", std::abs(tm.gmtoff) % 3600 / 60);
        break;
      case Dch::OF:
        if (interval) invalidForInterval();
        numeric = false;
        out += (tm.gmtoff >= 0 ? "+" : "-") + padded(std::abs(tm.gmtoff) / 3600, fm ? 0 : 2);
        if (std::abs(tm.gmtoff) % 3600 != 0) out += fmt::sprintf(":%02d", std::abs(tm.gmtoff) % 3600 / 60);
        break;
      case Dch::ADdots:
      case Dch::BCdots:
        if (interval) invalidForInterval();
        numeric = false;
        out += caseOf(tm.year <= 0 ? "B.C." : "A.D.", letterCase);
        break;
      case Dch::AD:
      case Dch::BC:
        if (interval) invalidForInterval();
        numeric = false;
        out += caseOf(tm.year <= 0 ? "BC" : "AD", letterCase);
        break;
      case Dch::MONTH:
        if (interval) invalidForInterval();
        numeric = false;
        if (tm.mon) name(kMonthsFull[tm.mon - 1], true);
        break;
      case Dch::MON:
        if (interval) invalidForInterval();
        numeric = false;
        if (tm.mon) name(kMonthsShort[tm.mon - 1], false);
        break;
      case Dch::MM: s = padded(tm.mon, fm ? 0 : tm.mon >= 0 ? 2 : 3); break;
      case Dch::DAY:
        if (interval) invalidForInterval();
        name(kDaysFull[tm.wday], true);
        break;
      case Dch::DY:
        if (interval) invalidForInterval();
        name(kDaysShort[tm.wday], false);
        break;
      case Dch::DDD: s = padded(tm.yday, fm ? 0 : 3); break;
      case Dch::IDDD: {
        IsoWeek w = isoWeekOf(static_cast<int>(tm.year), static_cast<int>(tm.mon), static_cast<int>(tm.mday));
        // The day's number in its ISO year: Monday of week 1 is day 1.
        int day = (w.week - 1) * 7 + (tm.wday == 0 ? 7 : tm.wday);
        s = padded(day, fm ? 0 : 3);
        break;
      }
      case Dch::DD: s = padded(tm.mday, fm ? 0 : 2); break;
      case Dch::D:
        if (interval) invalidForInterval();
        s = std::to_string(tm.wday + 1);
        break;
      case Dch::ID:
        if (interval) invalidForInterval();
        s = std::to_string(tm.wday == 0 ? 7 : tm.wday);
        break;
      case Dch::WW: s = padded((tm.yday - 1) / 7 + 1, fm ? 0 : 2); break;
      case Dch::IW:
        s = padded(isoWeekOf(static_cast<int>(tm.year), static_cast<int>(tm.mon), static_cast<int>(tm.mday)).week,
                   fm ? 0 : 2);
        break;
      case Dch::Q:
        if (!tm.mon) {
          numeric = false;
          break;
        }
        s = std::to_string((tm.mon - 1) / 3 + 1);
        break;
      case Dch::CC: {
        int64_t c = interval ? tm.year / 100 : tm.year > 0 ? (tm.year - 1) / 100 + 1 : tm.year / 100 - 1;
        s = c <= 99 && c >= -99 ? padded(c, fm ? 0 : c >= 0 ? 2 : 3) : std::to_string(c);
        break;
      }
      case Dch::YCommaYYY: {
        int64_t y = adjustYear(tm.year, interval);
        int64_t thousands = y / 1000;
        s = fmt::sprintf("%d,%03d", static_cast<long long>(thousands), static_cast<long long>(y - thousands * 1000));
        break;
      }
      case Dch::YYYY:
      case Dch::YYY:
      case Dch::YY:
      case Dch::Y:
      case Dch::IYYY:
      case Dch::IYY:
      case Dch::IY:
      case Dch::I: {
        Dch id = static_cast<Dch>(n.key->id);
        bool iso = id == Dch::IYYY || id == Dch::IYY || id == Dch::IY || id == Dch::I;
        int64_t year =
            iso ? isoWeekOf(static_cast<int>(tm.year), static_cast<int>(tm.mon), static_cast<int>(tm.mday)).year
                : tm.year;
        int64_t y = adjustYear(year, interval);
        bool nonNegative = adjustYear(tm.year, interval) >= 0;
        if (id == Dch::YYYY || id == Dch::IYYY)
          s = padded(y, fm ? 0 : nonNegative ? 4 : 5);
        else if (id == Dch::YYY || id == Dch::IYY)
          s = padded(y % 1000, fm ? 0 : nonNegative ? 3 : 4);
        else if (id == Dch::YY || id == Dch::IY)
          s = padded(y % 100, fm ? 0 : nonNegative ? 2 : 3);
        else
          s = fmt::sprintf("%1d", static_cast<long long>(y % 10));
        break;
      }
      case Dch::RM: {
        numeric = false;
        if (!tm.mon && !tm.year) break;
        int index = tm.mon == 0 ? (tm.year >= 0 ? 0 : 11) : tm.mon < 0 ? -1 * (tm.mon + 1) : 12 - tm.mon;
        std::string v = caseOf(kRomanMonths[index], letterCase);
        if (!fm && v.size() < 4) v.append(4 - v.size(), ' ');
        out += v;
        break;
      }
      case Dch::W: s = std::to_string((tm.mday - 1) / 7 + 1); break;
      case Dch::J:
        s = std::to_string(
            dateToJulian(static_cast<int>(tm.year), static_cast<int>(tm.mon), static_cast<int>(tm.mday)));
        break;
      case Dch::FX: numeric = false; break;
    }
    if (!numeric) continue;
    if (n.suffix & (kThUpper | kThLower)) s += ordinalSuffix(s, n.suffix & kThUpper);
    out += s;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Numbers to text

// NUMDesc: what a number template asks for.
struct NumDesc {
  int pre = 0, post = 0;  // digit positions before and after the decimal point
  enum Sign { None, Pre, Post } lsign = None;
  int preLsignNum = 0;
  int multi = 0;  // V: digits to shift
  int zeroStart = 0, zeroEnd = 0;
  bool decimal = false, ldecimal = false, zero = false, blank = false, fillMode = false, locale = false,
       bracket = false, minus = false, plus = false, roman = false, isMulti = false, plusPost = false,
       minusPost = false, eeee = false;
};

[[noreturn]] void templateError(const std::string& message, const std::string& detail = {}) {
  throw SqlError(sqlstate::kSyntaxError, message, detail);
}

// NUMDesc_prepare, for each keyword of the template.
NumDesc describeNumber(const std::vector<Node>& nodes) {
  NumDesc d;
  for (const Node& n : nodes) {
    if (n.kind != Node::Action) continue;
    if (d.eeee && static_cast<Num>(n.key->id) != Num::E) templateError("\"EEEE\" must be the last pattern used");
    switch (static_cast<Num>(n.key->id)) {
      case Num::Nine:
        if (d.bracket) templateError("\"9\" must be ahead of \"PR\"");
        if (d.isMulti) {
          ++d.multi;
          break;
        }
        if (d.decimal)
          ++d.post;
        else
          ++d.pre;
        break;
      case Num::Zero:
        if (d.bracket) templateError("\"0\" must be ahead of \"PR\"");
        if (!d.zero && !d.decimal) {
          d.zero = true;
          d.zeroStart = d.pre + 1;
        }
        if (!d.decimal)
          ++d.pre;
        else
          ++d.post;
        d.zeroEnd = d.pre + d.post;
        break;
      case Num::B:
        if (d.pre == 0 && d.post == 0 && !d.zero) d.blank = true;
        break;
      case Num::D:
        d.ldecimal = true;
        d.locale = true;
        [[fallthrough]];
      case Num::Dec:
        if (d.decimal) templateError("multiple decimal points");
        if (d.isMulti) templateError("cannot use \"V\" and decimal point together");
        d.decimal = true;
        break;
      case Num::FM: d.fillMode = true; break;
      case Num::S:
        if (d.lsign != NumDesc::None) templateError("cannot use \"S\" twice");
        if (d.plus || d.minus || d.bracket) templateError("cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
        if (!d.decimal) {
          d.lsign = NumDesc::Pre;
          d.preLsignNum = d.pre;
        } else {
          d.lsign = NumDesc::Post;
        }
        d.locale = true;
        break;
      case Num::MI:
        if (d.lsign != NumDesc::None) templateError("cannot use \"S\" and \"MI\" together");
        d.minus = true;
        if (d.decimal) d.minusPost = true;
        break;
      case Num::PL:
        if (d.lsign != NumDesc::None) templateError("cannot use \"S\" and \"PL\" together");
        d.plus = true;
        if (d.decimal) d.plusPost = true;
        break;
      case Num::SG:
        if (d.lsign != NumDesc::None) templateError("cannot use \"S\" and \"SG\" together");
        d.minus = d.plus = true;
        break;
      case Num::PR:
        if (d.lsign != NumDesc::None || d.plus || d.minus)
          templateError("cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
        d.bracket = true;
        break;
      case Num::RN:
      case Num::rn: d.roman = true; break;
      case Num::L:
      case Num::G: d.locale = true; break;
      case Num::V:
        if (d.decimal) templateError("cannot use \"V\" and decimal point together");
        d.isMulti = true;
        break;
      case Num::E:
        if (d.eeee) templateError("cannot use \"EEEE\" twice");
        if (d.blank || d.fillMode || d.lsign != NumDesc::None || d.bracket || d.minus || d.plus || d.roman || d.isMulti)
          templateError("\"EEEE\" is incompatible with other formats",
                        "\"EEEE\" may only be used together with digit and decimal point patterns.");
        d.eeee = true;
        break;
      default: break;
    }
  }
  return d;
}

// int_to_roman: '#' x 15 outside 1..3999.
std::string toRoman(int64_t number) {
  if (number > 3999 || number < 1) return std::string(15, '#');
  static const char* const kOnes[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"};
  static const char* const kTens[] = {"X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"};
  static const char* const kHundreds[] = {"C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"};
  std::string digits = std::to_string(number), out;
  size_t len = digits.size();
  for (char c : digits) {
    int k = c - '1';
    if (k >= 0) {
      if (len > 3)
        out.append(k + 1, 'M');
      else
        out += (len == 3 ? kHundreds : len == 2 ? kTens : kOnes)[k];
    }
    --len;
  }
  return out;
}

// What the number processor is given: the digits (no sign) or the Roman numeral or the
// finished EEEE text, the sign, and the blanks before the digits.
struct NumberText {
  std::string digits;
  char sign = '+';
  int preSpaces = 0;
};

// The digits of a number printed with `post` decimals, as the to_char functions lay them
// out: blanks to fill the template's integer positions, or '#'s where it does not fit.
NumberText layoutDigits(std::string text, const NumDesc& d) {
  NumberText r;
  if (!text.empty() && text[0] == '-') {
    r.sign = '-';
    text.erase(0, 1);
  }
  size_t point = text.find('.');
  int preLen = static_cast<int>(point == std::string::npos ? text.size() : point);
  if (preLen < d.pre) {
    r.preSpaces = d.pre - preLen;
  } else if (preLen > d.pre) {
    text.assign(d.pre + d.post + 1, '#');
    text[d.pre] = '.';
  }
  r.digits = std::move(text);
  return r;
}

// NUM_processor in to_char mode.
std::string processNumber(const std::vector<Node>& nodes, NumDesc d, const NumberText& number) {
  if (d.eeee) return number.digits;
  if (d.zeroStart) --d.zeroStart;
  int preSpaces = number.preSpaces;
  char sign = number.sign;
  if (d.roman) {
    bool fm = d.fillMode;
    d = NumDesc{};
    d.fillMode = fm;
    d.roman = true;
    preSpaces = 0;
    sign = 0;
  }
  bool signWrote;
  if (d.plus || d.minus) {
    signWrote = !(d.plus && !d.minus);
  } else {
    if (sign != '-' && d.fillMode) d.bracket = false;
    signWrote = sign == '+' && d.fillMode && d.lsign == NumDesc::None;
    if (d.lsign == NumDesc::Pre && d.pre == d.preLsignNum) d.lsign = NumDesc::Post;
  }
  int numCount = d.post + d.pre - 1;
  const std::string& num = number.digits;
  // get_last_relevant_decnum, kept from reaching past the '0' positions.
  std::optional<size_t> lastRelevant;
  if (d.fillMode && d.decimal) {
    size_t p = num.find('.');
    if (p != std::string::npos) {
      lastRelevant = p;
      for (size_t i = p + 1; i < num.size(); ++i)
        if (num[i] != '0') lastRelevant = i;
      if (d.zeroEnd > preSpaces) {
        size_t lastZero = std::min<size_t>(num.size() - 1, d.zeroEnd - preSpaces);
        if (*lastRelevant < lastZero) lastRelevant = lastZero;
      }
    }
  }
  if (!signWrote && preSpaces == 0) ++numCount;

  std::string out;
  size_t numberPos = 0;  // Np->number_p
  int numCurr = 0;
  bool numIn = false;
  auto isPredecSpace = [&] { return !d.zero && numberPos == 0 && !num.empty() && num[0] == '0' && d.post != 0; };
  auto relevantIsPoint = [&] { return lastRelevant && num[*lastRelevant] == '.'; };

  // NUM_numpart_to_char
  auto numberPart = [&](Num id) {
    if (d.roman) return;
    numIn = false;
    if (!signWrote && (numCurr >= preSpaces || (d.zero && d.zeroStart == numCurr)) &&
        (!isPredecSpace() || relevantIsPoint())) {
      if (d.lsign != NumDesc::None) {
        if (d.lsign == NumDesc::Pre) {
          out += sign == '-' ? '-' : '+';
          signWrote = true;
        }
      } else if (d.bracket) {
        out += sign == '+' ? ' ' : '<';
        signWrote = true;
      } else if (sign == '+') {
        if (!d.fillMode) out += ' ';
        signWrote = true;
      } else if (sign == '-') {
        out += '-';
        signWrote = true;
      }
    }
    if (numCurr < preSpaces && (d.zeroStart > numCurr || !d.zero)) {
      if (!d.fillMode) out += ' ';
    } else if (d.zero && numCurr < preSpaces && d.zeroStart <= numCurr) {
      out += '0';
      numIn = true;
    } else {
      char c = numberPos < num.size() ? num[numberPos] : '\0';
      if (c == '.') {
        if (!relevantIsPoint() || d.fillMode) out += '.';
      } else if (lastRelevant && numberPos > *lastRelevant && id != Num::Zero) {
      } else if (isPredecSpace()) {
        if (!d.fillMode)
          out += ' ';
        else if (relevantIsPoint())
          out += '0';
      } else {
        if (c) out += c;
        numIn = true;
      }
      if (numberPos < num.size()) ++numberPos;
    }
    int end = numCount + (preSpaces ? 1 : 0) + (d.decimal ? 1 : 0);
    if (lastRelevant && *lastRelevant == numberPos) end = numCurr;
    if (numCurr + 1 == end) {
      if (signWrote && d.bracket)
        out += sign == '+' ? ' ' : '>';
      else if (d.lsign == NumDesc::Post)
        out += sign == '-' ? '-' : '+';
    }
    ++numCurr;
  };

  for (const Node& n : nodes) {
    if (n.kind != Node::Action) {
      out += n.text;
      continue;
    }
    switch (static_cast<Num>(n.key->id)) {
      case Num::Nine:
      case Num::Zero:
      case Num::Dec:
      case Num::D: numberPart(static_cast<Num>(n.key->id)); break;
      case Num::Comma:
      case Num::G:
        if (!numIn) {
          if (!d.fillMode) out += ' ';
        } else {
          out += ',';
        }
        break;
      case Num::L: out += ' '; break;  // the C locale has no currency symbol
      case Num::RN:
      case Num::rn: {
        std::string r = caseOf(num, static_cast<Num>(n.key->id) == Num::RN ? Case::Upper : Case::Lower);
        if (!d.fillMode && r.size() < 15) r.insert(0, 15 - r.size(), ' ');
        out += r;
        break;
      }
      case Num::TH:
      case Num::th:
        if (d.roman || (!num.empty() && num[0] == '#') || sign == '-' || d.decimal) break;
        out += ordinalSuffix(num, static_cast<Num>(n.key->id) == Num::TH);
        break;
      case Num::MI:
        if (sign == '-')
          out += '-';
        else if (!d.fillMode)
          out += ' ';
        break;
      case Num::PL:
        if (sign == '+')
          out += '+';
        else if (!d.fillMode)
          out += ' ';
        break;
      case Num::SG:
        if (sign) out += sign;
        break;
      default: break;
    }
  }
  return out;
}

// numeric_out_sci: one digit before the point, `post` after, rounded half away from zero.
std::string numericScientific(NumericRep v, int post) {
  if (numericMantissa(v) == 0) return fmt::format("{}e+00", post > 0 ? "0." + std::string(post, '0') : "0");
  std::string digits = numericToString(numericAbs(v));
  bool negative = numericCompare(v, makeNumeric(0, 0)) < 0;
  // The exponent: position of the first significant digit relative to the point.
  size_t point = digits.find('.');
  std::string all = digits;
  if (point != std::string::npos) all.erase(point, 1);
  size_t intLen = point == std::string::npos ? digits.size() : point;
  size_t first = all.find_first_not_of('0');
  int exponent = static_cast<int>(intLen) - static_cast<int>(first) - 1;
  // value / 10^exponent, rounded to `post` decimals.
  std::string sig = all.substr(first);
  int scale = static_cast<int>(sig.size()) - 1;
  NumericRep mantissa = parseNumeric(sig);
  mantissa = makeNumeric(numericMantissa(mantissa), scale);
  NumericRep rounded = numericRound(mantissa, post);  // 9.99 to one decimal stays 10.0
  return fmt::format("{}{}e{}{:02}", negative ? "-" : "", numericToString(rounded), exponent < 0 ? '-' : '+',
                     std::abs(exponent));
}

std::string withSignSpace(std::string s) {
  if (!s.empty() && s[0] == '+')
    s[0] = ' ';
  else if (s.empty() || s[0] != '-')
    s.insert(0, 1, ' ');
  return s;
}

std::string eeeeOverflow(const NumDesc& d) {
  std::string s(d.pre + d.post + 6, '#');
  s[0] = ' ';
  s[d.pre + 1] = '.';
  return s;
}

// ---------------------------------------------------------------------------------------
// Text to date/time

// TmFromChar: what the template read.
struct FromChar {
  bool isoMode = false, modeSet = false;
  int hh = 0, pm = 0, mi = 0, ss = 0, ssss = 0, d = 0, dd = 0, ddd = 0, mm = 0, ms = 0, year = 0, bc = 0, ww = 0, w = 0,
      cc = 0, j = 0, us = 0, yysz = 0, clock12 = 0, tzsign = 0, tzh = 0, tzm = 0, ff = 0;
};

[[noreturn]] void formatError(const std::string& message, const std::string& detail = {},
                              const std::string& hint = {}) {
  throw SqlError(sqlstate::kInvalidDatetimeFormat, message, detail, hint);
}

void setField(int* dest, int value, const Node& n) {
  if (*dest != 0 && *dest != value)
    formatError(fmt::format("conflicting values for \"{}\" field in formatting string", n.key->name),
                "This value contradicts a previous setting for the same field type.");
  *dest = value;
}

class DatetimeReader {
 public:
  DatetimeReader(std::string_view input, const std::vector<Node>& nodes) : s_(input), nodes_(nodes) {}

  FromChar read() {
    bool fx = false;
    int extraSkip = 0;
    for (size_t k = 0; k < nodes_.size() && pos_ < s_.size(); ++k) {
      const Node& n = nodes_[k];
      if (!fx && (n.kind != Node::Action || k == 0)) {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) {
          ++pos_;
          ++extraSkip;
        }
      }
      if (n.kind == Node::Space || n.kind == Node::Separator) {
        if (!fx) {
          --extraSkip;
          if (pos_ < s_.size() && (std::isspace(static_cast<unsigned char>(s_[pos_])) || isSeparatorChar(s_[pos_]))) {
            ++pos_;
            ++extraSkip;
          }
        } else {
          pos_ += charLength();
        }
        continue;
      }
      if (n.kind != Node::Action) {
        if (!fx && extraSkip > 0)
          --extraSkip;
        else
          pos_ += charLength();
        continue;
      }
      setMode(n);
      readField(k, fx, extraSkip);
      if (!fx) {
        extraSkip = 0;
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) {
          ++pos_;
          ++extraSkip;
        }
      }
    }
    return out_;
  }

 private:
  size_t charLength() const { return pos_ < s_.size() ? std::min(utf8Length(s_[pos_]), s_.size() - pos_) : 0; }

  // from_char_set_mode: Gregorian fields and ISO week-date fields do not mix.
  void setMode(const Node& n) {
    Dch id = static_cast<Dch>(n.key->id);
    bool gregorian = id == Dch::DDD || id == Dch::DD || id == Dch::D || id == Dch::MM || id == Dch::MONTH ||
                     id == Dch::MON || id == Dch::RM || id == Dch::WW || id == Dch::W || id == Dch::YCommaYYY ||
                     id == Dch::YYYY || id == Dch::YYY || id == Dch::YY || id == Dch::Y;
    if (!gregorian && !n.key->isoWeekMode) return;
    bool iso = n.key->isoWeekMode;
    if (out_.modeSet && out_.isoMode != iso)
      formatError("invalid combination of date conventions", "",
                  "Do not mix Gregorian and ISO week date conventions in a formatting template.");
    out_.modeSet = true;
    out_.isoMode = iso;
  }

  // is_next_separator: whether the field after node k cannot start with a digit.
  bool nextIsSeparator(size_t k) const {
    const Node& n = nodes_[k];
    if (n.suffix & (kThUpper | kThLower)) return true;
    if (k + 1 >= nodes_.size()) return true;
    const Node& next = nodes_[k + 1];
    if (next.kind == Node::Action) return !next.key->isDigit;
    return !(next.text.size() == 1 && std::isdigit(static_cast<unsigned char>(next.text[0])));
  }

  void skipTh(int suffix) {
    if (suffix & (kThUpper | kThLower)) pos_ = std::min(pos_ + 2, s_.size());
  }

  // from_char_parse_int_len: returns the number of characters read.
  int parseInt(int* dest, size_t len, size_t k) {
    const Node& n = nodes_[k];
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
    size_t init = pos_;
    std::string copy(s_.substr(pos_, len));
    long long value = 0;
    if ((n.suffix & kFillMode) || nextIsSeparator(k)) {
      std::string rest(s_.substr(pos_));
      char* end = nullptr;
      errno = 0;
      value = std::strtoll(rest.c_str(), &end, 10);
      pos_ += end - rest.c_str();
    } else {
      if (copy.size() < len)
        formatError(fmt::format("source string too short for \"{}\" formatting field", n.key->name),
                    fmt::format("Field requires {} characters, but only {} remain.", len, copy.size()),
                    "If your source string is not fixed-width, try using the \"FM\" modifier.");
      char* end = nullptr;
      errno = 0;
      value = std::strtoll(copy.c_str(), &end, 10);
      size_t used = end - copy.c_str();
      if (used > 0 && used < len)
        formatError(fmt::format("invalid value \"{}\" for \"{}\"", copy, n.key->name),
                    fmt::format("Field requires {} characters, but only {} could be parsed.", len, used),
                    "If your source string is not fixed-width, try using the \"FM\" modifier.");
      pos_ += used;
    }
    if (pos_ == init)
      formatError(fmt::format("invalid value \"{}\" for \"{}\"", copy, n.key->name), "Value must be an integer.");
    if (errno == ERANGE || value < INT_MIN || value > INT_MAX)
      throw SqlError(sqlstate::kDatetimeFieldOverflow,
                     fmt::format("value for \"{}\" in source string is out of range", n.key->name),
                     fmt::format("Value must be in the range {} to {}.", INT_MIN, INT_MAX));
    if (dest) setField(dest, static_cast<int>(value), n);
    return static_cast<int>(pos_ - init);
  }
  int parseInt(int* dest, size_t k) { return parseInt(dest, std::strlen(nodes_[k].key->name), k); }

  // from_char_seq_search: the first of `words` the input starts with, ignoring case.
  int seqSearch(std::initializer_list<const char*> words, const Node& n) {
    int i = 0;
    for (const char* w : words) {
      size_t len = std::strlen(w);
      if (s_.size() - pos_ >= len) {
        bool match = true;
        for (size_t c = 0; c < len && match; ++c)
          match =
              std::tolower(static_cast<unsigned char>(s_[pos_ + c])) == std::tolower(static_cast<unsigned char>(w[c]));
        if (match) {
          pos_ += len;
          return i;
        }
      }
      ++i;
    }
    std::string copy(s_.substr(pos_));
    size_t space = copy.find_first_of(" \t\n\r\f\v");
    if (space != std::string::npos) copy.resize(space);
    formatError(fmt::format("invalid value \"{}\" for \"{}\"", copy, n.key->name),
                "The given value did not match any of the allowed values for this field.");
  }

  static int adjustPartialYear(int year) {
    if (year < 70) return year + 2000;
    if (year < 100) return year + 1900;
    if (year < 520) return year + 2000;
    if (year < 1000) return year + 1000;
    return year;
  }

  void readField(size_t k, bool& fx, int extraSkip) {
    const Node& n = nodes_[k];
    int value = 0;
    switch (static_cast<Dch>(n.key->id)) {
      case Dch::FX: fx = true; break;
      case Dch::AMdots:
      case Dch::PMdots:
        value = seqSearch({"a.m.", "p.m.", "A.M.", "P.M."}, n);
        setField(&out_.pm, value % 2, n);
        out_.clock12 = 1;
        break;
      case Dch::AM:
      case Dch::PM:
        value = seqSearch({"am", "pm", "AM", "PM"}, n);
        setField(&out_.pm, value % 2, n);
        out_.clock12 = 1;
        break;
      case Dch::HH:
      case Dch::HH12:
        parseInt(&out_.hh, 2, k);
        out_.clock12 = 1;
        skipTh(n.suffix);
        break;
      case Dch::HH24:
        parseInt(&out_.hh, 2, k);
        skipTh(n.suffix);
        break;
      case Dch::MI:
        parseInt(&out_.mi, k);
        skipTh(n.suffix);
        break;
      case Dch::SS:
        parseInt(&out_.ss, k);
        skipTh(n.suffix);
        break;
      case Dch::MS: {
        int len = parseInt(&out_.ms, 3, k);
        out_.ms *= len == 1 ? 100 : len == 2 ? 10 : 1;
        skipTh(n.suffix);
        break;
      }
      case Dch::FF1:
      case Dch::FF2:
      case Dch::FF3:
      case Dch::FF4:
      case Dch::FF5:
      case Dch::FF6:
      case Dch::US: {
        bool us = static_cast<Dch>(n.key->id) == Dch::US;
        if (!us) out_.ff = n.key->id - static_cast<int>(Dch::FF1) + 1;
        int len = parseInt(&out_.us, us ? 6 : out_.ff, k);
        static const int kScale[] = {1, 100000, 10000, 1000, 100, 10, 1};
        out_.us *= kScale[std::min(len, 6)];
        skipTh(n.suffix);
        break;
      }
      case Dch::SSSS:
      case Dch::SSSSS:
        parseInt(&out_.ssss, k);
        skipTh(n.suffix);
        break;
      case Dch::TZ:
      case Dch::OF:
        throw SqlError(sqlstate::kFeatureNotSupported,
                       fmt::format("formatting field \"{}\" is only supported in to_char", n.key->name));
      case Dch::TZH:
        if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-' || s_[pos_] == ' ')) {
          out_.tzsign = s_[pos_] == '-' ? -1 : 1;
          ++pos_;
        } else {
          out_.tzsign = extraSkip > 0 && pos_ > 0 && s_[pos_ - 1] == '-' ? -1 : 1;
        }
        parseInt(&out_.tzh, 2, k);
        break;
      case Dch::TZM:
        if (!out_.tzsign) out_.tzsign = 1;
        parseInt(&out_.tzm, 2, k);
        break;
      case Dch::ADdots:
      case Dch::BCdots:
        value = seqSearch({"a.d.", "b.c.", "A.D.", "B.C."}, n);
        setField(&out_.bc, value % 2, n);
        break;
      case Dch::AD:
      case Dch::BC:
        value = seqSearch({"ad", "bc", "AD", "BC"}, n);
        setField(&out_.bc, value % 2, n);
        break;
      case Dch::MONTH:
        value = seqSearch({"January", "February", "March", "April", "May", "June", "July", "August", "September",
                           "October", "November", "December"},
                          n);
        setField(&out_.mm, value + 1, n);
        break;
      case Dch::MON:
        value = seqSearch({"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}, n);
        setField(&out_.mm, value + 1, n);
        break;
      case Dch::MM:
        parseInt(&out_.mm, k);
        skipTh(n.suffix);
        break;
      case Dch::DAY:
        value = seqSearch({"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}, n);
        setField(&out_.d, value, n);
        out_.d++;
        break;
      case Dch::DY:
        value = seqSearch({"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}, n);
        setField(&out_.d, value, n);
        out_.d++;
        break;
      case Dch::DDD:
        parseInt(&out_.ddd, k);
        skipTh(n.suffix);
        break;
      case Dch::IDDD:
        parseInt(&out_.ddd, 3, k);
        skipTh(n.suffix);
        break;
      case Dch::DD:
        parseInt(&out_.dd, k);
        skipTh(n.suffix);
        break;
      case Dch::D:
        parseInt(&out_.d, k);
        skipTh(n.suffix);
        break;
      case Dch::ID:
        parseInt(&out_.d, 1, k);
        if (++out_.d > 7) out_.d = 1;  // Sunday is 1, as for D
        skipTh(n.suffix);
        break;
      case Dch::WW:
      case Dch::IW:
        parseInt(&out_.ww, k);
        skipTh(n.suffix);
        break;
      case Dch::Q:
        parseInt(nullptr, k);  // read, and ignored: which day of the quarter would it be?
        skipTh(n.suffix);
        break;
      case Dch::CC:
        parseInt(&out_.cc, k);
        skipTh(n.suffix);
        break;
      case Dch::YCommaYYY: {
        int millennia = 0, years = 0, used = 0;
        std::string rest(s_.substr(pos_));
        if (std::sscanf(rest.c_str(), "%d,%03d%n", &millennia, &years, &used) < 2)
          formatError("invalid input string for \"Y,YYY\"");
        setField(&out_.year, years + millennia * 1000, n);
        out_.yysz = 4;
        pos_ += used;
        skipTh(n.suffix);
        break;
      }
      case Dch::YYYY:
      case Dch::IYYY:
        parseInt(&out_.year, k);
        out_.yysz = 4;
        skipTh(n.suffix);
        break;
      case Dch::YYY:
      case Dch::IYY:
      case Dch::YY:
      case Dch::IY:
      case Dch::Y:
      case Dch::I: {
        int len = parseInt(&out_.year, k);
        if (len < 4) out_.year = adjustPartialYear(out_.year);
        out_.yysz = static_cast<int>(std::strlen(n.key->name));
        skipTh(n.suffix);
        break;
      }
      case Dch::RM:
        value = seqSearch({"XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I"}, n);
        setField(&out_.mm, 12 - value, n);
        break;
      case Dch::W:
        parseInt(&out_.w, k);
        skipTh(n.suffix);
        break;
      case Dch::J:
        parseInt(&out_.j, k);
        skipTh(n.suffix);
        break;
    }
  }

  std::string_view s_;
  const std::vector<Node>& nodes_;
  size_t pos_ = 0;
  FromChar out_;
};

bool isLeapYear(int y) { return (y % 4 == 0) && ((y % 100 != 0) || (y % 400 == 0)); }

struct ParsedDatetime {
  int year = 0, mon = 1, mday = 1, hour = 0, min = 0, sec = 0;
  int64_t fsec = 0;
  int fprec = 0;
  bool hasZone = false;
  int32_t zoneEast = 0;
};

// The Julian day of Monday of ISO week 1 of `year` (isoweek2j(year, 1)).
int isoWeekOneMonday(int year) {
  int day4 = dateToJulian(year, 1, 4);
  return day4 - (julianDayOfWeek(day4) + 6) % 7;
}

// do_to_timestamp: the fields read, combined and checked.
ParsedDatetime toDatetimeFields(std::string_view text, std::string_view format) {
  ParsedDatetime tm;
  tm.year = 0;
  FromChar f;
  if (!format.empty()) {
    std::vector<Node> nodes = parseTemplate(format, kDchKeywords, true);
    f = DatetimeReader(text, nodes).read();
  }
  auto fieldOverflow = [&] {
    throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("date/time field value out of range: \"{}\"", text));
  };
  if (f.ssss) {
    tm.hour = f.ssss / 3600;
    tm.min = f.ssss % 3600 / 60;
    tm.sec = f.ssss % 60;
  }
  if (f.ss) tm.sec = f.ss;
  if (f.mi) tm.min = f.mi;
  if (f.hh) tm.hour = f.hh;
  if (f.clock12) {
    if (tm.hour < 1 || tm.hour > 12)
      throw SqlError(sqlstate::kInvalidDatetimeFormat,
                     fmt::format("hour \"{}\" is invalid for the 12-hour clock", tm.hour), "",
                     "Use the 24-hour clock, or give an hour between 1 and 12.");
    if (f.pm && tm.hour < 12)
      tm.hour += 12;
    else if (!f.pm && tm.hour == 12)
      tm.hour = 0;
  }
  bool yearSet = false, monSet = false, daySet = false;
  if (f.year) {
    if (f.cc && f.yysz <= 2) {
      if (f.bc) f.cc = -f.cc;
      tm.year = f.year % 100;
      if (tm.year)
        tm.year = f.cc >= 0 ? tm.year + (f.cc - 1) * 100 : (f.cc + 1) * 100 - tm.year + 1;
      else
        tm.year = f.cc * 100 + (f.cc >= 0 ? 0 : 1);
    } else {
      tm.year = f.year;
      if (f.bc) tm.year = -tm.year;
      if (tm.year < 0) tm.year++;
    }
    yearSet = true;
  } else if (f.cc) {
    if (f.bc) f.cc = -f.cc;
    tm.year = f.cc >= 0 ? (f.cc - 1) * 100 + 1 : f.cc * 100 + 1;
    yearSet = true;
  }
  if (f.j) {
    julianToDate(f.j, &tm.year, &tm.mon, &tm.mday);
    yearSet = monSet = daySet = true;
  }
  if (f.ww) {
    if (f.isoMode) {
      int monday = isoWeekOneMonday(tm.year) + (f.ww - 1) * 7;
      // isoweekdate2date: D counts Sunday as 1; ISO days run Monday (1) to Sunday (7).
      int offset = f.d ? (f.d == 1 ? 6 : f.d - 2) : 0;
      julianToDate(monday + offset, &tm.year, &tm.mon, &tm.mday);
      yearSet = monSet = daySet = true;
    } else {
      f.ddd = (f.ww - 1) * 7 + 1;
    }
  }
  if (f.w) f.dd = (f.w - 1) * 7 + 1;
  if (f.dd) {
    tm.mday = f.dd;
    daySet = true;
  }
  if (f.mm) {
    tm.mon = f.mm;
    monSet = true;
  }
  if (f.ddd && (tm.mon <= 1 || tm.mday <= 1)) {
    if (!tm.year && !f.bc) formatError("cannot calculate day of year without year information");
    if (f.isoMode) {
      julianToDate(isoWeekOneMonday(tm.year) - 1 + f.ddd, &tm.year, &tm.mon, &tm.mday);
      yearSet = monSet = daySet = true;
    } else {
      static const int kYearSum[2][13] = {{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
                                          {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366}};
      const int* y = kYearSum[isLeapYear(tm.year)];
      int i = 1;
      for (; i <= 12; ++i)
        if (f.ddd <= y[i]) break;
      if (tm.mon <= 1) tm.mon = i;
      if (tm.mday <= 1) tm.mday = f.ddd - y[i - 1];
      monSet = daySet = true;
    }
  }
  if (f.ms) tm.fsec += int64_t(f.ms) * 1000;
  if (f.us) tm.fsec += f.us;
  tm.fprec = f.ff;
  // ValidateDate
  if (monSet && (tm.mon < 1 || tm.mon > 12)) fieldOverflow();
  if (daySet && (tm.mday < 1 || tm.mday > 31)) fieldOverflow();
  if (yearSet && monSet && daySet) {
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int days = tm.mon == 2 && isLeapYear(tm.year) ? 29 : kDays[tm.mon - 1];
    if (tm.mday > days) fieldOverflow();
  }
  if (tm.hour < 0 || tm.hour >= 24 || tm.min < 0 || tm.min >= 60 || tm.sec < 0 || tm.sec >= 60 || tm.fsec < 0 ||
      tm.fsec >= kUsecsPerSec)
    fieldOverflow();
  if (f.tzsign) {
    if (f.tzh < 0 || f.tzh > 15 || f.tzm < 0 || f.tzm >= 60)
      throw SqlError("22009", fmt::format("time zone displacement out of range: \"{}\"", text));
    tm.hasZone = true;
    tm.zoneEast = f.tzsign * (f.tzh * 3600 + f.tzm * 60);
  }
  return tm;
}

// The timestamp if checkTimestampRange accepts it, else 0 (a caller's own message follows).
int64_t checkTimestampRangeOrZero(int64_t ts) {
  try {
    return checkTimestampRange(ts);
  } catch (const SqlError&) {
    return ts == 0 ? 1 : 0;
  }
}

bool validJulian(int y, int m, int d) {
  return (y > -4713 || (y == -4713 && m >= 11)) &&
         (y < 5874898 || (y == 5874898 && m < 6) || (y == 5874898 && m == 6 && d < 3));
}

// ---------------------------------------------------------------------------------------
// Text to number

class NumberReader {
 public:
  NumberReader(std::string_view input, const std::vector<Node>& nodes, NumDesc& d) : in_(input), nodes_(nodes), d_(d) {}

  // NUM_processor in to_number mode: the number as numeric_in reads it, sign first.
  std::string read() {
    if (d_.eeee) throw SqlError(sqlstate::kFeatureNotSupported, "\"EEEE\" not supported for input");
    if (d_.roman) throw SqlError(sqlstate::kFeatureNotSupported, "\"RN\" not supported for input");
    number_ = " ";
    for (const Node& n : nodes_) {
      if (overload()) break;
      if (n.kind != Node::Action) {
        p_ += std::min(utf8Length(in_[p_]), in_.size() - p_);
        continue;
      }
      switch (static_cast<Num>(n.key->id)) {
        case Num::Nine:
        case Num::Zero:
        case Num::Dec:
        case Num::D: numberPart(static_cast<Num>(n.key->id)); break;
        case Num::Comma:
        case Num::G:
          if (d_.fillMode) continue;  // nothing has set num_in when reading
          if (in_[p_] != ',') continue;
          break;
        case Num::L:  // the currency symbol (a blank in the C locale): one character that is not data
          eatNonData(1);
          continue;
        case Num::TH:
        case Num::th: eatNonData(2); continue;
        case Num::MI:
          if (in_[p_] == '-') {
            number_[0] = '-';
          } else {
            eatNonData(1);
            continue;
          }
          break;
        case Num::PL:
          if (in_[p_] == '+') {
            number_[0] = '+';
          } else {
            eatNonData(1);
            continue;
          }
          break;
        case Num::SG:
          if (in_[p_] == '-' || in_[p_] == '+') {
            number_[0] = in_[p_];
          } else {
            eatNonData(1);
            continue;
          }
          break;
        default: continue;
      }
      ++p_;
    }
    if (number_.size() > 1 && number_.back() == '.') number_.pop_back();
    d_.post = readPost_;
    return number_;
  }

 private:
  bool overload() const { return p_ >= in_.size(); }
  bool amount(size_t n) const { return p_ + n <= in_.size(); }

  void eatNonData(int n) {
    while (n-- > 0) {
      if (overload()) break;
      if (std::strchr("0123456789.,+-", in_[p_])) break;
      p_ += std::min(utf8Length(in_[p_]), in_.size() - p_);
    }
  }

  // NUM_numpart_from_char; leaves p_ on the last character read (the loop steps past it).
  void numberPart(Num id) {
    if (overload()) return;
    if (in_[p_] == ' ') ++p_;
    if (overload()) return;
    // The sign is read before the first digit.
    if (number_[0] == ' ' && readPre_ + readPost_ == 0 && (id == Num::Zero || id == Num::Nine)) {
      if (d_.lsign == NumDesc::Pre) {
        if (in_[p_] == '-') {
          ++p_;
          number_[0] = '-';
        } else if (in_[p_] == '+') {
          ++p_;
          number_[0] = '+';
        }
      } else if (in_[p_] == '-' || (d_.bracket && in_[p_] == '<')) {
        number_[0] = '-';
        ++p_;
      } else if (in_[p_] == '+') {
        number_[0] = '+';
        ++p_;
      }
    }
    if (overload()) return;
    bool isRead = false;
    if (std::isdigit(static_cast<unsigned char>(in_[p_]))) {
      if (readDec_ && readPost_ == d_.post) return;
      number_ += in_[p_];
      if (readDec_)
        ++readPost_;
      else
        ++readPre_;
      isRead = true;
    } else if (d_.decimal && !readDec_) {
      if (in_[p_] == '.') {
        number_ += '.';
        readDec_ = true;
        isRead = true;
      }
    }
    if (overload()) return;
    if (number_[0] == ' ' && readPre_ + readPost_ > 0) {
      if (d_.lsign != NumDesc::None && isRead && p_ + 1 < in_.size() &&
          !std::isdigit(static_cast<unsigned char>(in_[p_ + 1]))) {
        size_t next = p_ + 1;
        if (in_[next] == '-' || in_[next] == '+') {
          number_[0] = in_[next];
          p_ = next;
        }
      } else if (!isRead && d_.lsign == NumDesc::None && (d_.plus || d_.minus)) {
        if (in_[p_] == '-' || in_[p_] == '+') number_[0] = in_[p_];
      }
    }
  }

  std::string_view in_;
  const std::vector<Node>& nodes_;
  NumDesc& d_;
  size_t p_ = 0;
  std::string number_;
  int readPre_ = 0, readPost_ = 0;
  bool readDec_ = false;
};

}  // namespace

// ---------------------------------------------------------------------------------------

std::optional<std::string> toCharTimestamp(int64_t ts, std::string_view format) {
  if (format.empty() || ts == kTimestampNegInfinity || ts == kTimestampPosInfinity) return std::nullopt;
  return formatDatetime(timestampFields(ts), parseTemplate(format, kDchKeywords, true), false);
}

std::optional<std::string> toCharTimestampTz(int64_t ts, std::string_view format, const TypeContext& ctx) {
  if (format.empty() || ts == kTimestampNegInfinity || ts == kTimestampPosInfinity) return std::nullopt;
  int32_t offset = sessionOffsetAt(ctx, ts);
  FormatTm tm = timestampFields(ts + int64_t(offset) * kUsecsPerSec);
  tm.gmtoff = offset;
  tm.zone = sessionZoneAbbreviation(ctx, ts);
  tm.hasZone = true;
  return formatDatetime(tm, parseTemplate(format, kDchKeywords, true), false);
}

std::optional<std::string> toCharInterval(const Interval& v, std::string_view format) {
  if (format.empty()) return std::nullopt;
  FormatTm tm;
  tm.year = v.months / 12;
  tm.mon = v.months % 12;
  tm.mday = v.days;
  int64_t time = v.usecs;
  tm.hour = time / (3600 * kUsecsPerSec);
  time -= tm.hour * 3600 * kUsecsPerSec;
  tm.min = time / (60 * kUsecsPerSec);
  time -= tm.min * 60 * kUsecsPerSec;
  tm.sec = time / kUsecsPerSec;
  tm.fsec = time - tm.sec * kUsecsPerSec;
  tm.yday = (tm.year * 12 + tm.mon) * 30 + tm.mday;
  return formatDatetime(tm, parseTemplate(format, kDchKeywords, true), true);
}

namespace {

// What every number template does: parse it, let `digits` lay the value out for it (Roman,
// EEEE or digits; it may change the description, as V does), then fill the template.
template <class Digits>
std::string numberToChar(std::string_view format, const Digits& digits) {
  if (format.empty()) return "";
  std::vector<Node> nodes = parseTemplate(format, kNumKeywords, false);
  NumDesc d = describeNumber(nodes);
  NumberText t = digits(d);
  return processNumber(nodes, d, t);
}

// An integer's digits, with the zeros after the point the template asks for.
NumberText integerDigits(int64_t value, const NumDesc& d) {
  std::string text = std::to_string(value);
  if (d.post) text += "." + std::string(d.post, '0');
  return layoutDigits(text, d);
}

NumberText romanDigits(int64_t value) {
  NumberText t;
  t.digits = toRoman(value);
  return t;
}

NumberText scientificDigits(std::string digits) {
  NumberText t;
  t.digits = std::move(digits);
  return t;
}

}  // namespace

std::string toCharNumeric(NumericRep v, std::string_view format) {
  return numberToChar(format, [&](NumDesc& d) {
    if (d.roman) return romanDigits(numericToInteger(numericRound(v, 0), TypeId::Int4));
    if (d.eeee) return scientificDigits(withSignSpace(numericScientific(v, d.post)));
    NumericRep value = v;
    if (d.isMulti) {
      value = numericMul(value, numericPower(makeNumeric(10, 0), makeNumeric(d.multi, 0)));
      d.pre += d.multi;
    }
    return layoutDigits(numericToString(numericRound(value, d.post)), d);
  });
}

std::string toCharInt8(int64_t v, std::string_view format) {
  return numberToChar(format, [&](NumDesc& d) {
    if (d.roman) {
      if (v < INT32_MIN || v > INT32_MAX) throw SqlError(sqlstate::kNumericValueOutOfRange, "integer out of range");
      return romanDigits(v);
    }
    if (d.eeee) return scientificDigits(withSignSpace(numericScientific(numericFromInt64(v), d.post)));
    int64_t value = v;
    if (d.isMulti) {
      int64_t factor = static_cast<int64_t>(std::pow(10.0, d.multi));
      if (__builtin_mul_overflow(value, factor, &value)) raiseIntegerOutOfRange(TypeId::Int8);
      d.pre += d.multi;
    }
    return integerDigits(value, d);
  });
}

std::string toCharInt4(int32_t v, std::string_view format) {
  return numberToChar(format, [&](NumDesc& d) {
    if (d.roman) return romanDigits(v);
    if (d.eeee) return scientificDigits(withSignSpace(fmt::sprintf("%+.*e", d.post, static_cast<double>(v))));
    int32_t value = v;
    if (d.isMulti) {
      // int4_to_char multiplies in int32 arithmetic, wrapping as C does.
      value = static_cast<int32_t>(static_cast<uint32_t>(v) *
                                   static_cast<uint32_t>(static_cast<int32_t>(std::pow(10.0, d.multi))));
      d.pre += d.multi;
    }
    return integerDigits(value, d);
  });
}

std::string toCharFloat8(double v, std::string_view format) {
  return numberToChar(format, [&](NumDesc& d) {
    if (d.roman) {
      double r = std::rint(v);
      return romanDigits(r >= 1 && r <= 3999 ? static_cast<int64_t>(r) : 0);
    }
    if (d.eeee)
      return scientificDigits(std::isnan(v) || std::isinf(v) ? eeeeOverflow(d)
                                                             : withSignSpace(fmt::sprintf("%+.*e", d.post, v)));
    double value = v;
    if (d.isMulti) {
      value *= std::pow(10.0, d.multi);
      d.pre += d.multi;
    }
    constexpr int kDblDig = 15;
    int preLen = static_cast<int>(fmt::sprintf("%.0f", std::fabs(value)).size());
    if (preLen >= kDblDig)
      d.post = 0;
    else if (preLen + d.post > kDblDig)
      d.post = kDblDig - preLen;
    return layoutDigits(fmt::sprintf("%.*f", d.post, value), d);
  });
}

int32_t toDate(std::string_view text, std::string_view format) {
  ParsedDatetime tm = toDatetimeFields(text, format);
  auto outOfRange = [&] {
    throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::format("date out of range: \"{}\"", text));
  };
  if (!validJulian(tm.year, tm.mon, tm.mday)) outOfRange();
  int64_t date = int64_t(dateToJulian(tm.year, tm.mon, tm.mday)) - kPostgresEpochJulian;
  if (date + kPostgresEpochJulian < 0 || date + kPostgresEpochJulian >= 2147483494) outOfRange();
  return static_cast<int32_t>(date);
}

int64_t toTimestamp(std::string_view text, std::string_view format, const TypeContext& ctx) {
  ParsedDatetime tm = toDatetimeFields(text, format);
  auto outOfRange = [] { throw SqlError(sqlstate::kDatetimeFieldOverflow, "timestamp out of range"); };
  if (!validJulian(tm.year, tm.mon, tm.mday)) outOfRange();
  __int128 date = int64_t(dateToJulian(tm.year, tm.mon, tm.mday)) - kPostgresEpochJulian;
  __int128 local = date * kUsecsPerDay + ((int64_t(tm.hour) * 60 + tm.min) * 60 + tm.sec) * kUsecsPerSec + tm.fsec;
  if (local > INT64_MAX || local < INT64_MIN) outOfRange();
  int64_t offset = tm.hasZone ? tm.zoneEast : sessionOffsetForLocal(ctx, static_cast<int64_t>(local));
  __int128 utc = local - __int128(offset) * kUsecsPerSec;
  if (utc > INT64_MAX || utc < INT64_MIN) outOfRange();
  int64_t result = static_cast<int64_t>(utc);
  if (checkTimestampRangeOrZero(result) != result) outOfRange();
  if (tm.fprec > 0 && tm.fprec < 6) {  // FFn: rounded to n digits, as AdjustTimestampForTypmod
    int64_t unit = 1;
    for (int i = tm.fprec; i < 6; ++i) unit *= 10;
    int64_t half = unit / 2;
    result = result >= 0 ? (result + half) / unit * unit : -((-result + half) / unit * unit);
  }
  return result;
}

int64_t toTimestampFromEpoch(double seconds) {
  if (std::isnan(seconds)) throw SqlError(sqlstate::kDatetimeFieldOverflow, "timestamp cannot be NaN");
  if (std::isinf(seconds)) return seconds < 0 ? kTimestampNegInfinity : kTimestampPosInfinity;
  constexpr double kMin = 86400.0 * (0 - kUnixEpochJulian);
  constexpr double kEnd = 86400.0 * (109203528.0 - kUnixEpochJulian);
  double shifted = seconds - double(kPostgresEpochJulian - kUnixEpochJulian) * 86400.0;
  int64_t result = 0;
  bool valid = seconds >= kMin && seconds < kEnd;
  if (valid) {
    result = static_cast<int64_t>(std::rint(shifted * 1e6));
    valid = result == checkTimestampRangeOrZero(result);
  }
  if (!valid) throw SqlError(sqlstate::kDatetimeFieldOverflow, fmt::sprintf("timestamp out of range: \"%g\"", seconds));
  return result;
}

NumericRep toNumber(std::string_view text, std::string_view format) {
  std::vector<Node> nodes = parseTemplate(format, kNumKeywords, false);
  NumDesc d = describeNumber(nodes);
  std::string number = NumberReader(text, nodes, d).read();
  int scale = d.post;
  int precision = d.pre + d.multi + scale;
  NumericRep value = parseNumeric(number);
  value = numericApplyTypmod(value, SqlType::numeric(precision, scale).typmod);
  if (d.isMulti) value = numericMul(value, numericPower(makeNumeric(10, 0), makeNumeric(-d.multi, 0)));
  return value;
}

}  // namespace duet
