// The session's CatalogLookup (engine/types/catalog_lookup.h): names of and for oids in the
// session's database, as the reg* types print and read them, and the lookups the catalog
// functions (pg_get_indexdef, pg_table_is_visible, ...) share.
#pragma once
#include <string>

#include "engine/catalog/catalog.h"
#include "engine/types/catalog_lookup.h"

namespace duet {

struct SessionState;

class SessionCatalogLookup : public CatalogLookup {
 public:
  explicit SessionCatalogLookup(SessionState& session);

  std::optional<std::string> nameOf(TypeAlias kind, uint32_t oid) const override;
  uint32_t oidOf(TypeAlias kind, std::string_view name) const override;
  std::optional<std::string> describe(Text what, uint32_t oid) const override;
  std::optional<bool> visible(TypeAlias kind, uint32_t oid) const override;
  std::string currentDatabase() const override { return db_.name; }
  bool isUserTable(uint32_t oid) const override;
  int32_t backendPid() const override;
  int64_t serverStartTimestamp() const override;
  std::optional<int64_t> relationBytes(Size what, uint32_t oid) const override;
  std::optional<int64_t> databaseBytes(std::string_view name) const override;
  std::optional<std::string> serialSequence(std::string_view table, std::string_view column) const override;
  std::optional<std::string> comment(uint32_t classOid, uint32_t objectOid, int32_t subId) const override;
  std::optional<std::string> indexColumn(uint32_t index, int32_t column) const override;

  // The relation (table, view or index) with this oid; all null when there is none.
  struct Relation {
    const Schema* schema = nullptr;
    const TableInfo* table = nullptr;
    const ViewInfo* view = nullptr;
    const IndexInfo* index = nullptr;
    const std::string* name = nullptr;
    const SequenceInfo* sequence = nullptr;
  };
  Relation relationByOid(uint32_t oid) const;
  const RoutineInfo* routineByOid(uint32_t oid) const;
  // Whether the search path finds the relation (or routine, with its argument types) by
  // its bare name: PostgreSQL's RelationIsVisible, FunctionIsVisible.
  bool relationVisible(const Relation& r) const;
  bool routineVisible(const RoutineInfo& r) const;
  std::vector<std::string> currentSchemas(bool includeImplicit) const override;

 private:
  SessionState& session_;
  const Catalog& catalog_;
  const Database& db_;
};

}  // namespace duet
