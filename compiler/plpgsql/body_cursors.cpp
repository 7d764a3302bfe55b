// Cursor syntax beyond DECLARE, OPEN, FETCH and CLOSE themselves: the argument lists of
// cursor declarations and of OPEN (pl_gram.y's decl_cursor_args and read_cursor_args),
// and FOR over a cursor.
#include <fmt/format.h>

#include "compiler/plpgsql/body_parser.h"
#include "engine/error.h"

namespace duet::plpgsql {

// `(name type, ...)` after CURSOR: each argument a variable of the cursor's own scope
// (pushed by the caller). Row and record arguments are not compiled (0A000).
std::vector<int> BodyParser::parseCursorParameters() {
  std::vector<int> arguments;
  expectOp("(");
  do {
    Variable v;
    v.location = peek().offset;
    v.name = variableWord();
    if (scopes_.back().find(fn_.variables, v.name) >= 0)
      errorAt(sqlstate::kSyntaxError, fmt::format("duplicate declaration at or near \"{}\"", v.name), v.location);
    uint32_t typeAt = 0;
    v.type = parseDataType(typeAt, /*argumentList=*/true);
    if (v.type.kind == VarType::Kind::Row || v.type.kind == VarType::Kind::Record)
      errorAt(sqlstate::kFeatureNotSupported, "PL/pgSQL cursor arguments of a row or record type are not supported yet",
              typeAt);
    arguments.push_back(declare(std::move(v)));
  } while (isOp(",") && (advance(), true));
  expectOp(")");
  return arguments;
}

// read_cursor_args: after the cursor's name in OPEN or FOR, `(value, ...)` or `(name :=
// value, ...)` (both may mix) for a cursor declared with arguments, nothing for one
// without. The values come back in the order of the cursor's arguments. The caller reads
// what follows.
std::vector<SqlText> BodyParser::parseCursorArguments(int cursor) {
  const Cursor& c = fn_.cursors[cursor];
  if (c.arguments.empty()) {
    if (isOp("("))
      errorAt(sqlstate::kSyntaxError, fmt::format("cursor \"{}\" has no arguments", c.name), peek().offset);
    return {};
  }
  if (!isOp("(")) errorAt(sqlstate::kSyntaxError, fmt::format("cursor \"{}\" has arguments", c.name), peek().offset);
  advance();
  size_t count = c.arguments.size();
  std::vector<std::optional<SqlText>> values(count);
  for (size_t read = 0; read < count; ++read) {
    uint32_t argumentAt = peek().offset;
    size_t position = read;
    // A named argument: a plain identifier (no SQL keyword) before `:=`.
    const sql::Token& word = peek();
    if (word.kind == sql::TokenKind::Word && (word.quoted || word.category == KeywordCategory::None) && isOp(":=", 1)) {
      position = 0;
      while (position < count && fn_.variables[c.arguments[position]].name != word.text) ++position;
      if (position == count)
        errorAt(sqlstate::kSyntaxError, fmt::format("cursor \"{}\" has no argument named \"{}\"", c.name, word.text),
                word.offset);
      advance();
      advance();
    }
    if (values[position])
      errorAt(sqlstate::kSyntaxError,
              fmt::format("value for parameter \"{}\" of cursor \"{}\" specified more than once",
                          fn_.variables[c.arguments[position]].name, c.name),
              argumentAt);
    values[position] = expression({",", ")"}, ",\" or \")");
    bool last = read + 1 == count;
    if (isOp(")") && !last)
      errorAt(sqlstate::kSyntaxError, fmt::format("not enough arguments for cursor \"{}\"", c.name), peek().offset);
    if (isOp(",") && last)
      errorAt(sqlstate::kSyntaxError, fmt::format("too many arguments for cursor \"{}\"", c.name), peek().offset);
    advance();
  }
  std::vector<SqlText> ordered;
  for (auto& v : values) ordered.push_back(std::move(*v));
  return ordered;
}

// FOR r IN c [(arguments)] LOOP (for_control's cursor case, after IN): the loop declares
// r, a record of the cursor's rows, in its own scope, whatever r names outside it.
StmtPtr BodyParser::parseForCursor(std::string label, uint32_t loc, const std::vector<std::string>& names,
                                   uint32_t varAt) {
  if (names.size() != 1) errorAt(sqlstate::kSyntaxError, "cursor FOR loop must have only one target variable", varAt);
  auto s = std::make_unique<ForCursor>(loc);
  s->label = label;
  s->cursor = lookupCursor(advance().text);
  s->arguments = parseCursorArguments(s->cursor);
  expectKw("loop");
  scopes_.push_back(Scope{label, true, {}, {}, {}});
  Variable record;
  record.name = names[0];
  record.type.kind = VarType::Kind::Record;
  record.implicit = true;
  record.location = varAt;
  s->variable = declare(std::move(record));
  s->body = parseLoopBody(label);
  return s;
}

// read_fetch_direction: FETCH's or MOVE's direction, through its FROM or IN. A word that
// names a variable (or cursor) right away means no direction; anything else that no
// direction keyword starts is a count (FORWARD).
FetchDirection BodyParser::parseFetchDirection() {
  using Kind = FetchDirection::Kind;
  FetchDirection d;
  bool needsFrom = true;  // FROM or IN must follow a direction of keywords only
  if (acceptKw("next")) {
  } else if (acceptKw("prior")) {
    d.kind = Kind::Backward;
  } else if (acceptKw("first")) {
    d.kind = Kind::Absolute;
  } else if (acceptKw("last")) {
    d.kind = Kind::Absolute;
    d.count = -1;
  } else if (isKw("absolute") || isKw("relative")) {
    d.kind = advance().text == "absolute" ? Kind::Absolute : Kind::Relative;
    d.expression = readDirectionExpression();
    needsFrom = false;
  } else if (acceptKw("all")) {
    d.count = FetchDirection::kAll;
    d.multipleRows = true;
  } else if (isKw("forward") || isKw("backward")) {
    d.kind = advance().text == "forward" ? Kind::Forward : Kind::Backward;
    needsFrom = parseDirectionCount(d);
  } else if (acceptKw("from") || acceptKw("in")) {
    needsFrom = false;
  } else if (peek().kind == sql::TokenKind::Word &&
             (lookupVariable(peek().text) >= 0 || lookupCursor(peek().text) >= 0)) {
    needsFrom = false;
  } else {
    d.expression = readDirectionExpression();
    d.multipleRows = true;
    needsFrom = false;
  }
  if (needsFrom && !acceptKw("from") && !acceptKw("in")) syntaxError("expected FROM or IN");
  return d;
}

// complete_direction, after FORWARD or BACKWARD: FROM or IN (one row), ALL, or a count.
// Whether FROM or IN is still to come.
bool BodyParser::parseDirectionCount(FetchDirection& d) {
  if (acceptKw("from") || acceptKw("in")) return false;
  d.multipleRows = true;
  if (acceptKw("all")) {
    d.count = FetchDirection::kAll;
    return true;
  }
  d.expression = readDirectionExpression();
  return false;
}

// A count or position up to FROM or IN, which it consumes.
SqlText BodyParser::readDirectionExpression() {
  SqlText e = expression({"from", "in"}, "FROM or IN");
  advance();
  return e;
}

}  // namespace duet::plpgsql
