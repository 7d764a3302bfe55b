// Row constructors, (a, b) or ROW(a, b), where PostgreSQL takes them apart: compared with
// another row or with a subquery of as many columns, in IN lists of rows, and tested with
// IS [NOT] DISTINCT FROM and IS [NOT] NULL (PostgreSQL's make_row_comparison_op,
// make_row_distinct_op and the row case of IS NULL). A row is never a value of its own
// here: these are spelled out over its fields.
#include <fmt/format.h>

#include "compiler/binder/binder.h"
#include "engine/error.h"

namespace duet::binder {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;
using plan::Op;

namespace {

// AND (or OR) of `terms`; the one term itself.
ExprPtr combine(ExprKind kind, std::vector<ExprPtr> terms) {
  if (terms.size() == 1) return std::move(terms[0]);
  auto e = std::make_unique<Expr>(kind, SqlType{TypeId::Bool, -1});
  e->args = std::move(terms);
  return e;
}

ExprPtr negation(ExprPtr e) {
  auto n = std::make_unique<Expr>(ExprKind::Unary, SqlType{TypeId::Bool, -1});
  n->op = Op::Not;
  n->args.push_back(std::move(e));
  return n;
}

}  // namespace

std::vector<ExprPtr> Binder::bindRowFields(const sql::Expr& e, const Scope& scope, AggContext* agg) {
  std::vector<ExprPtr> fields;
  if (e.kind == sql::ExprKind::Row) {
    for (const auto& f : e.as<sql::RowExpr>().args) fields.push_back(bind(*f, scope, agg));
  } else {
    fields.push_back(bind(e, scope, agg));
  }
  return fields;
}

ExprPtr Binder::bindRowOperator(const sql::BinaryOp& op, const Scope& scope, AggContext* agg) {
  using K = sql::ExprKind;
  if (op.left->kind == K::Row && op.right->kind == K::SubLink &&
      op.right->as<sql::SubLink>().link == sql::SubLinkKind::Scalar)
    return bindSubLink(op.right->as<sql::SubLink>(), scope, agg, &op);
  if (op.left->kind == K::Row && op.right->kind == K::Row)
    return rowComparison(op.op, bindRowFields(*op.left, scope, agg), bindRowFields(*op.right, scope, agg), op.location);
  // A row against a single value: no operator takes a record.
  bool rowLeft = op.left->kind == K::Row;
  failRecordOperator(op.op, rowLeft, bind(rowLeft ? *op.right : *op.left, scope, agg)->type, op.location);
}

void Binder::failRecordOperator(const std::string& op, bool rowLeft, SqlType other, uint32_t location) {
  std::string otherType = typeName(other);
  failNoOperator(rowLeft ? "record" : otherType, op, rowLeft ? otherType : "record", location);
}

ExprPtr Binder::rowComparison(const std::string& op, std::vector<ExprPtr> left, std::vector<ExprPtr> right,
                              uint32_t location) {
  if (left.size() != right.size())
    fail(sqlstate::kSyntaxError, "unequal number of entries in row expressions", location);
  Op o = comparisonOp(op);
  if (o == Op::None) failRowOperator(op, std::move(left[0]), std::move(right[0]), location);
  if (left.size() == 1) return compare(o, std::move(left[0]), std::move(right[0]), location);
  if (o == Op::Eq || o == Op::Ne) {
    // Equal when every pair is, unequal when any pair is: the planner sees the pairs' own
    // equalities (join keys, index lookups).
    std::vector<ExprPtr> pairs;
    for (size_t i = 0; i < left.size(); ++i)
      pairs.push_back(compare(o, std::move(left[i]), std::move(right[i]), location));
    return combine(o == Op::Eq ? ExprKind::And : ExprKind::Or, std::move(pairs));
  }
  auto e = std::make_unique<Expr>(ExprKind::RowCompare, SqlType{TypeId::Bool, -1});
  e->op = o;
  for (size_t i = 0; i < left.size(); ++i) unify(left[i], right[i], op, location);
  for (auto& l : left) e->args.push_back(std::move(l));
  for (auto& r : right) e->args.push_back(std::move(r));
  return e;
}

void Binder::failRowOperator(const std::string& op, ExprPtr left, ExprPtr right, uint32_t location) {
  // PostgreSQL looks the operator up for the first pair: it must exist, yield a boolean and
  // order values (a btree operator).
  ExprPtr pair = bindBinary(op, std::move(left), std::move(right), location);
  if (pair->type.id != TypeId::Bool)
    fail(sqlstate::kDatatypeMismatch,
         fmt::format("row comparison operator must yield type boolean, not type {}", typeName(pair->type)), location);
  fail(sqlstate::kFeatureNotSupported,
       fmt::format("could not determine interpretation of row comparison operator {}", op), location);
}

ExprPtr Binder::bindRowDistinct(const sql::DistinctFrom& d, const Scope& scope, AggContext* agg) {
  bool rowLeft = d.left->kind == sql::ExprKind::Row;
  if (d.left->kind != d.right->kind)
    failRecordOperator("=", rowLeft, bind(rowLeft ? *d.right : *d.left, scope, agg)->type, d.location);
  std::vector<ExprPtr> left = bindRowFields(*d.left, scope, agg), right = bindRowFields(*d.right, scope, agg);
  if (left.size() != right.size())
    fail(sqlstate::kSyntaxError, "unequal number of entries in row expressions", d.location);
  std::vector<ExprPtr> same;
  for (size_t i = 0; i < left.size(); ++i)
    same.push_back(notDistinct(std::move(left[i]), std::move(right[i]), d.location));
  ExprPtr all = combine(ExprKind::And, std::move(same));
  return d.isNot ? std::move(all) : negation(std::move(all));
}

ExprPtr Binder::bindRowNullTest(const sql::NullTest& t, const Scope& scope, AggContext* agg) {
  // ROW(...) IS NULL: every field is; IS NOT NULL: every field is not (so a row with some
  // NULL fields is neither).
  std::vector<ExprPtr> tests;
  for (auto& field : bindRowFields(*t.arg, scope, agg)) {
    auto e = std::make_unique<Expr>(ExprKind::IsNull, SqlType{TypeId::Bool, -1});
    e->negated = t.isNot;
    e->args.push_back(std::move(field));
    tests.push_back(std::move(e));
  }
  if (tests.empty()) {  // ROW(): both hold of no fields
    auto e = std::make_unique<Expr>(ExprKind::Const, SqlType{TypeId::Bool, -1});
    e->constant[0] = 1;
    return e;
  }
  return combine(ExprKind::And, std::move(tests));
}

ExprPtr Binder::recordNullTest(ExprPtr record, bool isNot) {
  // A composite value IS NULL when it is NULL or each field is; IS NOT NULL when it is not
  // NULL and no field is (PostgreSQL's ExecEvalRowNull), the value evaluated once.
  std::vector<ExprPtr> args;
  args.push_back(std::move(record));
  auto mode = std::make_unique<Expr>(ExprKind::Const, SqlType{TypeId::Bool, -1});
  mode->constant[0] = isNot ? 1 : 0;
  args.push_back(std::move(mode));
  auto whenNull = std::make_unique<Expr>(ExprKind::Const, SqlType{TypeId::Bool, -1});
  whenNull->constant[0] = isNot ? 0 : 1;
  auto test = std::make_unique<Expr>(ExprKind::Coalesce, SqlType{TypeId::Bool, -1});
  test->args.push_back(call("duet_q_record_null_test", {TypeId::Bool, -1}, std::move(args)));
  test->args.push_back(std::move(whenNull));
  return test;
}

ExprPtr Binder::bindRowInList(const sql::InList& in, const Scope& scope, AggContext* agg) {
  std::vector<ExprPtr> arg = bindRowFields(*in.arg, scope, agg);
  std::vector<ExprPtr> matches;
  for (const auto& item : in.list) {
    std::vector<ExprPtr> left;
    for (const auto& field : arg) left.push_back(plan::cloneExpr(*field));
    if (item->kind != sql::ExprKind::Row) failRecordOperator("=", true, bind(*item, scope, agg)->type, in.location);
    matches.push_back(rowComparison("=", std::move(left), bindRowFields(*item, scope, agg), item->location));
  }
  ExprPtr any = combine(ExprKind::Or, std::move(matches));
  return in.isNot ? negation(std::move(any)) : std::move(any);
}

}  // namespace duet::binder
