// Expression nodes. Every node carries `location`, the byte offset in the query of the
// token where it starts (or of its operator), for error positions (see source_position.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/parser/ast_type.h"

namespace duet::sql {

struct SelectStmt;

enum class ExprKind : uint8_t {
  Literal,       // NULL, TRUE/FALSE, integer, numeric, string
  Param,         // $n, or a literal lifted into a parameter
  ColumnRef,     // a, t.a, s.t.a, *, t.*
  Unary,         // prefix operator: - + ~ ...
  Binary,        // infix operator: + - * / % ^ || = <> < <= > >= and any other operator
  Bool,          // AND / OR (flattened) and NOT
  NullTest,      // IS [NOT] NULL, ISNULL, NOTNULL
  BoolTest,      // IS [NOT] TRUE / FALSE / UNKNOWN
  DistinctFrom,  // IS [NOT] DISTINCT FROM
  Between,       // [NOT] BETWEEN [SYMMETRIC]
  InList,        // [NOT] IN (a, b, ...)
  Like,          // [NOT] LIKE / ILIKE / SIMILAR TO [ESCAPE]
  Cast,          // x::t, CAST(x AS t), typed literal t 'text'
  Case,          // CASE [arg] WHEN ... THEN ... [ELSE ...] END
  FuncCall,      // f(args), count(*), agg(DISTINCT x); also COALESCE, NULLIF, GREATEST, LEAST
  SqlValue,      // CURRENT_DATE, CURRENT_TIMESTAMP, current_user, ...
  SubLink,       // EXISTS (q), (q), x IN (q), x op ANY/ALL (q)
  ArrayOp,       // x op ANY/SOME/ALL (array expression)
  Row,           // (a, b) or ROW(a, b)
  Default,       // DEFAULT in INSERT VALUES or UPDATE SET
  Array,         // ARRAY[a, b, ...]; a nested [c, d] inside it is one too
  Subscript,     // x[i], x[i][j], x[lo:hi] after a column, parameter or parenthesized expression
  FieldSelect,   // (x).field: a field of a composite value
  GroupingSet,   // in GROUP BY only: (), ROLLUP (...), CUBE (...), GROUPING SETS (...)
};

struct Expr {
  explicit Expr(ExprKind k, uint32_t loc) : kind(k), location(loc) {}
  virtual ~Expr() = default;
  ExprKind kind;
  uint32_t location;

  template <class T>
  T& as() {
    return static_cast<T&>(*this);
  }
  template <class T>
  const T& as() const {
    return static_cast<const T&>(*this);
  }
};
using ExprPtr = std::unique_ptr<Expr>;

enum class LiteralKind : uint8_t { Null, Bool, Integer, Numeric, String };

struct Literal : Expr {
  Literal(uint32_t loc, LiteralKind k, std::string t) : Expr(ExprKind::Literal, loc), literal(k), text(std::move(t)) {}
  LiteralKind literal;
  std::string text;  // Integer/Numeric: as written; String: decoded value; Bool: "true"/"false"
};

struct Param : Expr {
  Param(uint32_t loc, int n) : Expr(ExprKind::Param, loc), number(n) {}
  int number;            // 1-based
  int liftedIndex = -1;  // index into ParsedStatement::literals when this was a literal
};

struct ColumnRef : Expr {
  explicit ColumnRef(uint32_t loc) : Expr(ExprKind::ColumnRef, loc) {}
  std::vector<std::string> names;  // qualifiers and column; only qualifiers when `star`
  bool star = false;               // * or t.*
};

struct UnaryOp : Expr {
  UnaryOp(uint32_t loc, std::string o, ExprPtr a)
      : Expr(ExprKind::Unary, loc), op(std::move(o)), operand(std::move(a)) {}
  ~UnaryOp() override;
  std::string op;
  ExprPtr operand;
};

struct BinaryOp : Expr {
  BinaryOp(uint32_t loc, std::string o, ExprPtr l, ExprPtr r)
      : Expr(ExprKind::Binary, loc), op(std::move(o)), left(std::move(l)), right(std::move(r)) {}
  ~BinaryOp() override;
  std::string op;  // "<>" for both <> and !=
  ExprPtr left, right;
};

enum class BoolOpKind : uint8_t { And, Or, Not };
struct BoolExpr : Expr {
  BoolExpr(uint32_t loc, BoolOpKind o) : Expr(ExprKind::Bool, loc), op(o) {}
  BoolOpKind op;
  std::vector<ExprPtr> args;  // two or more for AND/OR (nested ones flattened), one for NOT
};

struct NullTest : Expr {
  NullTest(uint32_t loc, ExprPtr a, bool n) : Expr(ExprKind::NullTest, loc), arg(std::move(a)), isNot(n) {}
  ~NullTest() override;
  ExprPtr arg;
  bool isNot;
};

enum class BoolTestKind : uint8_t { IsTrue, IsNotTrue, IsFalse, IsNotFalse, IsUnknown, IsNotUnknown };
struct BoolTest : Expr {
  BoolTest(uint32_t loc, ExprPtr a, BoolTestKind t) : Expr(ExprKind::BoolTest, loc), arg(std::move(a)), test(t) {}
  ~BoolTest() override;
  ExprPtr arg;
  BoolTestKind test;
};

struct DistinctFrom : Expr {
  DistinctFrom(uint32_t loc, ExprPtr l, ExprPtr r, bool n)
      : Expr(ExprKind::DistinctFrom, loc), left(std::move(l)), right(std::move(r)), isNot(n) {}
  ~DistinctFrom() override;
  ExprPtr left, right;
  bool isNot;  // IS NOT DISTINCT FROM
};

struct Between : Expr {
  explicit Between(uint32_t loc) : Expr(ExprKind::Between, loc) {}
  ExprPtr arg, low, high;
  bool isNot = false;
  bool symmetric = false;
};

struct InList : Expr {
  explicit InList(uint32_t loc) : Expr(ExprKind::InList, loc) {}
  ExprPtr arg;
  std::vector<ExprPtr> list;
  bool isNot = false;
};

struct Like : Expr {
  explicit Like(uint32_t loc) : Expr(ExprKind::Like, loc) {}
  ExprPtr arg, pattern, escape;  // escape may be null
  bool isNot = false;
  bool caseInsensitive = false;  // ILIKE
  bool similar = false;          // SIMILAR TO
};

struct Cast : Expr {
  Cast(uint32_t loc, ExprPtr a, TypeName t) : Expr(ExprKind::Cast, loc), arg(std::move(a)), type(std::move(t)) {}
  ~Cast() override;
  ExprPtr arg;
  TypeName type;
};

struct CaseWhen {
  ExprPtr condition, result;
};
struct CaseExpr : Expr {
  explicit CaseExpr(uint32_t loc) : Expr(ExprKind::Case, loc) {}
  ExprPtr arg;  // simple CASE: the compared value; null for searched CASE
  std::vector<CaseWhen> whens;
  ExprPtr elseResult;  // may be null
};

enum class SortDir : uint8_t { Default, Asc, Desc };
enum class NullsOrder : uint8_t { Default, First, Last };
struct SortBy {
  ExprPtr expr;  // ORDER BY: an integer Literal (never lifted) means an output column position
  SortDir dir = SortDir::Default;
  NullsOrder nulls = NullsOrder::Default;
};

// A window frame: which rows of its partition a window function of a row sees.
enum class FrameMode : uint8_t { Range, Rows, Groups };
enum class FrameBoundKind : uint8_t { UnboundedPreceding, Preceding, CurrentRow, Following, UnboundedFollowing };
struct FrameBound {
  FrameBoundKind kind;
  ExprPtr offset;  // Preceding, Following: how far
  uint32_t location = 0;
};
enum class FrameExclusion : uint8_t { NoOthers, CurrentRow, Group, Ties };

// OVER (...), OVER name, or an entry of a SELECT's WINDOW clause.
struct WindowDef {
  std::string name;        // WINDOW name AS (...): its name
  std::string refName;     // OVER name, OVER (name ...): the WINDOW entry it builds on
  bool reference = false;  // OVER name: that window as it is (its frame too)
  std::vector<ExprPtr> partitionBy;
  std::vector<SortBy> orderBy;
  bool hasFrame = false;  // the default: RANGE UNBOUNDED PRECEDING .. CURRENT ROW
  FrameMode mode = FrameMode::Range;
  FrameBound start{FrameBoundKind::UnboundedPreceding, nullptr};
  FrameBound end{FrameBoundKind::CurrentRow, nullptr};
  FrameExclusion exclusion = FrameExclusion::NoOthers;
  uint32_t location = 0;
};

struct FuncCall : Expr {
  explicit FuncCall(uint32_t loc) : Expr(ExprKind::FuncCall, loc) {}
  std::vector<std::string> names;  // qualified name, folded: {"pg_catalog", "now"}
  std::vector<ExprPtr> args;
  std::vector<std::string> argNames;  // per argument: name => value, or "" (positional)
  bool variadic = false;              // f(..., VARIADIC last): the last argument is the array itself
  bool star = false;                  // count(*)
  bool distinct = false;              // agg(DISTINCT x)
  std::unique_ptr<WindowDef> over;    // f(...) OVER ...: a window function call
  // agg(x ORDER BY y), or an ordered-set aggregate's WITHIN GROUP (ORDER BY y) (withinGroup:
  // then `args` are its direct arguments).
  std::vector<SortBy> orderBy;
  bool withinGroup = false;
  ExprPtr filter;  // agg(...) FILTER (WHERE filter)
};

enum class SqlValueKind : uint8_t {
  CurrentDate,
  CurrentTime,
  CurrentTimestamp,
  LocalTime,
  LocalTimestamp,
  CurrentRole,
  CurrentUser,
  SessionUser,
  User,
  CurrentCatalog,
  CurrentSchema,
};
struct SqlValue : Expr {
  SqlValue(uint32_t loc, SqlValueKind v) : Expr(ExprKind::SqlValue, loc), value(v) {}
  SqlValueKind value;
  int32_t precision = -1;  // CURRENT_TIMESTAMP(p) etc.
};

enum class SubLinkKind : uint8_t { Exists, Scalar, Any, All, Array };  // Array: ARRAY(subquery)
struct SubLink : Expr {
  SubLink(uint32_t loc, SubLinkKind k) : Expr(ExprKind::SubLink, loc), link(k) {}
  ~SubLink() override;  // defined where SelectStmt is complete (ast.cpp)
  SubLinkKind link;
  ExprPtr test;    // Any/All: the left operand
  std::string op;  // Any/All: the operator; x IN (q) is x = ANY (q)
  std::unique_ptr<SelectStmt> subquery;
};

// x op ANY|SOME|ALL (array): `op` as written, LIKE and ILIKE (NOT too) by their operator
// names ~~, ~~*, !~~, !~~* (PostgreSQL's A_Expr AEXPR_OP_ANY / AEXPR_OP_ALL).
struct ArrayOp : Expr {
  ArrayOp(uint32_t loc, std::string o, bool a) : Expr(ExprKind::ArrayOp, loc), op(std::move(o)), all(a) {}
  ~ArrayOp() override;  // frees a chain of them without recursion (ast.cpp)
  std::string op;
  bool all;  // ALL, else ANY / SOME
  ExprPtr left, array;
};

// A GROUP BY item that is a grouping set: () (Empty, no items), ROLLUP (items), CUBE
// (items), GROUPING SETS (items). ROLLUP and CUBE items are expressions or RowExprs (a
// parenthesised list grouped together); GROUPING SETS items may be grouping sets too.
enum class GroupingSetKind : uint8_t { Empty, Rollup, Cube, Sets };
struct GroupingSet : Expr {
  GroupingSet(uint32_t loc, GroupingSetKind k) : Expr(ExprKind::GroupingSet, loc), set(k) {}
  GroupingSetKind set;
  std::vector<ExprPtr> items;
};

struct RowExpr : Expr {
  explicit RowExpr(uint32_t loc) : Expr(ExprKind::Row, loc) {}
  std::vector<ExprPtr> args;
  bool explicitRow = false;    // written ROW(...)
  bool parenthesized = false;  // inside parentheses of its own, ((a, b)): takes `.field`
};

struct DefaultExpr : Expr {
  explicit DefaultExpr(uint32_t loc) : Expr(ExprKind::Default, loc) {}
};

struct ArrayExpr : Expr {
  explicit ArrayExpr(uint32_t loc) : Expr(ExprKind::Array, loc) {}
  std::vector<ExprPtr> elements;
  bool nested = false;  // a bare [...] inside ARRAY[...]
};

// One [...] of a subscript: [upper] or, for a slice, [lower:upper] with either bound
// optional (PostgreSQL's A_Indices).
struct SubscriptIndex {
  ExprPtr lower, upper;
  bool slice = false;
  uint32_t location = 0;  // of the subscript expression (or of '[' when there is none)
};
struct Subscript : Expr {
  Subscript(uint32_t loc, ExprPtr a) : Expr(ExprKind::Subscript, loc), arg(std::move(a)) {}
  ~Subscript() override;
  ExprPtr arg;
  std::vector<SubscriptIndex> indexes;
};

// (x).field, after a parenthesized expression (PostgreSQL's indirection by name); (x).*
// (`star`, no field): every field, which only a select list expands.
struct FieldSelect : Expr {
  FieldSelect(uint32_t loc, ExprPtr a, std::string f, bool all = false)
      : Expr(ExprKind::FieldSelect, loc), arg(std::move(a)), field(std::move(f)), star(all) {}
  ~FieldSelect() override;
  ExprPtr arg;
  std::string field;
  bool star = false;
};

}  // namespace duet::sql
