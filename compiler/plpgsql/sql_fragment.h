// Running the SQL parser on a piece of a routine body (an expression or an embedded
// statement), with errors reported at their positions in the CREATE statement.
#pragma once
#include <string_view>
#include <vector>

#include "compiler/parser/parser.h"
#include "compiler/plpgsql/plpgsql.h"

namespace duet::plpgsql {

// The byte offset in `text` of a 1-based character position (as SqlError reports).
uint32_t byteOffsetOf(std::string_view text, int position);

// Parses prefix + text, where text starts at body offset `begin` ("SELECT " is the prefix
// for an expression, as PostgreSQL parses it).
std::vector<sql::ParsedStatement> parseFragment(const BodySource& source, uint32_t begin, std::string_view text,
                                                std::string_view prefix);

}  // namespace duet::plpgsql
