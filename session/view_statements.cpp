// CREATE VIEW plans the query once (nothing is compiled) for its columns and for the
// relations it reads; DROP VIEW and DROP TABLE consult those dependencies.
#include "session/view_statements.h"

#include <algorithm>

#include <fmt/format.h>

#include "engine/types/text_functions.h"

namespace duet {
namespace {

constexpr const char* kDependentObjectsStillExist = "2BP01";

[[noreturn]] void unsupported(const std::string& what) {
  throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("{} is not supported yet", what));
}

// The view's query with each * and t.* written out as the columns it meant (`stars`: byte
// offset in `query` and the column references). The star token is the first `*` outside a
// quoted identifier from the offset on.
std::string expandStars(std::string query, std::vector<std::pair<uint32_t, std::string>> stars) {
  std::sort(stars.begin(), stars.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [offset, columns] : stars) {
    size_t end = offset;
    for (bool quoted = false; end < query.size() && (quoted || query[end] != '*'); ++end)
      if (query[end] == '"') quoted = !quoted;
    if (end == query.size()) return query;
    query.replace(offset, end + 1 - offset, columns);
  }
  return query;
}

// The view's query with each bare relation name qualified by the schema it was found in
// (`names`: byte offset in `query`, quoted schema), so that the view reads those relations
// whatever a reader's search path, as PostgreSQL's view keeps their oids; the offsets of
// `stars` move along.
std::string qualifyNames(std::string query, std::vector<std::pair<uint32_t, std::string>> names,
                         std::vector<std::pair<uint32_t, std::string>>& stars) {
  std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [offset, schema] : names) {
    query.insert(offset, schema + ".");
    for (auto& star : stars)
      if (star.first > offset) star.first += static_cast<uint32_t>(schema.size() + 1);
  }
  return query;
}

}  // namespace

void ViewStatements::createView(const Statement& st) {
  const auto& s = st.parsed.stmt->as<sql::CreateViewStmt>();
  if (s.recursive) unsupported("CREATE RECURSIVE VIEW");
  if (s.checkOption) unsupported("WITH CHECK OPTION");
  for (const sql::CommonTableExpr& cte : s.query->with)
    if (cte.dml)
      throw SqlError(sqlstate::kFeatureNotSupported, "views must not contain data-modifying statements in WITH");
  for (const sql::DefElem& o : s.options)
    if (o.name == "check_option") unsupported("WITH CHECK OPTION");
  if (st.parsed.firstParam > 0)
    throw SqlError(sqlstate::kUndefinedParameter, fmt::format("there is no parameter ${}", st.parsed.firstParam), {},
                   {}, sql::sqlPosition(st.sql, st.parsed.firstParamLocation));
  // Planned as a SELECT of its own would be: its columns, and what it reads.
  ViewInfo view;
  view.name = s.view.name();
  PlanRequest request;
  request.stmt = s.query.get();
  request.queryText = st.sql;
  request.resolveTable = state_.tableResolver();
  std::vector<std::pair<uint32_t, std::string>> bareNames;
  request.noteRelation = [&](const TableBinding& b, const sql::QualifiedName& name) {
    if (std::find(view.dependsOn.begin(), view.dependsOn.end(), b.oid) == view.dependsOn.end())
      view.dependsOn.push_back(b.oid);
    if (const Schema* schema = state_.catalogLookup.relationByOid(b.oid).schema; schema && name.parts.size() == 1)
      bareNames.emplace_back(name.location - s.query->begin, quoteIdent(schema->name));
  };
  request.resolveRoutines = [this](const std::vector<std::string>& names) {
    return routines_.routineCandidates(names);
  };
  std::vector<std::pair<uint32_t, std::string>> stars;
  request.noteStar = [&stars, begin = s.query->begin](uint32_t location, const std::string& columns) {
    stars.emplace_back(location - begin, columns);
  };
  PlannedStatement planned = planTree(request);
  const std::vector<OutputColumn>& columns = planned.plan->columns;
  if (s.columns.size() > columns.size())
    throw SqlError(sqlstate::kSyntaxError, "CREATE VIEW specifies more column names than columns");
  for (size_t c = 0; c < columns.size(); ++c) {
    ColumnDef def;
    def.name = c < s.columns.size() ? s.columns[c] : columns[c].name;
    def.type = columns[c].type;
    view.columns.push_back(std::move(def));
  }
  view.query = qualifyNames(std::string(st.sql.substr(s.query->begin, s.query->end - s.query->begin)),
                            std::move(bareNames), stars);
  if (!stars.empty()) {
    // Kept with * written out when that means the same columns (as PostgreSQL keeps the
    // parsed query): a column added to a table later is no column of the view.
    std::string expanded = expandStars(view.query, std::move(stars));
    if (sameColumns(expanded, columns)) view.query = std::move(expanded);
  }
  // A view that reads a temporary relation is temporary itself, as in PostgreSQL.
  bool temporary = s.temporary;
  for (uint32_t oid : view.dependsOn) {
    const Schema* schema = state_.catalogLookup.relationByOid(oid).schema;
    if (temporary || !schema || !schema->temporary()) continue;
    temporary = true;
    state_.pendingNotices.push_back(
        Notice::make("NOTICE", "00000", fmt::format("view \"{}\" will be a temporary view", view.name)));
  }
  std::string schema = state_.creationSchema(s.view, temporary);
  state_.engine.catalog.createView(*state_.db, schema, std::move(view), s.orReplace, state_.txn.undo());
  transaction_.ddlDone();
}

bool ViewStatements::sameColumns(const std::string& query, const std::vector<OutputColumn>& columns) {
  try {
    std::vector<sql::ParsedStatement> parsed = sql::parseQuery(query);
    if (parsed.size() != 1 || parsed[0].stmt->kind != sql::StmtKind::Select) return false;
    PlanRequest request;
    request.stmt = parsed[0].stmt.get();
    request.queryText = query;
    request.resolveTable = state_.tableResolver();
    request.resolveRoutines = [this](const std::vector<std::string>& names) {
      return routines_.routineCandidates(names);
    };
    PlannedStatement planned = planTree(request);
    const std::vector<OutputColumn>& got = planned.plan->columns;
    if (got.size() != columns.size()) return false;
    for (size_t c = 0; c < got.size(); ++c)
      if (got[c].name != columns[c].name || !(got[c].type == columns[c].type)) return false;
    return true;
  } catch (const SqlError&) {
    return false;
  }
}

bool ViewStatements::plans(const std::string& query) {
  try {
    std::vector<sql::ParsedStatement> parsed = sql::parseQuery(query);
    PlanRequest request;
    request.stmt = parsed.at(0).stmt.get();
    request.queryText = query;
    request.resolveTable = state_.tableResolver();
    request.resolveRoutines = [this](const std::vector<std::string>& names) {
      return routines_.routineCandidates(names);
    };
    planTree(request);
    return true;
  } catch (const SqlError&) {
    return false;
  }
}

std::vector<ViewInfo*> ViewStatements::viewsReadingColumn(TableInfo& table, uint32_t column) {
  std::vector<ViewInfo*> readers;
  std::vector<ViewInfo*> dependents = state_.engine.catalog.dependentViews(*state_.db, table.oid);
  if (dependents.empty()) return readers;
  std::string name = table.columns[column].name;
  auto setName = [&table, column](const std::string& n) {
    table.columns[column].name = n;
    table.table->renameColumn(column, n);
  };
  setName("\x01hidden");  // no query can name it
  try {
    for (ViewInfo* v : dependents)
      if (std::find(v->dependsOn.begin(), v->dependsOn.end(), table.oid) != v->dependsOn.end() && !plans(v->query))
        readers.push_back(v);
  } catch (...) {
    setName(name);
    throw;
  }
  setName(name);
  return readers;
}

void ViewStatements::dropColumnDependents(TableInfo& table, uint32_t column, sql::DropBehavior behavior,
                                          ResultSink& sink) {
  std::vector<ViewInfo*> readers = viewsReadingColumn(table, column);
  if (readers.empty()) return;
  const std::string& columnName = table.columns[column].name;
  // The readers, each followed by the views that read it (which dependentViews orders after it).
  std::vector<ViewInfo*> dropped;
  std::string detail;
  auto add = [&](ViewInfo* v, const std::string& reads) {
    if (std::find(dropped.begin(), dropped.end(), v) != dropped.end()) return;
    dropped.push_back(v);
    detail += fmt::format("{}view {} depends on {}", detail.empty() ? "" : "\n", v->name, reads);
  };
  for (ViewInfo* r : readers) {
    add(r, fmt::format("column {} of table {}", columnName, table.name));
    for (ViewInfo* v : state_.engine.catalog.dependentViews(*state_.db, r->oid)) add(v, "view " + r->name);
  }
  if (behavior != sql::DropBehavior::Cascade)
    throw SqlError(
        kDependentObjectsStillExist,
        fmt::format("cannot drop column {} of table {} because other objects depend on it", columnName, table.name),
        detail, "Use DROP ... CASCADE to drop the dependent objects too.");
  Notice n = Notice::make("NOTICE", "00000", "");
  if (dropped.size() == 1) {
    n.message = fmt::format("drop cascades to view {}", dropped[0]->name);
  } else {
    n.message = fmt::format("drop cascades to {} other objects", dropped.size());
    for (const ViewInfo* v : dropped)
      n.detail += fmt::format("{}drop cascades to view {}", n.detail.empty() ? "" : "\n", v->name);
  }
  state_.sendNotice(sink, n);
  for (auto v = dropped.rbegin(); v != dropped.rend(); ++v) state_.engine.catalog.dropView(**v, state_.txn.undo());
  transaction_.ddlDone();
}

void ViewStatements::dropViews(const sql::DropStmt& s, ResultSink& sink) {
  // Every name first, as PostgreSQL's RemoveRelations: views dropped by one statement may
  // depend on each other.
  std::vector<ViewInfo*> views;
  for (const sql::QualifiedName& name : s.names) {
    Catalog::Relation r = state_.engine.catalog.findRelation(*state_.db, state_.relationPath(name), name.name());
    if (r.table)
      throw SqlError(sqlstate::kWrongObjectType, fmt::format("\"{}\" is not a view", name.name()), {},
                     "Use DROP TABLE to remove a table.");
    if (r.view) {
      views.push_back(r.view);
    } else if (s.ifExists) {
      state_.sendNotice(
          sink, Notice::make("NOTICE", "00000", fmt::format("view \"{}\" does not exist, skipping", name.name())));
    } else {
      throw SqlError(sqlstate::kUndefinedTable, fmt::format("view \"{}\" does not exist", name.name()));
    }
  }
  std::vector<uint32_t> dropped;
  for (const ViewInfo* v : views) dropped.push_back(v->oid);
  for (ViewInfo* v : views) {
    // One named twice, or dropped already as another's dependent.
    if (!state_.engine.catalog.findView(*state_.db, {v->schema->name}, v->name)) continue;
    dropDependents(v->oid, "view " + v->name, s, dropped, sink);
    state_.engine.catalog.dropView(*v, state_.txn.undo());
    transaction_.ddlDone();
  }
}

void ViewStatements::dropDependents(uint32_t oid, const std::string& described, const sql::DropStmt& drop,
                                    const std::vector<uint32_t>& droppedToo, ResultSink& sink) {
  std::vector<ViewInfo*> dependents;
  for (ViewInfo* v : state_.engine.catalog.dependentViews(*state_.db, oid))
    if (std::find(droppedToo.begin(), droppedToo.end(), v->oid) == droppedToo.end()) dependents.push_back(v);
  if (dependents.empty()) return;
  if (drop.behavior != sql::DropBehavior::Cascade) {
    // Each dependent names the first object it reads among those the DROP would remove.
    std::vector<std::pair<uint32_t, std::string>> removed{{oid, described}};
    std::string detail;
    for (const ViewInfo* v : dependents) {
      for (const auto& [readOid, readDescribed] : removed)
        if (std::find(v->dependsOn.begin(), v->dependsOn.end(), readOid) != v->dependsOn.end()) {
          detail += fmt::format("{}view {} depends on {}", detail.empty() ? "" : "\n", v->name, readDescribed);
          break;
        }
      removed.emplace_back(v->oid, "view " + v->name);
    }
    // PostgreSQL names the object only when the statement names one.
    std::string message = drop.names.size() > 1
                              ? "cannot drop desired object(s) because other objects depend on them"
                              : fmt::format("cannot drop {} because other objects depend on it", described);
    throw SqlError(kDependentObjectsStillExist, message, detail,
                   "Use DROP ... CASCADE to drop the dependent objects too.");
  }
  Notice n = Notice::make("NOTICE", "00000", "");
  if (dependents.size() == 1) {
    n.message = fmt::format("drop cascades to view {}", dependents[0]->name);
  } else {
    n.message = fmt::format("drop cascades to {} other objects", dependents.size());
    for (const ViewInfo* v : dependents)
      n.detail += fmt::format("{}drop cascades to view {}", n.detail.empty() ? "" : "\n", v->name);
  }
  state_.sendNotice(sink, n);
  // Those that read others first.
  for (auto v = dependents.rbegin(); v != dependents.rend(); ++v)
    state_.engine.catalog.dropView(**v, state_.txn.undo());
  transaction_.ddlDone();
}

}  // namespace duet
