#include "session/search_path.h"

#include <algorithm>

namespace duet {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

bool splitSearchPath(std::string_view value, std::vector<std::string>& names) {
  size_t i = 0;
  while (i < value.size() && isSpace(value[i])) ++i;
  if (i == value.size()) return true;  // an empty list
  for (;;) {
    std::string name;
    if (value[i] == '"') {
      // Quoted: "" is a quote, no folding; an empty quoted name is allowed.
      for (++i;; ++i) {
        if (i == value.size()) return false;
        if (value[i] == '"') {
          if (i + 1 < value.size() && value[i + 1] == '"') {
            name += '"';
            ++i;
            continue;
          }
          ++i;
          break;
        }
        name += value[i];
      }
    } else {
      size_t start = i;
      while (i < value.size() && value[i] != ',' && !isSpace(value[i]) && value[i] != '"') {
        char c = value[i++];
        name += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
      }
      if (i == start) return false;  // an empty unquoted name
    }
    names.push_back(std::move(name));
    while (i < value.size() && isSpace(value[i])) ++i;
    if (i == value.size()) return true;
    if (value[i] != ',') return false;
    ++i;
    while (i < value.size() && isSpace(value[i])) ++i;
    if (i == value.size()) return false;  // a trailing comma
  }
}

SearchPath resolveSearchPath(std::string_view value, const Database& db, const std::string& user,
                             const std::string& tempSchema) {
  std::vector<std::string> listed;
  if (!splitSearchPath(value, listed)) listed.clear();  // SET refused it; a default cannot be
  SearchPath path;
  auto add = [&](const std::string& schema) {
    if (std::find(path.named.begin(), path.named.end(), schema) == path.named.end()) path.named.push_back(schema);
  };
  for (const std::string& name : listed) {
    if (name == "pg_temp") {
      if (!tempSchema.empty())
        add(tempSchema);
      else if (path.named.empty())
        path.createsTemporary = true;
    } else if (name == "$user") {
      if (db.schema(user)) add(user);
    } else if (db.schema(name)) {
      add(name);
    }
  }
  if (!path.named.empty()) path.creation = path.named.front();
  auto named = [&](const std::string& schema) {
    return std::find(path.named.begin(), path.named.end(), schema) != path.named.end();
  };
  if (!tempSchema.empty() && !named(tempSchema)) path.relations.push_back(tempSchema);
  if (!named("pg_catalog")) path.relations.push_back("pg_catalog");
  path.relations.insert(path.relations.end(), path.named.begin(), path.named.end());
  for (const std::string& schema : path.relations)
    if (schema != tempSchema) path.routines.push_back(schema);
  for (const std::string& schema : path.relations) path.key += schema + ",";
  return path;
}

}  // namespace duet
