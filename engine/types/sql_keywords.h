// PostgreSQL 15's keyword categories (kwlist.h), for the words that restrict where they may
// appear. Here, below the parser that needs them most, because quote_ident() and format's
// %I quote an identifier exactly when it is such a keyword.
#pragma once
#include <cstdint>
#include <string_view>

namespace duet {

// Words that are not listed behave as plain identifiers (unreserved keywords are matched
// by text where the grammar needs them).
enum class KeywordCategory : uint8_t {
  None,          // identifier or unreserved keyword
  ColName,       // usable as a column name but not as a function or type name
  TypeFuncName,  // usable as a function or type name but not as a column name
  Reserved,      // usable only as a label after AS
};

// `word` must already be folded to lower case.
KeywordCategory keywordCategory(std::string_view word);

}  // namespace duet
