// What an aggregation or projection computes from the columns of one hash join's build side
// alone is computed on that side instead, once per build row, and the join table stores the
// result rather than the columns it reads. CH Q14's sum(CASE WHEN i_data LIKE 'PR%' THEN
// ol_amount ...) otherwise loads each probed item's string and matches it, 2.1 million
// times for 100,000 items; with the LIKE below the Hash the table holds one boolean per
// item (DuckDB reaches the same by keeping the build side's columns in vectors and
// answering the prefix from the string's inline bytes).
//
// The build side's rows include those the query never pairs, so only expressions that can
// raise no error and have no effect move: see cannotFail.
#include <string_view>

#include "compiler/binder/binder.h"
#include "compiler/planner/statement_planner.h"

namespace duet::planner {
namespace {

using plan::Expr;
using plan::ExprKind;

// Types whose comparisons never fail (no arrays or records, whose elements may not compare).
bool comparesWithoutError(const SqlType& t) {
  switch (t.id) {
    case TypeId::Unknown:
    case TypeId::Array:
    case TypeId::Json:
    case TypeId::Jsonb:
    case TypeId::Record: return false;
    default: return true;
  }
}

// Casts that take every value: string to text or unbounded varchar or character (varchar
// columns compared with LIKE's text pattern), an integer to a wider integer, float8 or
// unbounded numeric.
bool castCannotFail(const SqlType& from, const SqlType& to) {
  if (isStringType(from.id) && (to.id == TypeId::Text || (isStringType(to.id) && to.typmod < 0)))
    return to.alias == TypeAlias::None;
  auto rank = [](TypeId t) { return t == TypeId::Int2 ? 1 : t == TypeId::Int4 ? 2 : t == TypeId::Int8 ? 3 : 0; };
  if (rank(from.id) == 0 || from.alias != TypeAlias::None) return false;
  return rank(to.id) >= rank(from.id) || to.id == TypeId::Float8 || (to.id == TypeId::Numeric && to.typmod < 0);
}

// A constant or parameter, perhaps cast (LIKE's pattern: 'PR%'::text).
bool invariant(const Expr& e) {
  if (e.kind == ExprKind::Cast) return invariant(*e.args[0]);
  return e.kind == ExprKind::Const || e.kind == ExprKind::Param;
}

// Built-in string functions that take every value (CH Q16's brand, substr(i_data, 1, 3)):
// length, lower, upper, substr from a position, left; substr with a length only when the
// length is invariant (a negative one fails for every row alike, as LIKE's bad pattern).
bool callCannotFail(const Expr& e) {
  static const std::string_view kTotal[] = {"duet_rt_text_length", "duet_rt_text_lower", "duet_rt_text_upper",
                                            "duet_rt_text_substr_from", "duet_rt_text_left"};
  for (std::string_view f : kTotal)
    if (e.function == f) return true;
  return e.function == "duet_rt_text_substr" && invariant(*e.args[2]);
}

// Whether evaluating `e` on any row can neither raise an error nor change anything:
// columns, constants, parameters, casts that take every value, comparisons, LIKE with an
// invariant pattern (the only LIKE error, a pattern ending in its escape, then fails for
// every row alike), IS [NOT] NULL/TRUE, AND, OR, NOT, IN lists, CASE and COALESCE of such,
// the string functions of callCannotFail. No other casts or calls, no arithmetic
// (overflow, division by zero, bad input), no subqueries or routines.
bool cannotFail(const Expr& e) {
  auto argsCannotFail = [&] {
    for (const auto& a : e.args)
      if (!cannotFail(*a)) return false;
    return true;
  };
  switch (e.kind) {
    case ExprKind::Column:
    case ExprKind::Const:
    case ExprKind::Param: return true;
    case ExprKind::Compare:
    case ExprKind::InList: return comparesWithoutError(e.args[0]->type) && argsCannotFail();
    case ExprKind::Like: return invariant(*e.args[1]) && argsCannotFail();
    case ExprKind::Unary: return e.op == plan::Op::Not && argsCannotFail();
    case ExprKind::Cast: return castCannotFail(e.args[0]->type, e.type) && argsCannotFail();
    case ExprKind::Call: return callCannotFail(e) && argsCannotFail();
    case ExprKind::IsNull:
    case ExprKind::IsTrue:
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::Case:
    case ExprKind::Coalesce: return argsCannotFail();
    default: return false;
  }
}

// Adds `by` to the columns at or past `from` that `e` reads (not inside its subqueries'
// plans, which read the row through their captures, among e's args).
void shiftColumns(Expr& e, int from, int by) {
  if (e.kind == ExprKind::Column && e.column >= from) e.column += by;
  for (auto& a : e.args) shiftColumns(*a, from, by);
}

// The expressions of a consumer (a Project or Aggregate) over its input row.
std::vector<ExprPtr*> consumerExprs(Node& n) {
  std::vector<ExprPtr*> out;
  for (auto& e : n.exprs) out.push_back(&e);
  for (auto& a : n.aggs) {
    if (a.arg) out.push_back(&a.arg);
    for (auto& e : a.extraArgs) out.push_back(&e);
    if (a.filter) out.push_back(&a.filter);
    for (auto& o : a.orderBy) out.push_back(&o.expr);
  }
  return out;
}

// A Project that only passes columns on (the FROM planner's, putting a joined row back in
// FROM order), which the path from a consumer to a join may cross.
bool relaysColumns(const Node& n) {
  if (n.kind != NodeKind::Project || n.computedFrom >= 0) return false;
  for (const auto& e : n.exprs)
    if (e->kind != ExprKind::Column) return false;
  return true;
}

// A hash join below the consumer, reached through `path` (the consumer's child first, the
// join last) of nodes that pass their input's columns on (filters, joins, relaying
// projections); column c of the consumer's input row is column toBuild[c] of the join's
// build side, or -1.
struct BuildSide {
  std::vector<Node*> path;
  std::vector<int> toBuild;
  int width() const { return static_cast<int>(path.back()->children[0]->outputTypes.size()); }
};

// Whether the build side's rows reach the consumer as they are: an inner join's (an outer
// join's NULL-extended rows would give the computed column NULL where the expression over
// NULLs might not be).
bool innerHashJoin(const Node& n) {
  return n.kind == NodeKind::HashJoin && !n.outer && !n.keepBuildSide && n.semi == plan::SemiJoin::None;
}

// The build sides below `n`, whose row holds column c of the consumer's input at toHere[c].
void collectBuildSides(Node& n, const std::vector<int>& toHere, std::vector<Node*>& path, std::vector<BuildSide>& out) {
  auto width = [](const Node& c) { return static_cast<int>(c.outputTypes.size()); };
  // toHere for the child whose columns lie at [base, base + w) of n's row.
  auto into = [&](int base, int w) {
    std::vector<int> to(toHere.size(), -1);
    for (size_t c = 0; c < toHere.size(); ++c)
      if (toHere[c] >= base && toHere[c] < base + w) to[c] = toHere[c] - base;
    return to;
  };
  path.push_back(&n);
  if (n.kind == NodeKind::Filter) {
    collectBuildSides(*n.children[0], toHere, path, out);
  } else if (relaysColumns(n)) {
    std::vector<int> to(toHere.size(), -1);
    for (size_t c = 0; c < toHere.size(); ++c)
      if (toHere[c] >= 0) to[c] = n.exprs[static_cast<size_t>(toHere[c])]->column;
    collectBuildSides(*n.children[0], to, path, out);
  } else if (n.kind == NodeKind::IndexJoin) {
    int left = width(*n.children[0]);
    collectBuildSides(*n.children[0], into(n.rightFirst ? width(n) - left : 0, left), path, out);
  } else if (n.kind == NodeKind::HashJoin && n.semi != plan::SemiJoin::None) {
    collectBuildSides(*n.children[1], toHere, path, out);  // its row is the probe side's
  } else if (n.kind == NodeKind::HashJoin) {
    int w0 = width(*n.children[0]), w1 = width(*n.children[1]);
    std::vector<int> build = into(n.rightFirst ? w1 : 0, w0);
    if (innerHashJoin(n)) {
      out.push_back({path, build});
      collectBuildSides(*n.children[0], build, path, out);
    }
    if (!n.keepBuildSide) collectBuildSides(*n.children[1], into(n.rightFirst ? 0 : w0, w1), path, out);
  }
  path.pop_back();
}

// Whether `e` reads a column, and all it reads are columns of side `s`.
bool readsOnly(const Expr& e, const BuildSide& s, bool& readsSome) {
  if (e.kind == ExprKind::Column) {
    readsSome = true;
    return e.column >= 0 && static_cast<size_t>(e.column) < s.toBuild.size() && s.toBuild[e.column] >= 0;
  }
  for (const auto& a : e.args)
    if (!readsOnly(*a, s, readsSome)) return false;
  return true;
}

// `e`'s columns as the build side's.
void rebase(Expr& e, const BuildSide& s) {
  if (e.kind == ExprKind::Column) e.column = s.toBuild[e.column];
  for (auto& a : e.args) rebase(*a, s);
}

// Whether `e` is worth computing on side `s` and may be: more than a column or a cast of
// one, reading only the side's columns, unable to fail.
bool movable(const Expr& e, const BuildSide& s) {
  bool readsSome = false;
  return e.kind != ExprKind::Column && e.kind != ExprKind::Cast && readsOnly(e, s, readsSome) && readsSome &&
         cannotFail(e);
}

// Replaces the largest movable parts of `slot` by references to new columns, numbered from
// -2 down (placed later), whose expressions over the build side's own row go to `computed`.
void extract(ExprPtr& slot, const BuildSide& s, std::vector<ExprPtr>& computed, const std::vector<int>& paramClasses) {
  Expr& e = *slot;
  if (movable(e, s)) {
    ExprPtr own = plan::cloneExpr(e);
    rebase(*own, s);
    size_t i = 0;
    while (i < computed.size() && !binder::exprEquals(*computed[i], *own, &paramClasses)) ++i;
    if (i == computed.size()) computed.push_back(std::move(own));
    slot = plan::makeColumn(-2 - static_cast<int>(i), e.type);
    return;
  }
  if (e.kind == ExprKind::Let || e.kind == ExprKind::LetRef) return;  // LetRefs read the Let around them
  for (auto& a : e.args) extract(a, s, computed, paramClasses);
}

// Puts `computed` (over the build row) after the build side's columns: a Project over
// children[0] of the path's join, and every row on the path from there up widened (a
// relaying projection passes the new columns on last), the columns past them renumbered;
// then the consumer's placeholders (-2 - i) read them.
void computeOnBuildSide(Node& consumer, const BuildSide& s, std::vector<ExprPtr> computed) {
  Node& join = *s.path.back();
  NodePtr& build = join.children[0];
  int buildWidth = s.width();  // before the Project goes under the join
  int k = static_cast<int>(computed.size());
  auto p = std::make_unique<Node>(NodeKind::Project);
  p->outputTypes = build->outputTypes;
  for (size_t c = 0; c < build->outputTypes.size(); ++c)
    p->exprs.push_back(plan::makeColumn(static_cast<int>(c), build->outputTypes[c]));
  for (auto& e : computed) {
    p->outputTypes.push_back(e->type);
    p->exprs.push_back(std::move(e));
  }
  p->computedFrom = buildWidth;
  p->estimatedRows = build->estimatedRows;
  p->children.push_back(std::move(build));
  build = std::move(p);

  // Where the new columns lie in the row of the node below each step (first: the join's
  // build side, which alone reads its own keys), then in its own row.
  auto width = [](const Node& c) { return static_cast<int>(c.outputTypes.size()); };
  const Node* below = join.children[0].get();
  int at = buildWidth;
  for (size_t i = s.path.size(); i-- > 0;) {
    Node& n = *s.path[i];
    std::vector<SqlType> added(below->outputTypes.begin() + at, below->outputTypes.begin() + at + k);
    int mine = at;  // in n's own row
    if (n.kind == NodeKind::HashJoin) {
      bool firstSide = below == n.children[0].get();
      auto& keys = firstSide ? n.exprs : n.rightKeys;
      for (auto& e : keys) shiftColumns(*e, at, k);
      bool listedFirst = (n.semi != plan::SemiJoin::None) || (firstSide != n.rightFirst);
      int before = listedFirst ? 0 : width(*n.children[firstSide ? 1 : 0]);
      mine = before + at;
      if (n.predicate) shiftColumns(*n.predicate, mine, k);
    } else if (n.kind == NodeKind::IndexJoin) {
      for (auto& e : n.keys) shiftColumns(*e, at, k);
      if (n.rightFirst) mine = width(n) - width(*below) + k + at;
      if (n.predicate) shiftColumns(*n.predicate, mine, k);
    } else if (n.kind == NodeKind::Project) {  // relaying: the new columns go last
      for (auto& e : n.exprs) shiftColumns(*e, at, k);
      mine = width(n);
      for (int c = 0; c < k; ++c) n.exprs.push_back(plan::makeColumn(at + c, added[static_cast<size_t>(c)]));
    } else if (n.predicate) {  // Filter
      shiftColumns(*n.predicate, at, k);
    }
    n.outputTypes.insert(n.outputTypes.begin() + mine, added.begin(), added.end());
    below = &n;
    at = mine;
  }
  for (ExprPtr* e : consumerExprs(consumer)) {
    shiftColumns(**e, at, k);
    std::function<void(Expr&)> place = [&](Expr& x) {
      if (x.kind == ExprKind::Column && x.column <= -2) x.column = at + (-2 - x.column);
      for (auto& a : x.args) place(*a);
    };
    place(**e);
  }
}

void computeInConsumer(Node& consumer, const std::vector<int>& paramClasses) {
  if (consumer.kind != NodeKind::Project && consumer.kind != NodeKind::Aggregate) return;
  // One side at a time, the sides found again after each (each renumbers the rows above
  // it); the innermost (narrowest) side with something to take first, so an expression
  // goes as deep as it can. Each round turns expressions into columns, so it ends.
  for (;;) {
    Node& input = *consumer.children[0];
    std::vector<int> identity(input.outputTypes.size());
    for (size_t c = 0; c < identity.size(); ++c) identity[c] = static_cast<int>(c);
    std::vector<BuildSide> sides;
    std::vector<Node*> path;
    collectBuildSides(input, identity, path, sides);
    std::stable_sort(sides.begin(), sides.end(),
                     [](const BuildSide& a, const BuildSide& b) { return a.width() < b.width(); });
    // The first side with something to take (extract leaves the expressions as they are
    // when it finds nothing).
    bool moved = false;
    for (const BuildSide& s : sides) {
      const Node& join = *s.path.back();
      // Each build row computes once what each probe row would: worth it when probes are
      // not fewer than build rows (the smaller side builds, so nearly always).
      if (join.children[1]->estimatedRows < join.children[0]->estimatedRows) continue;
      std::vector<ExprPtr> computed;
      for (ExprPtr* e : consumerExprs(consumer)) extract(*e, s, computed, paramClasses);
      if (computed.empty()) continue;
      computeOnBuildSide(consumer, s, std::move(computed));
      moved = true;
      break;
    }
    if (!moved) return;
  }
}

void computeAll(Node& n, const std::vector<int>& paramClasses);

void computeInSubplans(const Expr& e, const std::vector<int>& paramClasses) {
  if (e.subplan) computeAll(*e.subplan, paramClasses);
  for (const auto& a : e.args) computeInSubplans(*a, paramClasses);
}

void computeAll(Node& n, const std::vector<int>& paramClasses) {
  for (auto& c : n.children) computeAll(*c, paramClasses);
  plan::forEachExpr(n, [&](const Expr& e) { computeInSubplans(e, paramClasses); });
  computeInConsumer(n, paramClasses);
}

}  // namespace

void computeOnBuildSides(Node& root, const std::vector<int>& paramClasses) { computeAll(root, paramClasses); }

}  // namespace duet::planner
