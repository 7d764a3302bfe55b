// Composite values where PostgreSQL makes them values: ROW(a, b) (or (a, b)) outside the
// comparisons row_binding.cpp spells out field by field, and `(x).field` on a record.
// A row constructor's fields are named f1, f2, ..., as PostgreSQL names them.
#include <fmt/format.h>

#include "compiler/binder/binder.h"
#include "engine/error.h"
#include "engine/types/record.h"

namespace duet::binder {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;

ExprPtr Binder::bindRow(const sql::RowExpr& r, const Scope& scope, AggContext* agg) {
  auto e = std::make_unique<Expr>(ExprKind::RecordBuild, SqlType{});
  std::vector<RecordField> fields;
  for (const auto& a : r.args) {
    ExprPtr field = bind(*a, scope, agg);
    // An untyped literal becomes text, as in any other value PostgreSQL must type.
    if (field->type.id == TypeId::Unknown)
      field = coerce(std::move(field), {TypeId::Text, -1}, CastContext::Implicit, a->location);
    fields.push_back({fmt::format("f{}", fields.size() + 1), field->type});
    e->args.push_back(std::move(field));
  }
  e->type = recordType(fields);
  return e;
}

ExprPtr Binder::unnestZip(std::vector<ExprPtr>& args, uint32_t location) {
  for (const ExprPtr& a : args) {
    if (a->type.id == TypeId::Unknown)
      fail(sqlstate::kDatatypeMismatch, "could not determine polymorphic type because input has type unknown",
           location);
    if (!a->type.isArray()) return nullptr;
  }
  auto arrays = std::make_unique<Expr>(ExprKind::RecordBuild, SqlType{});
  std::vector<RecordField> inputs, outputs;
  for (ExprPtr& a : args) {
    inputs.push_back({fmt::format("f{}", inputs.size() + 1), a->type});
    outputs.push_back({"unnest", a->type.elementType().withoutTypmod()});
    arrays->args.push_back(std::move(a));
  }
  arrays->type = recordType(inputs);
  std::vector<ExprPtr> callArgs;
  callArgs.push_back(std::move(arrays));
  return call("duet_q_unnest_zip", recordType(outputs), std::move(callArgs));
}

namespace {
const std::vector<RecordField> kNoFields;
}  // namespace

std::vector<std::pair<std::string, ExprPtr>> Binder::expandFields(const sql::FieldSelect& f, const Scope& scope,
                                                                  AggContext* agg) {
  ExprPtr record = bind(*f.arg, scope, agg);
  if (record->type.id != TypeId::Record)
    fail(sqlstate::kWrongObjectType, fmt::format("type {} is not composite", typeName(record->type)), f.arg->location);
  if (record->type.typmod < 0) fail(sqlstate::kWrongObjectType, "record type has not been registered", f.arg->location);
  // One selection per field, each evaluating the value (as PostgreSQL's expansion does).
  std::vector<std::pair<std::string, ExprPtr>> out;
  const std::vector<RecordField>& fields = recordFields(record->type);
  for (size_t i = 0; i < fields.size(); ++i) {
    auto e = std::make_unique<Expr>(ExprKind::FieldSelect, fields[i].type);
    e->column = static_cast<int>(i);
    e->args.push_back(plan::cloneExpr(*record));
    out.emplace_back(fields[i].name, std::move(e));
  }
  return out;
}

ExprPtr Binder::bindFieldSelect(const sql::FieldSelect& f, const Scope& scope, AggContext* agg) {
  if (f.star) fail(sqlstate::kFeatureNotSupported, "row expansion via \"*\" is not supported here", f.location);
  ExprPtr record = bind(*f.arg, scope, agg);
  if (record->type.id != TypeId::Record)
    fail(sqlstate::kWrongObjectType,
         fmt::format("column notation .{} applied to type {}, which is not a composite type", f.field,
                     typeName(record->type)),
         f.arg->location);
  // A record whose row type is not known here (a RECORD variable no statement gives one)
  // has no fields to select.
  const std::vector<RecordField>& fields = record->type.typmod >= 0 ? recordFields(record->type) : kNoFields;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name != f.field) continue;
    auto e = std::make_unique<Expr>(ExprKind::FieldSelect, fields[i].type);
    e->column = static_cast<int>(i);
    e->args.push_back(std::move(record));
    return e;
  }
  if (compositeTypeOid(record->type) != 0)
    fail(sqlstate::kUndefinedColumn,
         fmt::format("column \"{}\" not found in data type {}", f.field, typeName(record->type)), f.arg->location);
  fail(sqlstate::kUndefinedColumn, fmt::format("could not identify column \"{}\" in record data type", f.field),
       f.arg->location);
}

}  // namespace duet::binder
