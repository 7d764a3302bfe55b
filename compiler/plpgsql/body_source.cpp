// Positions inside a routine body, mapped back to the CREATE statement (PostgreSQL's
// function_parse_error_transpose) and the SQL parser run on a piece of the body.
#include "compiler/parser/source_position.h"
#include "compiler/plpgsql/plpgsql.h"
#include "compiler/plpgsql/sql_fragment.h"
#include "engine/error.h"

namespace duet::plpgsql {

uint32_t BodySource::queryOffset(uint32_t bodyOffset) const {
  std::string_view token = query.substr(tokenBegin, tokenEnd - tokenBegin);
  if (!token.empty() && token[0] == '$') {  // $tag$...$tag$: the body is verbatim
    size_t open = token.find('$', 1);
    return tokenBegin + static_cast<uint32_t>(open + 1) + bodyOffset;
  }
  if (!token.empty() && token[0] == '\'') {  // '...': each '' stands for one quote
    uint32_t raw = 1;
    for (uint32_t i = 0; i < bodyOffset && raw < token.size(); ++i) raw += token[raw] == '\'' ? 2 : 1;
    return tokenBegin + raw;
  }
  return tokenBegin;
}

int BodySource::position(uint32_t bodyOffset) const { return sql::sqlPosition(query, queryOffset(bodyOffset)); }

uint32_t byteOffsetOf(std::string_view text, int position) {
  uint32_t byte = 0;
  for (int chars = 1; byte < text.size(); ++byte) {
    if ((static_cast<unsigned char>(text[byte]) & 0xC0) == 0x80) continue;
    if (chars++ == position) break;
  }
  return byte;
}

std::vector<sql::ParsedStatement> parseFragment(const BodySource& source, uint32_t begin, std::string_view text,
                                                std::string_view prefix) {
  std::string sqlText = std::string(prefix) + std::string(text);
  try {
    return sql::parseQuery(sqlText);
  } catch (const SqlError& e) {
    if (e.position <= 0) throw;
    uint32_t byte = byteOffsetOf(sqlText, e.position);
    uint32_t inText = byte > prefix.size() ? byte - static_cast<uint32_t>(prefix.size()) : 0;
    throw SqlError(e.code, e.what(), e.detail, e.hint, source.position(begin + inText));
  }
}

}  // namespace duet::plpgsql
