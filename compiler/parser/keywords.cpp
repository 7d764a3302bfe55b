// Only the reserved, col_name and type_func_name keywords of PostgreSQL 15 are listed:
// unreserved keywords may appear anywhere an identifier may, so the lexer treats them as
// identifiers and the parser recognises them by their text.
#include "compiler/parser/keywords.h"

#include <algorithm>
#include <array>
#include <utility>

namespace duet::sql {

namespace {

using KC = KeywordCategory;
// Sorted by name for binary search.
constexpr std::array<std::pair<std::string_view, KC>, 140> kKeywords = {{
    {"all", KC::Reserved},           {"analyse", KC::Reserved},
    {"analyze", KC::Reserved},       {"and", KC::Reserved},
    {"any", KC::Reserved},           {"array", KC::Reserved},
    {"as", KC::Reserved},            {"asc", KC::Reserved},
    {"asymmetric", KC::Reserved},    {"authorization", KC::TypeFuncName},
    {"between", KC::ColName},        {"bigint", KC::ColName},
    {"binary", KC::TypeFuncName},    {"bit", KC::ColName},
    {"boolean", KC::ColName},        {"both", KC::Reserved},
    {"case", KC::Reserved},          {"cast", KC::Reserved},
    {"char", KC::ColName},           {"character", KC::ColName},
    {"check", KC::Reserved},         {"coalesce", KC::ColName},
    {"collate", KC::Reserved},       {"collation", KC::TypeFuncName},
    {"column", KC::Reserved},        {"concurrently", KC::TypeFuncName},
    {"constraint", KC::Reserved},    {"create", KC::Reserved},
    {"cross", KC::TypeFuncName},     {"current_catalog", KC::Reserved},
    {"current_date", KC::Reserved},  {"current_role", KC::Reserved},
    {"current_schema", KC::TypeFuncName}, {"current_time", KC::Reserved},
    {"current_timestamp", KC::Reserved},  {"current_user", KC::Reserved},
    {"dec", KC::ColName},            {"decimal", KC::ColName},
    {"default", KC::Reserved},       {"deferrable", KC::Reserved},
    {"desc", KC::Reserved},          {"distinct", KC::Reserved},
    {"do", KC::Reserved},            {"else", KC::Reserved},
    {"end", KC::Reserved},           {"except", KC::Reserved},
    {"exists", KC::ColName},         {"extract", KC::ColName},
    {"false", KC::Reserved},         {"fetch", KC::Reserved},
    {"float", KC::ColName},          {"for", KC::Reserved},
    {"foreign", KC::Reserved},       {"freeze", KC::TypeFuncName},
    {"from", KC::Reserved},          {"full", KC::TypeFuncName},
    {"grant", KC::Reserved},         {"greatest", KC::ColName},
    {"group", KC::Reserved},         {"grouping", KC::ColName},
    {"having", KC::Reserved},        {"ilike", KC::TypeFuncName},
    {"in", KC::Reserved},            {"initially", KC::Reserved},
    {"inner", KC::TypeFuncName},     {"inout", KC::ColName},
    {"int", KC::ColName},            {"integer", KC::ColName},
    {"intersect", KC::Reserved},     {"interval", KC::ColName},
    {"into", KC::Reserved},          {"is", KC::TypeFuncName},
    {"isnull", KC::TypeFuncName},    {"join", KC::TypeFuncName},
    {"lateral", KC::Reserved},       {"leading", KC::Reserved},
    {"least", KC::ColName},          {"left", KC::TypeFuncName},
    {"like", KC::TypeFuncName},      {"limit", KC::Reserved},
    {"localtime", KC::Reserved},     {"localtimestamp", KC::Reserved},
    {"national", KC::ColName},       {"natural", KC::TypeFuncName},
    {"nchar", KC::ColName},          {"none", KC::ColName},
    {"normalize", KC::ColName},      {"not", KC::Reserved},
    {"notnull", KC::TypeFuncName},   {"null", KC::Reserved},
    {"nullif", KC::ColName},         {"numeric", KC::ColName},
    {"offset", KC::Reserved},        {"on", KC::Reserved},
    {"only", KC::Reserved},          {"or", KC::Reserved},
    {"order", KC::Reserved},         {"out", KC::ColName},
    {"outer", KC::TypeFuncName},     {"overlaps", KC::TypeFuncName},
    {"overlay", KC::ColName},        {"placing", KC::Reserved},
    {"position", KC::ColName},       {"precision", KC::ColName},
    {"primary", KC::Reserved},       {"real", KC::ColName},
    {"references", KC::Reserved},    {"returning", KC::Reserved},
    {"right", KC::TypeFuncName},     {"row", KC::ColName},
    {"select", KC::Reserved},        {"session_user", KC::Reserved},
    {"setof", KC::ColName},          {"similar", KC::TypeFuncName},
    {"smallint", KC::ColName},       {"some", KC::Reserved},
    {"substring", KC::ColName},      {"symmetric", KC::Reserved},
    {"table", KC::Reserved},         {"tablesample", KC::TypeFuncName},
    {"then", KC::Reserved},          {"time", KC::ColName},
    {"timestamp", KC::ColName},      {"to", KC::Reserved},
    {"trailing", KC::Reserved},      {"treat", KC::ColName},
    {"trim", KC::ColName},           {"true", KC::Reserved},
    {"union", KC::Reserved},         {"unique", KC::Reserved},
    {"user", KC::Reserved},          {"using", KC::Reserved},
    {"values", KC::ColName},         {"varchar", KC::ColName},
    {"variadic", KC::Reserved},      {"verbose", KC::TypeFuncName},
    {"when", KC::Reserved},          {"where", KC::Reserved},
    {"window", KC::Reserved},        {"with", KC::Reserved},
}};

}  // namespace

KeywordCategory keywordCategory(std::string_view word) {
  auto it = std::lower_bound(kKeywords.begin(), kKeywords.end(), word,
                             [](const auto& kw, std::string_view w) { return kw.first < w; });
  if (it != kKeywords.end() && it->first == word) return it->second;
  return KC::None;
}

}  // namespace duet::sql
