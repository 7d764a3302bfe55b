// CREATE TABLE / INDEX / VIEW (SEQUENCE: parse_sequence.cpp), ALTER TABLE ... ADD constraint, DROP, TRUNCATE. CREATE
// and DROP of functions and procedures continue in parse_routine.cpp.
#include <fmt/format.h>

#include "compiler/parser/parser_impl.h"
#include "engine/error.h"

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
  if (isKw("sequence")) return parseCreateSequence(false);
  if (acceptKw("temp") || acceptKw("temporary")) {
    if (isKw("view") || isKw("recursive")) return parseCreateView(false, true);
    if (isKw("sequence")) return parseCreateSequence(true);
    return parseCreateTable(true);
  }
  if (acceptKw("unlogged") || isKw("table")) return parseCreateTable(false);
  if (isKw("unique") || isKw("index")) return parseCreateIndex();
  if (isKw("database")) return parseCreateDatabase();
  if (acceptKw("schema")) {
    auto s = std::make_unique<CreateSchemaStmt>();
    s->ifNotExists = acceptIfNotExists();
    if (!isKw("authorization")) s->name = parseColId();
    if (acceptKw("authorization")) s->authorization = parseColId();
    if (s->name.empty()) s->name = s->authorization;
    return s;
  }
  if (isKw("role")) return parseCreateRole(false);
  if (isKw("user")) return parseCreateRole(true);
  if (acceptKw("type")) return parseCreateType();
  syntaxError();
}

StmtPtr Parser::parseCreateType() {
  auto s = std::make_unique<CreateTypeStmt>();
  s->name = parseQualifiedName();
  if (!acceptKw("as")) throw SqlError(sqlstate::kFeatureNotSupported, "only CREATE TYPE name AS (...) is supported");
  if (isKw("enum") || isKw("range"))
    throw SqlError(sqlstate::kFeatureNotSupported, fmt::format("CREATE TYPE ... AS {} is not supported", peek().str()));
  expectOp("(");
  // PostgreSQL allows a composite type without fields: AS ().
  if (!acceptOp(")")) {
    do {
      CreateTypeStmt::Field f;
      f.location = peek().offset;
      f.name = parseColId();
      f.type = parseTypeName();
      s->fields.push_back(std::move(f));
    } while (acceptOp(","));
    expectOp(")");
  }
  return s;
}

StmtPtr Parser::parseCreateTable(bool temporary) {
  expectKw("table");
  auto s = std::make_unique<CreateTableStmt>();
  s->temporary = temporary;
  s->ifNotExists = acceptIfNotExists();
  s->table = parseQualifiedName();
  // CREATE TABLE t [(names)] [WITH (...)] AS query: a name list then AS, or no list.
  if (!isOp("(")) {
    parseCreateTableAs(*s);
    return s;
  }
  int ahead = 1;  // over "(name, name" to see whether ") AS" or ") WITH" follows
  while (isColId(ahead) && isOp(",", ahead + 1)) ahead += 2;
  if (isColId(ahead) && isOp(")", ahead + 1) && (isKw("as", ahead + 2) || isKw("with", ahead + 2))) {
    s->columnNames = parseParenNameList();
    parseCreateTableAs(*s);
    return s;
  }
  expectOp("(");
  if (!isOp(")")) {
    do {
      if (isKw("constraint") || isKw("primary") || isKw("unique") || isKw("check") || isKw("foreign"))
        s->constraints.push_back(parseTableConstraint());
      else if (isKw("like"))
        parseTableLike(*s);
      else
        s->columns.push_back(parseColumnDef());
    } while (acceptOp(","));
  }
  expectOp(")");
  if (acceptKw("with")) s->options = parseParenDefElems(true);
  parseOnCommit(*s);
  return s;
}

// [ON COMMIT {PRESERVE ROWS | DELETE ROWS | DROP}]
void Parser::parseOnCommit(CreateTableStmt& s) {
  if (!acceptKw("on")) return;
  expectKw("commit");
  if (acceptKw("drop")) {
    s.onCommit = CreateTableStmt::OnCommit::Drop;
    return;
  }
  if (acceptKw("preserve"))
    s.onCommit = CreateTableStmt::OnCommit::PreserveRows;
  else if (acceptKw("delete"))
    s.onCommit = CreateTableStmt::OnCommit::DeleteRows;
  else
    syntaxError();
  expectKw("rows");
}

// LIKE source [{INCLUDING | EXCLUDING} {DEFAULTS | CONSTRAINTS | INDEXES | ALL | ...}]...
void Parser::parseTableLike(CreateTableStmt& s) {
  expectKw("like");
  TableLikeClause like;
  like.position = s.columns.size();
  like.source = parseQualifiedName();
  while (isKw("including") || isKw("excluding")) {
    bool including = acceptKw("including");
    if (!including) advance();
    uint32_t bits = 0;
    if (acceptKw("defaults")) {
      bits = TableLikeClause::Defaults;
    } else if (acceptKw("constraints")) {
      bits = TableLikeClause::Constraints;
    } else if (acceptKw("indexes")) {
      bits = TableLikeClause::Indexes;
    } else if (acceptKw("all")) {
      bits = ~0u;
    } else if (!acceptKw("comments") && !acceptKw("compression") && !acceptKw("generated") && !acceptKw("identity") &&
               !acceptKw("statistics") && !acceptKw("storage")) {
      syntaxError();
    }
    like.including = including ? like.including | bits : like.including & ~bits;
  }
  s.likes.push_back(std::move(like));
}

// The rest of CREATE TABLE ... AS: [WITH (options)] [ON COMMIT ...] AS query [WITH [NO] DATA].
void Parser::parseCreateTableAs(CreateTableStmt& s) {
  if (acceptKw("with")) s.options = parseParenDefElems(true);
  parseOnCommit(s);
  expectKw("as");
  if (!startsSelect()) syntaxError();
  uint32_t begin = peek().offset;
  s.query = parseSelect();
  s.queryText = std::string(query_.substr(begin, lastEnd_ - begin));
  if (acceptKw("with")) {
    s.withData = !acceptKw("no");
    expectKw("data");
  }
}

StmtPtr Parser::selectIntoAsCreateTable(StmtPtr select, uint32_t begin) {
  if (select->kind != StmtKind::Select) syntaxError();
  auto s = std::make_unique<CreateTableStmt>();
  s->table = std::move(into_->table);
  s->temporary = into_->temporary;
  s->selectInto = true;
  s->queryText = std::string(query_.substr(begin, into_->begin - begin)) + " " +
                 std::string(query_.substr(into_->end, lastEnd_ - into_->end));
  s->query.reset(static_cast<SelectStmt*>(select.release()));
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
  for (;;) {
    if (isKw("collate")) {
      c.collateAt = peek().offset;
      parseCollation();
    } else if (!parseColumnConstraint(c.constraints)) {
      break;
    }
  }
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
  } else if (acceptKw("generated")) {
    c.kind = ConstraintKind::Identity;
    if (!acceptKw("always")) {
      expectKw("by");
      expectKw("default");
    } else {
      c.identityAlways = true;
    }
    expectKw("as");
    expectKw("identity");
    if (acceptOp("(")) {
      c.sequenceOptions = parseSequenceOptions(false);
      expectOp(")");
    }
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
  bool notDeferrable = false;
  uint32_t initially = 0;  // where INITIALLY DEFERRED was written
  while (true) {
    if (acceptKw("deferrable")) {
      c.deferrable = true;
    } else if (isKw("not") && isKw("deferrable", 1)) {
      advance();
      advance();
      notDeferrable = true;
    } else if (isKw("initially")) {
      initially = advance().offset;
      if (acceptKw("deferred"))
        c.initiallyDeferred = true;
      else
        expectKw("immediate");
    } else {
      break;
    }
  }
  if (c.initiallyDeferred && notDeferrable)
    errorAt(sqlstate::kSyntaxError, "constraint declared INITIALLY DEFERRED must be DEFERRABLE", initially);
  c.deferrable = c.deferrable || c.initiallyDeferred;
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
  auto s = std::make_unique<AlterTableStmt>();
  s->index = acceptKw("index");
  if (!s->index) expectKw("table");
  if (isKw("if")) {
    advance();
    expectKw("exists");
    s->ifExists = true;
  }
  if (!s->index) acceptKw("only");
  s->table = parseQualifiedName();
  // RENAME is a statement of its own in gram.y: it takes no other command.
  if (acceptKw("rename")) {
    AlterTableCmd cmd;
    cmd.location = peek().offset;
    if (s->index || acceptKw("to")) {
      if (s->index) expectKw("to");
      cmd.action = AlterTableAction::RenameRelation;
    } else {
      cmd.action = acceptKw("constraint") ? AlterTableAction::RenameConstraint : AlterTableAction::RenameColumn;
      if (cmd.action == AlterTableAction::RenameColumn) acceptKw("column");
      cmd.name = parseColId();
      expectKw("to");
    }
    cmd.newName = parseColId();
    s->cmds.push_back(std::move(cmd));
    return s;
  }
  if (s->index) syntaxError();
  do s->cmds.push_back(parseAlterTableCmd());
  while (acceptOp(","));
  return s;
}

AlterTableCmd Parser::parseAlterTableCmd() {
  AlterTableCmd cmd;
  cmd.location = peek().offset;
  auto ifExists = [&] {
    if (!isKw("if")) return false;
    advance();
    expectKw("exists");
    return true;
  };
  if (acceptKw("owner")) {
    cmd.action = AlterTableAction::Owner;
    expectKw("to");
    cmd.owner = parseColId();
  } else if (acceptKw("add")) {
    if (isKw("constraint") || isKw("primary") || isKw("unique") || isKw("check") || isKw("foreign")) {
      cmd.constraint = parseTableConstraint();
      return cmd;
    }
    cmd.action = AlterTableAction::AddColumn;
    acceptKw("column");
    cmd.ifNotExists = acceptIfNotExists();
    cmd.column = parseColumnDef();
  } else if (acceptKw("drop")) {
    if (acceptKw("constraint")) {
      cmd.action = AlterTableAction::DropConstraint;
    } else {
      cmd.action = AlterTableAction::DropColumn;
      acceptKw("column");
    }
    cmd.ifExists = ifExists();
    cmd.name = parseColId();
    cmd.behavior = parseDropBehavior();
  } else if (acceptKw("alter")) {
    acceptKw("column");
    return parseAlterColumn();
  } else {
    syntaxError();
  }
  return cmd;
}

// ALTER [COLUMN] name: [SET DATA] TYPE t [USING e] | SET DEFAULT e | DROP DEFAULT |
// SET NOT NULL | DROP NOT NULL | ADD GENERATED ... AS IDENTITY [(options)].
AlterTableCmd Parser::parseAlterColumn() {
  AlterTableCmd cmd;
  cmd.location = peek().offset;
  cmd.name = parseColId();
  if (isKw("add") && isKw("generated", 1)) {
    advance();
    std::vector<Constraint> identity;
    parseColumnConstraint(identity);
    cmd.action = AlterTableAction::AddIdentity;
    cmd.constraint = std::move(identity.at(0));
    return cmd;
  }
  if (acceptKw("set")) {
    if (acceptKw("default")) {
      cmd.action = AlterTableAction::SetDefault;
      cmd.exprBegin = peek().offset;
      cmd.expr = parseComparison();  // b_expr, as a column definition's DEFAULT
      cmd.exprEnd = lastEnd_;
      return cmd;
    }
    if (acceptKw("not")) {
      expectKw("null");
      cmd.action = AlterTableAction::SetNotNull;
      return cmd;
    }
    expectKw("data");
  } else if (acceptKw("drop")) {
    if (acceptKw("default")) {
      cmd.action = AlterTableAction::DropDefault;
      return cmd;
    }
    expectKw("not");
    expectKw("null");
    cmd.action = AlterTableAction::DropNotNull;
    return cmd;
  }
  expectKw("type");
  cmd.action = AlterTableAction::AlterColumnType;
  cmd.type = parseTypeName();
  if (acceptKw("using")) {
    cmd.exprBegin = peek().offset;
    cmd.expr = parseExpr();
    cmd.exprEnd = lastEnd_;
  }
  return cmd;
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
  else if (acceptKw("sequence"))
    s->object = ObjectType::Sequence;
  else if (acceptKw("schema"))
    s->object = ObjectType::Schema;
  else if (acceptKw("type"))
    s->object = ObjectType::Type;
  else
    syntaxError();
  if (s->object == ObjectType::Index) s->concurrently = acceptKw("concurrently");
  if (isKw("if")) {
    advance();
    expectKw("exists");
    s->ifExists = true;
  }
  if (s->object == ObjectType::Table || s->object == ObjectType::Index || s->object == ObjectType::View ||
      s->object == ObjectType::Sequence || s->object == ObjectType::Type) {
    s->names = parseQualifiedNameList();
    s->behavior = parseDropBehavior();
  } else if (s->object == ObjectType::Database) {
    QualifiedName n;
    n.location = peek().offset;
    n.parts.push_back(parseColId());
    s->names.push_back(std::move(n));
  } else {  // roles and schemas: plain names
    do {
      QualifiedName n;
      n.location = peek().offset;
      n.parts.push_back(parseColId());
      s->names.push_back(std::move(n));
    } while (acceptOp(","));
    if (s->object == ObjectType::Schema) s->behavior = parseDropBehavior();
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
