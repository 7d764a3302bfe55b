// The functions of a statement that need no session: which statements run as plans,
// Boolean options, the $n check, command tags, result columns, explicit parameters as text.
#include "session/statement.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "engine/types/strings.h"
#include "engine/types/value_io.h"

namespace duet {
namespace {

// "PREFIX n" without fmt's general machinery: every call of a routine ends with one, and
// the tag fits the string's inline buffer.
std::string tagWithCount(std::string_view prefix, int64_t n) {
  char buf[32];
  std::memcpy(buf, prefix.data(), prefix.size());
  char* end = std::to_chars(buf + prefix.size(), buf + sizeof buf, n).ptr;
  return std::string(buf, end);
}

}  // namespace

bool booleanOption(const sql::DefElem& d) {
  using Kind = sql::DefElem::ValueKind;
  if (d.valueKind == Kind::None) return true;
  std::string v = lowerAscii(d.value);
  if (d.valueKind == Kind::Number) {
    if (v == "0") return false;
    if (v == "1") return true;
  } else {
    if (v == "true" || v == "on") return true;
    if (v == "false" || v == "off") return false;
  }
  throw SqlError(sqlstate::kSyntaxError, fmt::format("{} requires a Boolean value", d.name));
}

bool isQuery(const sql::Stmt& stmt) {
  switch (stmt.kind) {
    case sql::StmtKind::Select:
    case sql::StmtKind::Insert:
    case sql::StmtKind::Update:
    case sql::StmtKind::Delete:
    case sql::StmtKind::Call: return true;
    default: return false;
  }
}

std::string commandTag(const PreparedPlan& plan, int64_t rows, int64_t affected) {
  switch (plan.command) {
    case PreparedPlan::Command::Select: return tagWithCount("SELECT ", rows);
    case PreparedPlan::Command::Insert: return tagWithCount("INSERT 0 ", affected);
    case PreparedPlan::Command::Update: return tagWithCount("UPDATE ", affected);
    case PreparedPlan::Command::Delete: return tagWithCount("DELETE ", affected);
    case PreparedPlan::Command::Call: return "CALL";
  }
  return "SELECT 0";
}

std::vector<ColumnDesc> columnsOf(const PreparedPlan& plan, const std::vector<int16_t>& formats) {
  std::vector<ColumnDesc> cols;
  for (size_t i = 0; i < plan.columns.size(); ++i) {
    const OutputColumn& c = plan.columns[i];
    cols.push_back(ColumnDesc{c.name, c.tableOid, c.attnum, typeOid(c.type), typeLen(c.type), atttypmod(c.type),
                              i < formats.size() ? formats[i] : int16_t{0}});
  }
  return cols;
}

void checkParamNumbers(const sql::ParsedStatement& p, std::string_view sql, int bindable) {
  int missing = p.firstParam >= 0 && (p.firstParam < 1 || p.firstParam > bindable) ? p.firstParam
                : p.explicitParams > bindable                                      ? p.explicitParams
                                                                                   : -1;
  if (missing < 0) return;
  throw SqlError(sqlstate::kUndefinedParameter, fmt::format("there is no parameter ${}", missing), {}, {},
                 missing == p.firstParam ? sql::sqlPosition(sql, p.firstParamLocation) : 0);
}

TextParams explicitParamsAsText(const Statement& st, const PreparedPlan& plan, const uint8_t* params,
                                const TypeContext& typeContext) {
  TextParams out;
  const TupleLayout& layout = plan.compiled->paramLayout;
  // Floats bound in binary must read back to the same bits: shortest exact digits, whatever
  // the session's extra_float_digits (the redo log's replay and snapshot processes parse them).
  TypeContext exact = typeContext;
  exact.extraFloatDigits = 1;
  for (int i = 0; i < st.parsed.explicitParams; ++i) {
    out.typeOids.push_back(typeOid(plan.paramTypes[i]));
    if (params[layout.nullOffset(i)]) {
      out.values.emplace_back(std::nullopt);
      continue;
    }
    std::string text;
    formatText(layout.types[i], params + layout.offsets[i], text, exact);
    out.values.emplace_back(std::move(text));
  }
  return out;
}

}  // namespace duet
