// Views read in FROM: the stored query inlined as a subquery, planned where it is read.
// Writing through a view is dml_target.cpp's.
#include <fmt/format.h>
#include <algorithm>

#include "compiler/parser/parser.h"
#include "compiler/planner/statement_planner.h"
#include "engine/error.h"

namespace duet::planner {

namespace {
constexpr const char* kInfiniteRecursion = "42P17";  // PostgreSQL's invalid_object_definition
}  // namespace

const sql::SelectStmt& StatementPlanner::viewQuery(const TableBinding& view) {
  std::vector<sql::ParsedStatement> parsed = sql::parseQuery(view.view->query);
  viewQueries_.push_back(std::move(parsed.at(0).stmt));
  return viewQueries_.back()->as<sql::SelectStmt>();
}

void StatementPlanner::insideView(const TableBinding& view, uint32_t location, const std::function<void()>& work) {
  if (std::find(expandingViews_.begin(), expandingViews_.end(), view.oid) != expandingViews_.end())
    b_.fail(kInfiniteRecursion, fmt::format("infinite recursion detected in rules for relation \"{}\"", view.name),
            location);
  std::vector<WithFrame> outerWith = std::exchange(with_, {});
  expandingViews_.push_back(view.oid);
  try {
    b_.withOuterDepth(0, [&] { b_.withoutVariables(work); });
  } catch (SqlError& error) {
    with_ = std::move(outerWith);
    expandingViews_.pop_back();
    // Its positions are in the view's text, not in the statement's.
    error.position = 0;
    throw;
  }
  with_ = std::move(outerWith);
  expandingViews_.pop_back();
}

NodePtr StatementPlanner::viewItem(const TableBinding& view, const std::optional<sql::Alias>& alias, uint32_t location,
                                   ScopeEntry& e) {
  const sql::SelectStmt& query = viewQuery(view);
  NodePtr node;
  std::vector<OutputColumn> columns;
  insideView(view, location, [&] { node = planSubquery(query, columns); });
  // The query's columns are the ones CREATE VIEW stored as long as the relations it reads
  // keep theirs, which the dependencies ensure (no ALTER TABLE changes columns yet).
  const std::vector<std::string>& names = view.view->columns;
  if (columns.size() != names.size())
    throw SqlError(sqlstate::kInternalError, fmt::format("view \"{}\" gives {} columns, not the {} it was created with",
                                                         view.name, columns.size(), names.size()));
  e.alias = alias && !alias->name.empty() ? alias->name : view.name;
  e.names = names;
  for (const auto& c : columns) e.types.push_back(c.type);
  if (alias) {
    if (alias->columns.size() > e.names.size())
      b_.fail(sqlstate::kInvalidColumnReference,
              fmt::format("table \"{}\" has {} columns available but {} columns specified", e.alias, e.names.size(),
                          alias->columns.size()),
              location);
    for (size_t c = 0; c < alias->columns.size(); ++c) e.names[c] = alias->columns[c];
  }
  e.joinColumn.assign(e.names.size(), -1);
  return node;
}

}  // namespace duet::planner
