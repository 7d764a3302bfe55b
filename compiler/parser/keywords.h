// PostgreSQL 15 keyword categories, for the keywords that restrict where a word may appear.
#pragma once
#include <string_view>

#include "compiler/parser/token.h"

namespace duet::sql {

// `word` must already be folded to lower case.
KeywordCategory keywordCategory(std::string_view word);

}  // namespace duet::sql
