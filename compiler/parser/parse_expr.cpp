// Expressions, with PostgreSQL 15's operator precedence (gram.y), lowest first:
//   OR; AND; NOT; IS / ISNULL / NOTNULL; < > = <= >= <>; BETWEEN IN LIKE ILIKE SIMILAR;
//   other operators (||, ~, ...); + -; * / %; ^; AT TIME ZONE; unary + -; ::
// Comparisons and BETWEEN/IN/LIKE are non-associative: "a < b < c" is a syntax error.
#include <cstring>

#include <algorithm>

#include "compiler/parser/parser_impl.h"
#include "compiler/parser/source_position.h"
#include "engine/error.h"

namespace duet::sql {

namespace {

bool isComparisonOp(std::string_view op) {
  return op == "<" || op == ">" || op == "=" || op == "<=" || op == ">=" || op == "<>";
}

// Operators with a grammar rule of their own; everything else is a generic operator ("Op").
bool isGenericOp(const Token& t) {
  if (t.kind != TokenKind::Operator) return false;
  static const char* const kSpecial[] = {"+",  "-", "*", "/", "%", "^", "<", ">", "=", "<=", ">=", "<>",
                                         "::", "(", ")", ",", ";", "[", "]", ".", ":", ":=", "..", "=>"};
  for (const char* s : kSpecial)
    if (t.text == s) return false;
  return true;
}

// Kind of an integer literal ("123" or, after folding a unary minus, "-123"): int4 if it
// fits, else int8 if it fits, else numeric.
TypeId integerKind(std::string_view text) {
  bool negative = !text.empty() && text[0] == '-';
  std::string_view digits = text.substr(negative ? 1 : 0);
  size_t i = digits.find_first_not_of('0');
  std::string_view v = i == std::string::npos ? std::string_view("0") : digits.substr(i);
  auto fits = [&](std::string_view max) { return v.size() < max.size() || (v.size() == max.size() && v <= max); };
  if (fits(negative ? "2147483648" : "2147483647")) return TypeId::Int4;
  if (fits(negative ? "9223372036854775808" : "9223372036854775807")) return TypeId::Int8;
  return TypeId::Numeric;
}

std::string negated(const std::string& number) {
  return !number.empty() && number[0] == '-' ? number.substr(1) : "-" + number;
}

}  // namespace

ExprPtr Parser::makeConstant(const Token& t) {
  LiteralKind kind = t.kind == TokenKind::Integer   ? LiteralKind::Integer
                     : t.kind == TokenKind::Numeric ? LiteralKind::Numeric
                                                    : LiteralKind::String;
  if (!lifting_) return std::make_unique<Literal>(t.offset, kind, t.str());
  LiftedLiteral lit;
  lit.kind = kind == LiteralKind::Integer   ? integerKind(t.text)
             : kind == LiteralKind::Numeric ? TypeId::Numeric
                                            : TypeId::Unknown;
  lit.text = t.text;
  return liftLiteral(std::move(lit), static_cast<size_t>(&t - tokens_.data()));
}

ExprPtr Parser::liftLiteral(LiftedLiteral lit, size_t token) {
  lit.location = tokens_[token].offset;
  auto param = std::make_unique<Param>(lit.location, 0);  // numbered in finishLifting
  param->liftedIndex = static_cast<int>(lifted_.size());
  liftSites_.push_back(LiftSite{param.get(), token, token});
  lifted_.push_back(std::move(lit));
  return param;
}

std::vector<ExprPtr> Parser::parseExprList() {
  std::vector<ExprPtr> list;
  do list.push_back(parseExpr());
  while (acceptOp(","));
  return list;
}

ExprPtr Parser::parseExpr() {
  checkStackDepth();
  if (ExprPtr constant = parseLoneConstant()) return constant;
  return parseOr();
}

// The items of long VALUES and IN lists are mostly bare constants: `42,` or `-1.5)` is a
// whole expression, and going down every precedence level for it cost most of a bulk
// INSERT's parse. The result is what parseOr would give.
ExprPtr Parser::parseLoneConstant(bool valuesCell) {
  auto endsExpr = [](const Token& t) {
    return t.kind == TokenKind::Operator && t.text.size() == 1 && (t.text[0] == ',' || t.text[0] == ')');
  };
  const Token& t = peek();
  switch (t.kind) {
    case TokenKind::Integer:
    case TokenKind::Numeric:
    case TokenKind::String:
      if (endsExpr(peek(1))) return makeConstant(advance());
      return nullptr;
    case TokenKind::Word: {
      if (t.quoted || !endsExpr(peek(1))) return nullptr;
      bool null = t.text == "null";
      if (valuesCell && lifting_ && (null || t.text == "true" || t.text == "false")) {
        LiftedLiteral lit;
        lit.kind = null ? TypeId::Unknown : TypeId::Bool;
        lit.null = null;
        if (!null) lit.text = t.text;
        advance();
        return liftLiteral(std::move(lit), static_cast<size_t>(&t - tokens_.data()));
      }
      if (null || t.text == "true" || t.text == "false" || t.text == "default") return parseWordExpr();
      return nullptr;
    }
    case TokenKind::Operator:
      if (t.text == "-" && (peek(1).kind == TokenKind::Integer || peek(1).kind == TokenKind::Numeric) &&
          endsExpr(peek(2))) {
        const Token& minus = advance();
        return negateConstant(minus, makeConstant(advance()));
      }
      return nullptr;
    default: return nullptr;
  }
}

ExprPtr Parser::parseOr() {
  ExprPtr left = parseAnd();
  if (!isKw("or")) return left;
  auto node = std::make_unique<BoolExpr>(peek().offset, BoolOpKind::Or);
  node->args.push_back(std::move(left));
  while (acceptKw("or")) node->args.push_back(parseAnd());
  return node;
}

ExprPtr Parser::parseAnd() {
  ExprPtr left = parseNot();
  if (!isKw("and")) return left;
  auto node = std::make_unique<BoolExpr>(peek().offset, BoolOpKind::And);
  node->args.push_back(std::move(left));
  while (acceptKw("and")) node->args.push_back(parseNot());
  return node;
}

ExprPtr Parser::parseNot() {
  checkStackDepth();
  if (isKw("not")) {
    auto node = std::make_unique<BoolExpr>(advance().offset, BoolOpKind::Not);
    node->args.push_back(parseNot());
    return node;
  }
  return parseIs();
}

ExprPtr Parser::parseIs() {
  ExprPtr e = parseComparison();
  while (true) {
    uint32_t loc = peek().offset;
    if (acceptKw("isnull")) {
      e = std::make_unique<NullTest>(loc, std::move(e), false);
    } else if (acceptKw("notnull")) {
      e = std::make_unique<NullTest>(loc, std::move(e), true);
    } else if (acceptKw("is")) {
      bool isNot = acceptKw("not");
      if (acceptKw("null")) {
        e = std::make_unique<NullTest>(loc, std::move(e), isNot);
      } else if (acceptKw("true")) {
        e = std::make_unique<BoolTest>(loc, std::move(e), isNot ? BoolTestKind::IsNotTrue : BoolTestKind::IsTrue);
      } else if (acceptKw("false")) {
        e = std::make_unique<BoolTest>(loc, std::move(e), isNot ? BoolTestKind::IsNotFalse : BoolTestKind::IsFalse);
      } else if (acceptKw("unknown")) {
        e = std::make_unique<BoolTest>(loc, std::move(e), isNot ? BoolTestKind::IsNotUnknown : BoolTestKind::IsUnknown);
      } else if (acceptKw("distinct")) {
        expectKw("from");
        ExprPtr right = parseComparison();
        e = std::make_unique<DistinctFrom>(loc, std::move(e), std::move(right), isNot);
      } else {
        syntaxError();
      }
    } else {
      return e;
    }
  }
}

// x op ANY|SOME|ALL (subquery) or (array), or a plain operand parsed by `rhs`.
ExprPtr Parser::parseQuantifiedRhs(uint32_t loc, const std::string& op, ExprPtr left, ExprPtr (Parser::*rhs)()) {
  if ((isKw("any") || isKw("some") || isKw("all")) && isOp("(", 1)) {
    bool all = isKw("all");
    advance();
    if (!startsParenSubquery(0)) {
      auto q = std::make_unique<ArrayOp>(loc, op, all);
      q->left = std::move(left);
      expectOp("(");
      q->array = parseExpr();
      expectOp(")");
      return q;
    }
    auto link = std::make_unique<SubLink>(loc, all ? SubLinkKind::All : SubLinkKind::Any);
    link->test = std::move(left);
    link->op = op;
    link->subquery = parseParenSubquery();
    return link;
  }
  ExprPtr right = (this->*rhs)();
  return std::make_unique<BinaryOp>(loc, op, std::move(left), std::move(right));
}

ExprPtr Parser::parseComparison() {
  ExprPtr left = parsePredicate();
  const Token& t = peek();
  if (t.kind != TokenKind::Operator || !isComparisonOp(t.text)) return left;
  advance();
  ExprPtr e = parseQuantifiedRhs(t.offset, t.str(), std::move(left), &Parser::parsePredicate);
  if (peek().kind == TokenKind::Operator && isComparisonOp(peek().text)) syntaxError();
  return e;
}

ExprPtr Parser::parsePredicate() {
  ExprPtr left = parseOtherOp();
  bool isNot = false;
  if (isKw("not") &&
      (isKw("between", 1) || isKw("in", 1) || isKw("like", 1) || isKw("ilike", 1) || isKw("similar", 1))) {
    advance();
    isNot = true;
  }
  uint32_t loc = peek().offset;
  ExprPtr e;
  if (acceptKw("between")) {
    auto b = std::make_unique<Between>(loc);
    b->isNot = isNot;
    if (acceptKw("symmetric"))
      b->symmetric = true;
    else
      acceptKw("asymmetric");
    b->arg = std::move(left);
    b->low = parseOtherOp();
    expectKw("and");
    b->high = parseOtherOp();
    e = std::move(b);
  } else if (acceptKw("in")) {
    if (!isOp("(")) syntaxError();
    if (startsParenSubquery(0)) {
      auto link = std::make_unique<SubLink>(loc, SubLinkKind::Any);
      link->test = std::move(left);
      link->op = "=";
      link->subquery = parseParenSubquery();
      if (!isNot) {
        e = std::move(link);
      } else {
        auto n = std::make_unique<BoolExpr>(loc, BoolOpKind::Not);
        n->args.push_back(std::move(link));
        e = std::move(n);
      }
    } else {
      auto in = std::make_unique<InList>(loc);
      in->isNot = isNot;
      in->arg = std::move(left);
      expectOp("(");
      in->list = parseExprList();
      expectOp(")");
      e = std::move(in);
    }
  } else if ((isKw("like") || isKw("ilike")) && (isKw("any", 1) || isKw("some", 1) || isKw("all", 1))) {
    // x [NOT] LIKE ANY (...): the pattern operator, quantified.
    std::string op = std::string(isNot ? "!" : "") + (isKw("ilike") ? "~~*" : "~~");
    advance();
    e = parseQuantifiedRhs(loc, op, std::move(left), &Parser::parseOtherOp);
  } else if (isKw("like") || isKw("ilike")) {
    auto like = std::make_unique<Like>(loc);
    like->caseInsensitive = isKw("ilike");
    advance();
    like->isNot = isNot;
    like->arg = std::move(left);
    like->pattern = parseOtherOp();
    if (acceptKw("escape")) like->escape = parseOtherOp();
    e = std::move(like);
  } else if (isKw("similar") && isKw("to", 1)) {
    auto similar = std::make_unique<Like>(loc);
    similar->similar = true;
    advance();
    advance();
    similar->isNot = isNot;
    similar->arg = std::move(left);
    similar->pattern = parseOtherOp();
    if (acceptKw("escape")) similar->escape = parseOtherOp();
    e = std::move(similar);
  } else {
    return left;
  }
  if (isKw("between") || isKw("in") || isKw("like") || isKw("ilike") || isKw("similar") ||
      (isKw("not") &&
       (isKw("between", 1) || isKw("in", 1) || isKw("like", 1) || isKw("ilike", 1) || isKw("similar", 1))))
    syntaxError();
  return e;
}

ExprPtr Parser::parseOtherOp() {
  ExprPtr left;
  if (isGenericOp(peek())) {  // prefix operator, e.g. ~x or |/x
    const Token& t = advance();
    left = std::make_unique<UnaryOp>(t.offset, t.str(), parseAdditive());
  } else {
    left = parseAdditive();
  }
  while (true) {
    if (isGenericOp(peek())) {
      const Token& t = advance();
      left = parseQuantifiedRhs(t.offset, t.str(), std::move(left), &Parser::parseAdditive);
    } else if (isKw("operator") && isOp("(", 1)) {
      // OPERATOR(pg_catalog.op), as psql and pg_dump write operators: any operator, at the
      // generic operators' precedence (gram.y's qual_Op).
      uint32_t loc = advance().offset;
      advance();
      if (peek().kind == TokenKind::Word) {
        const Token& schema = advance();
        if (schema.text != "pg_catalog")
          errorAt(sqlstate::kInvalidSchemaName, "schema \"" + schema.str() + "\" does not exist", schema.offset);
        expectOp(".");
      }
      if (peek().kind != TokenKind::Operator || isOp("(") || isOp(")")) syntaxError();
      std::string op = advance().str();
      expectOp(")");
      left = parseQuantifiedRhs(loc, op, std::move(left), &Parser::parseAdditive);
    } else {
      return left;
    }
  }
}

ExprPtr Parser::parseAdditive() {
  ExprPtr left = parseMultiplicative();
  while (isOp("+") || isOp("-")) {
    const Token& t = advance();
    left = std::make_unique<BinaryOp>(t.offset, t.str(), std::move(left), parseMultiplicative());
  }
  return left;
}

ExprPtr Parser::parseMultiplicative() {
  ExprPtr left = parsePower();
  while (isOp("*") || isOp("/") || isOp("%")) {
    const Token& t = advance();
    left = std::make_unique<BinaryOp>(t.offset, t.str(), std::move(left), parsePower());
  }
  return left;
}

ExprPtr Parser::parsePower() {
  ExprPtr left = parseAtTimeZone();
  while (isOp("^")) {
    const Token& t = advance();
    left = std::make_unique<BinaryOp>(t.offset, t.str(), std::move(left), parseAtTimeZone());
  }
  return left;
}

// x AT TIME ZONE zone, between ^ and unary minus, is pg_catalog.timezone(zone, x) (gram.y).
ExprPtr Parser::parseAtTimeZone() {
  ExprPtr value = parseUnary();
  while (isKw("at") && isKw("time", 1) && isKw("zone", 2)) {
    uint32_t loc = advance().offset;
    advance();
    advance();
    auto call = std::make_unique<FuncCall>(loc);
    call->names = {"pg_catalog", "timezone"};
    call->args.push_back(parseUnary());
    call->args.push_back(std::move(value));
    value = std::move(call);
  }
  return value;
}

ExprPtr Parser::parseUnary() {
  checkStackDepth();
  if (isOp("-") || isOp("+")) {
    const Token& t = advance();
    ExprPtr operand = parseUnary();
    if (t.text == "-") return negateConstant(t, std::move(operand));
    return std::make_unique<UnaryOp>(t.offset, t.str(), std::move(operand));
  }
  return parsePostfix();
}

// Minus applied directly to a numeric constant yields a negative constant, as gram.y's
// doNegate does: "-12" is one literal (or one lifted parameter) whose text is "-12", so
// "a + -12" and "a + 5" have the same lifted shape. "-12::int" stays -(12::int).
ExprPtr Parser::negateConstant(const Token& minus, ExprPtr operand) {
  if (operand->kind == ExprKind::Literal) {
    auto& lit = operand->as<Literal>();
    if (lit.literal == LiteralKind::Integer || lit.literal == LiteralKind::Numeric) {
      lit.text = negated(lit.text);
      lit.location = minus.offset;
      return operand;
    }
  } else if (operand->kind == ExprKind::Param && operand->as<Param>().liftedIndex >= 0) {
    auto& param = operand->as<Param>();
    LiftedLiteral& lit = lifted_[param.liftedIndex];
    if (lit.kind != TypeId::Unknown) {
      lit.text = negated(lit.text);
      if (lit.kind != TypeId::Numeric || lit.text.find_first_of(".eE") == std::string::npos)
        lit.kind = integerKind(lit.text);
      lit.location = param.location = minus.offset;
      liftSites_[param.liftedIndex].firstToken = static_cast<size_t>(&minus - tokens_.data());
      return operand;
    }
  }
  return std::make_unique<UnaryOp>(minus.offset, minus.str(), std::move(operand));
}

ExprPtr Parser::parsePostfix() {
  ExprPtr e = parsePrimary();
  while (true) {
    if (isOp("::")) {
      uint32_t loc = advance().offset;
      e = std::make_unique<Cast>(loc, std::move(e), parseTypeName());
    } else if (isKw("collate")) {
      parseCollation();
    } else {
      return e;
    }
  }
}

// COLLATE name (knownCollation).
void Parser::parseCollation() {
  uint32_t at = peek().offset;  // PostgreSQL's errors point at COLLATE
  advance();
  std::vector<std::string> name;
  name.push_back(parseColId());
  while (acceptOp(".")) name.push_back(parseColLabel());
  if (!knownCollation(name))
    errorAt(sqlstate::kUndefinedObject, "collation \"" + name.back() + "\" for encoding \"UTF8\" does not exist", at);
}

bool knownCollation(const std::vector<std::string>& name) {
  bool inCatalog = name.size() == 1 || (name.size() == 2 && name[0] == "pg_catalog");
  const std::string& n = name.back();
  return inCatalog && (n == "C" || n == "POSIX" || n == "default" || n == "ucs_basic");
}

bool isCollatable(SqlType type) {
  TypeId id = type.isArray() ? type.element : type.id;
  return isStringType(id) && (type.alias == TypeAlias::None || type.alias == TypeAlias::Name);
}

ExprPtr Parser::parsePrimary() {
  checkStackDepth();
  const Token& t = peek();
  switch (t.kind) {
    case TokenKind::Integer:
    case TokenKind::Numeric:
    case TokenKind::String: advance(); return makeConstant(t);
    case TokenKind::Param:
      advance();
      maxParam_ = std::max(maxParam_, t.number);
      if (firstParam_ < 0) {
        firstParam_ = t.number;
        firstParamLocation_ = t.offset;
      }
      return parseSubscripts(std::make_unique<Param>(t.offset, t.number));
    case TokenKind::Operator:
      if (t.text == "(") {
        ExprPtr e = parseParenthesized();
        // Only a parenthesized expression takes subscripts and field names: (a, b).f is
        // an error, ((a, b)).f and (ROW(a, b)).f are not.
        if (e->kind == ExprKind::Row && !e->as<RowExpr>().parenthesized) return e;
        return parseIndirection(std::move(e));
      }
      syntaxError();
    case TokenKind::Word: {
      ExprPtr e = parseWordExpr();
      if (e->kind == ExprKind::ColumnRef && !e->as<ColumnRef>().star) return parseSubscripts(std::move(e));
      return e;
    }
    default: syntaxError();
  }
}

// After ARRAY (or, nested, at a bare '['): '[' [expr {, expr}] ']'. Elements that are
// themselves bracketed lists are sub-arrays, as in ARRAY[[1,2],[3,4]].
ExprPtr Parser::parseArrayConstructor(uint32_t location, bool nested) {
  checkStackDepth();
  auto array = std::make_unique<ArrayExpr>(location);
  array->nested = nested;
  expectOp("[");
  if (!isOp("]")) {
    if (isOp("[")) {
      do {
        array->elements.push_back(parseArrayConstructor(peek().offset, true));
      } while (acceptOp(","));
    } else {
      array->elements = parseExprList();
    }
  }
  expectOp("]");
  return array;
}

// After a parenthesized expression: subscripts and `.field` selections, in any order
// ((f(x)).a, (arr)[1], (r).a[2]), and a final `.*` ((r).*).
ExprPtr Parser::parseIndirection(ExprPtr e) {
  while (true) {
    if (isOp("[")) {
      e = parseSubscripts(std::move(e));
    } else if (isOp(".") && isOp("*", 1)) {
      uint32_t location = advance().offset;
      advance();
      return std::make_unique<FieldSelect>(location, std::move(e), std::string(), true);
    } else if (isOp(".")) {
      uint32_t location = advance().offset;
      e = std::make_unique<FieldSelect>(location, std::move(e), parseColLabel());
    } else {
      return e;
    }
  }
}

ExprPtr Parser::parseSubscripts(ExprPtr e) {
  if (!isOp("[")) return e;
  auto s = std::make_unique<Subscript>(e->location, std::move(e));
  while (isOp("[")) {
    SubscriptIndex index;
    index.location = advance().offset;
    if (!isOp(":")) {
      index.location = peek().offset;
      index.upper = parseExpr();
    }
    if (acceptOp(":")) {
      index.slice = true;
      index.lower = std::move(index.upper);
      if (!isOp("]")) index.upper = parseExpr();
    }
    expectOp("]");
    s->indexes.push_back(std::move(index));
  }
  return s;
}

// '(' subquery ')', '(' expr ')' or a row constructor '(' a, b, ... ')'.
ExprPtr Parser::parseParenthesized() {
  uint32_t loc = peek().offset;
  if (startsSelect(1) && (isKw("select", 1) || isKw("values", 1) || isKw("with", 1))) {
    auto link = std::make_unique<SubLink>(loc, SubLinkKind::Scalar);
    link->subquery = parseParenSubquery();
    return link;
  }
  expectOp("(");
  ExprPtr first = parseExpr();
  if (acceptOp(")")) {
    if (first->kind == ExprKind::Row) first->as<RowExpr>().parenthesized = true;
    return first;
  }
  auto row = std::make_unique<RowExpr>(loc);
  row->args.push_back(std::move(first));
  while (acceptOp(",")) row->args.push_back(parseExpr());
  expectOp(")");
  return row;
}

std::unique_ptr<SelectStmt> Parser::parseParenSubquery() {
  expectOp("(");
  auto q = parseSelect();
  expectOp(")");
  return q;
}

ExprPtr Parser::parseSqlValue(SqlValueKind kind, bool takesPrecision) {
  auto v = std::make_unique<SqlValue>(advance().offset, kind);
  if (takesPrecision && acceptOp("(")) {
    if (!parseOptionalSignedInt(v->precision)) syntaxError();
    expectOp(")");
  }
  return v;
}

ExprPtr Parser::parseTypedLiteral(TypeName type) {
  const Token& s = peek();
  if (s.kind != TokenKind::String) syntaxError();
  advance();
  if (type.keyword && type.name() == "interval" && type.intervalFields < 0 && type.arrayBounds == 0) {
    // INTERVAL 'x' DAY: the fields follow the string, and decide how it reads ('90' is 90
    // days), so the text is kept as a literal of the cast rather than a lifted parameter,
    // which would be read as a plain interval first.
    parseIntervalFields(type);
    if (type.intervalFields >= 0) {
      resolveType(type, true);
      return std::make_unique<Cast>(type.location, std::make_unique<Literal>(s.offset, LiteralKind::String, s.str()),
                                    std::move(type));
    }
  }
  return std::make_unique<Cast>(type.location, makeConstant(s), std::move(type));
}

ExprPtr Parser::parseWordExpr() {
  const Token& t = peek();
  uint32_t loc = t.offset;
  if (!t.quoted) {
    std::string_view w = t.text;
    if (w == "null") return advance(), std::make_unique<Literal>(loc, LiteralKind::Null, "null");
    if (w == "true" || w == "false")
      return advance(), std::make_unique<Literal>(loc, LiteralKind::Bool, std::string(w));
    if (w == "default") return advance(), std::make_unique<DefaultExpr>(loc);
    if (w == "not") {  // NOT as an operand ("a = NOT b"), as gram.y allows
      advance();
      auto n = std::make_unique<BoolExpr>(loc, BoolOpKind::Not);
      n->args.push_back(parseIs());
      return n;
    }
    if (w == "case") return parseCase();
    if (w == "array" && isOp("[", 1)) {
      advance();
      return parseArrayConstructor(loc, false);
    }
    if (w == "array" && isOp("(", 1)) {
      advance();
      auto link = std::make_unique<SubLink>(loc, SubLinkKind::Array);
      link->subquery = parseParenSubquery();
      return link;
    }
    if (w == "cast") {
      advance();
      expectOp("(");
      ExprPtr arg = parseExpr();
      expectKw("as");
      TypeName type = parseTypeName();
      expectOp(")");
      return std::make_unique<Cast>(loc, std::move(arg), std::move(type));
    }
    if (w == "exists" && isOp("(", 1)) {
      advance();
      auto link = std::make_unique<SubLink>(loc, SubLinkKind::Exists);
      link->subquery = parseParenSubquery();
      return link;
    }
    if (w == "row" && isOp("(", 1)) {
      advance();
      advance();
      auto row = std::make_unique<RowExpr>(loc);
      row->explicitRow = true;
      if (!isOp(")")) row->args = parseExprList();
      expectOp(")");
      return row;
    }
    if (w == "current_date") return parseSqlValue(SqlValueKind::CurrentDate, false);
    if (w == "current_time") return parseSqlValue(SqlValueKind::CurrentTime, true);
    if (w == "current_timestamp") return parseSqlValue(SqlValueKind::CurrentTimestamp, true);
    if (w == "localtime") return parseSqlValue(SqlValueKind::LocalTime, true);
    if (w == "localtimestamp") return parseSqlValue(SqlValueKind::LocalTimestamp, true);
    if (w == "current_role") return parseSqlValue(SqlValueKind::CurrentRole, false);
    if (w == "current_user") return parseSqlValue(SqlValueKind::CurrentUser, false);
    if (w == "session_user") return parseSqlValue(SqlValueKind::SessionUser, false);
    if (w == "user") return parseSqlValue(SqlValueKind::User, false);
    if (w == "current_catalog") return parseSqlValue(SqlValueKind::CurrentCatalog, false);
    if (w == "current_schema" && !isOp("(", 1)) return parseSqlValue(SqlValueKind::CurrentSchema, false);
    if ((w == "coalesce" || w == "greatest" || w == "least" || w == "grouping") && isOp("(", 1)) {
      auto call = std::make_unique<FuncCall>(loc);
      call->names.push_back(advance().str());
      return parseFuncArgs(std::move(call));
    }
    if ((w == "extract" || w == "position" || w == "substring" || w == "trim" || w == "overlay") && isOp("(", 1))
      return parseSpecialFunction();
    if (w == "nullif" && isOp("(", 1)) {  // exactly two arguments, by the grammar
      auto call = std::make_unique<FuncCall>(loc);
      call->names.push_back(advance().str());
      advance();
      call->args.push_back(parseExpr());
      expectOp(",");
      call->args.push_back(parseExpr());
      expectOp(")");
      return call;
    }
    // Type keywords followed by a string: typed literal, e.g. int '5', timestamp '...'.
    if (startsKeywordType()) {
      size_t save = pos_;
      TypeName type = parseTypeName();
      if (peek().kind == TokenKind::String) return parseTypedLiteral(std::move(type));
      pos_ = save;  // a column named like a type keyword, e.g. "time"
    }
    if (t.category == KeywordCategory::Reserved) syntaxError();
  }

  // Column reference, function call, or generic typed literal (date '...', pg_catalog.x '...').
  bool colId = isColId();
  bool funcName = isTypeFuncName();
  std::vector<std::string> names;
  names.push_back(advance().str());
  bool star = false;
  while (isOp(".")) {
    advance();
    if (acceptOp("*")) {
      star = true;
      break;
    }
    names.push_back(parseColLabel());
  }
  if (!star && isOp("(") && (funcName || names.size() > 1)) {
    auto call = std::make_unique<FuncCall>(loc);
    call->names = std::move(names);
    return parseFuncArgs(std::move(call));
  }
  if (!star && peek().kind == TokenKind::String && (funcName || names.size() > 1)) {
    TypeName type;
    type.names = std::move(names);
    type.location = loc;
    resolveType(type, false);
    return parseTypedLiteral(std::move(type));
  }
  if (!colId) syntaxError();  // e.g. LEFT not followed by '('
  auto ref = std::make_unique<ColumnRef>(loc);
  ref->names = std::move(names);
  ref->star = star;
  return ref;
}

// After the function name: '(' [* | [DISTINCT | ALL] args] ')'.
ExprPtr Parser::parseFuncArgs(std::unique_ptr<FuncCall> call) {
  expectOp("(");
  if (acceptOp("*")) {
    call->star = true;
  } else if (!isOp(")")) {
    if (acceptKw("distinct"))
      call->distinct = true;
    else
      acceptKw("all");
    // Arguments, in positional or named notation (name => value, or the older name := value);
    // VARIADIC marks the last one, which must then end the list.
    do {
      if (acceptKw("variadic")) call->variadic = true;
      std::string name;
      if (peek().kind == TokenKind::Word && (isOp("=>", 1) || isOp(":=", 1))) {
        name = advance().str();
        advance();
      } else if (!call->argNames.empty() && !call->argNames.back().empty()) {
        throw SqlError(sqlstate::kSyntaxError, "positional argument cannot follow named argument", {}, {},
                       sqlPosition(query_, peek().offset));
      }
      call->args.push_back(parseExpr());
      call->argNames.push_back(std::move(name));
    } while (!call->variadic && acceptOp(","));
    if (std::all_of(call->argNames.begin(), call->argNames.end(), [](const std::string& n) { return n.empty(); }))
      call->argNames.clear();
    if (acceptKw("order")) {  // agg(x ORDER BY y)
      expectKw("by");
      call->orderBy = parseSortList();
    }
  }
  expectOp(")");
  parseAggregateSuffixes(*call);
  if (acceptKw("over")) call->over = parseOver();
  return call;
}

// After a call's ')': WITHIN GROUP (ORDER BY ...) and FILTER (WHERE ...), as PostgreSQL's
// func_expr; the binder says whether the function is an aggregate that takes them.
void Parser::parseAggregateSuffixes(FuncCall& call) {
  if (isKw("within") && isKw("group", 1)) {
    uint32_t at = peek().offset;
    advance();
    advance();
    auto fail = [&](const char* message) {
      throw SqlError(sqlstate::kSyntaxError, message, {}, {}, sqlPosition(query_, at));
    };
    if (!call.orderBy.empty()) fail("cannot use multiple ORDER BY clauses with WITHIN GROUP");
    if (call.distinct) fail("cannot use DISTINCT with WITHIN GROUP");
    expectOp("(");
    expectKw("order");
    expectKw("by");
    call.orderBy = parseSortList();
    call.withinGroup = true;
    expectOp(")");
  }
  if (isKw("filter") && isOp("(", 1)) {
    advance();
    advance();
    expectKw("where");
    call.filter = parseExpr();
    expectOp(")");
  }
}

ExprPtr Parser::parseCase() {
  auto c = std::make_unique<CaseExpr>(advance().offset);
  if (!isKw("when")) c->arg = parseExpr();
  if (!isKw("when")) syntaxError();
  while (acceptKw("when")) {
    CaseWhen w;
    w.condition = parseExpr();
    expectKw("then");
    w.result = parseExpr();
    c->whens.push_back(std::move(w));
  }
  if (acceptKw("else")) c->elseResult = parseExpr();
  expectKw("end");
  return c;
}

}  // namespace duet::sql
