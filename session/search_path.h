// The session's search_path as PostgreSQL applies it (its docs' "Schema Search Path",
// recomputeNamespacePath in namespace.c): which schemas a bare name is looked up in, and
// which one CREATE puts it in. Computed from the setting's text, the database's schemas,
// the user and the session's temporary schema; SessionState keeps the result until one of
// those changes.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog/catalog.h"

namespace duet {

struct SearchPath {
  // Tables, views, sequences, indexes and types: the temporary schema first when the
  // session has one and the setting does not name pg_temp, then pg_catalog unless named,
  // then the named schemas that exist, each once.
  SchemaPath relations;
  // Functions and procedures: the same without the temporary schema (PostgreSQL never
  // looks for them there).
  SchemaPath routines;
  // current_schemas(false): the named schemas that exist, from the one CREATE uses on.
  std::vector<std::string> named;
  // Where CREATE puts a bare name: the first named schema that exists; empty when none
  // does (3F000). `createsTemporary`: pg_temp comes before it, and the session has no
  // temporary schema yet: CREATE makes one and uses it (a bare CREATE TABLE then makes a
  // temporary table).
  std::string creation;
  bool createsTemporary = false;
  // The relation path as one string: what plans and compiled routines are cached under.
  std::string key;
};

// The identifiers of a search_path value ("$user", public, "My Schema"): PostgreSQL's
// SplitIdentifierString, unquoted names folded to lower case. False for a list it cannot
// read.
bool splitSearchPath(std::string_view value, std::vector<std::string>& names);

// `tempSchema`: the session's pg_temp_N, empty when it has none.
SearchPath resolveSearchPath(std::string_view value, const Database& db, const std::string& user,
                             const std::string& tempSchema);

}  // namespace duet
