// WITH queries (common table expressions). A reference plans the query where it is read,
// as a subquery in FROM: PostgreSQL 12 and later inline a side-effect-free WITH query read
// once the same way; one read several times is planned (and run) once per read here,
// where PostgreSQL would compute it once, which differs only for volatile functions.
#include <fmt/format.h>

#include "compiler/planner/statement_planner.h"
#include "engine/error.h"

namespace duet::planner {

void StatementPlanner::pushWith(const sql::SelectStmt& s) {
  for (size_t i = 0; i < s.with.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (s.with[j].name == s.with[i].name)
        b_.fail(sqlstate::kDuplicateAlias,
                fmt::format("WITH query name \"{}\" specified more than once", s.with[i].name), s.with[i].location);
  with_.push_back({&s, s.with.size(), b_.outerDepth()});
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

NodePtr StatementPlanner::withItem(size_t frame, const sql::CommonTableExpr& cte,
                                   const std::optional<sql::Alias>& alias, ScopeEntry& e) {
  for (const sql::CommonTableExpr* planning : planningWith_)
    if (planning == &cte) b_.fail(sqlstate::kFeatureNotSupported, "WITH RECURSIVE is not supported yet", cte.location);
  // Its body sees the WITH lists around its own (for a non-recursive one, only the queries
  // before it in its list) and the enclosing queries of its statement.
  const sql::SelectStmt& owner = *with_[frame].owner;
  size_t index = static_cast<size_t>(&cte - owner.with.data());
  std::vector<WithFrame> saved = with_;
  with_.resize(frame + 1);
  with_[frame].visible = owner.withRecursive ? owner.with.size() : index;
  planningWith_.push_back(&cte);
  NodePtr node;
  std::vector<OutputColumn> columns;
  try {
    b_.withOuterDepth(with_[frame].outerDepth, [&] { node = planSubquery(*cte.query, columns); });
  } catch (...) {
    with_ = std::move(saved);
    planningWith_.pop_back();
    throw;
  }
  with_ = std::move(saved);
  planningWith_.pop_back();
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
  return node;
}

}  // namespace duet::planner
