// Column-reference and subquery walks over statements and expressions (see ast_walk.h).
#include "compiler/parser/ast_walk.h"

#include "compiler/parser/ast_routine.h"
#include "engine/limits/stack_depth.h"

namespace duet::sql {
namespace {

// What a walk reports: column references, subqueries, FROM items naming a relation (any
// may be empty).
struct Visit {
  std::function<void(const ColumnRef&)> columnRef;
  std::function<void(const SubLink&)> subLink;
  std::function<void(const RangeTable&)> rangeTable;
};

void walk(const Expr* e, const Visit& visit);
void walkSelect(const SelectStmt* s, const Visit& visit);

void walkAll(const std::vector<ExprPtr>& list, const Visit& visit) {
  for (const auto& e : list) walk(e.get(), visit);
}

void walkTargets(const std::vector<ResTarget>& targets, const Visit& visit) {
  for (const auto& t : targets) walk(t.expr.get(), visit);
}

void walkFrom(const TableRef* t, const Visit& visit) {
  if (!t) return;
  switch (t->kind) {
    case TableRefKind::Table:
      if (visit.rangeTable) visit.rangeTable(t->as<RangeTable>());
      break;
    case TableRefKind::Subquery: walkSelect(t->as<RangeSubquery>().subquery.get(), visit); break;
    case TableRefKind::Function: walk(t->as<RangeFunction>().call.get(), visit); break;
    case TableRefKind::Join: {
      const auto& j = t->as<JoinRef>();
      walkFrom(j.left.get(), visit);
      walkFrom(j.right.get(), visit);
      walk(j.on.get(), visit);
      break;
    }
  }
}

void walkWindow(const WindowDef* w, const Visit& visit) {
  if (!w) return;
  walkAll(w->partitionBy, visit);
  for (const auto& o : w->orderBy) walk(o.expr.get(), visit);
  walk(w->start.offset.get(), visit);
  walk(w->end.offset.get(), visit);
}

void walkStmt(const Stmt& stmt, const Visit& visit);

void walkWith(const WithList& w, const Visit& visit) {
  for (const auto& cte : w.with) {
    walkSelect(cte.query.get(), visit);
    if (cte.dml) walkStmt(*cte.dml, visit);
  }
}

void walkSelect(const SelectStmt* s, const Visit& visit) {
  if (!s) return;
  checkStackDepth();
  walkWith(*s, visit);
  walkAll(s->distinctOn, visit);
  walkTargets(s->targets, visit);
  for (const auto& f : s->from) walkFrom(f.get(), visit);
  walk(s->where.get(), visit);
  walkAll(s->groupBy, visit);
  walk(s->having.get(), visit);
  for (const auto& w : s->windows) walkWindow(&w, visit);
  for (const auto& row : s->values) walkAll(row, visit);
  walkSelect(s->left.get(), visit);
  walkSelect(s->right.get(), visit);
  for (const auto& o : s->orderBy) walk(o.expr.get(), visit);
  walk(s->limit.get(), visit);
  walk(s->offset.get(), visit);
}

void walk(const Expr* e, const Visit& visit) {
  if (!e) return;
  checkStackDepth();
  switch (e->kind) {
    case ExprKind::Literal:
    case ExprKind::Param:
    case ExprKind::SqlValue:
    case ExprKind::Default: break;
    case ExprKind::ColumnRef:
      if (visit.columnRef) visit.columnRef(e->as<ColumnRef>());
      break;
    case ExprKind::Unary: walk(e->as<UnaryOp>().operand.get(), visit); break;
    case ExprKind::Binary:
      walk(e->as<BinaryOp>().left.get(), visit);
      walk(e->as<BinaryOp>().right.get(), visit);
      break;
    case ExprKind::Bool: walkAll(e->as<BoolExpr>().args, visit); break;
    case ExprKind::NullTest: walk(e->as<NullTest>().arg.get(), visit); break;
    case ExprKind::BoolTest: walk(e->as<BoolTest>().arg.get(), visit); break;
    case ExprKind::DistinctFrom:
      walk(e->as<DistinctFrom>().left.get(), visit);
      walk(e->as<DistinctFrom>().right.get(), visit);
      break;
    case ExprKind::Between: {
      const auto& b = e->as<Between>();
      walk(b.arg.get(), visit);
      walk(b.low.get(), visit);
      walk(b.high.get(), visit);
      break;
    }
    case ExprKind::InList:
      walk(e->as<InList>().arg.get(), visit);
      walkAll(e->as<InList>().list, visit);
      break;
    case ExprKind::Like: {
      const auto& l = e->as<Like>();
      walk(l.arg.get(), visit);
      walk(l.pattern.get(), visit);
      walk(l.escape.get(), visit);
      break;
    }
    case ExprKind::Cast: walk(e->as<Cast>().arg.get(), visit); break;
    case ExprKind::Case: {
      const auto& c = e->as<CaseExpr>();
      walk(c.arg.get(), visit);
      for (const auto& w : c.whens) {
        walk(w.condition.get(), visit);
        walk(w.result.get(), visit);
      }
      walk(c.elseResult.get(), visit);
      break;
    }
    case ExprKind::FuncCall: {
      const auto& f = e->as<FuncCall>();
      walkAll(f.args, visit);
      for (const auto& o : f.orderBy) walk(o.expr.get(), visit);
      walk(f.filter.get(), visit);
      walkWindow(f.over.get(), visit);
      break;
    }
    case ExprKind::GroupingSet: walkAll(e->as<GroupingSet>().items, visit); break;
    case ExprKind::SubLink:
      if (visit.subLink) visit.subLink(e->as<SubLink>());
      walk(e->as<SubLink>().test.get(), visit);
      walkSelect(e->as<SubLink>().subquery.get(), visit);
      break;
    case ExprKind::ArrayOp:
      walk(e->as<ArrayOp>().left.get(), visit);
      walk(e->as<ArrayOp>().array.get(), visit);
      break;
    case ExprKind::Row: walkAll(e->as<RowExpr>().args, visit); break;
    case ExprKind::Array: walkAll(e->as<ArrayExpr>().elements, visit); break;
    case ExprKind::FieldSelect: walk(e->as<FieldSelect>().arg.get(), visit); break;
    case ExprKind::Subscript: {
      const auto& s = e->as<Subscript>();
      walk(s.arg.get(), visit);
      for (const auto& i : s.indexes) {
        walk(i.lower.get(), visit);
        walk(i.upper.get(), visit);
      }
      break;
    }
  }
}

}  // namespace

void visitColumnRefs(const Expr& expr, const std::function<void(const ColumnRef&)>& visitRef) {
  walk(&expr, Visit{visitRef, {}, {}});
}

void visitSubLinks(const Expr& expr, const std::function<void(const SubLink&)>& visitLink) {
  walk(&expr, Visit{{}, visitLink, {}});
}

void visitColumnRefs(const Stmt& stmt, const std::function<void(const ColumnRef&)>& visitRef) {
  walkStmt(stmt, Visit{visitRef, {}, {}});
}

void visitRangeTables(const Stmt& stmt, const std::function<void(const RangeTable&)>& visitTable) {
  walkStmt(stmt, Visit{{}, {}, visitTable});
}

namespace {

void walkStmt(const Stmt& stmt, const Visit& visit) {
  switch (stmt.kind) {
    case StmtKind::Select: walkSelect(&stmt.as<SelectStmt>(), visit); break;
    case StmtKind::Insert: {
      const auto& i = stmt.as<InsertStmt>();
      walkWith(i, visit);
      walkSelect(i.source.get(), visit);
      if (i.onConflict) {
        walk(i.onConflict->indexWhere.get(), visit);
        for (const auto& c : i.onConflict->set) walk(c.value.get(), visit);
        walk(i.onConflict->where.get(), visit);
      }
      walkTargets(i.returning, visit);
      break;
    }
    case StmtKind::Update: {
      const auto& u = stmt.as<UpdateStmt>();
      walkWith(u, visit);
      for (const auto& c : u.set) walk(c.value.get(), visit);
      for (const auto& f : u.from) walkFrom(f.get(), visit);
      walk(u.where.get(), visit);
      walk(u.currentOf.get(), visit);
      walkTargets(u.returning, visit);
      break;
    }
    case StmtKind::Delete: {
      const auto& d = stmt.as<DeleteStmt>();
      walkWith(d, visit);
      for (const auto& f : d.using_) walkFrom(f.get(), visit);
      walk(d.where.get(), visit);
      walk(d.currentOf.get(), visit);
      walkTargets(d.returning, visit);
      break;
    }
    case StmtKind::Call: walk(stmt.as<CallStmt>().call.get(), visit); break;
    default: break;  // other statements hold no expressions a variable could appear in
  }
}

}  // namespace

}  // namespace duet::sql
