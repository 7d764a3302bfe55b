// Functions with SQL-standard argument syntax, rewritten into ordinary calls the way
// gram.y does: EXTRACT(f FROM x) -> extract('f', x); POSITION(a IN b) -> position(b, a);
// SUBSTRING(x FROM a FOR b) and SUBSTRING(x SIMILAR a ESCAPE b) -> substring(x, a, b);
// TRIM([BOTH|LEADING|TRAILING] [c] FROM x) -> btrim/ltrim/rtrim(x [, c]);
// OVERLAY(x PLACING r FROM a FOR b) -> overlay(x, r, a, b). The comma forms are plain calls.
#include "compiler/parser/parser_impl.h"

namespace duet::sql {

ExprPtr Parser::parseSpecialFunction() {
  const Token& nameTok = advance();
  auto call = std::make_unique<FuncCall>(nameTok.offset);
  std::string_view name = nameTok.text;
  call->names.emplace_back(name);
  expectOp("(");
  if (name == "extract") {
    // The field is a name (year, epoch, ...) or a string; it is never lifted.
    const Token& f = peek();
    if (f.kind != TokenKind::Word && f.kind != TokenKind::String) syntaxError();
    advance();
    call->args.push_back(std::make_unique<Literal>(f.offset, LiteralKind::String, f.str()));
    expectKw("from");
    call->args.push_back(parseExpr());
  } else if (name == "position") {
    ExprPtr needle = parseOtherOp();  // gram.y's b_expr: IN ends it
    expectKw("in");
    call->args.push_back(parseOtherOp());
    call->args.push_back(std::move(needle));
  } else if (name == "substring") {
    // The arguments' types choose the function: an integer FROM is a start position, a
    // string a regular expression (and FOR then the escape of a SIMILAR TO pattern). The
    // SQL syntax calls pg_catalog.substring, as gram.y (errors name it so).
    call->args.push_back(parseExpr());
    if (isKw("from") || isKw("for") || isKw("similar")) call->names = {"pg_catalog", "substring"};
    if (acceptKw("from")) {
      call->args.push_back(parseExpr());
      if (acceptKw("for")) call->args.push_back(parseExpr());
    } else if (acceptKw("for")) {
      ExprPtr count = parseExpr();
      if (acceptKw("from")) {  // SUBSTRING(x FOR n FROM m)
        call->args.push_back(parseExpr());
      } else {  // SUBSTRING(x FOR n) starts at 1
        call->args.push_back(std::make_unique<Literal>(peek().offset, LiteralKind::Integer, "1"));
      }
      call->args.push_back(std::move(count));
    } else if (acceptKw("similar")) {  // SUBSTRING(x SIMILAR pattern ESCAPE e)
      call->args.push_back(parseExpr());
      expectKw("escape");
      call->args.push_back(parseExpr());
    } else {
      while (acceptOp(",")) call->args.push_back(parseExpr());
    }
  } else if (name == "overlay") {
    // OVERLAY(s PLACING r FROM n [FOR m]) calls pg_catalog.overlay(s, r, n [, m]).
    if (!isOp(")")) call->args.push_back(parseExpr());
    if (acceptKw("placing")) {
      call->names = {"pg_catalog", "overlay"};
      call->args.push_back(parseExpr());
      expectKw("from");
      call->args.push_back(parseExpr());
      if (acceptKw("for")) call->args.push_back(parseExpr());
    } else {
      while (acceptOp(",")) call->args.push_back(parseExpr());
    }
  } else {  // trim
    call->names[0] = "btrim";
    if (acceptKw("leading"))
      call->names[0] = "ltrim";
    else if (acceptKw("trailing"))
      call->names[0] = "rtrim";
    else
      acceptKw("both");
    if (acceptKw("from")) {
      call->args = parseExprList();
    } else {
      ExprPtr first = parseExpr();
      if (acceptKw("from")) {  // TRIM(chars FROM x) -> btrim(x, chars)
        call->args = parseExprList();
        call->args.push_back(std::move(first));
      } else {
        call->args.push_back(std::move(first));
        while (acceptOp(",")) call->args.push_back(parseExpr());
      }
    }
  }
  expectOp(")");
  return call;
}

}  // namespace duet::sql
