// Dynamic SQL statements (pl_gram.y's stmt_dynexecute, the EXECUTE form of for_control, and
// RETURN QUERY EXECUTE): the command is an expression, checked like any other, and so is
// each USING value; what the command says is known only when the statement runs, so a
// mistake in it is an error of the call, not of CREATE.
#include "compiler/plpgsql/body_parser.h"

namespace duet::plpgsql {

// EXECUTE command [INTO [STRICT] target, ...] [USING expression, ...]; the INTO and USING
// clauses in either order, each at most once.
StmtPtr BodyParser::parseExecute(uint32_t loc) {
  auto s = std::make_unique<Execute>(loc);
  s->query.command = expression({"into", "using", ";"}, "INTO or USING or ;");
  bool hasUsing = false;
  while (!isOp(";")) {
    if (isKw("into") && !s->into) {
      advance();
      s->into = true;
      s->strict = acceptKw("strict");
      do s->targets.push_back(parseAssignableTarget());
      while (isOp(",") && (advance(), true));
    } else if (isKw("using") && !hasUsing) {
      advance();
      hasUsing = true;
      s->query.params = parseUsing({",", ";", "into"}, ", or ; or INTO");
    } else {
      syntaxError();
    }
  }
  expectSemicolon();
  return s;
}

// FOR targets IN EXECUTE (read) command [USING expression, ...] LOOP body END LOOP.
StmtPtr BodyParser::parseForExecute(std::string label, uint32_t loc, std::vector<Target> targets) {
  auto s = std::make_unique<ForExecute>(loc);
  s->label = label;
  s->targets = std::move(targets);
  s->query.command = expression({"using", "loop"}, "LOOP or USING");
  if (acceptKw("using")) s->query.params = parseUsing({",", "loop"}, ", or LOOP");
  expectKw("loop");
  scopes_.push_back(Scope{label, true, {}, {}, {}});
  s->body = parseLoopBody(label);
  return s;
}

// RETURN QUERY EXECUTE (read) command [USING expression, ...].
StmtPtr BodyParser::parseReturnQueryExecute(uint32_t loc) {
  auto s = std::make_unique<ReturnQueryExecute>(loc);
  s->query.command = expression({"using", ";"}, "USING or ;");
  if (acceptKw("using")) s->query.params = parseUsing({",", ";"}, ", or ;");
  expectSemicolon();
  return s;
}

// USING's expressions, separated by commas, up to a terminator in `until` (which lists ",").
std::vector<SqlText> BodyParser::parseUsing(std::initializer_list<std::string_view> until, const char* expected) {
  std::vector<SqlText> params;
  do params.push_back(expression(until, expected));
  while (isOp(",") && (advance(), true));
  return params;
}

}  // namespace duet::plpgsql
