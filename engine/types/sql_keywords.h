// PostgreSQL 15's keywords and their categories (kwlist.h), for the words that restrict
// where they may appear. Here, below the parser that needs them most, because quote_ident()
// and format's %I quote an identifier exactly when it is such a keyword, and
// pg_get_keywords() lists them all.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

namespace duet {

enum class KeywordCategory : uint8_t {
  None,          // identifier or unreserved keyword (what keywordCategory answers for both)
  ColName,       // usable as a column name but not as a function or type name
  TypeFuncName,  // usable as a function or type name but not as a column name
  Reserved,      // usable only as a label after AS
  Unreserved,    // in sqlKeywords() only: a keyword that may appear anywhere an identifier may
};

// `word` must already be folded to lower case. Unreserved keywords and other words are
// None: the lexer treats them as identifiers and the parser recognises them by their text.
KeywordCategory keywordCategory(std::string_view word);

struct SqlKeyword {
  std::string_view word;
  KeywordCategory category;
  bool bareLabel;  // may be a column label without AS
};
// Every keyword, sorted by word.
std::span<const SqlKeyword> sqlKeywords();

}  // namespace duet
