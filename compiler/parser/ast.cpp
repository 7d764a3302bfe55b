// Out-of-line destructors: for nodes that own a SelectStmt, which ast_expr.h only declares,
// and for the nodes the parser builds in loops rather than by recursion.
#include "compiler/parser/ast.h"

namespace duet::sql {

namespace {

// The child through which a chain the parser builds in a loop goes on: `1+1+...+1` nests
// to the left, `x::a::b`, `x IS NULL IS NULL`, `x[1][2]` and `x = ANY (...) ...` through
// their operand. Such a chain can be as deep as the statement is long, far deeper than
// any recursion may go, so freeing it must not recurse along it.
ExprPtr* chainLink(Expr& e) {
  switch (e.kind) {
    case ExprKind::Unary: return &e.as<UnaryOp>().operand;
    case ExprKind::Binary: return &e.as<BinaryOp>().left;
    case ExprKind::NullTest: return &e.as<NullTest>().arg;
    case ExprKind::BoolTest: return &e.as<BoolTest>().arg;
    case ExprKind::DistinctFrom: return &e.as<DistinctFrom>().left;
    case ExprKind::Cast: return &e.as<Cast>().arg;
    case ExprKind::Subscript: return &e.as<Subscript>().arg;
    case ExprKind::FieldSelect: return &e.as<FieldSelect>().arg;
    case ExprKind::SubLink: return &e.as<SubLink>().test;
    case ExprKind::ArrayOp: return &e.as<ArrayOp>().left;
    default: return nullptr;
  }
}

// Frees a chain link by link: each node is destroyed after its link was taken from it,
// so its own destructor finds nothing left to follow.
void releaseChain(ExprPtr& head) {
  ExprPtr next = std::move(head);
  while (next) {
    ExprPtr* link = chainLink(*next);
    ExprPtr after = link ? std::move(*link) : nullptr;
    next = std::move(after);
  }
}

}  // namespace

// The same for joins (`a JOIN b JOIN c ...` nests to the left) and set operations
// (`SELECT 1 UNION SELECT 2 UNION ...`).
JoinRef::~JoinRef() {
  TableRefPtr next = std::move(left);
  while (next) {
    TableRefPtr after = next->kind == TableRefKind::Join ? std::move(next->as<JoinRef>().left) : nullptr;
    next = std::move(after);
  }
}
SelectStmt::~SelectStmt() {
  std::unique_ptr<SelectStmt> next = std::move(left);
  while (next) {
    std::unique_ptr<SelectStmt> after = std::move(next->left);
    next = std::move(after);
  }
}

UnaryOp::~UnaryOp() { releaseChain(operand); }
BinaryOp::~BinaryOp() { releaseChain(left); }
NullTest::~NullTest() { releaseChain(arg); }
BoolTest::~BoolTest() { releaseChain(arg); }
DistinctFrom::~DistinctFrom() { releaseChain(left); }
Cast::~Cast() { releaseChain(arg); }
Subscript::~Subscript() { releaseChain(arg); }
FieldSelect::~FieldSelect() { releaseChain(arg); }
SubLink::~SubLink() { releaseChain(test); }
ArrayOp::~ArrayOp() { releaseChain(left); }
RangeSubquery::~RangeSubquery() = default;
CommonTableExpr::CommonTableExpr() = default;
CommonTableExpr::CommonTableExpr(CommonTableExpr&&) noexcept = default;
CommonTableExpr::~CommonTableExpr() = default;
CreateTableStmt::~CreateTableStmt() = default;

}  // namespace duet::sql
