#include "compiler/plpgsql/strict_params.h"

#include "compiler/plpgsql/dynamic_sql.h"
#include "engine/error.h"
#include "engine/types/value_io.h"

namespace duet::plpgsql {

bool printStrictParams(const rt::QueryContext* ctx, PrintStrictParams mode) {
  if (mode != PrintStrictParams::Setting) return mode == PrintStrictParams::On;
  const std::string* value =
      ctx && ctx->settings ? ctx->settings->currentSetting("plpgsql.print_strict_params") : nullptr;
  return value && *value == "on";
}

std::string strictParamsDetail(const std::vector<std::string>& names, const TupleLayout& layout, const uint8_t* tuple,
                               const rt::QueryContext* ctx) {
  if (layout.types.empty()) return {};
  std::string out = "parameters: ";
  std::string value;
  for (size_t i = 0; i < layout.types.size(); ++i) {
    if (i > 0) out += ", ";
    out += names.empty() ? "$" + std::to_string(i + 1) : names[i];
    out += " = ";
    if (tuple[layout.nullOffset(static_cast<uint32_t>(i))]) {
      out += "NULL";
      continue;
    }
    value.clear();
    formatText(layout.types[i], tuple + layout.offsets[i], value, typeContextOf(ctx));
    out += '\'';
    for (char c : value) {
      if (c == '\'') out += '\'';
      out += c;
    }
    out += '\'';
  }
  return out;
}

}  // namespace duet::plpgsql

using namespace duet;
using namespace duet::plpgsql;

extern "C" {

void duet_plpgsql_strict_fail(rt::QueryContext* ctx, const StrictSpec* spec, const uint8_t* values) {
  std::string detail;
  if (printStrictParams(ctx, spec->mode)) detail = strictParamsDetail(spec->names, spec->layout, values, ctx);
  throw SqlError(spec->code, spec->message, detail, spec->hint);
}

}  // extern "C"
