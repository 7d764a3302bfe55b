// PostgreSQL 15 keyword categories, for the keywords that restrict where a word may appear
// (the table is engine/types/sql_keywords.cpp: quote_ident() needs it too).
#pragma once
#include <string_view>

#include "compiler/parser/token.h"
#include "engine/types/sql_keywords.h"

namespace duet::sql {

// `word` must already be folded to lower case.
using ::duet::keywordCategory;

}  // namespace duet::sql
