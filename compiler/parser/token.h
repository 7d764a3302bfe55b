// Tokens produced by the SQL lexer. Every token records the byte range it came from so
// that error messages can quote the source text and report PostgreSQL-style positions.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "engine/types/sql_keywords.h"

namespace duet::sql {

enum class TokenKind : uint8_t {
  Word,      // identifier or keyword; `text` is folded to lower case unless `quoted`
  Integer,   // digits only; `text` is the digits
  Numeric,   // decimal point and/or exponent; `text` is the literal as written
  String,    // '...', E'...', $$...$$; `text` is the decoded value
  Param,     // $n; `number` holds n
  Operator,  // everything else, including single-character punctuation like ( ) , ;
  End,       // end of input
  Error,     // a lexical error; raised when the parser reaches this token
};

// Keyword categories as in PostgreSQL's kwlist.h (engine/types/sql_keywords.h).
using KeywordCategory = ::duet::KeywordCategory;

struct Token {
  TokenKind kind = TokenKind::End;
  bool quoted = false;                               // Word: was a "quoted identifier"
  KeywordCategory category = KeywordCategory::None;  // Word: keyword category (unquoted only)
  int number = 0;                                    // Param: the parameter number
  uint32_t offset = 0;                               // byte offset of the first character in the query
  uint32_t length = 0;                               // byte length of the source text of the token
  // See TokenKind; Error: the message. A slice of the query where the token's text is its
  // source text, else held by the DecodedTexts that tokenize filled.
  std::string_view text;

  std::string str() const { return std::string(text); }
};

// The texts of tokens that are not slices of the query: strings with escapes or doubled
// quotes, identifiers folded to lower case or truncated, error messages. A deque, so that
// each text stays where it is while more are added.
using DecodedTexts = std::deque<std::string>;

}  // namespace duet::sql
