// planTree: SELECT / VALUES / INSERT / UPDATE / DELETE to a physical plan. Plans are simple and predictable: left-deep
// joins in FROM order (hash joins on equality conjuncts), single-table conjuncts pushed to their scan, a primary-key or
// unique-index lookup when equality conjuncts cover a whole key, else an ordered-index
// range scan when conjuncts pin a prefix of an index's key (equalities, then one range).
#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <functional>
#include <optional>
#include <tuple>

#include "compiler/binder/binder.h"
#include "compiler/parser/parser.h"
#include "compiler/planner/direct_call.h"
#include "compiler/planner/index_order.h"
#include "engine/error.h"
#include "engine/limits/interrupts.h"
#include "engine/limits/stack_depth.h"
#include "engine/storage/table.h"

namespace duet {

using binder::Binder;
using binder::CastContext;
using binder::columnRange;
using binder::commonType;
using binder::exprEquals;
using binder::Scope;
using binder::ScopeEntry;
using plan::ExprKind;
using plan::ExprPtr;
using plan::Node;
using plan::NodeKind;
using plan::NodePtr;

namespace {

constexpr const char* kDuplicateAlias = "42712";  // two FROM items of one name

std::vector<SqlType> tableRowTypes(const Table& t) {
  std::vector<SqlType> types;
  for (const auto& c : t.columns()) types.push_back(c.type);
  types.push_back({TypeId::Int8, -1});  // rowid
  return types;
}

void splitConjuncts(ExprPtr e, std::vector<ExprPtr>& out) {
  if (e->kind == ExprKind::And) {
    for (auto& a : e->args) splitConjuncts(std::move(a), out);
    return;
  }
  out.push_back(std::move(e));
}

ExprPtr conjunction(std::vector<ExprPtr> parts) {
  if (parts.empty()) return nullptr;
  if (parts.size() == 1) return std::move(parts[0]);
  auto e = std::make_unique<plan::Expr>(ExprKind::And, SqlType{TypeId::Bool, -1});
  e->args = std::move(parts);
  return e;
}

NodePtr filter(NodePtr child, ExprPtr predicate) {
  if (!predicate) return child;
  auto n = std::make_unique<Node>(NodeKind::Filter);
  n->outputTypes = child->outputTypes;
  n->predicate = std::move(predicate);
  n->children.push_back(std::move(child));
  return n;
}

NodePtr project(NodePtr child, std::vector<ExprPtr> exprs) {
  auto n = std::make_unique<Node>(NodeKind::Project);
  for (const auto& e : exprs) n->outputTypes.push_back(e->type);
  n->exprs = std::move(exprs);
  n->children.push_back(std::move(child));
  return n;
}

NodePtr materialize(NodePtr child) {
  auto m = std::make_unique<Node>(NodeKind::Materialize);
  m->outputTypes = child->outputTypes;
  m->children.push_back(std::move(child));
  return m;
}

// A conjunct `column op value` that can bound an ordered index over that column.
struct IndexBound {
  int column;   // table column
  plan::Op op;  // Eq, Lt, Le, Gt, Ge with the column on the left
  const plan::Expr* value;
};

// The conjunct as an index bound, if it is one: a plain column (no cast) compared with a
// value that reads no column and has the column's own type, so that the index's order is
// the order the comparison uses. Cross-type comparisons get a cast on one side from the
// binder; a cast column disqualifies, a cast value is fine (integer widening).
std::optional<IndexBound> indexBoundOf(const plan::Expr& c, const Table& table) {
  using plan::Op;
  if (c.kind != ExprKind::Compare || c.op == Op::Ne) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const plan::Expr& col = *c.args[side];
    const plan::Expr& val = *c.args[1 - side];
    if (col.kind != ExprKind::Column || col.column >= static_cast<int>(table.columns().size())) continue;
    if (col.type.id != table.columns()[col.column].type.id || val.type.id != col.type.id) continue;
    if (columnRange(val).first >= 0) continue;
    Op op = c.op;
    if (side == 1)
      op = op == Op::Lt ? Op::Gt : op == Op::Le ? Op::Ge : op == Op::Gt ? Op::Lt : op == Op::Ge ? Op::Le : op;
    return IndexBound{col.column, op, &val};
  }
  return std::nullopt;
}

// A range scan of the ordered index whose key the conjuncts pin furthest (equalities on a
// leading prefix count double, one range on the next column once), or null when none is
// pinned at all. The conjuncts are left in place: the caller filters on all of them, so the
// range only needs to hold every matching row; the first lower and upper bound found serve.
NodePtr indexRange(Table& table, const std::vector<ExprPtr>& conjuncts) {
  using plan::Op;
  std::vector<IndexBound> bounds;
  for (const auto& c : conjuncts)
    if (auto bound = indexBoundOf(*c, table)) bounds.push_back(*bound);
  auto find = [&](int column, auto pred) -> const IndexBound* {
    for (const auto& ib : bounds)
      if (ib.column == column && pred(ib.op)) return &ib;
    return nullptr;
  };
  Index* best = nullptr;
  size_t bestEq = 0;
  int bestScore = 0;
  for (const auto& index : table.indexes()) {
    if (index->kind() != IndexKind::Ordered) continue;
    const auto& key = index->columns();
    size_t eq = 0;
    while (eq < key.size() && find(static_cast<int>(key[eq]), [](Op op) { return op == Op::Eq; })) ++eq;
    int score = static_cast<int>(eq) * 2;
    if (eq < key.size() && find(static_cast<int>(key[eq]), [](Op op) { return op != Op::Eq; })) ++score;
    if (score > bestScore) {
      best = index.get();
      bestEq = eq;
      bestScore = score;
    }
  }
  if (!best) return nullptr;
  auto n = std::make_unique<Node>(NodeKind::IndexRange);
  n->table = &table;
  n->index = best;
  n->outputTypes = tableRowTypes(table);
  const auto& key = best->columns();
  for (size_t k = 0; k < bestEq; ++k)
    n->keys.push_back(plan::cloneExpr(*find(static_cast<int>(key[k]), [](Op op) { return op == Op::Eq; })->value));
  if (bestEq < key.size()) {
    int column = static_cast<int>(key[bestEq]);
    if (auto* low = find(column, [](Op op) { return op == Op::Gt || op == Op::Ge; })) {
      n->rangeLow = plan::cloneExpr(*low->value);
      n->lowInclusive = low->op == Op::Ge;
    }
    if (auto* high = find(column, [](Op op) { return op == Op::Lt || op == Op::Le; })) {
      n->rangeHigh = plan::cloneExpr(*high->value);
      n->highInclusive = high->op == Op::Le;
    }
  }
  return n;
}

// The index a single-table access (as accessPath and filter build it) walks by range, or null.
const Index* rangeIndex(const Node& n) {
  if (n.kind == NodeKind::Filter) return rangeIndex(*n.children[0]);
  return n.kind == NodeKind::IndexRange ? n.index : nullptr;
}

// A scan of one table, using a unique index when `conjuncts` (over this table's own row)
// pin every key column to a value that reads no column (used conjuncts are removed), else
// an ordered index range when they pin a prefix of its key (all conjuncts stay).
// A key equality among `conjuncts`: the conjunct comparing column `column` (of type `type`,
// not through a cast) with a value `valueOk` accepts. Returns {conjunct, side of the
// value}, or nullopt.
std::optional<std::pair<size_t, int>> keyEquality(const std::vector<ExprPtr>& conjuncts, int column, TypeId type,
                                                  const std::function<bool(const plan::Expr&)>& valueOk) {
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    const plan::Expr& c = *conjuncts[i];
    if (c.kind != ExprKind::Compare || c.op != plan::Op::Eq) continue;
    for (int side = 0; side < 2; ++side) {
      const plan::Expr& col = *c.args[side];
      if (col.kind == ExprKind::Column && col.column == column && col.type.id == type && valueOk(*c.args[1 - side]))
        return std::make_pair(i, 1 - side);
    }
  }
  return std::nullopt;
}

bool isConstantValue(const plan::Expr& e) { return columnRange(e).first < 0; }

NodePtr accessPath(const TableBinding& binding, std::vector<ExprPtr>& conjuncts, Binder& b) {
  Table& table = *binding.table;
  for (const auto& index : table.indexes()) {
    if (!index->unique()) continue;
    std::vector<int> used(index->columns().size(), -1);
    for (size_t k = 0; k < index->columns().size(); ++k) {
      uint32_t col = index->columns()[k];
      if (auto m = keyEquality(conjuncts, static_cast<int>(col), table.columns()[col].type.id, isConstantValue))
        used[k] = static_cast<int>(m->first) * 2 + m->second;
    }
    if (std::find(used.begin(), used.end(), -1) != used.end()) continue;
    auto n = std::make_unique<Node>(NodeKind::IndexLookup);
    n->table = &table;
    n->index = index.get();
    n->outputTypes = tableRowTypes(table);
    std::vector<size_t> consumed;
    for (size_t k = 0; k < used.size(); ++k) {
      size_t i = used[k] / 2;
      int valueSide = used[k] % 2;
      SqlType keyType = index->keyLayout().types[k];
      n->keys.push_back(b.coerce(std::move(conjuncts[i]->args[valueSide]), keyType, CastContext::Implicit, 0));
      consumed.push_back(i);
    }
    std::sort(consumed.rbegin(), consumed.rend());
    for (size_t i : consumed) conjuncts.erase(conjuncts.begin() + i);
    return n;
  }
  if (NodePtr range = indexRange(table, conjuncts)) return range;
  auto n = std::make_unique<Node>(NodeKind::TableScan);
  n->table = &table;
  n->outputTypes = tableRowTypes(table);
  return n;
}

struct FromPlan {
  NodePtr node;
  Scope scope;
};

class StatementPlanner {
 public:
  explicit StatementPlanner(const PlanRequest& r) : req_(r), b_(r) {
    b_.setSubqueryPlanner(
        [this](const sql::SelectStmt& s, std::vector<OutputColumn>& columns) { return planSubquery(s, columns); });
  }

  PlannedStatement run() {
    auto out = std::make_unique<PreparedPlan>();
    NodePtr root;
    switch (req_.stmt->kind) {
      case sql::StmtKind::Select:
        out->command = PreparedPlan::Command::Select;
        root = planSelect(req_.stmt->as<sql::SelectStmt>(), out->columns);
        out->returnsRows = true;
        break;
      case sql::StmtKind::Insert:
        out->command = PreparedPlan::Command::Insert;
        root = planInsert(req_.stmt->as<sql::InsertStmt>(), out->columns);
        break;
      case sql::StmtKind::Update:
        out->command = PreparedPlan::Command::Update;
        root = planUpdate(req_.stmt->as<sql::UpdateStmt>(), out->columns);
        break;
      case sql::StmtKind::Delete:
        out->command = PreparedPlan::Command::Delete;
        root = planDelete(req_.stmt->as<sql::DeleteStmt>(), out->columns);
        break;
      case sql::StmtKind::Call: {
        // CALL p(args): the procedure's row (its OUT arguments), if it has one.
        out->command = PreparedPlan::Command::Call;
        const sql::FuncCall& call = *req_.stmt->as<sql::CallStmt>().call;
        const RoutineCandidate& r = resolveCall(call, true);
        for (size_t a = 0; a < r.argOutputs.size(); ++a)
          if (r.argOutputs[a]) out->callOutputs.emplace_back(static_cast<int>(a), r.argNames[a]);
        root = functionScan(r, boundArgs_);
        for (size_t i = 0; i < r.resultTypes.size(); ++i) out->columns.push_back({r.resultNames[i], r.resultTypes[i]});
        out->returnsRows = !r.resultTypes.empty();
        break;
      }
      default: throw SqlError(sqlstate::kInternalError, "planTree called for a utility statement");
    }
    if (out->command != PreparedPlan::Command::Select && out->command != PreparedPlan::Command::Call)
      out->returnsRows = !root->returning.empty();
    for (auto& t : b_.paramTypes())
      if (t.id == TypeId::Unknown) t = {TypeId::Text, -1};
    out->paramTypes = b_.paramTypes();
    fixParamTypes(*root);
    out->planOutline = plan::outline(*root);
    out->footprint = plan::footprint(*root);
    out->directCall = directCallOf(*root, out->paramTypes);
    if (out->directCall)
      for (const OutputColumn& c : out->columns) out->directCall->resultRow.push_back(c.type);
    return {std::move(out), std::move(root)};
  }

 private:
  // Parameters whose type was decided after a reference was bound still carry Unknown.
  void fixExpr(plan::Expr& e) {
    if (e.kind == ExprKind::Param) e.type = b_.paramTypes()[e.param];
    for (auto& a : e.args) fixExpr(*a);
    if (e.subplan) fixParamTypes(*e.subplan);
  }
  void fixParamTypes(Node& n) {
    auto fixAll = [&](std::vector<ExprPtr>& v) {
      for (auto& e : v)
        if (e) fixExpr(*e);
    };
    fixAll(n.keys);
    fixAll(n.exprs);
    fixAll(n.rightKeys);
    fixAll(n.returning);
    if (n.rangeLow) fixExpr(*n.rangeLow);
    if (n.rangeHigh) fixExpr(*n.rangeHigh);
    for (auto& r : n.rows) fixAll(r);
    if (n.predicate) fixExpr(*n.predicate);
    if (n.limit) fixExpr(*n.limit);
    if (n.offset) fixExpr(*n.offset);
    for (auto& a : n.aggs)
      if (a.arg) fixExpr(*a.arg);
    for (auto& c : n.children) fixParamTypes(*c);
  }

  ScopeEntry entryFor(const TableBinding& t, const std::string& alias, int offset) {
    ScopeEntry e;
    e.alias = alias.empty() ? t.name : alias;
    e.table = &t;
    for (const auto& c : t.table->columns()) {
      e.names.push_back(c.name);
      e.types.push_back(c.type);
    }
    e.names.push_back("");  // the hidden rowid column: no name can reach it
    e.types.push_back({TypeId::Int8, -1});
    e.joinColumn.assign(e.names.size(), -1);
    e.offset = offset;
    return e;
  }

  const TableBinding& resolve(const sql::QualifiedName& name) {
    bindings_.push_back(std::make_unique<TableBinding>(req_.resolveTable(name)));
    return *bindings_.back();
  }

  // A USING or NATURAL join over the base tables [leftBegin, rightBegin) and
  // [rightBegin, rightEnd) of the flattened FROM list.
  struct MergingJoin {
    const sql::JoinRef* join;
    size_t leftBegin, rightBegin, rightEnd;
  };
  // A condition on the FROM list's rows: WHERE's (deadline: none) or an inner join's ON
  // (deadline: the item that completes its join, before any later outer join nulls its
  // tables).
  struct FromCondition {
    const sql::Expr* expr;
    size_t deadline;
  };
  static constexpr size_t kNoDeadline = SIZE_MAX;
  // How each FROM item joins the items before it: inner, or the LEFT or RIGHT outer join
  // whose right side it is, with that join's ON condition.
  struct JoinStep {
    sql::JoinType type = sql::JoinType::Inner;
    const sql::Expr* on = nullptr;
  };

  // Flattens FROM into a list of base tables, subqueries and functions, joined left-deep in
  // that order: inner joins' ON conditions are collected with the WHERE conjuncts, an outer
  // join's stays with the item it joins (its right side, which must be a single item for
  // now). USING/NATURAL joins are recorded inner ones first, for mergeJoinColumns once the
  // items are in scope.
  void collectFrom(const sql::TableRef& ref, std::vector<const sql::TableRef*>& tables,
                   std::vector<FromCondition>& conditions, std::vector<MergingJoin>& merging,
                   std::vector<JoinStep>& steps) {
    switch (ref.kind) {
      case sql::TableRefKind::Table:
      case sql::TableRefKind::Function:
      case sql::TableRefKind::Subquery:
        tables.push_back(&ref);
        steps.emplace_back();
        return;
      case sql::TableRefKind::Join: {
        const auto& j = ref.as<sql::JoinRef>();
        bool outer = j.type != sql::JoinType::Inner && j.type != sql::JoinType::Cross;
        if (outer && j.right->kind == sql::TableRefKind::Join)
          b_.fail(sqlstate::kFeatureNotSupported, "an outer join with a join on its right side is not supported yet",
                  j.right->location);
        size_t leftBegin = tables.size();
        collectFrom(*j.left, tables, conditions, merging, steps);
        size_t rightBegin = tables.size();
        collectFrom(*j.right, tables, conditions, merging, steps);
        if (outer) {
          steps[rightBegin] = {j.type, j.on.get()};
        } else if (j.on) {
          conditions.push_back({j.on.get(), tables.size() - 1});
        }
        if (j.natural || !j.using_.empty()) merging.push_back({&j, leftBegin, rightBegin, tables.size()});
        return;
      }
    }
  }

  // Names a NATURAL join merges: the left side's visible column names that the right side
  // also has, in left order.
  std::vector<std::string> naturalColumns(const Scope& scope, const MergingJoin& m) {
    std::vector<std::string> names;
    for (size_t i = m.leftBegin; i < m.rightBegin; ++i)
      for (const auto& n : scope.entries[i].names) {
        if (n.empty() || std::find(names.begin(), names.end(), n) != names.end()) continue;
        if (binder::findUnqualified(scope, n, m.rightBegin, m.rightEnd).matches > 0) names.push_back(n);
      }
    return names;
  }

  // Applies a USING/NATURAL join: each named column must exist once on each side; the two
  // become one join column (for unqualified references and SELECT *) and their equality a
  // join condition, compared in the common type as PostgreSQL does.
  void mergeJoinColumns(Scope& scope, const MergingJoin& m, int joinNumber, std::vector<ExprPtr>& conjuncts) {
    const sql::JoinRef& j = *m.join;
    std::vector<std::string> names = j.natural ? naturalColumns(scope, m) : j.using_;
    for (size_t k = 0; k < names.size(); ++k) {
      const std::string& name = names[k];
      if (std::find(names.begin(), names.begin() + k, name) != names.begin() + k)
        b_.fail(sqlstate::kDuplicateColumn,
                fmt::format("column name \"{}\" appears more than once in USING clause", name), j.location);
      auto side = [&](size_t first, size_t end, const char* which) {
        binder::ColumnMatch match = binder::findUnqualified(scope, name, first, end);
        if (match.matches == 0)
          b_.fail(sqlstate::kUndefinedColumn,
                  fmt::format("column \"{}\" specified in USING clause does not exist in {} table", name, which),
                  j.location);
        if (match.matches > 1)
          b_.fail(sqlstate::kAmbiguousColumn,
                  fmt::format("common column name \"{}\" appears more than once in {} table", name, which), j.location);
        return match;
      };
      binder::ColumnMatch left = side(m.leftBegin, m.rightBegin, "left");
      binder::ColumnMatch right = side(m.rightBegin, m.rightEnd, "right");
      ExprPtr l = binder::matchValue(scope, left), r = binder::matchValue(scope, right);
      auto common = commonType(l->type, r->type);
      if (!common)
        b_.fail(sqlstate::kDatatypeMismatch,
                fmt::format("JOIN/USING types {} and {} cannot be matched", typeName(l->type), typeName(r->type)),
                j.location);
      l = b_.coerce(std::move(l), *common, CastContext::Implicit, j.location);
      r = b_.coerce(std::move(r), *common, CastContext::Implicit, j.location);
      int index = static_cast<int>(scope.joinColumns.size());
      // The merged column is the preserved side's; both sides' for FULL JOIN (COALESCE).
      ExprPtr merged;
      if (j.type == sql::JoinType::Full) {
        merged = std::make_unique<plan::Expr>(ExprKind::Coalesce, l->type);
        merged->args.push_back(plan::cloneExpr(*l));
        merged->args.push_back(plan::cloneExpr(*r));
      } else {
        merged = plan::cloneExpr(j.type == sql::JoinType::Right ? *r : *l);
      }
      scope.joinColumns.push_back(
          {name, std::shared_ptr<const plan::Expr>(std::move(merged)), static_cast<int>(m.leftBegin), joinNumber, -1});
      conjuncts.push_back(b_.compare(plan::Op::Eq, std::move(l), std::move(r), j.location));
      for (const binder::ColumnMatch& merged : {left, right}) {
        if (merged.join >= 0)
          scope.joinColumns[merged.join].mergedInto = index;
        else
          scope.entries[merged.entry].joinColumn[merged.column] = index;
      }
    }
  }

  // A call's arguments bound (no columns in scope) and its routine resolved; the full,
  // coerced argument list is left in boundArgs_.
  const RoutineCandidate& resolveCall(const sql::FuncCall& call, bool procedure) {
    Scope none;
    // Bound into a local list first: an argument may hold a subquery, planned meanwhile.
    std::vector<ExprPtr> args;
    for (const auto& a : call.args) args.push_back(b_.bind(*a, none));
    boundArgs_ = std::move(args);
    const RoutineCandidate* r = b_.resolveRoutine(call, boundArgs_, procedure);
    if (!r) b_.failUndefinedRoutine(call.names.back(), boundArgs_, procedure, call.location);
    return *r;
  }

  static NodePtr functionScan(const RoutineCandidate& r, std::vector<ExprPtr>& args) {
    auto node = std::make_unique<Node>(NodeKind::FunctionScan);
    node->routine = r.oid;
    node->exprs = std::move(args);
    node->outputTypes = r.resultTypes;
    return node;
  }

  // The scan of FROM f(args) and its scope entry: the function's result columns, renamed
  // by an alias list, or for a function returning record the column definition list,
  // which PostgreSQL requires there and allows nowhere else (42601, as
  // addRangeTableEntryForFunction). The routine checks its rows against that list.
  NodePtr functionItem(const sql::RangeFunction& f, ScopeEntry& e) {
    const RoutineCandidate& r = resolveCall(*f.call, false);
    NodePtr node = functionScan(r, boundArgs_);
    bool definitions = !f.columnTypes.empty();
    if (definitions && r.returnsComposite)
      b_.fail(sqlstate::kSyntaxError,
              "a column definition list is redundant for a function returning a named composite type",
              f.definitionLocation);
    if (definitions && !r.returnsRecord)
      b_.fail(sqlstate::kSyntaxError, "a column definition list is only allowed for functions returning \"record\"",
              f.definitionLocation);
    if (!definitions && r.returnsRecord)
      b_.fail(sqlstate::kSyntaxError, "a column definition list is required for functions returning \"record\"",
              f.call->location);
    e.alias = f.alias && !f.alias->name.empty() ? f.alias->name : r.name;
    if (definitions) {
      e.names = f.alias->columns;
      for (size_t i = 0; i < e.names.size(); ++i) {
        for (size_t j = 0; j < i; ++j)
          if (e.names[j] == e.names[i])
            throw SqlError(sqlstate::kDuplicateColumn,
                           fmt::format("column name \"{}\" specified more than once", e.names[i]));
        e.types.push_back(b_.resolveType(f.columnTypes[i]));
      }
      node->outputTypes = e.types;
    } else {
      e.names = r.resultNames;
      // A function returning scalars (one value or a set of them) names its column after
      // the alias too.
      if (f.alias && r.resultNames.size() == 1 && r.resultNames[0] == r.name) e.names[0] = f.alias->name;
      if (f.alias)
        for (size_t i = 0; i < f.alias->columns.size() && i < e.names.size(); ++i) e.names[i] = f.alias->columns[i];
      e.types = r.resultTypes;
    }
    e.joinColumn.assign(e.names.size(), -1);
    return node;
  }

  // A subquery in an expression or in FROM: planned like a SELECT of its own, its unknown
  // literals made text whatever the statement around it does with its own.
  NodePtr planSubquery(const sql::SelectStmt& s, std::vector<OutputColumn>& columns) {
    bool resolve = resolveUnknowns_;
    resolveUnknowns_ = true;
    auto* setReturning = b_.collectSetReturning(nullptr);  // the enclosing select list's
    NodePtr node = planSelect(s, columns);
    b_.collectSetReturning(setReturning);
    resolveUnknowns_ = resolve;
    return node;
  }

  // FROM (SELECT ...) AS alias [(columns)]: its plan and scope entry. It sees the queries
  // this one is a subquery of, but not the other FROM items beside it (no LATERAL).
  NodePtr subqueryItem(const sql::RangeSubquery& r, ScopeEntry& e) {
    std::vector<OutputColumn> columns;
    NodePtr node = planSubquery(*r.subquery, columns);
    e.alias = r.alias->name;
    for (const auto& c : columns) {
      e.names.push_back(c.name);
      e.types.push_back(c.type);
    }
    if (r.alias->columns.size() > e.names.size())
      b_.fail(sqlstate::kInvalidColumnReference,
              fmt::format("table \"{}\" has {} columns available but {} columns specified", e.alias, e.names.size(),
                          r.alias->columns.size()),
              r.location);
    for (size_t i = 0; i < r.alias->columns.size(); ++i) e.names[i] = r.alias->columns[i];
    e.joinColumn.assign(e.names.size(), -1);
    return node;
  }

  // FROM f(args) [AS alias [(columns)]] as the only FROM item (a shape direct calls know).
  FromPlan planFunctionFrom(const sql::RangeFunction& f, const sql::Expr* where) {
    FromPlan fp;
    ScopeEntry e;
    fp.node = functionItem(f, e);
    fp.scope.width = static_cast<int>(e.types.size());
    fp.scope.entries.push_back(std::move(e));
    if (where) {
      if (Binder::containsAggregate(*where))
        b_.fail(sqlstate::kGroupingError, "aggregate functions are not allowed in WHERE", where->location);
      fp.node = filter(std::move(fp.node), b_.coerceToBool(b_.bind(*where, fp.scope), "WHERE", where->location));
    }
    return fp;
  }

  // Joins table `t` (its columns from `offset` on) to the rows on its left through a
  // unique index when every key column is equated with a value known per left row (a
  // join conjunct in `rest`) or per statement (a conjunct in `local`): one probe per left
  // row instead of a scan of the table. Consumed conjuncts are removed; the table's other
  // local conjuncts filter the joined rows. Null when no index fits.
  template <class EntryOf>
  NodePtr indexJoin(FromPlan& fp, const TableBinding& binding, int offset, std::vector<ExprPtr>& local,
                    std::vector<ExprPtr>& rest, const EntryOf& entryOf, size_t t) {
    Table& table = *binding.table;
    for (const auto& index : table.indexes()) {
      if (!index->unique()) continue;
      // Per key column: (which list, conjunct, side holding the value).
      std::vector<std::tuple<int, size_t, int>> found;
      // A value of the left side: it reads columns, all of tables before this one.
      auto fromLeft = [&](const plan::Expr& e) {
        auto [lo, hi] = columnRange(e);
        return lo >= 0 && entryOf(hi) < static_cast<int>(t);
      };
      for (uint32_t col : index->columns()) {
        TypeId type = table.columns()[col].type.id;
        if (auto m = keyEquality(local, static_cast<int>(col), type, isConstantValue)) {
          found.emplace_back(0, m->first, m->second);
        } else if (auto j = keyEquality(rest, offset + static_cast<int>(col), type, fromLeft)) {
          found.emplace_back(1, j->first, j->second);
        } else {
          break;
        }
      }
      if (found.size() != index->columns().size()) continue;
      auto join = std::make_unique<Node>(NodeKind::IndexJoin);
      join->table = &table;
      join->index = index.get();
      std::vector<size_t> usedLocal, usedRest;
      for (size_t k = 0; k < found.size(); ++k) {
        auto [list, i, side] = found[k];
        std::vector<ExprPtr>& from = list == 0 ? local : rest;
        join->keys.push_back(
            b_.coerce(std::move(from[i]->args[side]), index->keyLayout().types[k], CastContext::Implicit, 0));
        (list == 0 ? usedLocal : usedRest).push_back(i);
      }
      for (auto* used : {&usedLocal, &usedRest}) {
        std::vector<ExprPtr>& from = used == &usedLocal ? local : rest;
        std::sort(used->rbegin(), used->rend());
        used->erase(std::unique(used->begin(), used->end()), used->end());
        for (size_t i : *used) from.erase(from.begin() + i);
      }
      join->outputTypes = fp.node->outputTypes;
      std::vector<SqlType> right = tableRowTypes(table);
      join->outputTypes.insert(join->outputTypes.end(), right.begin(), right.end());
      join->children.push_back(std::move(fp.node));
      for (auto& c : local) binder::shiftColumns(*c, offset);
      NodePtr out = filter(std::move(join), conjunction(std::move(local)));
      local.clear();
      return out;
    }
    return nullptr;
  }

  FromPlan planFrom(const std::vector<sql::TableRefPtr>& from, const sql::Expr* where) {
    checkStackDepth();
    if (from.size() == 1 && from[0]->kind == sql::TableRefKind::Function)
      return planFunctionFrom(from[0]->as<sql::RangeFunction>(), where);
    FromPlan fp;
    std::vector<const sql::TableRef*> tables;
    std::vector<FromCondition> conditions;
    std::vector<MergingJoin> merging;
    std::vector<JoinStep> steps;
    for (const auto& ref : from) collectFrom(*ref, tables, conditions, merging, steps);
    if (where) conditions.push_back({where, kNoDeadline});
    if (tables.empty()) {
      auto values = std::make_unique<Node>(NodeKind::Values);
      values->rows.emplace_back();
      fp.node = std::move(values);
      std::vector<ExprPtr> conjuncts;
      for (const auto& c : conditions)
        splitConjuncts(b_.coerceToBool(b_.bind(*c.expr, fp.scope), "WHERE", c.expr->location), conjuncts);
      fp.node = filter(std::move(fp.node), conjunction(std::move(conjuncts)));
      return fp;
    }
    // Per item: its table, or null for a function, whose rows its scan (made here, its
    // arguments bound before any column is in scope: no LATERAL) computes once per
    // statement; joins then treat them as a table's.
    std::vector<const TableBinding*> bound;
    std::vector<NodePtr> functionScans;
    for (const auto* ref : tables) {
      ScopeEntry entry;
      const TableBinding* tb = nullptr;
      functionScans.emplace_back();
      if (ref->kind == sql::TableRefKind::Function) {
        functionScans.back() = functionItem(ref->as<sql::RangeFunction>(), entry);
      } else if (ref->kind == sql::TableRefKind::Subquery) {
        functionScans.back() = subqueryItem(ref->as<sql::RangeSubquery>(), entry);
      } else {
        const auto& t = ref->as<sql::RangeTable>();
        tb = &resolve(t.name);
        entry = entryFor(*tb, t.alias ? t.alias->name : std::string(), 0);
      }
      for (const auto& e : fp.scope.entries)
        if (e.alias == entry.alias)
          b_.fail(kDuplicateAlias, fmt::format("table name \"{}\" specified more than once", e.alias), ref->location);
      entry.offset = fp.scope.width;
      fp.scope.width += static_cast<int>(entry.names.size());
      fp.scope.entries.push_back(std::move(entry));
      bound.push_back(tb);
    }
    size_t n = tables.size();
    // The conjuncts of each outer join's ON; those of inner joins and WHERE, with deadlines.
    std::vector<std::vector<ExprPtr>> onConjuncts(n);
    std::vector<std::pair<ExprPtr, size_t>> conjuncts;
    for (size_t i = 0; i < merging.size(); ++i) {
      std::vector<ExprPtr> equalities;
      mergeJoinColumns(fp.scope, merging[i], static_cast<int>(i), equalities);
      size_t right = merging[i].rightBegin;
      bool outer = steps[right].type != sql::JoinType::Inner;
      for (auto& e : equalities) {
        if (outer)
          onConjuncts[right].push_back(std::move(e));
        else
          conjuncts.emplace_back(std::move(e), merging[i].rightEnd - 1);
      }
    }
    // PostgreSQL names the clause "WHERE" or "JOIN/ON" in type errors, and "JOIN
    // conditions" when refusing an aggregate there.
    auto bindCondition = [&](const sql::Expr& c, bool where, std::vector<ExprPtr>& out) {
      ExprPtr e = b_.bind(c, fp.scope);
      if (Binder::containsAggregate(c))
        b_.fail(sqlstate::kGroupingError,
                fmt::format("aggregate functions are not allowed in {}", where ? "WHERE" : "JOIN conditions"),
                c.location);
      splitConjuncts(b_.coerceToBool(std::move(e), where ? "WHERE" : "JOIN/ON", c.location), out);
    };
    for (const auto& c : conditions) {
      std::vector<ExprPtr> split;
      bindCondition(*c.expr, c.deadline == kNoDeadline, split);
      for (auto& e : split) conjuncts.emplace_back(std::move(e), c.deadline);
    }
    for (size_t t = 0; t < n; ++t)
      if (steps[t].on) bindCondition(*steps[t].on, false, onConjuncts[t]);
    // Which scope entry a column belongs to.
    auto entryOf = [&](int column) {
      for (size_t i = 0; i < fp.scope.entries.size(); ++i) {
        const auto& e = fp.scope.entries[i];
        if (column >= e.offset && column < e.offset + static_cast<int>(e.names.size())) return static_cast<int>(i);
      }
      return -1;
    };
    // The latest outer join, up to step `deadline`, that makes item `e`'s columns NULL: a
    // LEFT JOIN its own item's, a RIGHT JOIN those of every item before it, a FULL JOIN
    // both. -1: none.
    auto nulledAt = [&](int e, size_t deadline) {
      int latest = -1;
      for (size_t u = 0; u < n && u <= deadline; ++u) {
        bool nulls = (steps[u].type == sql::JoinType::Left && static_cast<int>(u) == e) ||
                     (steps[u].type == sql::JoinType::Right && e < static_cast<int>(u)) ||
                     (steps[u].type == sql::JoinType::Full && e <= static_cast<int>(u));
        if (nulls) latest = static_cast<int>(u);
      }
      return latest;
    };
    // Where each conjunct applies: in one item's scan when it reads that item alone and
    // no outer join makes the item NULL before the conjunct's deadline; else at the first
    // join step whose rows hold its columns after every outer join that nulls them (after
    // the join of that step: an outer join's own ON decides its matches instead).
    std::vector<std::vector<ExprPtr>> local(n), atStep(n);
    std::vector<ExprPtr> top;
    for (auto& [c, deadline] : conjuncts) {
      auto [lo, hi] = columnRange(*c);
      if (lo < 0) {
        (deadline == kNoDeadline ? top : atStep[deadline]).push_back(std::move(c));
        continue;
      }
      int first = entryOf(lo), last = entryOf(hi);
      int nulled = -1;
      for (int e = first; e <= last; ++e) nulled = std::max(nulled, nulledAt(e, deadline));
      if (first == last && nulled < 0) {
        binder::shiftColumns(*c, -fp.scope.entries[first].offset);
        local[first].push_back(std::move(c));
      } else {
        atStep[std::max(last, nulled)].push_back(std::move(c));
      }
    }
    // A LEFT JOIN's ON conjuncts that read its own item alone filter that item's scan.
    for (size_t t = 0; t < n; ++t) {
      if (steps[t].type != sql::JoinType::Left) continue;
      std::vector<ExprPtr> keep;
      for (auto& c : onConjuncts[t]) {
        auto [lo, hi] = columnRange(*c);
        if (lo >= 0 && entryOf(lo) == static_cast<int>(t) && entryOf(hi) == static_cast<int>(t)) {
          binder::shiftColumns(*c, -fp.scope.entries[t].offset);
          local[t].push_back(std::move(c));
        } else {
          keep.push_back(std::move(c));
        }
      }
      onConjuncts[t] = std::move(keep);
    }
    for (size_t t = 0; t < n; ++t) {
      bool outer = steps[t].type != sql::JoinType::Inner;
      if (t > 0 && bound[t] && !outer) {
        if (NodePtr joined = indexJoin(fp, *bound[t], fp.scope.entries[t].offset, local[t], atStep[t], entryOf, t)) {
          fp.node = filter(std::move(joined), conjunction(std::move(atStep[t])));
          continue;
        }
      }
      NodePtr scan = bound[t] ? accessPath(*bound[t], local[t], b_) : std::move(functionScans[t]);
      scan = filter(std::move(scan), conjunction(std::move(local[t])));
      if (t == 0) {
        fp.node = filter(std::move(scan), conjunction(std::move(atStep[0])));
        continue;
      }
      fp.node = joinStep(std::move(fp.node), std::move(scan), fp.scope.entries[t].offset, steps[t].type,
                         outer ? onConjuncts[t] : atStep[t]);
      if (outer) fp.node = filter(std::move(fp.node), conjunction(std::move(atStep[t])));
    }
    fp.node = filter(std::move(fp.node), conjunction(std::move(top)));
    return fp;
  }

  // Joins `right` (an item whose columns start at `rightOffset`) to `left` (the items
  // before it) by `type`, on `conditions`: equalities between the two sides become hash
  // keys, the rest a residual predicate; with no equality, a nested loop. An outer join's
  // preserved side drives it - a hash join's probe side, a nested loop's outer side - and
  // the joined row still lists the left items' columns first.
  NodePtr joinStep(NodePtr left, NodePtr right, int rightOffset, sql::JoinType type, std::vector<ExprPtr>& conditions) {
    auto join = std::make_unique<Node>(NodeKind::HashJoin);
    std::vector<ExprPtr> leftKeys, rightKeys, residual;
    for (auto& c : conditions) {
      if (c->kind == ExprKind::Compare && c->op == plan::Op::Eq) {
        auto [l0, l1] = columnRange(*c->args[0]);
        auto [r0, r1] = columnRange(*c->args[1]);
        int leftArg = -1;
        if (l0 >= 0 && r0 >= 0 && l1 < rightOffset && r0 >= rightOffset) leftArg = 0;
        if (l0 >= 0 && r0 >= 0 && r1 < rightOffset && l0 >= rightOffset) leftArg = 1;
        if (leftArg >= 0) {
          leftKeys.push_back(std::move(c->args[leftArg]));
          ExprPtr rk = std::move(c->args[1 - leftArg]);
          binder::shiftColumns(*rk, -rightOffset);
          rightKeys.push_back(std::move(rk));
          continue;
        }
      }
      residual.push_back(std::move(c));
    }
    conditions.clear();
    join->outer = type != sql::JoinType::Inner;
    join->predicate = conjunction(std::move(residual));
    join->outputTypes = left->outputTypes;
    join->outputTypes.insert(join->outputTypes.end(), right->outputTypes.begin(), right->outputTypes.end());
    // children[1] probes a hash join's table of children[0]; children[0] drives a nested
    // loop over children[1]. The preserved side of an outer join must drive.
    bool hash = !leftKeys.empty();
    if (type == sql::JoinType::Full && !hash)
      throw SqlError(sqlstate::kFeatureNotSupported,
                     "FULL JOIN is only supported with merge-joinable or hash-joinable join conditions");
    // FULL JOIN: the left side is built and its unmatched rows follow the probe.
    join->keepBuildSide = type == sql::JoinType::Full;
    bool leftIsFirstChild = hash ? type != sql::JoinType::Left : type != sql::JoinType::Right;
    if (hash) {
      join->exprs = std::move(leftIsFirstChild ? leftKeys : rightKeys);
      join->rightKeys = std::move(leftIsFirstChild ? rightKeys : leftKeys);
    } else {
      join->kind = NodeKind::NestedLoopJoin;
    }
    join->rightFirst = !leftIsFirstChild;
    join->children.push_back(leftIsFirstChild ? std::move(left) : std::move(right));
    join->children.push_back(leftIsFirstChild ? std::move(right) : std::move(left));
    return join;
  }

  // The join columns SELECT * lists just before scope entry `entry`'s own columns.
  static std::vector<int> joinColumnsListedAt(const Scope& scope, int entry) {
    std::vector<int> listed;
    for (size_t j = 0; j < scope.joinColumns.size(); ++j) {
      const binder::JoinColumn& jc = scope.joinColumns[j];
      if (jc.firstEntry == entry && jc.mergedInto < 0) listed.push_back(static_cast<int>(j));
    }
    std::stable_sort(listed.begin(), listed.end(),
                     [&](int a, int b) { return scope.joinColumns[a].join > scope.joinColumns[b].join; });
    return listed;
  }

  // Expands * and t.* in a target list into (name, expression) pairs.
  void expandTargets(const std::vector<sql::ResTarget>& targets, const Scope& scope, binder::AggContext* agg,
                     std::vector<ExprPtr>& exprs, std::vector<OutputColumn>& columns) {
    for (const auto& t : targets) {
      if (t.expr->kind == sql::ExprKind::ColumnRef && t.expr->as<sql::ColumnRef>().star) {
        const auto& ref = t.expr->as<sql::ColumnRef>();
        bool any = false;
        bool qualified = !ref.names.empty();
        for (size_t i = 0; i < scope.entries.size(); ++i) {
          const auto& e = scope.entries[i];
          if (qualified && e.alias != ref.names.back()) continue;
          any = true;
          // Unqualified, USING/NATURAL join columns come first in their join (outer joins
          // before inner ones) and stand for the columns they merge; t.* lists t's own.
          if (!qualified) {
            for (int j : joinColumnsListedAt(scope, static_cast<int>(i))) {
              const binder::JoinColumn& jc = scope.joinColumns[j];
              exprs.push_back(plan::cloneExpr(*jc.value));
              columns.push_back({jc.name, jc.value->type});
            }
          }
          for (size_t c = 0; c < e.names.size(); ++c) {
            if (e.names[c].empty() || (!qualified && e.joinColumn[c] >= 0)) continue;
            sql::ColumnRef col(t.location);
            col.names = {e.alias, e.names[c]};
            exprs.push_back(b_.bind(col, scope, agg));
            columns.push_back({e.names[c], e.types[c], e.table ? e.table->oid : 0, static_cast<int16_t>(c + 1)});
          }
        }
        if (!any && !ref.names.empty())
          b_.fail(sqlstate::kUndefinedTable,
                  fmt::format("missing FROM-clause entry for table \"{}\"", ref.names.back()), t.location);
        if (!any) b_.fail(sqlstate::kSyntaxError, "SELECT * with no tables specified is not valid", t.location);
        continue;
      }
      ExprPtr e = b_.bind(*t.expr, scope, agg);
      if (e->type.id == TypeId::Unknown && resolveUnknowns_)
        e = b_.coerce(std::move(e), {TypeId::Text, -1}, CastContext::Implicit, t.location);
      OutputColumn col{t.alias.empty() ? Binder::targetName(*t.expr) : t.alias, e->type};
      if (e->kind == ExprKind::Column && !agg) {
        for (const auto& se : scope.entries) {
          int c = e->column - se.offset;
          if (se.table && c >= 0 && c < static_cast<int>(se.names.size())) {
            col.tableOid = se.table->oid;
            col.attnum = static_cast<int16_t>(c + 1);
          }
        }
      }
      exprs.push_back(std::move(e));
      columns.push_back(col);
    }
  }

  NodePtr planSelect(const sql::SelectStmt& s, std::vector<OutputColumn>& columns) {
    checkStackDepth();
    checkForInterrupts();
    if (s.body == sql::SelectStmt::Body::SetOp)
      b_.fail(sqlstate::kFeatureNotSupported, "UNION, INTERSECT and EXCEPT are not supported yet", s.begin);
    if (!s.distinctOn.empty()) b_.fail(sqlstate::kFeatureNotSupported, "DISTINCT ON is not supported yet", s.begin);
    NodePtr node;
    std::vector<ExprPtr> targets;
    std::vector<plan::SortKey> orderExprs;
    Scope scope;
    binder::AggContext aggCtx;
    binder::AggContext* agg = nullptr;
    if (s.body == sql::SelectStmt::Body::Values) {
      node = planValues(s.values, {}, columns);
    } else {
      FromPlan fp = planFrom(s.from, s.where.get());
      node = std::move(fp.node);
      scope = std::move(fp.scope);
      bool aggregating = !s.groupBy.empty() || (s.having != nullptr);
      for (const auto& t : s.targets) aggregating = aggregating || Binder::containsAggregate(*t.expr);
      for (const auto& o : s.orderBy) aggregating = aggregating || Binder::containsAggregate(*o.expr);
      if (aggregating) {
        agg = &aggCtx;
        for (const auto& g : s.groupBy) {
          if (g->kind == sql::ExprKind::Literal) {
            size_t index = positionIndex(*g, s.targets.size(), "GROUP BY");
            aggCtx.groupExprs.push_back(b_.bind(*s.targets[index].expr, scope));
          } else if (g->kind == sql::ExprKind::ColumnRef && g->as<sql::ColumnRef>().names.size() == 1 &&
                     !hasColumn(scope, g->as<sql::ColumnRef>().names[0])) {
            // GROUP BY an output column alias
            const std::string& n = g->as<sql::ColumnRef>().names[0];
            const sql::ResTarget* match = nullptr;
            for (const auto& t : s.targets)
              if (t.alias == n) match = &t;
            if (!match)
              b_.fail(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", n), g->location);
            aggCtx.groupExprs.push_back(b_.bind(*match->expr, scope));
          } else {
            aggCtx.groupExprs.push_back(b_.bind(*g, scope));
          }
        }
      }
      // A set-returning function among the targets (not over an aggregation) adds a
      // ProjectSet node below the projection, whose last column its call stands for.
      binder::Binder::SetReturningCall setReturning{static_cast<int>(node->outputTypes.size()), nullptr};
      auto* outerSetReturning = b_.collectSetReturning(aggregating ? nullptr : &setReturning);
      expandTargets(s.targets, scope, agg, targets, columns);
      b_.collectSetReturning(outerSetReturning);
      if (setReturning.call) {
        auto ps = std::make_unique<Node>(NodeKind::ProjectSet);
        ps->outputTypes = node->outputTypes;
        ps->outputTypes.push_back(setReturning.call->type);
        ps->routine = setReturning.call->routine;
        ps->exprs = std::move(setReturning.call->args);
        ps->children.push_back(std::move(node));
        node = std::move(ps);
      }
      if (aggregating) {
        ExprPtr having =
            s.having ? b_.coerceToBool(b_.bind(*s.having, scope, agg), "HAVING", s.having->location) : nullptr;
        // ORDER BY expressions may add aggregates: bind them before building the node.
        orderExprs = bindOrderBy(s, scope, agg, targets, columns);
        auto a = std::make_unique<Node>(NodeKind::Aggregate);
        for (const auto& g : aggCtx.groupExprs) a->outputTypes.push_back(g->type);
        for (const auto& sp : aggCtx.aggs) a->outputTypes.push_back(sp.resultType);
        a->exprs = std::move(aggCtx.groupExprs);
        a->aggs = std::move(aggCtx.aggs);
        a->children.push_back(std::move(node));
        planner::minMaxFromIndex(*a);
        node = filter(std::move(a), std::move(having));
      } else {
        orderExprs = bindOrderBy(s, scope, nullptr, targets, columns);
      }
      node = project(std::move(node), std::move(targets));
    }
    if (s.body == sql::SelectStmt::Body::Values) orderExprs = valuesOrder(s, columns);
    size_t visible = columns.size();
    if (s.distinct) {
      if (node->outputTypes.size() > visible)
        b_.fail(sqlstate::kInvalidColumnReference,
                "for SELECT DISTINCT, ORDER BY expressions must appear in select list", s.begin);
      auto d = std::make_unique<Node>(NodeKind::Distinct);
      d->outputTypes = node->outputTypes;
      d->children.push_back(std::move(node));
      node = std::move(d);
    }
    if (!orderExprs.empty()) {
      auto sort = std::make_unique<Node>(NodeKind::Sort);
      sort->outputTypes = node->outputTypes;
      sort->sortKeys = std::move(orderExprs);
      sort->children.push_back(std::move(node));
      node = planner::sortFromIndex(std::move(sort), s.limit != nullptr);
    }
    if (s.limit || s.offset) {
      auto l = std::make_unique<Node>(NodeKind::Limit);
      l->outputTypes = node->outputTypes;
      Scope none;
      SqlType i8{TypeId::Int8, -1};
      if (s.limit) l->limit = b_.coerce(b_.bind(*s.limit, none), i8, CastContext::Implicit, s.limit->location);
      if (s.offset) l->offset = b_.coerce(b_.bind(*s.offset, none), i8, CastContext::Implicit, s.offset->location);
      l->children.push_back(std::move(node));
      node = std::move(l);
    }
    if (node->outputTypes.size() > visible) {
      std::vector<ExprPtr> keep;
      for (size_t c = 0; c < visible; ++c) keep.push_back(plan::makeColumn(static_cast<int>(c), node->outputTypes[c]));
      node = project(std::move(node), std::move(keep));
    }
    return node;
  }

  static bool hasColumn(const Scope& scope, const std::string& name) {
    for (const auto& e : scope.entries)
      for (const auto& n : e.names)
        if (n == name) return true;
    return false;
  }

  std::vector<plan::SortKey> valuesOrder(const sql::SelectStmt& s, const std::vector<OutputColumn>& columns) {
    std::vector<plan::SortKey> keys;
    for (const auto& o : s.orderBy) {
      if (o.expr->kind != sql::ExprKind::Literal)
        b_.fail(sqlstate::kFeatureNotSupported, "ORDER BY on VALUES supports positions only", o.expr->location);
      keys.push_back(sortKey(o, static_cast<int>(positionIndex(*o.expr, columns.size(), "ORDER BY"))));
    }
    return keys;
  }

  // "ORDER BY 2" / "GROUP BY -1": an integer literal names an output column by position
  // (1-based); the parser keeps a folded minus in the literal text. Any other bare constant,
  // including integers beyond int4, is an error as in PostgreSQL. Returns the 0-based index.
  size_t positionIndex(const sql::Expr& e, size_t count, const char* clause) {
    const sql::Literal& lit = e.as<sql::Literal>();
    const std::string& text = lit.text;
    int64_t pos = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pos);
    if (lit.literal != sql::LiteralKind::Integer || ec != std::errc() || end != text.data() + text.size() ||
        pos < INT32_MIN || pos > INT32_MAX)
      b_.fail(sqlstate::kSyntaxError, fmt::format("non-integer constant in {}", clause), e.location);
    if (pos < 1 || static_cast<uint64_t>(pos) > count)
      b_.fail(sqlstate::kInvalidColumnReference, fmt::format("{} position {} is not in select list", clause, pos),
              e.location);
    return static_cast<size_t>(pos - 1);
  }

  static plan::SortKey sortKey(const sql::SortBy& o, int column) {
    plan::SortKey k;
    k.column = column;
    k.descending = o.dir == sql::SortDir::Desc;
    k.nullsFirst = o.nulls == sql::NullsOrder::Default ? k.descending : o.nulls == sql::NullsOrder::First;
    return k;
  }

  // ORDER BY items: output positions, output names, or expressions (added as hidden
  // target columns when not already in the list).
  std::vector<plan::SortKey> bindOrderBy(const sql::SelectStmt& s, const Scope& scope, binder::AggContext* agg,
                                         std::vector<ExprPtr>& targets, const std::vector<OutputColumn>& columns) {
    std::vector<plan::SortKey> keys;
    for (const auto& o : s.orderBy) {
      const sql::Expr& e = *o.expr;
      if (e.kind == sql::ExprKind::Literal) {
        keys.push_back(sortKey(o, static_cast<int>(positionIndex(e, columns.size(), "ORDER BY"))));
        continue;
      }
      if (e.kind == sql::ExprKind::ColumnRef && e.as<sql::ColumnRef>().names.size() == 1) {
        const std::string& n = e.as<sql::ColumnRef>().names[0];
        int match = -1;
        for (size_t i = 0; i < s.targets.size() && i < columns.size(); ++i)
          if (!s.targets[i].alias.empty() && s.targets[i].alias == n) match = static_cast<int>(i);
        if (match >= 0) {
          keys.push_back(sortKey(o, match));
          continue;
        }
      }
      ExprPtr bound = b_.bind(e, scope, agg);
      int found = -1;
      for (size_t i = 0; i < targets.size(); ++i)
        if (exprEquals(*targets[i], *bound, &b_.paramClasses())) {
          found = static_cast<int>(i);
          break;
        }
      if (found < 0) {
        found = static_cast<int>(targets.size());
        targets.push_back(std::move(bound));
      }
      keys.push_back(sortKey(o, found));
    }
    return keys;
  }

  // VALUES lists: each column's type is the common type of its entries (or the target
  // column types for INSERT).
  NodePtr planValues(const std::vector<std::vector<sql::ExprPtr>>& rows, const std::vector<SqlType>& targetTypes,
                     std::vector<OutputColumn>& columns) {
    Scope none;
    auto n = std::make_unique<Node>(NodeKind::Values);
    size_t width = rows[0].size();
    for (const auto& r : rows)
      if (r.size() != width)
        b_.fail(sqlstate::kSyntaxError, "VALUES lists must all be the same length", r.empty() ? 0 : r[0]->location);
    std::vector<std::vector<ExprPtr>> bound;
    for (const auto& r : rows) {
      bound.emplace_back();
      for (const auto& e : r) bound.back().push_back(e->kind == sql::ExprKind::Default ? nullptr : b_.bind(*e, none));
    }
    for (size_t c = 0; c < width; ++c) {
      SqlType t{TypeId::Unknown, -1};
      if (!targetTypes.empty()) {
        t = targetTypes[c];
      } else {
        for (auto& r : bound) {
          auto common = commonType(t, r[c]->type);
          if (!common)
            b_.fail(sqlstate::kDatatypeMismatch,
                    fmt::format("VALUES types {} and {} cannot be matched", typeName(t), typeName(r[c]->type)),
                    rows[0][c]->location);
          t = *common;
        }
        t = binder::resolveUnknown(t);
        columns.push_back({fmt::format("column{}", c + 1), t});
      }
      n->outputTypes.push_back(t);
      for (size_t r = 0; r < bound.size(); ++r) {
        if (!bound[r][c]) continue;  // DEFAULT: filled in by the INSERT planner
        bound[r][c] =
            b_.coerce(std::move(bound[r][c]), t, targetTypes.empty() ? CastContext::Implicit : CastContext::Assignment,
                      rows[r][c]->location);
      }
    }
    n->rows = std::move(bound);
    return n;
  }

  // A column's DEFAULT expression, bound with no row in scope, or NULL.
  ExprPtr defaultFor(const TableBinding& t, size_t column);

  std::vector<ExprPtr> bindReturning(const std::vector<sql::ResTarget>& returning, const TableBinding& t,
                                     const std::string& alias, std::vector<OutputColumn>& columns) {
    std::vector<ExprPtr> out;
    if (returning.empty()) return out;
    Scope scope;
    scope.entries.push_back(entryFor(t, alias, 0));
    scope.width = static_cast<int>(t.table->columns().size()) + 1;
    expandTargets(returning, scope, nullptr, out, columns);
    return out;
  }

  NodePtr planInsert(const sql::InsertStmt& s, std::vector<OutputColumn>& columns) {
    const TableBinding& t = resolve(s.table);
    const auto& cols = t.table->columns();
    // Which table column each source column fills.
    std::vector<int> target;
    if (s.columns.empty()) {
      for (size_t c = 0; c < cols.size(); ++c) target.push_back(static_cast<int>(c));
    } else {
      for (size_t i = 0; i < s.columns.size(); ++i) {
        int found = -1;
        for (size_t c = 0; c < cols.size(); ++c)
          if (cols[c].name == s.columns[i]) found = static_cast<int>(c);
        if (found < 0)
          b_.fail(sqlstate::kUndefinedColumn,
                  fmt::format("column \"{}\" of relation \"{}\" does not exist", s.columns[i], t.name),
                  s.columnLocations[i]);
        if (std::find(target.begin(), target.end(), found) != target.end())
          b_.fail(sqlstate::kDuplicateColumn, fmt::format("column \"{}\" specified more than once", s.columns[i]),
                  s.columnLocations[i]);
        target.push_back(found);
      }
    }
    // With no column list, a shorter source fills the first columns (PostgreSQL's rule).
    bool valuesSource =
        s.source && s.source->body == sql::SelectStmt::Body::Values && s.source->orderBy.empty() && !s.source->limit;
    if (s.columns.empty() && valuesSource && !s.source->values.empty() && s.source->values[0].size() < target.size())
      target.resize(s.source->values[0].size());
    NodePtr source;
    std::vector<SqlType> targetTypes;
    for (int c : target) targetTypes.push_back(cols[c].type);
    std::vector<OutputColumn> ignored;
    if (!s.source) {
      source = std::make_unique<Node>(NodeKind::Values);
      source->rows.emplace_back();
      target.clear();
    } else if (valuesSource) {
      for (const auto& r : s.source->values)
        if (r.size() > target.size())
          b_.fail(sqlstate::kSyntaxError, "INSERT has more expressions than target columns",
                  r[target.size()]->location);
        else if (r.size() < target.size())
          b_.fail(sqlstate::kSyntaxError, "INSERT has more target columns than expressions", s.begin);
      source = planValues(s.source->values, targetTypes, ignored);
      // DEFAULT entries become the column's default expression.
      for (auto& row : source->rows)
        for (size_t c = 0; c < row.size(); ++c)
          if (!row[c]) row[c] = defaultFor(t, target[c]);
    } else {
      // As in PostgreSQL, untyped literals of the SELECT take the target columns' types.
      resolveUnknowns_ = false;
      source = planSelect(*s.source, ignored);
      resolveUnknowns_ = true;
      if (s.columns.empty() && ignored.size() < target.size()) target.resize(ignored.size());
      if (ignored.size() != target.size())
        b_.fail(sqlstate::kSyntaxError,
                ignored.size() > target.size() ? "INSERT has more expressions than target columns"
                                               : "INSERT has more target columns than expressions",
                s.begin);
      // Read the whole source before inserting (INSERT INTO t SELECT ... FROM t).
      source = materialize(std::move(source));
    }
    // Full table rows: source columns assigned (with assignment casts), defaults elsewhere.
    std::vector<ExprPtr> row;
    for (size_t c = 0; c < cols.size(); ++c) {
      auto it = std::find(target.begin(), target.end(), static_cast<int>(c));
      if (it == target.end()) {
        row.push_back(defaultFor(t, c));
        continue;
      }
      int src = static_cast<int>(it - target.begin());
      row.push_back(
          b_.coerce(plan::makeColumn(src, source->outputTypes[src]), cols[c].type, CastContext::Assignment, s.begin));
    }
    auto ins = std::make_unique<Node>(NodeKind::Insert);
    ins->table = t.table;
    ins->children.push_back(project(std::move(source), std::move(row)));
    ins->returning = bindReturning(s.returning, t, s.alias, columns);
    return ins;
  }

  NodePtr planUpdate(const sql::UpdateStmt& s, std::vector<OutputColumn>& columns) {
    if (!s.from.empty()) b_.fail(sqlstate::kFeatureNotSupported, "UPDATE ... FROM is not supported yet", s.begin);
    const TableBinding& t = resolve(s.table);
    FromPlan fp = planSingle(t, s.alias, s.where.get());
    const auto& cols = t.table->columns();
    std::vector<ExprPtr> values(cols.size());
    for (const auto& set : s.set) {
      if (set.multi)
        b_.fail(sqlstate::kFeatureNotSupported, "multiple-column UPDATE SET is not supported yet",
                set.columnLocations[0]);
      int found = -1;
      for (size_t c = 0; c < cols.size(); ++c)
        if (cols[c].name == set.columns[0]) found = static_cast<int>(c);
      if (found < 0)
        b_.fail(sqlstate::kUndefinedColumn,
                fmt::format("column \"{}\" of relation \"{}\" does not exist", set.columns[0], t.name),
                set.columnLocations[0]);
      if (values[found])
        b_.fail(sqlstate::kDuplicateColumn, fmt::format("multiple assignments to same column \"{}\"", set.columns[0]),
                set.columnLocations[0]);
      ExprPtr v = set.value->kind == sql::ExprKind::Default ? defaultFor(t, found) : b_.bind(*set.value, fp.scope);
      values[found] = b_.coerce(std::move(v), cols[found].type, CastContext::Assignment, set.value->location);
    }
    // An index range scan would meet a row again after the update moved it further along
    // the index: when the update sets a key column of that index, read every matching row
    // before changing any. (DELETE needs no such care: the scan steps past a row before
    // returning it, and erasing it leaves the rest.)
    if (const Index* walked = rangeIndex(*fp.node)) {
      bool setsKey = false;
      for (uint32_t c : walked->columns()) setsKey = setsKey || values[c] != nullptr;
      if (setsKey) fp.node = materialize(std::move(fp.node));
    }
    std::vector<ExprPtr> row;
    row.push_back(plan::makeColumn(static_cast<int>(cols.size()), {TypeId::Int8, -1}));  // rowid
    for (size_t c = 0; c < cols.size(); ++c)
      row.push_back(values[c] ? std::move(values[c]) : plan::makeColumn(static_cast<int>(c), cols[c].type));
    auto upd = std::make_unique<Node>(NodeKind::Update);
    upd->table = t.table;
    upd->children.push_back(project(std::move(fp.node), std::move(row)));
    upd->returning = bindReturning(s.returning, t, s.alias, columns);
    return upd;
  }

  NodePtr planDelete(const sql::DeleteStmt& s, std::vector<OutputColumn>& columns) {
    if (!s.using_.empty()) b_.fail(sqlstate::kFeatureNotSupported, "DELETE ... USING is not supported yet", s.begin);
    const TableBinding& t = resolve(s.table);
    FromPlan fp = planSingle(t, s.alias, s.where.get());
    const auto& cols = t.table->columns();
    std::vector<ExprPtr> row;
    row.push_back(plan::makeColumn(static_cast<int>(cols.size()), {TypeId::Int8, -1}));
    for (size_t c = 0; c < cols.size(); ++c) row.push_back(plan::makeColumn(static_cast<int>(c), cols[c].type));
    auto del = std::make_unique<Node>(NodeKind::Delete);
    del->table = t.table;
    del->children.push_back(project(std::move(fp.node), std::move(row)));
    del->returning = bindReturning(s.returning, t, s.alias, columns);
    return del;
  }

  // The rows of one table matching WHERE, with the table's row (+ rowid) as output.
  FromPlan planSingle(const TableBinding& t, const std::string& alias, const sql::Expr* where) {
    FromPlan fp;
    fp.scope.entries.push_back(entryFor(t, alias, 0));
    fp.scope.width = static_cast<int>(t.table->columns().size()) + 1;
    std::vector<ExprPtr> conjuncts;
    if (where) {
      if (Binder::containsAggregate(*where))
        b_.fail(sqlstate::kGroupingError, "aggregate functions are not allowed in WHERE", where->location);
      splitConjuncts(b_.coerceToBool(b_.bind(*where, fp.scope), "WHERE", where->location), conjuncts);
    }
    fp.node = accessPath(t, conjuncts, b_);
    fp.node = filter(std::move(fp.node), conjunction(std::move(conjuncts)));
    return fp;
  }

  const PlanRequest& req_;
  Binder b_;
  std::vector<ExprPtr> boundArgs_;  // of the last resolveCall
  std::vector<std::unique_ptr<TableBinding>> bindings_;
  bool resolveUnknowns_ = true;  // unknown-typed outputs become text
};

ExprPtr StatementPlanner::defaultFor(const TableBinding& t, size_t column) {
  SqlType type = t.table->columns()[column].type;
  if (column >= t.defaults.size() || t.defaults[column].empty()) return plan::makeNullConst(type);
  // Defaults are stored as SQL text; they may only hold constants and functions like now().
  auto parsed = sql::parseQuery("SELECT " + t.defaults[column]);
  const auto& select = parsed.at(0).stmt->as<sql::SelectStmt>();
  Scope none;
  // Positions in the default's own text mean nothing in this statement's: report none.
  try {
    return b_.coerce(b_.bind(*select.targets.at(0).expr, none), type, CastContext::Assignment, 0);
  } catch (SqlError& e) {
    e.position = 0;
    throw;
  }
}

}  // namespace

PlannedStatement planTree(const PlanRequest& request) {
  StatementPlanner planner(request);
  return planner.run();
}

}  // namespace duet
