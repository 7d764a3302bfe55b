// Views in the catalog: CREATE [OR REPLACE] with PostgreSQL's replacement rules
// (checkViewTupleDesc in view.c), DROP, and what depends on a relation (pg_depend's rows
// from a view to the relations its query reads). All changes are undoable like other DDL.
#include <fmt/format.h>

#include <algorithm>

#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace duet {
namespace {

constexpr const char* kInvalidTableDefinition = "42P16";

// A replacement's columns: the old ones unchanged, in order, new ones only after them.
void checkReplacementColumns(const ViewInfo& old, const std::vector<ColumnDef>& columns) {
  if (columns.size() < old.columns.size()) throw SqlError(kInvalidTableDefinition, "cannot drop columns from view");
  for (size_t i = 0; i < old.columns.size(); ++i) {
    const ColumnDef& was = old.columns[i];
    const ColumnDef& now = columns[i];
    if (was.name != now.name)
      throw SqlError(kInvalidTableDefinition,
                     fmt::format("cannot change name of view column \"{}\" to \"{}\"", was.name, now.name), {},
                     "Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.");
    if (!(was.type == now.type))
      throw SqlError(kInvalidTableDefinition, fmt::format("cannot change data type of view column \"{}\" from {} to {}",
                                                          was.name, typeName(was.type), typeName(now.type)));
  }
}

}  // namespace

ViewInfo& Catalog::createView(Database& db, const std::string& schemaName, ViewInfo spec, bool orReplace,
                              UndoLog& undo) {
  Schema& schema = resolveSchema(db, schemaName);
  for (size_t i = 0; i < spec.columns.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (spec.columns[i].name == spec.columns[j].name)
        throw SqlError(sqlstate::kDuplicateColumn,
                       fmt::format("column \"{}\" specified more than once", spec.columns[i].name));
  auto existing = schema.views.find(spec.name);
  if (orReplace && existing != schema.views.end()) {
    ViewInfo& view = *existing->second;
    checkReplacementColumns(view, spec.columns);
    ViewInfo kept = view;
    view.columns = std::move(spec.columns);
    view.query = std::move(spec.query);
    view.dependsOn = std::move(spec.dependsOn);
    undo.recordAction([&view, kept] { view = kept; });
    return view;
  }
  if (orReplace && schema.tables.count(spec.name))
    throw SqlError(sqlstate::kWrongObjectType, fmt::format("\"{}\" is not a view", spec.name));
  checkNewRelationName(schema, spec.name);
  auto info = std::make_shared<ViewInfo>(std::move(spec));
  info->oid = nextOid();
  info->schema = &schema;
  schema.views[info->name] = info;
  std::string name = info->name;
  undo.recordAction([&schema, name] { schema.views.erase(name); });
  return *info;
}

void Catalog::dropView(ViewInfo& view, UndoLog& undo) {
  Schema& schema = *view.schema;
  std::shared_ptr<ViewInfo> kept = schema.views.at(view.name);
  schema.views.erase(view.name);
  undo.recordAction([&schema, kept] { schema.views[kept->name] = kept; });
}

std::vector<ViewInfo*> Catalog::dependentViews(const Database& db, uint32_t oid) const {
  auto reads = [](const ViewInfo& v, uint32_t relation) {
    return std::find(v.dependsOn.begin(), v.dependsOn.end(), relation) != v.dependsOn.end();
  };
  // Every view that reaches `oid`, breadth first.
  std::vector<ViewInfo*> found;
  std::vector<uint32_t> reached{oid};
  for (size_t next = 0; next < reached.size(); ++next)
    for (const auto& [schemaName, schema] : db.schemas)
      for (const auto& [name, view] : schema->views)
        if (reads(*view, reached[next]) && std::find(found.begin(), found.end(), view.get()) == found.end()) {
          found.push_back(view.get());
          reached.push_back(view->oid);
        }
  // Then each after the found views it reads, keeping the breadth-first order otherwise
  // (views that read each other, which OR REPLACE can make, in the order found).
  std::vector<ViewInfo*> out;
  while (out.size() < found.size()) {
    size_t before = out.size();
    for (ViewInfo* v : found) {
      if (std::find(out.begin(), out.end(), v) != out.end()) continue;
      bool ready = std::none_of(found.begin(), found.end(), [&](const ViewInfo* u) {
        return u != v && reads(*v, u->oid) && std::find(out.begin(), out.end(), u) == out.end();
      });
      if (ready) out.push_back(v);
    }
    if (out.size() == before)
      for (ViewInfo* v : found)
        if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

}  // namespace duet
