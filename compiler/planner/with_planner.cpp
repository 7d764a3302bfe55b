// WITH queries (common table expressions). A reference plans the query where it is read,
// as a subquery in FROM, as PostgreSQL 12 and later inline a side-effect-free WITH query
// read once. One that the statement names in more than one FROM item (or declared
// MATERIALIZED) is computed once per execution, as PostgreSQL's CTE scans do: each read is
// a CteScan of one shared buffer (CH and TPC-H Q15 read their revenue query twice). Not
// recursive ones: a LIMIT above one must still end its recursion.
#include <fmt/format.h>

#include "compiler/parser/ast_walk.h"

#include "compiler/planner/plan_building.h"
#include "compiler/planner/statement_planner.h"
#include "engine/error.h"

namespace duet::planner {

namespace {
constexpr const char* kInvalidRecursion = "42P19";  // PostgreSQL's invalid_recursion
}  // namespace

void StatementPlanner::pushWith(const sql::Stmt& stmt, const sql::WithList& s) {
  for (size_t i = 0; i < s.with.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (s.with[j].name == s.with[i].name)
        b_.fail(sqlstate::kDuplicateAlias,
                fmt::format("WITH query name \"{}\" specified more than once", s.with[i].name), s.with[i].location);
  // Counted by name: a nested WITH query of the same name counts too, at worst computing
  // the outer one once where it could be planned into its one read.
  std::vector<int> reads(s.with.size(), 0);
  sql::visitRangeTables(stmt, [&](const sql::RangeTable& t) {
    for (size_t i = 0; i < s.with.size(); ++i)
      if (t.name.parts.size() == 1 && t.name.name() == s.with[i].name) ++reads[i];
  });
  with_.push_back({&s, s.with.size(), b_.outerDepth(), std::move(reads)});
}

const sql::CommonTableExpr* StatementPlanner::findWith(const sql::QualifiedName& name, size_t& frame) const {
  if (name.parts.size() != 1) return nullptr;
  for (size_t f = with_.size(); f-- > 0;) {
    const auto& ctes = with_[f].owner->with;
    for (size_t i = 0; i < with_[f].visible; ++i)
      if (ctes[i].name == name.name()) {
        frame = f;
        return &ctes[i];
      }
  }
  return nullptr;
}

// Names a WITH query's columns: its own column list, then those of the reference's alias.
void StatementPlanner::nameWithColumns(const sql::CommonTableExpr& cte, const std::optional<sql::Alias>& alias,
                                       const std::vector<OutputColumn>& columns, ScopeEntry& e) {
  if (cte.columns.size() > columns.size())
    b_.fail(sqlstate::kInvalidColumnReference,
            fmt::format("WITH query \"{}\" has {} columns available but {} columns specified", cte.name, columns.size(),
                        cte.columns.size()),
            cte.location);
  e.alias = alias && !alias->name.empty() ? alias->name : cte.name;
  for (size_t c = 0; c < columns.size(); ++c) {
    e.names.push_back(c < cte.columns.size() ? cte.columns[c] : columns[c].name);
    e.types.push_back(columns[c].type);
  }
  if (alias) {
    if (alias->columns.size() > e.names.size())
      b_.fail(sqlstate::kInvalidColumnReference,
              fmt::format("table \"{}\" has {} columns available but {} columns specified", e.alias, e.names.size(),
                          alias->columns.size()),
              cte.location);
    for (size_t c = 0; c < alias->columns.size(); ++c) e.names[c] = alias->columns[c];
  }
  e.joinColumn.assign(e.names.size(), -1);
}

// WITH RECURSIVE name AS (non-recursive term UNION [ALL] recursive term): the first term
// planned alone gives the columns; the second reads the work table of that type. Null when
// the second term does not read the query (an ordinary UNION then).
NodePtr StatementPlanner::recursiveUnion(const sql::CommonTableExpr& cte, std::vector<OutputColumn>& columns) {
  const sql::SelectStmt& q = *cte.query;
  if (q.body != sql::SelectStmt::Body::SetOp || q.setOp != sql::SetOpKind::Union || !q.orderBy.empty() || q.limit ||
      q.offset)
    return nullptr;
  NodePtr first = planSetOperand(*q.left, columns);
  int id = nextWorkTable_++;
  workTables_.push_back({&cte, id, columns, 0});
  std::vector<OutputColumn> rightColumns;
  NodePtr second;
  try {
    second = planSetOperand(*q.right, rightColumns);
  } catch (...) {
    workTables_.pop_back();
    throw;
  }
  int reads = workTables_.back().reads;
  workTables_.pop_back();
  if (reads == 0) return nullptr;
  if (q.right->limit || q.right->offset || !q.right->orderBy.empty())
    b_.fail(sqlstate::kFeatureNotSupported, "ORDER BY, LIMIT and OFFSET in a recursive query are not implemented",
            q.right->begin);
  if (rightColumns.size() != columns.size())
    b_.fail(sqlstate::kSyntaxError, "each UNION query must have the same number of columns", q.right->begin);
  std::vector<ExprPtr> cast;
  for (size_t c = 0; c < columns.size(); ++c) {
    SqlType l = columns[c].type, r = rightColumns[c].type;
    auto common = binder::commonType(l, r);
    SqlType overall = common ? binder::resolveUnknown(*common) : r;
    if (!common || overall.id != l.id) {
      try {
        b_.fail(sqlstate::kDatatypeMismatch,
                fmt::format("recursive query \"{}\" column {} has type {} in non-recursive term but type {} overall",
                            cte.name, c + 1, typeName(l), typeName(overall)),
                columnLocation(*q.left, c));
      } catch (SqlError& error) {
        error.hint = "Cast the output of the non-recursive term to the correct type.";
        throw;
      }
    }
    cast.push_back(b_.coerce(plan::makeColumn(static_cast<int>(c), r), l, binder::CastContext::Implicit, q.begin));
  }
  second = project(std::move(second), std::move(cast));
  auto node = std::make_unique<Node>(plan::NodeKind::RecursiveUnion);
  node->workTable = id;
  node->distinct = !q.setAll;
  node->outputTypes = first->outputTypes;
  node->children.push_back(std::move(first));
  node->children.push_back(std::move(second));
  return node;
}

// WITH name AS (INSERT | UPDATE | DELETE ... RETURNING ...), read where it is named: the
// statement runs to its end first (Materialize), then its RETURNING rows are read. It
// must be in the statement's own WITH list, and read exactly once (PostgreSQL also runs
// one that is not read, and reads one result several times: not yet here).
NodePtr StatementPlanner::dataModifyingWith(const sql::CommonTableExpr& cte, const sql::WithList& owner,
                                            uint32_t location, std::vector<OutputColumn>& columns) {
  if (&owner != dynamic_cast<const sql::WithList*>(req_.stmt))
    b_.fail(sqlstate::kFeatureNotSupported,
            "WITH clause containing a data-modifying statement must be at the top level", cte.location);
  if (++dataModifyingReads_[&cte] > 1)
    b_.fail(sqlstate::kFeatureNotSupported,
            fmt::format("reading data-modifying WITH query \"{}\" more than once is not supported yet", cte.name),
            location);
  const sql::Stmt& dml = *cte.dml;
  NodePtr node = dml.kind == sql::StmtKind::Insert   ? planInsert(dml.as<sql::InsertStmt>(), columns)
                 : dml.kind == sql::StmtKind::Update ? planUpdate(dml.as<sql::UpdateStmt>(), columns)
                                                     : planDelete(dml.as<sql::DeleteStmt>(), columns);
  if (node->returning.empty())
    b_.fail(sqlstate::kFeatureNotSupported, fmt::format("WITH query \"{}\" does not have a RETURNING clause", cte.name),
            location);
  auto all = std::make_unique<Node>(plan::NodeKind::Materialize);
  for (const OutputColumn& c : columns) all->outputTypes.push_back(c.type);
  node->outputTypes = all->outputTypes;
  all->children.push_back(std::move(node));
  return all;
}

void StatementPlanner::checkDataModifyingWithRead(const sql::WithList& top) {
  for (const sql::CommonTableExpr& cte : top.with)
    if (cte.dml && !dataModifyingReads_.count(&cte))
      b_.fail(sqlstate::kFeatureNotSupported,
              fmt::format("a data-modifying WITH query that is not read (\"{}\") is not supported yet", cte.name),
              cte.location);
}

NodePtr StatementPlanner::withItem(size_t frame, const sql::CommonTableExpr& cte,
                                   const std::optional<sql::Alias>& alias, uint32_t location, ScopeEntry& e) {
  // A WITH RECURSIVE query read by its own recursive term: the work table.
  for (auto& w : workTables_)
    if (w.cte == &cte) {
      ++w.reads;
      auto scan = std::make_unique<Node>(plan::NodeKind::WorkTableScan);
      scan->workTable = w.id;
      for (const auto& c : w.columns) scan->outputTypes.push_back(c.type);
      nameWithColumns(cte, alias, w.columns, e);
      return scan;
    }
  for (const sql::CommonTableExpr* planning : planningWith_)
    if (planning == &cte)
      b_.fail(
          kInvalidRecursion,
          fmt::format("recursive reference to query \"{}\" must not appear within its non-recursive term", cte.name),
          location);
  // Its body sees the WITH lists around its own (for a non-recursive one, only the queries
  // before it in its list) and the enclosing queries of its statement.
  const sql::WithList& owner = *with_[frame].owner;
  size_t index = static_cast<size_t>(&cte - owner.with.data());
  using Materialized = sql::CommonTableExpr::Materialized;
  bool shared = !cte.dml && !owner.withRecursive && cte.materialized != Materialized::Never &&
                (cte.materialized == Materialized::Always || with_[frame].reads[index] > 1);
  std::vector<WithFrame> saved = with_;
  with_.resize(frame + 1);
  with_[frame].visible = owner.withRecursive ? owner.with.size() : index;
  planningWith_.push_back(&cte);
  NodePtr node;
  std::vector<OutputColumn> columns;
  try {
    b_.withOuterDepth(with_[frame].outerDepth, [&] {
      if (cte.dml) {
        node = dataModifyingWith(cte, owner, location, columns);
        return;
      }
      if (owner.withRecursive) node = recursiveUnion(cte, columns);
      if (!node) {
        columns.clear();
        node = planSubquery(*cte.query, columns);
      }
      if (shared) {
        auto scan = std::make_unique<Node>(plan::NodeKind::CteScan);
        auto [at, added] = sharedWith_.try_emplace(&cte, nextWorkTable_);
        if (added) ++nextWorkTable_;
        scan->workTable = at->second;
        scan->cteName = cte.name;
        scan->outputTypes = node->outputTypes;
        scan->children.push_back(std::move(node));
        node = std::move(scan);
      }
    });
  } catch (...) {
    with_ = std::move(saved);
    planningWith_.pop_back();
    throw;
  }
  with_ = std::move(saved);
  planningWith_.pop_back();
  nameWithColumns(cte, alias, columns, e);
  return node;
}

}  // namespace duet::planner
