// deparseExpr (ast_deparse.h): ruleutils.c's get_rule_expr for the expressions a CHECK
// constraint commonly holds, with its PRETTYFLAG_PAREN rules (isSimpleNode) for the
// pretty form.
#include "compiler/parser/ast_deparse.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "engine/types/text_functions.h"

namespace duet::sql {
namespace {

// A numeric constant as PostgreSQL prints a Const: bare when not negative, else quoted and
// cast to its type (integer, bigint, numeric). `negated`: under a unary minus (the parser
// folds most of those into the literal's text).
std::string numericConstant(const Literal& l, bool negated) {
  std::string text = negated ? "-" + l.text : l.text;
  if (text.empty() || text[0] != '-') return text;
  const char* type = "numeric";
  if (l.literal == LiteralKind::Integer) {
    errno = 0;
    long long v = std::strtoll(text.c_str(), nullptr, 10);
    if (errno == 0) type = v >= INT32_MIN ? "integer" : "bigint";
  }
  return "'" + text + "'::" + type;
}

bool isNegativeConstant(const Expr& e) {
  if (e.kind != ExprKind::Unary) return false;
  const auto& u = e.as<UnaryOp>();
  if (u.op != "-" || u.operand->kind != ExprKind::Literal) return false;
  LiteralKind k = u.operand->as<Literal>().literal;
  return k == LiteralKind::Integer || k == LiteralKind::Numeric;
}

// The node kinds ruleutils.c tells apart, as PostgreSQL would have parsed the expression.
enum class Node : uint8_t { Simple, Op, Not, And, Or, NullTest, ArrayOp, Other };

Node nodeOf(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Literal:
    case ExprKind::ColumnRef:
    case ExprKind::FuncCall: return Node::Simple;
    case ExprKind::Unary: return isNegativeConstant(e) ? Node::Simple : Node::Op;
    case ExprKind::Binary: return Node::Op;
    case ExprKind::Bool: {
      BoolOpKind op = e.as<BoolExpr>().op;
      return op == BoolOpKind::Not ? Node::Not : op == BoolOpKind::And ? Node::And : Node::Or;
    }
    case ExprKind::Between: return e.as<Between>().isNot ? Node::Or : Node::And;
    case ExprKind::NullTest: return Node::NullTest;
    case ExprKind::InList: return Node::ArrayOp;
    default: return Node::Other;
  }
}

// The arithmetic operator of a binary expression (+ - * / %), or 0.
char arithmetic(const Expr& e) {
  if (e.kind != ExprKind::Binary) return 0;
  const std::string& op = e.as<BinaryOp>().op;
  return op.size() == 1 && std::strchr("+-*/%", op[0]) ? op[0] : 0;
}

// isSimpleNode: whether `child` needs no parentheses as an operand of `parent` in the
// pretty form. `first`: it is the parent's left operand.
bool isSimple(const Expr& child, const Expr& parent, bool first) {
  Node c = nodeOf(child), p = nodeOf(parent);
  switch (c) {
    case Node::Simple: return true;
    case Node::Op:
      if (p == Node::Op && parent.kind == ExprKind::Binary) {
        char op = arithmetic(child), parentOp = arithmetic(parent);
        if (!op || !parentOp) return false;
        bool low = op == '+' || op == '-', parentLow = parentOp == '+' || parentOp == '-';
        if (!low && parentLow) return true;
        if (low && !parentLow) return false;
        return first;  // (a - b) - c, not a - (b - c)
      }
      [[fallthrough]];
    case Node::NullTest: return p == Node::Not || p == Node::And || p == Node::Or;
    case Node::Not:
    case Node::And: return p == Node::And || p == Node::Or;
    case Node::Or: return p == Node::Or;
    default: return false;
  }
}

// Prints one expression; `complete` turns false at a form it cannot print.
struct Deparser {
  bool pretty;
  bool complete = true;

  std::string list(const std::vector<ExprPtr>& args) {
    std::string out;
    for (const ExprPtr& a : args) out += (out.empty() ? "" : ", ") + print(*a);
    return out;
  }
  // An operand: get_rule_expr_paren.
  std::string operand(const Expr& child, const Expr& parent, bool first = false) {
    std::string s = print(child);
    return pretty && !isSimple(child, parent, first) ? "(" + s + ")" : s;
  }
  // The parentheses an operator application prints around itself outside the pretty form.
  std::string own(const std::string& s) const { return pretty ? s : "(" + s + ")"; }
  std::string comparison(const Expr& parent, const Expr& arg, const char* op, const Expr& bound) {
    return own(operand(arg, parent, true) + " " + op + " " + operand(bound, parent));
  }
  std::string print(const Expr& e);
};

std::string Deparser::print(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Literal: {
      const auto& l = e.as<Literal>();
      switch (l.literal) {
        case LiteralKind::Null: return "NULL";
        case LiteralKind::Bool: return l.text;
        case LiteralKind::Integer:
        case LiteralKind::Numeric: return numericConstant(l, false);
        case LiteralKind::String: return quoteLiteral(l.text) + "::text";
      }
      return l.text;
    }
    case ExprKind::ColumnRef: {
      std::string out;
      for (const std::string& n : e.as<ColumnRef>().names) out += (out.empty() ? "" : ".") + quoteIdent(n);
      return out;
    }
    case ExprKind::Unary: {
      const auto& u = e.as<UnaryOp>();
      if (isNegativeConstant(e)) return numericConstant(u.operand->as<Literal>(), true);
      return own(u.op + " " + operand(*u.operand, e));
    }
    case ExprKind::Binary: {
      const auto& b = e.as<BinaryOp>();
      return own(operand(*b.left, e, true) + " " + b.op + " " + operand(*b.right, e));
    }
    case ExprKind::Bool: {
      const auto& b = e.as<BoolExpr>();
      if (b.op == BoolOpKind::Not) return own("NOT " + operand(*b.args[0], e));
      std::string out;
      for (const ExprPtr& a : b.args)
        out += (out.empty() ? "" : (b.op == BoolOpKind::And ? " AND " : " OR ")) + operand(*a, e);
      return own(out);
    }
    case ExprKind::NullTest: {
      const auto& n = e.as<NullTest>();
      return own(operand(*n.arg, e) + (n.isNot ? " IS NOT NULL" : " IS NULL"));
    }
    case ExprKind::Between: {
      // Parsed as two comparisons under AND (OR for NOT BETWEEN): simple operands of it.
      const auto& b = e.as<Between>();
      std::string low = comparison(e, *b.arg, b.isNot ? "<" : ">=", *b.low);
      std::string high = comparison(e, *b.arg, b.isNot ? ">" : "<=", *b.high);
      return own(low + (b.isNot ? " OR " : " AND ") + high);
    }
    case ExprKind::InList: {
      const auto& in = e.as<InList>();
      return own(operand(*in.arg, e) + (in.isNot ? " <> ALL (ARRAY[" : " = ANY (ARRAY[") + list(in.list) + "])");
    }
    case ExprKind::FuncCall: {
      const auto& f = e.as<FuncCall>();
      if (f.variadic) {  // VARIADIC is not printed
        complete = false;
        return "";
      }
      std::string name;
      for (const std::string& n : f.names) name += (name.empty() ? "" : ".") + n;
      return name + "(" + (f.star ? "*" : list(f.args)) + ")";
    }
    default: complete = false; return "";
  }
}

}  // namespace

std::optional<std::string> deparseExpr(const Expr& e, bool pretty) {
  Deparser d{pretty};
  std::string out = d.print(e);
  if (!d.complete) return std::nullopt;
  return out;
}

}  // namespace duet::sql
