// The SQL lexer: PostgreSQL 15 lexical rules (scan.l) for identifiers, keywords, numbers,
// strings, parameters, operators and comments.
#pragma once
#include <string_view>
#include <vector>

#include "compiler/parser/token.h"

namespace duet::sql {

// Splits the whole query into tokens, ending with an End token. A lexical error does not
// throw here: the list ends with an Error token at the offending place instead, so that a
// syntax error earlier in the text is reported first, as PostgreSQL's on-demand scanner does.
// Token texts point into `query` and `decoded`, which must outlive the tokens.
std::vector<Token> tokenize(std::string_view query, DecodedTexts& decoded);

}  // namespace duet::sql
