// The json and jsonb operators, chosen among their functions as PostgreSQL's
// oper_select_candidate chooses (CandidateScore), and to_json's binding: the value goes by
// address with its type, which the runtime function prints as JSON.
#include <fmt/format.h>

#include <cstring>

#include "compiler/binder/binder.h"
#include "compiler/functions/builtin_functions.h"
#include "engine/error.h"

namespace duet::binder {

using plan::ExprPtr;

namespace {

struct JsonOperator {
  const char* op;
  TypeId left, right;
  const char* symbol;  // a row of compiler/functions/json_builtin_functions.cpp
};

using enum TypeId;
constexpr JsonOperator kJsonOperators[] = {
    {"->", Json, Text, "duet_rt_json_object_field"},
    {"->", Json, Int4, "duet_rt_json_array_element"},
    {"->", Jsonb, Text, "duet_rt_jsonb_object_field"},
    {"->", Jsonb, Int4, "duet_rt_jsonb_array_element"},
    {"->>", Json, Text, "duet_rt_json_object_field_text"},
    {"->>", Json, Int4, "duet_rt_json_array_element_text"},
    {"->>", Jsonb, Text, "duet_rt_jsonb_object_field_text"},
    {"->>", Jsonb, Int4, "duet_rt_jsonb_array_element_text"},
    {"#>", Json, Array, "duet_rt_json_extract_path"},
    {"#>", Jsonb, Array, "duet_rt_jsonb_extract_path"},
    {"#>>", Json, Array, "duet_rt_json_extract_path_text"},
    {"#>>", Jsonb, Array, "duet_rt_jsonb_extract_path_text"},
    {"@>", Jsonb, Jsonb, "duet_rt_jsonb_contains"},
    {"<@", Jsonb, Jsonb, "duet_rt_jsonb_contained"},
    {"?", Jsonb, Text, "duet_rt_jsonb_exists"},
    {"?|", Jsonb, Array, "duet_rt_jsonb_exists_any"},
    {"?&", Jsonb, Array, "duet_rt_jsonb_exists_all"},
    {"||", Jsonb, Jsonb, "duet_rt_jsonb_concat"},
    {"-", Jsonb, Text, "duet_rt_jsonb_delete"},
    {"-", Jsonb, Int4, "duet_rt_jsonb_delete_index"},
    {"-", Jsonb, Array, "duet_rt_jsonb_delete_keys"},
    {"#-", Jsonb, Array, "duet_rt_jsonb_delete_path"},
};

// An integer constant naming part of a type for the runtime.
ExprPtr typeCode(int32_t v) {
  auto e = std::make_unique<plan::Expr>(plan::ExprKind::Const, SqlType{Int4, -1});
  std::memcpy(e->constant, &v, sizeof v);
  return e;
}

// Every array operand of these operators is a text[].
SqlType operandType(TypeId t) { return t == Array ? SqlType::arrayOf({Text, -1}) : SqlType{t, -1}; }

}  // namespace

ExprPtr Binder::bindJsonOperator(const std::string& op, ExprPtr& a, ExprPtr& b, uint32_t location) {
  bool known = false;
  for (const JsonOperator& o : kJsonOperators) known = known || op == o.op;
  if (!known) return nullptr;
  // || and - are also text's and the numbers' operators: jsonb's only with a jsonb operand.
  TypeId ta = a->type.id, tb = b->type.id;
  if (op == "||" && !((ta == Jsonb && (tb == Jsonb || tb == Unknown)) || (tb == Jsonb && ta == Unknown)))
    return nullptr;
  if (op == "-" && ta != Jsonb) return nullptr;
  BestCandidate<JsonOperator> chosen;
  for (const JsonOperator& o : kJsonOperators) {
    if (op != o.op) continue;
    CandidateScore score;
    if (score.add(a->type, operandType(o.left)) && score.add(b->type, operandType(o.right))) chosen.offer(&o, score);
  }
  if (!chosen.best) failNoOperator(typeName(a->type), op, typeName(b->type), location);
  if (chosen.ambiguous)
    fail(sqlstate::kAmbiguousFunction,
         fmt::format("operator is not unique: {} {} {}", typeName(a->type), op, typeName(b->type)), location, {},
         "Could not choose a best candidate operator. You might need to add explicit type casts.");
  const JsonOperator& o = *chosen.best;
  std::vector<ExprPtr> args;
  args.push_back(coerce(std::move(a), operandType(o.left), CastContext::Implicit, location));
  args.push_back(coerce(std::move(b), operandType(o.right), CastContext::Implicit, location));
  return call(o.symbol, {builtinFunctionBySymbol(o.symbol)->result, -1}, std::move(args));
}

ExprPtr Binder::toJson(ExprPtr e, bool jsonb, uint32_t location) {
  if (e->type.id == Unknown) e = coerce(std::move(e), {Text, -1}, CastContext::Implicit, location);
  if (e->type.id == (jsonb ? Jsonb : Json)) return e;
  SqlType type = e->type;
  std::vector<ExprPtr> args;
  args.push_back(std::move(e));
  args.push_back(typeCode(static_cast<int32_t>(type.id)));
  args.push_back(typeCode(static_cast<int32_t>(type.element)));
  args.push_back(typeCode(static_cast<int32_t>(type.alias)));
  return call(jsonb ? "duet_q_to_jsonb" : "duet_q_to_json", {jsonb ? Jsonb : Json, -1}, std::move(args));
}

}  // namespace duet::binder
