#include "compiler/runtime/array_functions.h"

#include <string>

#include "engine/types/array.h"
#include "engine/types/json_values.h"
#include "engine/types/type_context.h"
#include "engine/types/value_io.h"

using duet::VarString;
using duet::rt::QueryContext;

namespace {

const VarString* joinElements(QueryContext* ctx, const VarString* array, const VarString* delimiter,
                              const VarString* nullString) {
  static const duet::TypeContext kDefault;
  const duet::TypeContext& types = ctx->typeContext ? *ctx->typeContext : kDefault;
  duet::ArrayView view(array);
  duet::SqlType element{view.elementType(), -1};
  std::string out;
  bool first = true;
  alignas(16) unsigned char value[16];
  for (uint32_t i = 0; i < view.size(); ++i) {
    if (view.isNull(i) && !nullString) continue;
    if (!first) out.append(delimiter->view());
    first = false;
    if (view.isNull(i)) {
      out.append(nullString->view());
      continue;
    }
    view.load(i, value);
    duet::formatText(element, value, out, types);
  }
  return duet::statementArena().makeString(out);
}

}  // namespace

extern "C" {

const VarString* duet_q_array_remove(QueryContext*, const VarString* array, const void* element) {
  duet::ArrayView view(array);
  duet::SqlType type{view.elementType(), -1};
  duet::ArrayBuilder kept(view.elementType());
  alignas(16) unsigned char value[16];
  for (uint32_t i = 0; i < view.size(); ++i) {
    // NULL matches only NULL here (array_remove's IS NOT DISTINCT FROM).
    if (view.isNull(i)) {
      if (element) kept.appendNull();
      continue;
    }
    view.load(i, value);
    if (!element || duet::compareValues(type, value, element) != 0) kept.append(value);
  }
  return kept.finish(duet::statementArena());
}

const VarString* duet_q_array_to_string(QueryContext* ctx, const VarString* array, const VarString* delimiter) {
  return joinElements(ctx, array, delimiter, nullptr);
}

const VarString* duet_q_array_to_string_nulls(QueryContext* ctx, const VarString* array, const VarString* delimiter,
                                              const VarString* nullString) {
  return joinElements(ctx, array, delimiter, nullString);
}

const VarString* duet_q_array_element_texts(QueryContext* ctx, const VarString* array, bool json) {
  static const duet::TypeContext kDefault;
  const duet::TypeContext& types = ctx->typeContext ? *ctx->typeContext : kDefault;
  duet::ArrayView view(array);
  duet::SqlType element{view.elementType(), -1};
  duet::ArrayBuilder texts(duet::TypeId::Text);
  alignas(16) unsigned char value[16];
  std::string out;
  for (uint32_t i = 0; i < view.size(); ++i) {
    if (view.isNull(i)) {
      texts.appendNull();
      continue;
    }
    view.load(i, value);
    out.clear();
    if (json)
      duet::appendValueJson(element, value, out, types);
    else
      duet::formatText(element, value, out, types);
    const VarString* text = duet::statementArena().makeString(out);
    texts.append(&text);
  }
  return texts.finish(duet::statementArena());
}

}  // extern "C"
