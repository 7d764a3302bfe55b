// INSERT, UPDATE and DELETE.
#include "compiler/parser/parser_impl.h"
#include "engine/error.h"

namespace duet::sql {

std::vector<ResTarget> Parser::parseOptReturning() {
  if (!acceptKw("returning")) return {};
  return parseTargetList();
}

// UPDATE/DELETE target alias: [AS] ColId. Without AS, SET is not an alias (as in gram.y's
// relation_expr_opt_alias), so "UPDATE t SET ..." works.
std::string Parser::parseDmlAlias() {
  if (acceptKw("as")) return parseColId();
  if (isColId() && !isKw("set")) return advance().str();
  return {};
}

StmtPtr Parser::parseInsert() {
  expectKw("insert");
  expectKw("into");
  auto s = std::make_unique<InsertStmt>();
  s->table = parseQualifiedName();
  if (acceptKw("as")) s->alias = parseColId();
  if (isOp("(") && !startsSelect()) {
    advance();
    do {
      s->columnLocations.push_back(peek().offset);
      s->columns.push_back(parseColId());
    } while (acceptOp(","));
    expectOp(")");
  }
  if (acceptKw("overriding")) {
    s->overriding = acceptKw("system") ? InsertStmt::Overriding::System : InsertStmt::Overriding::User;
    if (s->overriding == InsertStmt::Overriding::User) expectKw("user");
    expectKw("value");
  }
  if (acceptKw("default")) {
    expectKw("values");
  } else {
    s->source = parseSelect();
  }
  if (isKw("on")) s->onConflict = parseOnConflict();
  s->returning = parseOptReturning();
  return s;
}

// ON CONFLICT [ (col, ...) [WHERE ...] | ON CONSTRAINT name ] DO NOTHING | DO UPDATE SET ... [WHERE ...]
// (gram.y's opt_on_conflict; an inference element is a column name: DuetDB has no
// expression indexes for another element to match).
std::unique_ptr<OnConflictClause> Parser::parseOnConflict() {
  auto c = std::make_unique<OnConflictClause>();
  c->location = peek().offset;
  expectKw("on");
  expectKw("conflict");
  if (acceptOp("(")) {
    do {
      c->columnLocations.push_back(peek().offset);
      c->columns.push_back(parseColId());
    } while (acceptOp(","));
    expectOp(")");
    if (acceptKw("where")) c->indexWhere = parseExpr();
  } else if (acceptKw("on")) {
    expectKw("constraint");
    c->constraint = parseColId();
  }
  expectKw("do");
  if (acceptKw("nothing")) return c;
  expectKw("update");
  expectKw("set");
  c->update = true;
  c->set = parseSetClauses();
  if (acceptKw("where")) c->where = parseExpr();
  return c;
}

std::vector<SetClause> Parser::parseSetClauses() {
  std::vector<SetClause> clauses;
  do {
    SetClause c;
    if (acceptOp("(")) {
      c.multi = true;
      do {
        c.columnLocations.push_back(peek().offset);
        c.columns.push_back(parseColId());
      } while (acceptOp(","));
      expectOp(")");
    } else {
      c.columnLocations.push_back(peek().offset);
      c.columns.push_back(parseColId());
      // SET a[i] = v (PostgreSQL's subscripted assignment) has no SetClause form yet.
      if (isOp("["))
        errorAt(sqlstate::kFeatureNotSupported, "assignment to array elements is not supported yet", peek().offset);
    }
    expectOp("=");
    c.value = parseExpr();
    clauses.push_back(std::move(c));
  } while (acceptOp(","));
  return clauses;
}

// where_or_current_clause: WHERE condition, or WHERE CURRENT OF cursor_name.
void Parser::parseWhereOrCurrent(ExprPtr& where, std::unique_ptr<ColumnRef>& currentOf) {
  if (!acceptKw("where")) return;
  if (isKw("current") && isKw("of", 1)) {
    advance();
    advance();
    currentOf = std::make_unique<ColumnRef>(peek().offset);
    currentOf->names.push_back(parseColId());
    return;
  }
  where = parseExpr();
}

StmtPtr Parser::parseUpdate() {
  expectKw("update");
  auto s = std::make_unique<UpdateStmt>();
  acceptKw("only");
  s->table = parseQualifiedName();
  s->alias = parseDmlAlias();
  expectKw("set");
  s->set = parseSetClauses();
  if (acceptKw("from")) s->from = parseFromList();
  parseWhereOrCurrent(s->where, s->currentOf);
  s->returning = parseOptReturning();
  return s;
}

StmtPtr Parser::parseDelete() {
  expectKw("delete");
  expectKw("from");
  auto s = std::make_unique<DeleteStmt>();
  acceptKw("only");
  s->table = parseQualifiedName();
  s->alias = parseDmlAlias();
  if (acceptKw("using")) s->using_ = parseFromList();
  parseWhereOrCurrent(s->where, s->currentOf);
  s->returning = parseOptReturning();
  return s;
}

}  // namespace duet::sql
