// Helpers for the parser tests: parse one statement, and print expressions as
// S-expressions so that tree shapes (precedence, associativity) are easy to compare.
#pragma once
#include <string>
#include <string_view>

#include "compiler/parser/parser.h"

namespace duet::sql::test {

inline ParsedStatement parseOne(std::string_view sql, bool lift = false) {
  ParseOptions opts;
  opts.liftLiterals = lift;
  auto stmts = parseQuery(sql, opts);
  if (stmts.size() != 1) throw std::runtime_error("expected one statement");
  return std::move(stmts[0]);
}

template <class T>
inline T& stmtAs(ParsedStatement& p) {
  return p.stmt->as<T>();
}

inline std::string typeText(const TypeName& t) {
  std::string s;
  for (const auto& n : t.names) s += (s.empty() ? "" : ".") + n;
  if (!t.modifiers.empty()) {
    s += "(";
    for (size_t i = 0; i < t.modifiers.size(); ++i) s += (i ? "," : "") + std::to_string(t.modifiers[i]);
    s += ")";
  }
  for (int i = 0; i < t.arrayBounds; ++i) s += "[]";
  return s;
}

inline std::string sexpr(const Expr* e) {
  if (!e) return "<null>";
  auto list = [](const std::vector<ExprPtr>& v) {
    std::string s;
    for (const auto& x : v) s += " " + sexpr(x.get());
    return s;
  };
  switch (e->kind) {
    case ExprKind::Literal: {
      const auto& l = e->as<Literal>();
      return l.literal == LiteralKind::String ? "'" + l.text + "'" : l.text;
    }
    case ExprKind::Param: return "$" + std::to_string(e->as<Param>().number);
    case ExprKind::ColumnRef: {
      const auto& c = e->as<ColumnRef>();
      std::string s;
      for (const auto& n : c.names) s += (s.empty() ? "" : ".") + n;
      if (c.star) s += s.empty() ? "*" : ".*";
      return s;
    }
    case ExprKind::Unary: return "(" + e->as<UnaryOp>().op + " " + sexpr(e->as<UnaryOp>().operand.get()) + ")";
    case ExprKind::Binary: {
      const auto& b = e->as<BinaryOp>();
      return "(" + b.op + " " + sexpr(b.left.get()) + " " + sexpr(b.right.get()) + ")";
    }
    case ExprKind::Bool: {
      const auto& b = e->as<BoolExpr>();
      const char* op = b.op == BoolOpKind::And ? "and" : b.op == BoolOpKind::Or ? "or" : "not";
      return std::string("(") + op + list(b.args) + ")";
    }
    case ExprKind::NullTest: {
      const auto& n = e->as<NullTest>();
      return std::string(n.isNot ? "(isnotnull " : "(isnull ") + sexpr(n.arg.get()) + ")";
    }
    case ExprKind::BoolTest: {
      static const char* const kNames[] = {"istrue", "isnottrue", "isfalse", "isnotfalse", "isunknown", "isnotunknown"};
      const auto& b = e->as<BoolTest>();
      return std::string("(") + kNames[static_cast<int>(b.test)] + " " + sexpr(b.arg.get()) + ")";
    }
    case ExprKind::DistinctFrom: {
      const auto& d = e->as<DistinctFrom>();
      return std::string(d.isNot ? "(notdistinct " : "(distinct ") + sexpr(d.left.get()) + " " + sexpr(d.right.get()) +
             ")";
    }
    case ExprKind::Between: {
      const auto& b = e->as<Between>();
      return std::string("(") + (b.isNot ? "not" : "") + "between" + (b.symmetric ? "sym " : " ") + sexpr(b.arg.get()) +
             " " + sexpr(b.low.get()) + " " + sexpr(b.high.get()) + ")";
    }
    case ExprKind::InList: {
      const auto& i = e->as<InList>();
      return std::string(i.isNot ? "(notin " : "(in ") + sexpr(i.arg.get()) + list(i.list) + ")";
    }
    case ExprKind::Like: {
      const auto& l = e->as<Like>();
      std::string s = std::string("(") + (l.isNot ? "not" : "") + (l.caseInsensitive ? "ilike " : "like ") +
                      sexpr(l.arg.get()) + " " + sexpr(l.pattern.get());
      if (l.escape) s += " " + sexpr(l.escape.get());
      return s + ")";
    }
    case ExprKind::Cast: return "(cast " + sexpr(e->as<Cast>().arg.get()) + " " + typeText(e->as<Cast>().type) + ")";
    case ExprKind::Case: {
      const auto& c = e->as<CaseExpr>();
      std::string s = "(case";
      if (c.arg) s += " " + sexpr(c.arg.get());
      for (const auto& w : c.whens) s += " (when " + sexpr(w.condition.get()) + " " + sexpr(w.result.get()) + ")";
      if (c.elseResult) s += " (else " + sexpr(c.elseResult.get()) + ")";
      return s + ")";
    }
    case ExprKind::FuncCall: {
      const auto& f = e->as<FuncCall>();
      std::string s;
      for (const auto& n : f.names) s += (s.empty() ? "" : ".") + n;
      s += "(";
      if (f.distinct) s += "distinct";
      if (f.star) s += "*";
      s += list(f.args);
      if (!f.orderBy.empty()) {
        s += f.withinGroup ? " (withingroup" : " (orderby";
        for (const auto& o : f.orderBy) s += " " + sexpr(o.expr.get()) + (o.dir == SortDir::Desc ? " desc" : "");
        s += ")";
      }
      s += ")";
      if (f.filter) s += " (filter " + sexpr(f.filter.get()) + ")";
      return s;
    }
    case ExprKind::GroupingSet: {
      static const char* const kNames[] = {"()", "rollup", "cube", "groupingsets"};
      const auto& g = e->as<GroupingSet>();
      return std::string("(") + kNames[static_cast<int>(g.set)] + list(g.items) + ")";
    }
    case ExprKind::SqlValue: {
      static const char* const kNames[] = {"current_date",   "current_time",    "current_timestamp", "localtime",
                                           "localtimestamp", "current_role",    "current_user",      "session_user",
                                           "user",           "current_catalog", "current_schema"};
      const auto& v = e->as<SqlValue>();
      std::string s = kNames[static_cast<int>(v.value)];
      if (v.precision >= 0) s += "(" + std::to_string(v.precision) + ")";
      return s;
    }
    case ExprKind::SubLink: {
      const auto& l = e->as<SubLink>();
      switch (l.link) {
        case SubLinkKind::Exists: return "(exists <q>)";
        case SubLinkKind::Scalar: return "(scalar <q>)";
        case SubLinkKind::Any: return "(any " + l.op + " " + sexpr(l.test.get()) + " <q>)";
        case SubLinkKind::All: return "(all " + l.op + " " + sexpr(l.test.get()) + " <q>)";
        case SubLinkKind::Array: return "(array <q>)";
      }
      return "?";
    }
    case ExprKind::ArrayOp: {
      const auto& q = e->as<ArrayOp>();
      return "(" + std::string(q.all ? "all " : "any ") + q.op + " " + sexpr(q.left.get()) + " " +
             sexpr(q.array.get()) + ")";
    }
    case ExprKind::Row: return "(row" + list(e->as<RowExpr>().args) + ")";
    case ExprKind::Default: return "default";
    case ExprKind::Array: return "(array" + list(e->as<ArrayExpr>().elements) + ")";
    case ExprKind::Subscript: {
      const auto& s = e->as<Subscript>();
      std::string out = "(subscript " + sexpr(s.arg.get());
      for (const auto& i : s.indexes)
        out += i.slice
                   ? " [" + (i.lower ? sexpr(i.lower.get()) : "") + ":" + (i.upper ? sexpr(i.upper.get()) : "") + "]"
                   : " [" + sexpr(i.upper.get()) + "]";
      return out + ")";
    }
    case ExprKind::FieldSelect: {
      const auto& f = e->as<FieldSelect>();
      return "(field " + sexpr(f.arg.get()) + " " + f.field + ")";
    }
  }
  return "?";
}

// The first target expression of "SELECT <expr>".
inline std::string exprOf(const std::string& expr) {
  auto p = parseOne("select " + expr);
  return sexpr(p.stmt->as<SelectStmt>().targets.at(0).expr.get());
}

}  // namespace duet::sql::test
