// The SQL parser's entry point: a whole query string in, a list of statements out.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/parser/ast.h"
#include "engine/types/type_id.h"

namespace duet::sql {

struct ParseOptions {
  // Replace constant literals in SELECT/INSERT/UPDATE/DELETE/VALUES statements by
  // parameters, so that statements differing only in constants share a compiled plan.
  bool liftLiterals = false;
};

// A literal replaced by a parameter.
struct LiftedLiteral {
  int paramNumber = 0;  // the $n that now stands for it
  // Int4, Int8, Numeric, or Unknown for strings; a whole VALUES cell may also be Bool (TRUE,
  // FALSE) or NULL, and takes the kind its column's other cells share (Parser::unifyValuesKinds).
  TypeId kind = TypeId::Unknown;
  std::string text;       // the number as written, the decoded string, or "true"/"false"
  bool null = false;      // a NULL VALUES cell
  uint32_t location = 0;  // byte offset of the literal
  int uses = 1;           // occurrences sharing this parameter (numeric literals)
  // Strings keep one parameter each (their types come from context), but the binder must
  // still see `g || 'x' ... GROUP BY g || 'x'` as one expression: the index (into
  // ParsedStatement::literals) of the first string literal with the same text.
  int sameTextAs = -1;

  // The parameter's value as text, nullopt for NULL.
  std::optional<std::string_view> value() const {
    if (null) return std::nullopt;
    return std::string_view(text);
  }
};

struct ParsedStatement {
  StmtPtr stmt;
  int explicitParams = 0;           // the highest $n written in the statement (0 if none)
  int firstParam = -1;              // the first $n written, in text order (-1 if none)
  uint32_t firstParamLocation = 0;  // its byte offset
  // Filled when literals were lifted (ParseOptions::liftLiterals and a liftable statement).
  // Lifted literals are numbered explicitParams + 1, + 2, ... in text order; numeric
  // constants with the same kind and text share one entry (and one parameter).
  bool lifted = false;
  std::vector<LiftedLiteral> literals;
  // Equal for two statements when their lifted trees are equal: the statement's token
  // stream, case-folded and free of whitespace and comments, with each lifted literal
  // replaced by a placeholder naming its kind. (Spelling differences that do not change
  // the tree, such as an optional AS, give different keys; that only costs a cache miss.)
  std::string shapeKey;
};

// Parses every statement of `query`. Empty statements (";" alone, or an empty query) are
// returned as EmptyStmt so that the server can answer them with EmptyQueryResponse.
// Throws SqlError: 42601 syntax errors, 22023 for invalid type modifiers, positions
// reported as PostgreSQL does (see source_position.h).
std::vector<ParsedStatement> parseQuery(std::string_view query, const ParseOptions& options = {});

// Parses `text` as one type name and nothing else (PostgreSQL's parseTypeString, used for
// PL/pgSQL declarations). Errors as parseQuery, with positions in `text`.
TypeName parseTypeNameText(std::string_view text);

// Whether the collation `name` (schema-qualified or not) exists: DuetDB compares strings
// byte-wise (the C collation, every database's), so the collations that order that way
// exist and change nothing; PostgreSQL says 42704 of the others.
bool knownCollation(const std::vector<std::string>& name);
// Whether values of the type have a collation (PostgreSQL's typcollation is set): the
// strings and name, and arrays of them. COLLATE on others is 42804.
bool isCollatable(SqlType type);

}  // namespace duet::sql
