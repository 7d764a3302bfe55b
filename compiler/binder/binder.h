// The binder: resolves names against the FROM scope, decides types (with PostgreSQL's
// coercion rules and parameter type inference), and turns AST expressions into bound
// plan::Expr trees. Used by the statement planners in this folder.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "compiler/binder/planner.h"
#include "compiler/binder/type_rules.h"
#include "compiler/plan/plan.h"

namespace duet::binder {

// One FROM item: its columns occupy [offset, offset + names.size()) of the input row.
struct ScopeEntry {
  std::string alias;
  const TableBinding* table = nullptr;  // null for derived tables
  std::vector<std::string> names;
  std::vector<SqlType> types;
  int offset = 0;
};

struct Scope {
  std::vector<ScopeEntry> entries;
  int width = 0;  // columns in the input row (including hidden rowids)
};

// Aggregation context: when set, expressions are bound over the aggregate's output.
struct AggContext {
  std::vector<plan::ExprPtr> groupExprs;  // bound over the FROM row
  std::vector<plan::AggSpec> aggs;
  const char* clause = "";  // for "aggregate functions are not allowed in %s"
};

class Binder {
 public:
  explicit Binder(const PlanRequest& request);

  [[noreturn]] void fail(const char* code, std::string message, uint32_t location) const;

  plan::ExprPtr bind(const sql::Expr& e, const Scope& scope, AggContext* agg = nullptr);
  // Converts to `target` (deciding unknown parameter types), or raises 42804 naming `what`.
  plan::ExprPtr coerce(plan::ExprPtr e, SqlType target, CastContext context, uint32_t location);
  plan::ExprPtr coerceToBool(plan::ExprPtr e, const char* what, uint32_t location);
  // Both operands to their common type, for comparisons and arithmetic.
  void unify(plan::ExprPtr& a, plan::ExprPtr& b, const std::string& op, uint32_t location);
  SqlType resolveType(const sql::TypeName& t) const;

  // Column name PostgreSQL gives an unnamed target ("?column?", function name, ...).
  static std::string targetName(const sql::Expr& e);
  static bool containsAggregate(const sql::Expr& e);

  std::vector<SqlType>& paramTypes() { return paramTypes_; }
  const PlanRequest& request() const { return request_; }

 private:
  plan::ExprPtr bindColumn(const sql::ColumnRef& ref, const Scope& scope);
  plan::ExprPtr bindFunction(const sql::FuncCall& f, const Scope& scope, AggContext* agg);
  plan::ExprPtr bindAggregate(const sql::FuncCall& f, const Scope& scope, AggContext* agg);
  plan::ExprPtr bindBinary(const std::string& op, plan::ExprPtr a, plan::ExprPtr b, uint32_t location);
  plan::ExprPtr compare(plan::Op op, plan::ExprPtr a, plan::ExprPtr b, uint32_t location);
  plan::ExprPtr call(const std::string& fn, SqlType type, std::vector<plan::ExprPtr> args);

  const PlanRequest& request_;
  std::vector<SqlType> paramTypes_;
};

bool exprEquals(const plan::Expr& a, const plan::Expr& b);
// Shifts every column reference by delta (moving an expression onto a narrower row).
void shiftColumns(plan::Expr& e, int delta);
// The smallest and largest column an expression reads, or {-1, -1} for none.
std::pair<int, int> columnRange(const plan::Expr& e);

}  // namespace duet::binder
