// Window definitions: a call's OVER clause and a SELECT's WINDOW clause, with their frames
// (PostgreSQL's window_specification and frame_clause), including the frame shapes gram.y
// rejects before analysis.
#include "compiler/parser/parser_impl.h"
#include "engine/error.h"

namespace duet::sql {

// After a function call's ')': OVER name, or OVER (window specification).
std::unique_ptr<WindowDef> Parser::parseOver() {
  auto w = std::make_unique<WindowDef>();
  w->location = peek().offset;
  if (!isOp("(")) {
    w->refName = parseColId();
    w->reference = true;
    return w;
  }
  parseWindowSpec(*w);
  return w;
}

// WINDOW name AS (spec) [, ...], after the word WINDOW.
std::vector<WindowDef> Parser::parseWindowClause() {
  std::vector<WindowDef> windows;
  do {
    WindowDef w;
    w.location = peek().offset;
    w.name = parseColId();
    expectKw("as");
    parseWindowSpec(w);
    windows.push_back(std::move(w));
  } while (acceptOp(","));
  return windows;
}

// '(' [existing window name] [PARTITION BY ...] [ORDER BY ...] [frame] ')'
void Parser::parseWindowSpec(WindowDef& w) {
  expectOp("(");
  if (isColId() && !isKw("partition") && !isKw("order") && !isKw("range") && !isKw("rows") && !isKw("groups"))
    w.refName = parseColId();
  if (acceptKw("partition")) {
    expectKw("by");
    w.partitionBy = parseExprList();
  }
  if (acceptKw("order")) {
    expectKw("by");
    w.orderBy = parseSortList();
  }
  if (isKw("range") || isKw("rows") || isKw("groups")) parseFrame(w);
  expectOp(")");
}

void Parser::parseFrame(WindowDef& w) {
  w.hasFrame = true;
  const Token& mode = advance();
  w.mode = mode.text == "rows" ? FrameMode::Rows : mode.text == "groups" ? FrameMode::Groups : FrameMode::Range;
  using K = FrameBoundKind;
  auto windowing = [&](const char* message, uint32_t at) { errorAt(sqlstate::kWindowingError, message, at); };
  if (acceptKw("between")) {
    w.start = parseFrameBound();
    expectKw("and");
    w.end = parseFrameBound();
    if (w.start.kind == K::UnboundedFollowing) windowing("frame start cannot be UNBOUNDED FOLLOWING", w.start.location);
    if (w.end.kind == K::UnboundedPreceding) windowing("frame end cannot be UNBOUNDED PRECEDING", w.end.location);
    if (w.start.kind == K::CurrentRow && w.end.kind == K::Preceding)
      windowing("frame starting from current row cannot have preceding rows", w.end.location);
    if (w.start.kind == K::Following && (w.end.kind == K::Preceding || w.end.kind == K::CurrentRow))
      windowing("frame starting from following row cannot have preceding rows", w.end.location);
  } else {
    w.start = parseFrameBound();
    if (w.start.kind == K::UnboundedFollowing) windowing("frame start cannot be UNBOUNDED FOLLOWING", w.start.location);
    if (w.start.kind == K::Following)
      windowing("frame starting from following row cannot end with current row", w.start.location);
    w.end = FrameBound{K::CurrentRow, nullptr, w.start.location};
  }
  if (acceptKw("exclude")) {
    if (acceptKw("current")) {
      expectKw("row");
      w.exclusion = FrameExclusion::CurrentRow;
    } else if (acceptKw("group")) {
      w.exclusion = FrameExclusion::Group;
    } else if (acceptKw("ties")) {
      w.exclusion = FrameExclusion::Ties;
    } else {
      expectKw("no");
      expectKw("others");
    }
  }
}

// UNBOUNDED PRECEDING | UNBOUNDED FOLLOWING | CURRENT ROW | expr PRECEDING | expr FOLLOWING
FrameBound Parser::parseFrameBound() {
  FrameBound bound{FrameBoundKind::CurrentRow, nullptr, peek().offset};
  if (isKw("unbounded") && (isKw("preceding", 1) || isKw("following", 1))) {
    advance();
    bound.kind =
        advance().str() == "preceding" ? FrameBoundKind::UnboundedPreceding : FrameBoundKind::UnboundedFollowing;
    return bound;
  }
  if (isKw("current") && isKw("row", 1)) {
    advance();
    advance();
    return bound;
  }
  bound.offset = parseExpr();
  if (acceptKw("preceding")) {
    bound.kind = FrameBoundKind::Preceding;
  } else {
    expectKw("following");
    bound.kind = FrameBoundKind::Following;
  }
  return bound;
}

}  // namespace duet::sql
