// CREATE TABLE / INDEX / VIEW, ALTER TABLE ... ADD constraint, DROP, TRUNCATE. CREATE and DROP of
// functions and procedures continue in parse_routine.cpp.
#include "compiler/parser/parser_impl.h"

namespace duet::sql {

StmtPtr Parser::parseCreate() {
  expectKw("create");
  if (isKw("or")) {
    advance();
    expectKw("replace");
    if (isKw("function") || isKw("procedure")) return parseCreateFunction(true);
    bool temporary = acceptKw("temp") || acceptKw("temporary");
    return parseCreateView(true, temporary);
  }
  if (isKw("function") || isKw("procedure")) return parseCreateFunction(false);
  if (isKw("view") || isKw("recursive")) return parseCreateView(false, false);
  if (acceptKw("temp") || acceptKw("temporary")) {
    if (isKw("view") || isKw("recursive")) return parseCreateView(false, true);
    return parseCreateTable(true);
  }
  if (acceptKw("unlogged") || isKw("table")) return parseCreateTable(false);
  if (isKw("unique") || isKw("index")) return parseCreateIndex();
  if (isKw("database")) return parseCreateDatabase();
  if (isKw("role")) return parseCreateRole(false);
  if (isKw("user")) return parseCreateRole(true);
  syntaxError();
}

StmtPtr Parser::parseCreateTable(bool temporary) {
  expectKw("table");
  auto s = std::make_unique<CreateTableStmt>();
  s->temporary = temporary;
  if (isKw("if")) {
    advance();
    expectKw("not");
    expectKw("exists");
    s->ifNotExists = true;
  }
  s->table = parseQualifiedName();
  expectOp("(");
  if (!isOp(")")) {
    do {
      if (isKw("constraint") || isKw("primary") || isKw("unique") || isKw("check") || isKw("foreign"))
        s->constraints.push_back(parseTableConstraint());
      else
        s->columns.push_back(parseColumnDef());
    } while (acceptOp(","));
  }
  expectOp(")");
  if (acceptKw("with")) s->options = parseParenDefElems(true);
  return s;
}

StmtPtr Parser::parseCreateView(bool orReplace, bool temporary) {
  auto s = std::make_unique<CreateViewStmt>();
  s->orReplace = orReplace;
  s->temporary = temporary;
  s->recursive = acceptKw("recursive");
  expectKw("view");
  s->view = parseQualifiedName();
  if (isOp("(")) s->columns = parseParenNameList();
  if (acceptKw("with")) s->options = parseParenDefElems(true);
  expectKw("as");
  if (!startsSelect()) syntaxError();
  s->query = parseSelect();
  if (acceptKw("with")) {
    if (!acceptKw("cascaded")) acceptKw("local");
    expectKw("check");
    expectKw("option");
    s->checkOption = true;
  }
  return s;
}

ColumnDef Parser::parseColumnDef() {
  ColumnDef c;
  c.location = peek().offset;
  c.name = parseColId();
  c.type = parseTypeName();
  while (parseColumnConstraint(c.constraints)) {}
  return c;
}

// One column constraint, optionally named; false when none follows.
bool Parser::parseColumnConstraint(std::vector<Constraint>& out) {
  Constraint c;
  c.location = peek().offset;
  if (acceptKw("constraint")) c.name = parseColId();
  if (isKw("not") && isKw("null", 1)) {
    advance();
    advance();
    c.kind = ConstraintKind::NotNull;
  } else if (acceptKw("null")) {
    c.kind = ConstraintKind::Null;
  } else if (acceptKw("default")) {
    c.kind = ConstraintKind::Default;
    c.exprBegin = peek().offset;
    c.expr = parseComparison();  // gram.y's b_expr: no AND/OR/NOT/IS at the top level
    c.exprEnd = lastEnd_;
  } else if (acceptKw("primary")) {
    expectKw("key");
    c.kind = ConstraintKind::PrimaryKey;
  } else if (acceptKw("unique")) {
    c.kind = ConstraintKind::Unique;
  } else if (acceptKw("check")) {
    parseCheck(c);
  } else if (isKw("references")) {
    c.kind = ConstraintKind::ForeignKey;
    parseReferences(c);
  } else {
    if (!c.name.empty()) syntaxError();
    return false;
  }
  out.push_back(std::move(c));
  return true;
}

// REFERENCES t [(cols)] [MATCH FULL|PARTIAL|SIMPLE] [ON DELETE|UPDATE action]
// [[NOT] DEFERRABLE] [INITIALLY DEFERRED|IMMEDIATE].
void Parser::parseReferences(Constraint& c) {
  expectKw("references");
  c.refTable = parseQualifiedName();
  if (isOp("(")) c.refColumns = parseParenNameList();
  if (acceptKw("match")) {
    if (acceptKw("full"))
      c.match = 'f';
    else if (acceptKw("partial"))
      c.match = 'p';
    else
      expectKw("simple");
  }
  while (acceptKw("on")) {
    bool onDelete = acceptKw("delete");
    if (!onDelete) expectKw("update");
    char action = 'a';
    if (acceptKw("no")) {
      expectKw("action");
    } else if (acceptKw("set")) {
      action = 'n';
      if (!acceptKw("null")) {
        expectKw("default");
        action = 'd';
      }
    } else if (acceptKw("restrict")) {
      action = 'r';
    } else {
      expectKw("cascade");
      action = 'c';
    }
    (onDelete ? c.onDelete : c.onUpdate) = action;
  }
  while (true) {
    if (acceptKw("deferrable")) {
      c.deferrable = true;
    } else if (isKw("not") && isKw("deferrable", 1)) {
      advance();
      advance();
    } else if (acceptKw("initially")) {
      if (acceptKw("deferred"))
        c.deferrable = true;
      else
        expectKw("immediate");
    } else {
      break;
    }
  }
}

Constraint Parser::parseTableConstraint() {
  Constraint c;
  c.location = peek().offset;
  if (acceptKw("constraint")) c.name = parseColId();
  if (acceptKw("primary")) {
    expectKw("key");
    c.kind = ConstraintKind::PrimaryKey;
    c.columns = parseParenNameList();
  } else if (acceptKw("unique")) {
    c.kind = ConstraintKind::Unique;
    c.columns = parseParenNameList();
  } else if (acceptKw("check")) {
    parseCheck(c);
  } else if (acceptKw("foreign")) {
    expectKw("key");
    c.kind = ConstraintKind::ForeignKey;
    c.columns = parseParenNameList();
    parseReferences(c);
  } else {
    syntaxError();
  }
  if (isKw("not") && isKw("valid", 1)) {
    advance();
    advance();
    c.notValid = true;
  }
  return c;
}

// CHECK (condition): the condition's text is kept, as a DEFAULT's is.
void Parser::parseCheck(Constraint& c) {
  c.kind = ConstraintKind::Check;
  expectOp("(");
  c.exprBegin = peek().offset;
  c.expr = parseExpr();
  c.exprEnd = lastEnd_;
  expectOp(")");
}

StmtPtr Parser::parseCreateIndex() {
  auto s = std::make_unique<CreateIndexStmt>();
  s->unique = acceptKw("unique");
  expectKw("index");
  s->concurrently = acceptKw("concurrently");
  if (isKw("if")) {
    advance();
    expectKw("not");
    expectKw("exists");
    s->ifNotExists = true;
    s->name = parseColId();
  } else if (!isKw("on")) {
    s->name = parseColId();
  }
  expectKw("on");
  acceptKw("only");
  s->table = parseQualifiedName();
  if (acceptKw("using")) s->method = parseColId();
  expectOp("(");
  do {
    IndexElem e;
    e.location = peek().offset;
    if (isOp("(")) {
      advance();
      e.expr = parseExpr();
      expectOp(")");
    } else if (isOp("(", 1) || isOp(".", 1)) {
      e.expr = parsePostfix();  // a function call
    } else {
      e.column = parseColId();
    }
    if (acceptKw("asc"))
      e.dir = SortDir::Asc;
    else if (acceptKw("desc"))
      e.dir = SortDir::Desc;
    if (acceptKw("nulls")) {
      if (acceptKw("first"))
        e.nulls = NullsOrder::First;
      else if (acceptKw("last"))
        e.nulls = NullsOrder::Last;
      else
        syntaxError();
    }
    s->elems.push_back(std::move(e));
  } while (acceptOp(","));
  expectOp(")");
  if (acceptKw("with")) s->options = parseParenDefElems(true);
  if (acceptKw("where")) s->where = parseExpr();
  return s;
}

StmtPtr Parser::parseAlterTable() {
  expectKw("alter");
  expectKw("table");
  auto s = std::make_unique<AlterTableStmt>();
  if (isKw("if")) {
    advance();
    expectKw("exists");
    s->ifExists = true;
  }
  acceptKw("only");
  s->table = parseQualifiedName();
  do {
    AlterTableCmd cmd;
    if (acceptKw("owner")) {
      expectKw("to");
      cmd.owner = parseColId();
    } else if (isKw("drop") && isKw("constraint", 1)) {
      advance();
      advance();
      if (isKw("if") && isKw("exists", 1)) {
        advance();
        advance();
        cmd.dropIfExists = true;
      }
      cmd.dropConstraint = parseColId();
      parseDropBehavior();
    } else {
      expectKw("add");
      cmd.constraint = parseTableConstraint();
    }
    s->cmds.push_back(std::move(cmd));
  } while (acceptOp(","));
  return s;
}

StmtPtr Parser::parseDrop() {
  expectKw("drop");
  if (isKw("function") || isKw("procedure") || isKw("routine")) return parseDropRoutine();
  auto s = std::make_unique<DropStmt>();
  if (acceptKw("table"))
    s->object = ObjectType::Table;
  else if (acceptKw("index"))
    s->object = ObjectType::Index;
  else if (acceptKw("database"))
    s->object = ObjectType::Database;
  else if (acceptKw("role") || acceptKw("user"))
    s->object = ObjectType::Role;
  else if (acceptKw("view"))
    s->object = ObjectType::View;
  else
    syntaxError();
  if (s->object == ObjectType::Index) s->concurrently = acceptKw("concurrently");
  if (isKw("if")) {
    advance();
    expectKw("exists");
    s->ifExists = true;
  }
  if (s->object == ObjectType::Table || s->object == ObjectType::Index || s->object == ObjectType::View) {
    s->names = parseQualifiedNameList();
    s->behavior = parseDropBehavior();
  } else if (s->object == ObjectType::Database) {
    QualifiedName n;
    n.location = peek().offset;
    n.parts.push_back(parseColId());
    s->names.push_back(std::move(n));
  } else {
    do {
      QualifiedName n;
      n.location = peek().offset;
      n.parts.push_back(parseColId());
      s->names.push_back(std::move(n));
    } while (acceptOp(","));
  }
  return s;
}

StmtPtr Parser::parseTruncate() {
  expectKw("truncate");
  acceptKw("table");
  auto s = std::make_unique<TruncateStmt>();
  acceptKw("only");
  s->tables = parseQualifiedNameList();
  if (acceptKw("restart")) {
    expectKw("identity");
    s->restartIdentity = true;
  } else if (acceptKw("continue")) {
    expectKw("identity");
  }
  s->behavior = parseDropBehavior();
  return s;
}

}  // namespace duet::sql
