// Bound expressions: names resolved, types decided, implicit casts made explicit. The
// binder produces them; the code generator turns each into LLVM IR.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/types/type_id.h"
#include "engine/types/value.h"

namespace duet::plan {

struct Node;

enum class ExprKind : uint8_t {
  Column,   // a column of the input row: `column`
  Const,    // a constant: `constant` (+ constNull)
  Param,    // a statement parameter: `param` (0-based)
  Cast,     // args[0] to `type`; `explicitCast` picks assignment vs explicit rules
  Unary,    // op Neg / Not on args[0]
  Binary,   // arithmetic / concat on args[0], args[1]
  Compare,  // op Eq..Ge on args[0], args[1] of one type; result bool
  And,      // args, three-valued logic, short-circuit
  Or,
  IsNull,        // args[0] IS NULL (negated: IS NOT NULL)
  IsTrue,        // IS [NOT] TRUE / FALSE: op Eq (true) or Ne (false), negated flag
  Like,          // args[0] LIKE args[1]; negated, caseInsensitive
  Case,          // args = [when0, then0, when1, then1, ..., else?]; hasElse
  Coalesce,      // first non-null of args
  Call,          // a runtime function `function` over args (strict: NULL in, NULL out)
  Aggregate,     // reference to aggregate result `column` of the aggregation below
  RoutineCall,   // a user-defined function `routine` (catalog oid) over args, which are
                 // already of its argument types; not strict: NULL arguments are passed
  ArrayBuild,    // ARRAY[args...]: `type` is the array type, every arg has its element type
  Subquery,      // a subquery in an expression (`sublink`) running `subplan`. args: the values
                 // of the enclosing query it reads (its correlation), then for Any/All/
                 // RowCompare the left operand's values, compared with `op` to the subplan's
                 // columns (pairwise of one type; several: a row comparison). Inside
                 // subplan, OuterRef i reads args[i].
  OuterRef,      // `column`-th value captured by the innermost enclosing Subquery
  Greatest,      // GREATEST (op Gt) or LEAST (op Lt) of args, all of `type`; NULLs skipped
  InList,        // args[0] IN (args[1], ...), all of one type; result bool. args[0] is
                 // evaluated once (PostgreSQL's ScalarArrayOpExpr over the list)
  ArrayCompare,  // args[0] op ANY|ALL (args[1]) (`sublink` Any or All), args[1] an array of
                 // args[0]'s type: `op` a comparison, or Op::None and `function` a pattern
                 // operator's runtime function (LIKE's, the regular expressions'), `negated`
                 // for its negation (NOT LIKE, !~). PostgreSQL's ScalarArrayOpExpr.
  WindowResult,  // the value of window call `column` of the query being bound; the planner
                 // makes it a Column of the Window node that computes it
  RowCompare,    // (args[0..n)) op (args[n..2n)), op Lt/Le/Gt/Ge: PostgreSQL's row ordering
                 // comparison (pairs of one type; the binder spells row = and <> as AND/OR)
  RecordBuild,   // ROW(args...): a record of `type` (engine/types/record.h), one field per arg
  FieldSelect,   // field `column` of record args[0] (NULL when the record is)
  Let,           // args[0] evaluated once, then args[1], which reads that value through LetRefs:
                 // an operand that an expression uses more than once (NULLIF's, IS DISTINCT
                 // FROM's, a simple CASE's subject, a subscript's array and index), evaluated
                 // once as PostgreSQL does (its side effects - nextval, a routine's writes and
                 // notices, random() - happen once)
  LetRef,        // the value of an enclosing Let's args[0]: `column` 0 the innermost Let whose
                 // args[1] holds this reference, 1 the one around it, and so on. Every LetRef
                 // lies inside the args[1] of the Let it reads, so an expression stays whole
                 // when copied or moved
};

// EXISTS (q); (q) yielding one value; x op ANY (q) (x IN (q) is x = ANY); x op ALL (q);
// (x, y) op (q), q yielding at most one row (NULL when none); ARRAY(q), q's one column's
// values as an array, in q's order.
enum class Sublink : uint8_t { Exists, Scalar, Any, All, RowCompare, Array };

// Abs: abs() of a number, a Unary like Neg (its operand is evaluated once).
// BitAnd .. ShiftRight and BitNot: the integer operators & | # << >> and prefix ~.
enum class Op : uint8_t {
  None,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Pow,
  Neg,
  Abs,
  Not,
  Concat,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  BitAnd,
  BitOr,
  BitXor,
  ShiftLeft,
  ShiftRight,
  BitNot,
};

struct Expr {
  ExprKind kind;
  SqlType type;
  Op op = Op::None;
  int column = -1;
  int param = -1;
  bool negated = false;
  bool explicitCast = false;
  bool caseInsensitive = false;
  bool hasElse = false;
  bool constNull = false;
  alignas(16) unsigned char constant[16] = {};  // physical representation of the constant
  std::string constString;                      // backing store when a string constant
  std::string function;                         // runtime symbol for Call
  uint32_t routine = 0;                         // RoutineCall: the routine's oid
  std::vector<std::unique_ptr<Expr>> args;
  Sublink sublink = Sublink::Exists;  // Subquery; Any or All for ArrayCompare
  std::shared_ptr<Node> subplan;      // Subquery: shared by copies of the expression
  int captures = 0;                   // Subquery: how many of args are captures

  Expr(ExprKind k, SqlType t) : kind(k), type(t) {}
};
using ExprPtr = std::unique_ptr<Expr>;

ExprPtr makeColumn(int column, SqlType type);
ExprPtr makeParam(int param, SqlType type);
ExprPtr makeNullConst(SqlType type);
ExprPtr makeCast(ExprPtr e, SqlType to, bool explicitCast);
ExprPtr cloneExpr(const Expr& e);
// Let: `value` evaluated once, then `body`, whose LetRefs of index 0 read it.
ExprPtr makeLet(ExprPtr value, ExprPtr body);
// A LetRef of `type` reading the value of the `depth`-th enclosing Let (0: the innermost).
ExprPtr makeLetRef(SqlType type, int depth);

}  // namespace duet::plan
