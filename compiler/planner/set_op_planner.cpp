// UNION, INTERSECT and EXCEPT [ALL]. Each operand is planned as a query of its own; the
// columns' types are resolved pairwise, bottom-up, as PostgreSQL's
// transformSetOperationTree does (the common type, unknown literals as text), and the
// result columns take the left operand's names. UNION ALL appends the operands' rows,
// UNION removes duplicates from them; INTERSECT and EXCEPT count each distinct row on each
// side (NULLs equal, as in GROUP BY) and keep the rows the operation allows, ALL as many
// times as it allows them.
#include <fmt/format.h>

#include "compiler/planner/plan_building.h"
#include "compiler/planner/statement_planner.h"
#include "engine/error.h"
#include "engine/limits/stack_depth.h"

namespace duet::planner {

namespace {

const char* opName(sql::SetOpKind op) {
  return op == sql::SetOpKind::Union ? "UNION" : op == sql::SetOpKind::Intersect ? "INTERSECT" : "EXCEPT";
}

ExprPtr int8Column(int column) { return plan::makeColumn(column, {TypeId::Int8, -1}); }

ExprPtr int8Const(int64_t value) {
  auto e = std::make_unique<plan::Expr>(ExprKind::Const, SqlType{TypeId::Int8, -1});
  std::memcpy(e->constant, &value, sizeof value);
  return e;
}

ExprPtr compare(plan::Op op, ExprPtr a, ExprPtr b) {
  auto e = std::make_unique<plan::Expr>(ExprKind::Compare, SqlType{TypeId::Bool, -1});
  e->op = op;
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

// `node`'s rows with two more int8 columns, for counting which side a row came from: 1
// and NULL on the left side, NULL and 1 on the right.
NodePtr tagged(NodePtr node, bool left) {
  std::vector<ExprPtr> exprs;
  for (size_t c = 0; c < node->outputTypes.size(); ++c)
    exprs.push_back(plan::makeColumn(static_cast<int>(c), node->outputTypes[c]));
  for (bool side : {true, false})
    exprs.push_back(side == left ? int8Const(1) : plan::makeNullConst({TypeId::Int8, -1}));
  return project(std::move(node), std::move(exprs));
}

}  // namespace

uint32_t columnLocation(const sql::SelectStmt& operand, size_t c) {
  const sql::SelectStmt* s = &operand;
  while (s->body == sql::SelectStmt::Body::SetOp) s = s->left.get();
  if (s->body == sql::SelectStmt::Body::Simple && c < s->targets.size()) return s->targets[c].expr->location;
  return s->begin;
}

NodePtr StatementPlanner::planSetOperand(const sql::SelectStmt& s, std::vector<OutputColumn>& columns) {
  // A set operation without its own ORDER BY or LIMIT joins the tree; a query without them
  // keeps its untyped literals unknown, for the set operation to type them as the other
  // side's columns (SELECT 1 UNION SELECT NULL is integer); anything else is a query of
  // its own, its unknown literals text.
  bool plain = s.orderBy.empty() && !s.limit && !s.offset;
  if (s.body == sql::SelectStmt::Body::SetOp && plain) return planSetOp(s, columns);
  return planSubquery(s, columns, !plain);
}

NodePtr StatementPlanner::planSetOp(const sql::SelectStmt& s, std::vector<OutputColumn>& columns) {
  checkStackDepth();
  std::vector<OutputColumn> rightColumns;
  NodePtr left = planSetOperand(*s.left, columns);
  NodePtr right = planSetOperand(*s.right, rightColumns);
  const char* name = opName(s.setOp);
  if (columns.size() != rightColumns.size())
    b_.fail(sqlstate::kSyntaxError, fmt::format("each {} query must have the same number of columns", name),
            columnLocation(*s.right, 0));
  // Both sides in the common type of each column.
  std::vector<ExprPtr> leftCast, rightCast;
  bool castLeft = false, castRight = false;
  for (size_t c = 0; c < columns.size(); ++c) {
    SqlType l = columns[c].type, r = rightColumns[c].type;
    auto common = binder::commonType(l, r);
    if (!common)
      b_.fail(sqlstate::kDatatypeMismatch,
              fmt::format("{} types {} and {} cannot be matched", name, typeName({l.id, -1}), typeName({r.id, -1})),
              columnLocation(*s.right, c));
    SqlType type = binder::resolveUnknown(*common);
    castLeft = castLeft || !(type == l);
    castRight = castRight || !(type == r);
    leftCast.push_back(b_.coerce(plan::makeColumn(static_cast<int>(c), l), type, CastContext::Implicit, s.begin));
    rightCast.push_back(b_.coerce(plan::makeColumn(static_cast<int>(c), r), type, CastContext::Implicit, s.begin));
    columns[c] = {columns[c].name, type};
  }
  if (castLeft) left = project(std::move(left), std::move(leftCast));
  if (castRight) right = project(std::move(right), std::move(rightCast));
  std::vector<SqlType> types = left->outputTypes;
  int width = static_cast<int>(types.size());

  if (s.setOp == sql::SetOpKind::Union) {
    auto append = std::make_unique<Node>(NodeKind::Append);
    append->outputTypes = types;
    append->children.push_back(std::move(left));
    append->children.push_back(std::move(right));
    if (s.setAll) return append;
    auto distinct = std::make_unique<Node>(NodeKind::Distinct);
    distinct->outputTypes = types;
    distinct->children.push_back(std::move(append));
    return distinct;
  }
  // INTERSECT / EXCEPT: per distinct row, how many came from each side (the count of a
  // tag that is 1 on its side, NULL on the other).
  auto append = std::make_unique<Node>(NodeKind::Append);
  append->outputTypes = types;
  append->outputTypes.push_back({TypeId::Int8, -1});
  append->outputTypes.push_back({TypeId::Int8, -1});
  append->children.push_back(tagged(std::move(left), true));
  append->children.push_back(tagged(std::move(right), false));
  auto counts = std::make_unique<Node>(NodeKind::Aggregate);
  for (int c = 0; c < width; ++c) counts->exprs.push_back(plan::makeColumn(c, types[c]));
  for (int side = 0; side < 2; ++side) {
    plan::AggSpec count;
    count.kind = plan::AggKind::Count;
    count.arg = int8Column(width + side);
    count.resultType = {TypeId::Int8, -1};
    counts->aggs.push_back(std::move(count));
  }
  counts->outputTypes = append->outputTypes;
  counts->children.push_back(std::move(append));
  NodePtr node = std::move(counts);
  ExprPtr leftCount = int8Column(width), rightCount = int8Column(width + 1);
  if (!s.setAll) {
    // INTERSECT: on both sides; EXCEPT: on the left only. Once each.
    std::vector<ExprPtr> keep;
    keep.push_back(compare(plan::Op::Gt, std::move(leftCount), int8Const(0)));
    keep.push_back(compare(s.setOp == sql::SetOpKind::Intersect ? plan::Op::Gt : plan::Op::Eq, std::move(rightCount),
                           int8Const(0)));
    node = filter(std::move(node), conjunction(std::move(keep)));
  } else {
    // INTERSECT ALL: as often as on the side where it is fewer; EXCEPT ALL: as often as the
    // left side has it more.
    auto times = std::make_unique<plan::Expr>(
        s.setOp == sql::SetOpKind::Intersect ? ExprKind::Greatest : ExprKind::Binary, SqlType{TypeId::Int8, -1});
    times->op = s.setOp == sql::SetOpKind::Intersect ? plan::Op::Lt : plan::Op::Sub;
    times->args.push_back(std::move(leftCount));
    times->args.push_back(std::move(rightCount));
    auto repeat = std::make_unique<Node>(NodeKind::Repeat);
    repeat->outputTypes = node->outputTypes;
    repeat->exprs.push_back(std::move(times));
    repeat->children.push_back(std::move(node));
    node = std::move(repeat);
  }
  std::vector<ExprPtr> row;
  for (int c = 0; c < width; ++c) row.push_back(plan::makeColumn(c, types[c]));
  return project(std::move(node), std::move(row));
}

std::vector<plan::SortKey> StatementPlanner::setOpOrder(const sql::SelectStmt& s,
                                                        const std::vector<OutputColumn>& columns) {
  std::vector<plan::SortKey> keys;
  for (const auto& o : s.orderBy) {
    const sql::Expr& e = *o.expr;
    if (e.kind == sql::ExprKind::Literal) {
      keys.push_back(sortKey(o, static_cast<int>(positionIndex(e, columns.size(), "ORDER BY"))));
      continue;
    }
    int match = -1;
    if (e.kind == sql::ExprKind::ColumnRef && e.as<sql::ColumnRef>().names.size() == 1) {
      const std::string& n = e.as<sql::ColumnRef>().names[0];
      for (size_t i = 0; i < columns.size() && match < 0; ++i)
        if (columns[i].name == n) match = static_cast<int>(i);
      if (match < 0) b_.fail(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", n), e.location);
    }
    if (match < 0) {
      try {
        b_.fail(sqlstate::kFeatureNotSupported, "invalid UNION/INTERSECT/EXCEPT ORDER BY clause", e.location);
      } catch (SqlError& error) {
        error.detail = "Only result column names can be used, not expressions or functions.";
        error.hint = "Add the expression/function to every SELECT, or move the UNION into a FROM clause.";
        throw;
      }
    }
    keys.push_back(sortKey(o, match));
  }
  return keys;
}

}  // namespace duet::planner
