// SELECT, VALUES and set operations, with FROM items, ORDER BY, LIMIT/OFFSET and locking.
#include "compiler/parser/parser_impl.h"
#include "compiler/parser/source_position.h"
#include "engine/error.h"

namespace duet::sql {

namespace {

// Words that end a target list when no expression follows (SELECT with no targets).
bool endsEmptyTargetList(const Token& t) {
  if (t.kind == TokenKind::End) return true;
  if (t.kind == TokenKind::Operator) return t.text == ";" || t.text == ")";
  if (t.kind != TokenKind::Word || t.quoted) return false;
  static const char* const kFollow[] = {"from",  "where",     "group",  "having", "order", "limit",  "offset",
                                        "union", "intersect", "except", "for",    "fetch", "window", "into"};
  for (const char* w : kFollow)
    if (t.text == w) return true;
  return false;
}

// An output column alias written without AS. PostgreSQL 15 allows most keywords there;
// these are the ones it does not (they would be ambiguous after an expression).
bool isBareLabel(const Token& t) {
  if (t.kind != TokenKind::Word) return false;
  if (t.quoted) return true;
  if (t.category == KeywordCategory::Reserved) return false;
  static const char* const kAsLabelOnly[] = {
      "day",     "hour",    "minute",  "month", "second",    "year",      "over",     "filter", "within",
      "varying", "without", "between", "char",  "character", "precision", "national", "nchar",  "is",
      "isnull",  "notnull", "like",    "ilike", "similar",   "overlaps",  "escape",   "at",     "collate"};
  for (const char* w : kAsLabelOnly)
    if (t.text == w) return false;
  return true;
}

}  // namespace

std::unique_ptr<SelectStmt> Parser::parseSelect() {
  checkStackDepth();
  uint32_t begin = peek().offset;
  WithList with = parseWithList();
  // Only a whole statement (parsePreparable) may be an INSERT, UPDATE or DELETE.
  if (isKw("insert") || isKw("update") || isKw("delete")) syntaxError();
  return parseSelectAfterWith(std::move(with), begin);
}

WithList Parser::parseWithList() {
  WithList list;
  if (!acceptKw("with")) return list;
  list.withRecursive = acceptKw("recursive");
  do {
    CommonTableExpr cte;
    cte.location = peek().offset;
    cte.name = parseColId();
    if (isOp("(")) cte.columns = parseParenNameList();
    expectKw("as");
    if (acceptKw("not")) {
      expectKw("materialized");
      cte.materialized = CommonTableExpr::Materialized::Never;
    } else if (acceptKw("materialized")) {
      cte.materialized = CommonTableExpr::Materialized::Always;
    }
    if (isOp("(") && (isKw("insert", 1) || isKw("update", 1) || isKw("delete", 1))) {
      advance();
      cte.dml = isKw("insert") ? parseInsert() : isKw("update") ? parseUpdate() : parseDelete();
      expectOp(")");
    } else {
      cte.query = parseParenSubquery();
    }
    list.with.push_back(std::move(cte));
  } while (acceptOp(","));
  return list;
}

std::unique_ptr<SelectStmt> Parser::parseSelectAfterWith(WithList with, uint32_t begin) {
  std::unique_ptr<SelectStmt> s = parseSetOperand(0);
  if (!with.with.empty()) {
    if (!s->with.empty()) errorAt(sqlstate::kSyntaxError, "multiple WITH clauses not allowed", begin);
    static_cast<WithList&>(*s) = std::move(with);
  }
  if (isKw("order")) {
    if (!s->orderBy.empty()) errorAt(sqlstate::kSyntaxError, "multiple ORDER BY clauses not allowed", peek().offset);
    advance();
    expectKw("by");
    s->orderBy = parseSortList();
  }
  // LIMIT / OFFSET / FETCH FIRST in either order, each at most once here (a repeat is a
  // syntax error); a parenthesised query's own LIMIT or OFFSET may not be overridden.
  bool sawLimit = false, sawOffset = false;
  bool innerLimit = s->limit != nullptr, innerOffset = s->offset != nullptr;
  while (true) {
    uint32_t loc = peek().offset;
    if (((isKw("limit") || isKw("fetch")) && sawLimit) || (isKw("offset") && sawOffset)) syntaxError();
    if (acceptKw("limit")) {
      sawLimit = true;
      ExprPtr limit = acceptKw("all") ? nullptr : parseExpr();
      if (innerLimit)  // PostgreSQL points at the new limit's value
        errorAt(sqlstate::kSyntaxError, "multiple LIMIT clauses not allowed", limit ? limit->location : loc);
      s->limit = std::move(limit);
      if (isOp(","))
        throw SqlError(sqlstate::kSyntaxError, "LIMIT #,# syntax is not supported", "",
                       "Use separate LIMIT and OFFSET clauses.", sqlPosition(query_, loc));
    } else if (acceptKw("offset")) {
      sawOffset = true;
      s->offset = parseExpr();
      if (innerOffset) errorAt(sqlstate::kSyntaxError, "multiple OFFSET clauses not allowed", s->offset->location);
      if (!acceptKw("rows")) acceptKw("row");
    } else if (acceptKw("fetch")) {
      sawLimit = true;
      if (innerLimit) errorAt(sqlstate::kSyntaxError, "multiple LIMIT clauses not allowed", loc);
      if (!acceptKw("first")) expectKw("next");
      if (isKw("row") || isKw("rows")) {
        s->limit = std::make_unique<Literal>(peek().offset, LiteralKind::Integer, "1");
      } else {
        s->limit = parseUnary();
      }
      if (!acceptKw("rows")) expectKw("row");
      expectKw("only");
    } else {
      break;
    }
  }
  while (isKw("for")) {
    advance();
    if (acceptKw("update")) {
      s->locking = LockStrength::Update;
    } else if (acceptKw("share")) {
      s->locking = LockStrength::Share;
    } else if (acceptKw("no")) {
      expectKw("key");
      expectKw("update");
      s->locking = LockStrength::NoKeyUpdate;
    } else {
      expectKw("key");
      expectKw("share");
      s->locking = LockStrength::KeyShare;
    }
    if (acceptKw("of")) {
      for (const QualifiedName& name : parseQualifiedNameList()) s->lockedItems.push_back(name.name());
    } else {
      s->lockingAll = true;
    }
    if (!acceptKw("nowait") && acceptKw("skip")) expectKw("locked");
  }
  s->begin = begin;
  s->end = lastEnd_;
  return s;
}

// level 0: UNION / EXCEPT (left-associative); level 1: INTERSECT (binds tighter).
std::unique_ptr<SelectStmt> Parser::parseSetOperand(int level) {
  uint32_t begin = peek().offset;
  std::unique_ptr<SelectStmt> left = level == 0 ? parseSetOperand(1) : parseSelectPrimary();
  while (level == 0 ? (isKw("union") || isKw("except")) : isKw("intersect")) {
    auto node = std::make_unique<SelectStmt>();
    node->body = SelectStmt::Body::SetOp;
    std::string op = advance().str();
    node->setOp = op == "union" ? SetOpKind::Union : op == "except" ? SetOpKind::Except : SetOpKind::Intersect;
    if (acceptKw("all"))
      node->setAll = true;
    else
      acceptKw("distinct");
    node->left = std::move(left);
    node->right = level == 0 ? parseSetOperand(1) : parseSelectPrimary();
    node->begin = begin;
    node->end = lastEnd_;
    left = std::move(node);
  }
  return left;
}

std::unique_ptr<SelectStmt> Parser::parseSelectPrimary() {
  uint32_t begin = peek().offset;
  if (acceptOp("(")) {
    auto inner = parseSelect();
    expectOp(")");
    return inner;
  }
  auto s = std::make_unique<SelectStmt>();
  if (isKw("values"))
    parseValuesBody(*s);
  else if (isKw("select"))
    parseSimpleSelect(*s);
  else if (isKw("table"))
    parseTableCommand(*s);
  else
    syntaxError();
  s->begin = begin;
  s->end = lastEnd_;
  return s;
}

// TABLE [ONLY] name: SELECT * FROM name.
void Parser::parseTableCommand(SelectStmt& s) {
  ResTarget all;
  all.location = advance().offset;
  auto star = std::make_unique<ColumnRef>(all.location);
  star->star = true;
  all.expr = std::move(star);
  s.targets.push_back(std::move(all));
  auto table = std::make_unique<RangeTable>(peek().offset);
  table->only = acceptKw("only");
  table->name = parseQualifiedName();
  s.from.push_back(std::move(table));
}

void Parser::parseValuesBody(SelectStmt& s) {
  expectKw("values");
  s.body = SelectStmt::Body::Values;
  int list = valuesLists_++;
  size_t firstLifted = lifted_.size();
  std::vector<bool> constantColumns;  // per column: every cell a constant alone
  bool sameWidth = true;
  do {
    size_t open = pos_, rowLifted = lifted_.size();
    expectOp("(");
    std::vector<ExprPtr> row;
    if (!s.values.empty()) row.reserve(s.values.front().size());  // rows are as wide as the first
    bool constantRow = true;
    do {
      size_t column = row.size();
      row.push_back(parseValuesCell(list, column));
      if (column == constantColumns.size()) constantColumns.push_back(s.values.empty());
      if (row.back()->kind != ExprKind::Param || row.back()->as<Param>().liftedIndex < 0 ||
          !liftSites_[row.back()->as<Param>().liftedIndex].valuesCell())
        constantColumns[column] = constantRow = false;
    } while (acceptOp(","));
    sameWidth = sameWidth && (s.values.empty() || row.size() == s.values.front().size());
    if (lifting_ && constantRow) constantRows_.push_back(ConstantRow{open, pos_, rowLifted, row.size()});
    s.values.push_back(std::move(row));
    expectOp(")");
  } while (acceptOp(","));
  if (lifting_ && sameWidth) unifyValuesKinds(list, constantColumns, firstLifted);  // else the binder reports it
}

// A cell that is a constant alone, NULL, TRUE and FALSE included, is lifted into a
// parameter of its own (finishLifting), so that a bulk INSERT's statements share one plan
// wherever their rows repeat values or hold NULLs.
ExprPtr Parser::parseValuesCell(int list, size_t column) {
  size_t lifted = lifted_.size();
  checkStackDepth();
  ExprPtr e = parseLoneConstant(true);
  if (!e) e = parseOr();
  if (lifted_.size() == lifted + 1 && e->kind == ExprKind::Param &&
      e->as<Param>().liftedIndex == static_cast<int>(lifted)) {
    liftSites_.back().valuesList = list;
    liftSites_.back().valuesColumn = static_cast<int>(column);
  }
  return e;
}

// Gives the lifted cells of each VALUES column one kind where that changes no result, so
// that the rows are alike for the plan (one loop over them, docs/codegen.md) and for the
// shape key: in a column of numbers, every number and NULL takes the widest kind (int4,
// int8, numeric: the VALUES column's type, and in an INSERT each number is cast to its
// column's type from any of them alike); in a column of booleans the NULLs are booleans.
// A NULL of a column of strings, or of mixed cells, or of a column with an expression or
// DEFAULT, stays unknown.
void Parser::unifyValuesKinds(int list, const std::vector<bool>& columns, size_t firstLifted) {
  auto rank = [](TypeId kind) {
    return kind == TypeId::Int4 ? 1 : kind == TypeId::Int8 ? 2 : kind == TypeId::Numeric ? 3 : 0;
  };
  struct Column {
    TypeId widest = TypeId::Unknown;
    bool numbers = true, booleans = true, values = false;
  };
  std::vector<Column> kinds(columns.size());
  for (size_t i = firstLifted; i < lifted_.size(); ++i) {
    int c = liftSites_[i].valuesColumn;
    if (liftSites_[i].valuesList != list || lifted_[i].null) continue;
    Column& k = kinds[c];
    k.values = true;
    k.numbers = k.numbers && rank(lifted_[i].kind) > 0;
    k.booleans = k.booleans && lifted_[i].kind == TypeId::Bool;
    if (rank(lifted_[i].kind) > rank(k.widest)) k.widest = lifted_[i].kind;
  }
  for (size_t i = firstLifted; i < lifted_.size(); ++i) {
    int c = liftSites_[i].valuesColumn;
    if (liftSites_[i].valuesList != list || !columns[c] || !kinds[c].values) continue;
    if (kinds[c].numbers) lifted_[i].kind = kinds[c].widest;
    if (kinds[c].booleans) lifted_[i].kind = TypeId::Bool;
  }
}

void Parser::parseSimpleSelect(SelectStmt& s) {
  expectKw("select");
  if (acceptKw("distinct")) {
    s.distinct = true;
    if (acceptKw("on")) {
      expectOp("(");
      do {  // like ORDER BY's, a bare integer is an output column position
        s.distinctOn.push_back(parsePositionalOrExpr());
      } while (acceptOp(","));
      expectOp(")");
    }
  } else {
    acceptKw("all");
  }
  if (!endsEmptyTargetList(peek())) s.targets = parseTargetList();
  if (isKw("into")) {
    // SELECT ... INTO [TEMP | UNLOGGED] [TABLE] t: CREATE TABLE AS (parseAll turns it).
    if (into_) syntaxError();
    IntoClause into;
    into.begin = peek().offset;
    advance();
    into.temporary = acceptKw("temporary") || acceptKw("temp");
    if (!into.temporary) acceptKw("unlogged");
    acceptKw("table");
    into.table = parseQualifiedName();
    into.end = lastEnd_;
    into_ = std::move(into);
  }
  if (acceptKw("from")) s.from = parseFromList();
  if (acceptKw("where")) s.where = parseExpr();
  if (acceptKw("group")) {
    expectKw("by");
    if (acceptKw("distinct"))
      s.groupByDistinct = true;
    else
      acceptKw("all");
    do s.groupBy.push_back(parseGroupByItem());
    while (acceptOp(","));
  }
  if (acceptKw("having")) s.having = parseExpr();
  if (acceptKw("window")) s.windows = parseWindowClause();
}

std::vector<ResTarget> Parser::parseTargetList() {
  std::vector<ResTarget> targets;
  do {
    ResTarget t;
    t.location = peek().offset;
    if (isOp("*")) {
      auto star = std::make_unique<ColumnRef>(advance().offset);
      star->star = true;
      t.expr = std::move(star);
    } else {
      t.expr = parseExpr();
      if (acceptKw("as")) {
        t.alias = parseColLabel();
      } else if (isBareLabel(peek())) {
        t.alias = advance().str();
      }
    }
    targets.push_back(std::move(t));
  } while (acceptOp(","));
  return targets;
}

// ORDER BY / GROUP BY item. A bare constant is not lifted into a parameter: an integer
// (after minus folding, so "-1" too) names an output column by position, and any other
// bare constant is an error the binder reports (PostgreSQL: "non-integer constant").
ExprPtr Parser::parsePositionalOrExpr() {
  size_t liftedBefore = lifted_.size();
  ExprPtr e = parseExpr();
  if (e->kind == ExprKind::Param && e->as<Param>().liftedIndex >= 0 && lifted_.size() == liftedBefore + 1) {
    const LiftedLiteral& lit = lifted_.back();
    LiteralKind kind = lit.kind == TypeId::Int4 || lit.kind == TypeId::Int8 ? LiteralKind::Integer
                       : lit.kind == TypeId::Numeric                        ? LiteralKind::Numeric
                                                                            : LiteralKind::String;
    e = std::make_unique<Literal>(e->location, kind, lit.text);
    lifted_.pop_back();
    liftSites_.pop_back();
  }
  return e;
}

// GROUP BY item (PostgreSQL's group_by_item): (), ROLLUP (...), CUBE (...), GROUPING SETS
// (...) or an expression. ROLLUP and CUBE take expressions, a parenthesised list being a
// RowExpr; GROUPING SETS takes group_by_items.
ExprPtr Parser::parseGroupByItem() {
  uint32_t loc = peek().offset;
  if (isOp("(") && isOp(")", 1)) {
    advance();
    advance();
    return std::make_unique<GroupingSet>(loc, GroupingSetKind::Empty);
  }
  std::unique_ptr<GroupingSet> set;
  if ((isKw("rollup") || isKw("cube")) && isOp("(", 1))
    set = std::make_unique<GroupingSet>(loc,
                                        advance().str() == "rollup" ? GroupingSetKind::Rollup : GroupingSetKind::Cube);
  else if (isKw("grouping") && isKw("sets", 1) && isOp("(", 2)) {
    advance();
    advance();
    set = std::make_unique<GroupingSet>(loc, GroupingSetKind::Sets);
  }
  if (!set) return parsePositionalOrExpr();
  expectOp("(");
  do set->items.push_back(set->set == GroupingSetKind::Sets ? parseGroupByItem() : parsePositionalOrExpr());
  while (acceptOp(","));
  expectOp(")");
  return set;
}

std::vector<SortBy> Parser::parseSortList() {
  std::vector<SortBy> list;
  do {
    SortBy s;
    s.expr = parsePositionalOrExpr();
    if (acceptKw("asc"))
      s.dir = SortDir::Asc;
    else if (acceptKw("desc"))
      s.dir = SortDir::Desc;
    if (acceptKw("nulls")) {
      if (acceptKw("first"))
        s.nulls = NullsOrder::First;
      else if (acceptKw("last"))
        s.nulls = NullsOrder::Last;
      else
        syntaxError();
    }
    list.push_back(std::move(s));
  } while (acceptOp(","));
  return list;
}

std::vector<TableRefPtr> Parser::parseFromList() {
  std::vector<TableRefPtr> items;
  do items.push_back(parseTableRef());
  while (acceptOp(","));
  return items;
}

// [AS] alias [(col, ...)]. Without AS the alias must be a ColId (not JOIN, ON, ...).
std::optional<Alias> Parser::parseOptAlias(bool allowColumnList) {
  Alias a;
  if (acceptKw("as")) {
    a.name = parseColId();
  } else if (isColId()) {
    a.name = advance().str();
  } else {
    return std::nullopt;
  }
  if (allowColumnList && isOp("(")) a.columns = parseParenNameList();
  return a;
}

// func_alias_clause: an alias as for tables, or a column definition list
// `AS (a int, b text)`, `[AS] x (a int, b text)`. A list is all names or all definitions:
// the token after its first name decides.
void Parser::parseFunctionAlias(RangeFunction& fn) {
  bool as = acceptKw("as");
  Alias a;
  if (!(as && isOp("("))) {
    if (as)
      a.name = parseColId();
    else if (isColId())
      a.name = advance().str();
    else
      return;
  }
  if (isOp("(")) {
    advance();
    fn.definitionLocation = peek().offset;
    a.columns.push_back(parseColId());
    bool definitions = !isOp(",") && !isOp(")");
    while (true) {
      if (definitions) {
        fn.columnTypes.push_back(parseTypeName());
        if (acceptKw("collate")) parseQualifiedName();
      }
      if (!acceptOp(",")) break;
      a.columns.push_back(parseColId());
    }
    expectOp(")");
    if (!definitions && a.name.empty()) syntaxError();
  }
  fn.alias = std::move(a);
}

TableRefPtr Parser::parseTablePrimary() {
  checkStackDepth();
  uint32_t loc = peek().offset;
  // LATERAL before a subquery or a function (which PostgreSQL treats as LATERAL anyway).
  bool lateral = acceptKw("lateral");
  if (lateral && !(isOp("(") && startsSelect(1))) {
    TableRefPtr item = parseTablePrimary();
    if (item->kind != TableRefKind::Function) syntaxError();  // where PostgreSQL wanted the call
    return item;
  }
  if (isOp("(")) {
    if (startsSelect(1)) {
      auto sub = std::make_unique<RangeSubquery>(loc);
      sub->lateral = lateral;
      sub->subquery = parseParenSubquery();
      sub->alias = parseOptAlias(true);
      if (!sub->alias)  // PostgreSQL 15's grammar requires it
        throw SqlError(sqlstate::kSyntaxError, "subquery in FROM must have an alias", "",
                       "For example, FROM (SELECT ...) [AS] foo.", sqlPosition(query_, loc));
      return sub;
    }
    advance();
    TableRefPtr inner = parseTableRef();
    expectOp(")");
    if (inner->kind == TableRefKind::Join) inner->as<JoinRef>().alias = parseOptAlias(true);
    return inner;
  }
  auto table = std::make_unique<RangeTable>(loc);
  table->only = acceptKw("only");
  table->name = parseQualifiedName();
  if (!table->only && isOp("(")) {
    auto fn = std::make_unique<RangeFunction>(loc);
    auto call = std::make_unique<FuncCall>(loc);
    call->names = table->name.parts;
    ExprPtr parsed = parseFuncArgs(std::move(call));
    fn->call.reset(&static_cast<FuncCall&>(*parsed.release()));
    if (isKw("with") && isKw("ordinality", 1)) {
      advance();
      advance();
      fn->ordinality = true;
    }
    parseFunctionAlias(*fn);
    return fn;
  }
  acceptOp("*");  // "t *": include inheritance children, the default
  table->alias = parseOptAlias(true);
  return table;
}

TableRefPtr Parser::parseTableRef() {
  TableRefPtr left = parseTablePrimary();
  while (true) {
    uint32_t loc = peek().offset;
    auto join = std::make_unique<JoinRef>(loc);
    if (acceptKw("cross")) {
      expectKw("join");
      join->type = JoinType::Cross;
      join->left = std::move(left);
      join->right = parseTablePrimary();
      left = std::move(join);
      continue;
    }
    join->natural = acceptKw("natural");
    if (acceptKw("inner")) {
      join->type = JoinType::Inner;
    } else if (isKw("left") || isKw("right") || isKw("full")) {
      std::string w = advance().str();
      join->type = w == "left" ? JoinType::Left : w == "right" ? JoinType::Right : JoinType::Full;
      acceptKw("outer");
    } else if (!isKw("join")) {
      if (join->natural) syntaxError();
      return left;
    }
    expectKw("join");
    join->left = std::move(left);
    join->right = parseTablePrimary();
    if (!join->natural) {
      if (acceptKw("on")) {
        join->on = parseExpr();
      } else if (acceptKw("using")) {
        join->using_ = parseParenNameList();
      } else {
        syntaxError();
      }
    }
    left = std::move(join);
  }
}

}  // namespace duet::sql
