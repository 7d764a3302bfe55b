#include "compiler/binder/binder.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <tuple>

#include "compiler/functions/builtin_functions.h"
#include "compiler/parser/parser.h"
#include "engine/error.h"
#include "engine/limits/interrupts.h"
#include "engine/limits/stack_depth.h"
#include "engine/types/array.h"
#include "engine/types/record.h"

namespace duet::binder {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;
using plan::Op;

namespace {

int charPosition(std::string_view text, uint32_t byteOffset) {
  // PostgreSQL reports 1-based character (not byte) positions.
  int chars = 0;
  for (uint32_t i = 0; i < byteOffset && i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++chars;
  return chars + 1;
}

ExprPtr boolConst(bool v) {
  auto e = std::make_unique<Expr>(ExprKind::Const, SqlType{TypeId::Bool, -1});
  e->constant[0] = v ? 1 : 0;
  return e;
}

ExprPtr textConst(std::string s, TypeId t = TypeId::Text) {
  auto e = std::make_unique<Expr>(ExprKind::Const, SqlType{t, -1});
  e->constString = std::move(s);
  return e;
}

ExprPtr int4Const(int32_t v) {
  auto e = std::make_unique<Expr>(ExprKind::Const, SqlType{TypeId::Int4, -1});
  std::memcpy(e->constant, &v, sizeof v);
  return e;
}

ExprPtr logic(ExprKind k, ExprPtr a, ExprPtr b) {
  auto e = std::make_unique<Expr>(k, SqlType{TypeId::Bool, -1});
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

ExprPtr notExpr(ExprPtr a) {
  auto e = std::make_unique<Expr>(ExprKind::Unary, SqlType{TypeId::Bool, -1});
  e->op = Op::Not;
  e->args.push_back(std::move(a));
  return e;
}

// Whether a column reference names something of `scope`: for t.x, that scope has a FROM
// item t (PostgreSQL then looks no further out, even if t has no column x).
bool refersTo(const sql::ColumnRef& ref, const Scope& scope) {
  if (ref.names.size() >= 2) {
    for (const auto& entry : scope.entries)
      if (entry.alias == ref.names[ref.names.size() - 2]) return true;
    return false;
  }
  return findUnqualified(scope, ref.names[0], 0, scope.entries.size()).matches > 0;
}

// A column reference as grouping errors show it: table.column, the table found in scope
// for an unqualified name.
std::string shownColumn(const sql::ColumnRef& ref, const Scope& scope) {
  if (ref.names.size() >= 2) return ref.names[ref.names.size() - 2] + "." + ref.names.back();
  std::string shown = ref.names.back();
  for (const auto& entry : scope.entries)
    for (const auto& n : entry.names)
      if (n == ref.names.back()) shown = entry.alias + "." + n;
  return shown;
}

// The comparison an operator names (the lexer has made != into <>), or Op::None.
}  // namespace

Op comparisonOp(const std::string& op) {
  static const std::pair<const char*, Op> compares[] = {{"=", Op::Eq},  {"<>", Op::Ne}, {"<", Op::Lt},
                                                        {"<=", Op::Le}, {">", Op::Gt},  {">=", Op::Ge}};
  for (auto& [name, o] : compares)
    if (op == name) return o;
  return Op::None;
}

std::string argTypeList(const std::vector<ExprPtr>& args, const std::vector<std::string>& names) {
  std::string types;
  for (size_t i = 0; i < args.size(); ++i) {
    types += i ? ", " : "";
    if (i < names.size() && !names[i].empty()) types += names[i] + " => ";
    types += typeName(args[i]->type);
  }
  return types;
}

bool exprEquals(const Expr& a, const Expr& b, const std::vector<int>* paramClass) {
  auto sameParam = [&](int x, int y) {
    if (x == y) return true;
    if (!paramClass || x < 0 || y < 0) return false;
    size_t n = paramClass->size();
    return static_cast<size_t>(x) < n && static_cast<size_t>(y) < n && (*paramClass)[x] == (*paramClass)[y];
  };
  if (a.kind != b.kind || !(a.type == b.type) || a.op != b.op || a.column != b.column || !sameParam(a.param, b.param) ||
      a.negated != b.negated || a.constNull != b.constNull || a.function != b.function || a.routine != b.routine ||
      a.constString != b.constString || a.subplan != b.subplan || a.sublink != b.sublink || a.captures != b.captures ||
      std::memcmp(a.constant, b.constant, sizeof a.constant) != 0 || a.args.size() != b.args.size())
    return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!exprEquals(*a.args[i], *b.args[i], paramClass)) return false;
  return true;
}

void shiftColumns(Expr& e, int delta) {
  if (e.kind == ExprKind::Column) e.column += delta;
  for (auto& a : e.args) shiftColumns(*a, delta);
}

std::pair<int, int> columnRange(const Expr& e) {
  std::pair<int, int> r{-1, -1};
  if (e.kind == ExprKind::Column) r = {e.column, e.column};
  for (const auto& a : e.args) {
    auto s = columnRange(*a);
    if (s.first < 0) continue;
    if (r.first < 0) r = s;
    r.first = std::min(r.first, s.first);
    r.second = std::max(r.second, s.second);
  }
  return r;
}

Binder::Binder(const PlanRequest& request) : request_(request) {
  paramTypes_ = request.declaredParamTypes;
  paramTypes_.resize(request.explicitParamCount, SqlType{TypeId::Unknown, -1});
  for (LiteralType t : request.literalTypes) {
    switch (t) {
      case LiteralType::Int4: paramTypes_.push_back({TypeId::Int4, -1}); break;
      case LiteralType::Int8: paramTypes_.push_back({TypeId::Int8, -1}); break;
      case LiteralType::Numeric: paramTypes_.push_back({TypeId::Numeric, -1}); break;
      case LiteralType::Bool: paramTypes_.push_back({TypeId::Bool, -1}); break;
      case LiteralType::Unknown: paramTypes_.push_back({TypeId::Unknown, -1}); break;
    }
  }
  for (size_t i = 0; i < paramTypes_.size(); ++i) paramClass_.push_back(static_cast<int>(i));
  for (size_t j = 0; j < request.literalSameAs.size(); ++j)
    if (request.literalSameAs[j] >= 0)
      paramClass_[request.explicitParamCount + j] = request.explicitParamCount + request.literalSameAs[j];
}

void Binder::fail(const char* code, std::string message, uint32_t location) const {
  throw SqlError(code, std::move(message), {}, {}, charPosition(request_.queryText, location));
}

void Binder::fail(const char* code, std::string message, uint32_t location, std::string detail,
                  std::string hint) const {
  throw SqlError(code, std::move(message), std::move(detail), std::move(hint),
                 charPosition(request_.queryText, location));
}

void Binder::failNoOperator(const std::string& left, const std::string& op, const std::string& right,
                            uint32_t location) const {
  fail(sqlstate::kUndefinedFunction, fmt::format("operator does not exist: {} {} {}", left, op, right), location, {},
       "No operator matches the given name and argument types. You might need to add explicit type casts.");
}

SqlType Binder::resolveType(const sql::TypeName& t) const {
  if (!t.resolved && t.serial == sql::SerialKind::None && t.arrayBounds == 0 && request_.resolveTypeName)
    if (std::optional<SqlType> named = request_.resolveTypeName(t.names)) return *named;
  if (!t.resolved || t.serial != sql::SerialKind::None)
    fail(sqlstate::kUndefinedObject, fmt::format("type \"{}\" does not exist", t.name()), t.location);
  return t.sqlType();
}

// A number literal read as float (`1e100::float8`, `d > 1e308`): PostgreSQL makes it a
// numeric and converts that by its decimal text, so reading the literal's text as float
// gives the same value, also for numbers beyond what DuetDB's numeric holds. A lifted
// literal then takes the float type as its parameter type, unless it shares the parameter
// with another occurrence.
ExprPtr Binder::numberLiteralAsFloat(ExprPtr& e, SqlType target) {
  if (target.id != TypeId::Float4 && target.id != TypeId::Float8) return nullptr;
  if (e->kind == ExprKind::Param && e->param >= request_.explicitParamCount) {
    size_t lit = static_cast<size_t>(e->param - request_.explicitParamCount);
    if (lit >= request_.literalUses.size() || request_.literalUses[lit] != 1) return nullptr;
    if (std::find(sharedParams_.begin(), sharedParams_.end(), e->param) != sharedParams_.end()) return nullptr;
    if (request_.literalTypes[lit] == LiteralType::Unknown || request_.literalTypes[lit] == LiteralType::Bool)
      return nullptr;
    // Only the literal's first cast: in `16777217::real::float8` the value is a real.
    if (e->type.id == TypeId::Float4 || e->type.id == TypeId::Float8) return nullptr;
    paramTypes_[e->param] = SqlType{target.id, -1};
    e->type = paramTypes_[e->param];
    return std::move(e);
  }
  // Unlifted: the binder made the literal a cast of its text to plain numeric.
  if (e->kind == ExprKind::Cast && e->type.id == TypeId::Numeric && e->type.typmod < 0 &&
      e->args[0]->kind == ExprKind::Const && e->args[0]->type.id == TypeId::Unknown)
    return plan::makeCast(std::move(e->args[0]), target, true);
  return nullptr;
}

void Binder::shareParams(const Expr& e) {
  if (e.kind == ExprKind::Param) sharedParams_.push_back(e.param);
  for (const ExprPtr& a : e.args) shareParams(*a);
}

void Binder::failCoercion(const Expr& e, SqlType target, CastContext context, uint32_t location) const {
  if (context == CastContext::Explicit)
    fail(sqlstate::kCannotCoerce, fmt::format("cannot cast type {} to {}", typeName(e.type), typeName(target)),
         location);
  fail(sqlstate::kDatatypeMismatch,
       fmt::format("{} is of type {} but expression is of type {}", "expression", typeName(target), typeName(e.type)),
       location);
}

ExprPtr Binder::coerce(ExprPtr e, SqlType target, CastContext context, uint32_t location) {
  if (e->type == target) return e;
  if (ExprPtr asFloat = numberLiteralAsFloat(e, target)) return asFloat;
  if (e->kind == ExprKind::Param && e->type.id == TypeId::Unknown && e->param >= request_.explicitParamCount &&
      target.id == TypeId::Interval && target.typmod >= 0) {
    // A lifted literal read as an interval with fields ('90'::interval day): its text goes
    // to interval input with the typmod, as PostgreSQL reads the literal, where reading it
    // as a plain interval first would take the 90 as seconds. ($1::interval day is read as
    // an interval, then cast, as in PostgreSQL.)
    paramTypes_[e->param] = SqlType{TypeId::Text, -1};
    e->type = paramTypes_[e->param];
    return plan::makeCast(std::move(e), target, true);
  }
  if (e->kind == ExprKind::Param && e->type.id == TypeId::Unknown) {
    paramTypes_[e->param] = target.withoutTypmod();
    e->type = target.withoutTypmod();
    if (target.typmod < 0) return e;
  }
  if (e->type.isArray() && target.isArray() && !(e->kind == ExprKind::Const && e->constNull)) {
    // Array to array: element by element where the element cast exists in this context.
    if (e->type.element == target.element && e->type.alias == target.alias &&
        (target.typmod < 0 || target.typmod == e->type.typmod))
      return e;
    if (!castAllowed(e->type.element, target.element, context)) failCoercion(*e, target, context, location);
    return plan::makeCast(std::move(e), target, context == CastContext::Explicit);
  }
  if (e->kind == ExprKind::Const && e->constNull) {
    e->type = target;
    return e;
  }
  if (e->type == target) return e;  // an untyped parameter that took the type above
  if (target.id == TypeId::Record && compositeTypeOid(target) != 0)
    return coerceToComposite(std::move(e), target, context, location);
  // An alias of the same base type (an oid made a regclass, text a name) is a cast too:
  // the value stays, but it prints (and for name and "char" is cut) as the alias does.
  if (e->type.id == target.id && target.typmod < 0 && e->type.alias == target.alias) return e;
  if (!castAllowed(e->type.id, target.id, context)) failCoercion(*e, target, context, location);
  return plan::makeCast(std::move(e), target, context == CastContext::Explicit);
}

// A row constructor becomes a composite type field by field (PostgreSQL's
// coerce_record_to_complex: each field with an assignment cast), a string by an explicit
// cast (record_in); any other record, or a composite of another type, does not convert.
ExprPtr Binder::coerceToComposite(ExprPtr e, SqlType target, CastContext context, uint32_t location) {
  if (isStringType(e->type.id) && context == CastContext::Explicit) return plan::makeCast(std::move(e), target, true);
  if (e->kind != ExprKind::RecordBuild) failCoercion(*e, target, context, location);
  const std::vector<RecordField>& fields = recordFields(target);
  if (e->args.size() != fields.size())
    fail(sqlstate::kCannotCoerce, fmt::format("cannot cast type {} to {}", typeName(e->type), typeName(target)),
         location, e->args.size() < fields.size() ? "Input has too few columns." : "Input has too many columns.", {});
  for (size_t i = 0; i < fields.size(); ++i) {
    SqlType from = e->args[i]->type;
    bool untyped = from.id == TypeId::Unknown || (e->args[i]->kind == ExprKind::Const && e->args[i]->constNull);
    if (from != fields[i].type && !untyped && !castAllowed(from.id, fields[i].type.id, CastContext::Assignment))
      fail(sqlstate::kCannotCoerce, fmt::format("cannot cast type {} to {}", typeName(e->type), typeName(target)),
           location,
           fmt::format("Cannot cast type {} to {} in column {}.", typeName(from), typeName(fields[i].type), i + 1), {});
    e->args[i] = coerce(std::move(e->args[i]), fields[i].type, CastContext::Assignment, location);
  }
  e->type = target;
  return e;
}

ExprPtr Binder::coerceToBool(ExprPtr e, const char* what, uint32_t location) {
  if (e->type.id == TypeId::Bool) return e;
  if (e->type.id == TypeId::Unknown) return coerce(std::move(e), {TypeId::Bool, -1}, CastContext::Explicit, location);
  fail(sqlstate::kDatatypeMismatch,
       fmt::format("argument of {} must be type boolean, not type {}", what, typeName(e->type)), location);
}

void Binder::unify(ExprPtr& a, ExprPtr& b, const std::string& op, uint32_t location) {
  if (a->type.isArray() || b->type.isArray()) {
    // The anyarray operators take two arrays of one element type; no implicit casts.
    SqlType arrayType = a->type.isArray() ? a->type : b->type;
    bool fits = (a->type.id == TypeId::Unknown || (a->type.isArray() && a->type.element == arrayType.element)) &&
                (b->type.id == TypeId::Unknown || (b->type.isArray() && b->type.element == arrayType.element));
    if (!fits) failNoOperator(typeName(a->type), op, typeName(b->type), location);
    arrayType = arrayType.withoutTypmod();
    a = coerce(std::move(a), arrayType, CastContext::Implicit, location);
    b = coerce(std::move(b), arrayType, CastContext::Implicit, location);
    return;
  }
  auto common = commonType(a->type, b->type);
  if (common) common = resolveUnknown(*common);
  // char(n) against varchar uses the bpchar operators (one exact input type beats the
  // text operators' none), so trailing blanks are insignificant on both sides.
  if ((a->type.id == TypeId::Char && b->type.id == TypeId::Varchar) ||
      (a->type.id == TypeId::Varchar && b->type.id == TypeId::Char))
    common = SqlType{TypeId::Char, -1};
  // real against another number type: PostgreSQL's operator resolution prefers the float4 x
  // float8 operators (float8 is the preferred numeric type), so both sides compute as float8.
  if (common && common->id == TypeId::Float4 && a->type.id != TypeId::Unknown && b->type.id != TypeId::Unknown &&
      a->type.id != b->type.id)
    common = SqlType{TypeId::Float8, -1};
  if (!common)
    fail(sqlstate::kUndefinedFunction,
         fmt::format("operator does not exist: {} {} {}", typeName(a->type), op, typeName(b->type)), location);
  // A string literal next to a number is read as that number's type, as PostgreSQL does.
  a = coerce(std::move(a), *common, CastContext::Implicit, location);
  b = coerce(std::move(b), *common, CastContext::Implicit, location);
}

ExprPtr Binder::compare(Op op, ExprPtr a, ExprPtr b, uint32_t location) {
  const char* name = op == Op::Eq   ? "="
                     : op == Op::Ne ? "<>"
                     : op == Op::Lt ? "<"
                     : op == Op::Le ? "<="
                     : op == Op::Gt ? ">"
                                    : ">=";
  // json has no comparison operators at all (jsonb has the btree ones).
  if (a->type.id == TypeId::Json || b->type.id == TypeId::Json)
    failNoOperator(typeName(a->type), name, typeName(b->type), location);
  unify(a, b, name, location);
  auto e = std::make_unique<Expr>(ExprKind::Compare, SqlType{TypeId::Bool, -1});
  e->op = op;
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

ExprPtr Binder::notDistinct(ExprPtr a, ExprPtr b, uint32_t location) {
  unify(a, b, "=", location);
  // Both null, or equal and neither null; a and b evaluated once each, in that order.
  return evaluatedOnce(std::move(a), [&](const LetReader& readA) {
    return evaluatedOnce(std::move(b), [&](const LetReader& readB) {
      auto bothNull = logic(ExprKind::And, std::make_unique<Expr>(ExprKind::IsNull, SqlType{TypeId::Bool, -1}),
                            std::make_unique<Expr>(ExprKind::IsNull, SqlType{TypeId::Bool, -1}));
      bothNull->args[0]->args.push_back(readA());
      bothNull->args[1]->args.push_back(readB());
      auto equal = std::make_unique<Expr>(ExprKind::IsTrue, SqlType{TypeId::Bool, -1});
      equal->op = Op::Eq;
      equal->args.push_back(compare(Op::Eq, readA(), readB(), location));
      return logic(ExprKind::Or, std::move(bothNull), std::move(equal));
    });
  });
}

namespace {

// The references to Let number `id` that evaluatedOnce marked in `e` (column -1, param
// `id`) as LetRefs of `depth` plus the Lets between.
void resolveLetRefs(Expr& e, int id, int depth) {
  checkStackDepth();
  if (e.kind == ExprKind::LetRef && e.column < 0 && e.param == id) {
    e.column = depth;
    e.param = -1;
    return;
  }
  for (size_t i = 0; i < e.args.size(); ++i)
    resolveLetRefs(*e.args[i], id, depth + (e.kind == ExprKind::Let && i == 1 ? 1 : 0));
}

}  // namespace

// The body is built first with references marked by the Let's number (bodies nest, and
// where a reference lands - inside how many Lets of nested calls - is known only once the
// body is whole); then they become LetRefs counting the Lets between, so that equal
// expressions bound twice compare equal (exprEquals: GROUP BY items).
ExprPtr Binder::evaluatedOnce(ExprPtr value, const std::function<ExprPtr(const LetReader& read)>& body) {
  int id = lets_++;
  SqlType type = value->type;
  ExprPtr result = body([&] {
    ExprPtr ref = plan::makeLetRef(type, -1);
    ref->param = id;
    return ref;
  });
  resolveLetRefs(*result, id, 0);
  return plan::makeLet(std::move(value), std::move(result));
}

ExprPtr Binder::call(const std::string& fn, SqlType type, std::vector<ExprPtr> args) {
  auto e = std::make_unique<Expr>(ExprKind::Call, type);
  e->function = fn;
  e->args = std::move(args);
  return e;
}

ExprPtr Binder::concatArrays(ExprPtr a, ExprPtr b, uint32_t location) {
  // array || array (array_cat), array || element (array_append), element || array
  // (array_prepend); an untyped literal is an array, as PostgreSQL resolves it.
  bool arrayA = a->type.isArray() || a->type.id == TypeId::Unknown;
  bool arrayB = b->type.isArray() || b->type.id == TypeId::Unknown;
  SqlType elementA = a->type.isArray() ? a->type.elementType() : a->type;
  SqlType elementB = b->type.isArray() ? b->type.elementType() : b->type;
  auto common = commonType(elementA.withoutTypmod(), elementB.withoutTypmod());
  if (!common || common->id == TypeId::Unknown || common->isArray())
    failNoOperator(typeName(a->type), "||", typeName(b->type), location);
  SqlType array = SqlType::arrayOf(*common);
  // An element becomes a one-element array (ARRAY[x], NULL included).
  auto asArray = [&](ExprPtr e, bool isArray) {
    if (isArray) return coerce(std::move(e), array, CastContext::Implicit, location);
    auto one = std::make_unique<Expr>(ExprKind::ArrayBuild, array);
    one->args.push_back(coerce(std::move(e), *common, CastContext::Implicit, location));
    return ExprPtr(std::move(one));
  };
  a = asArray(std::move(a), arrayA);
  b = asArray(std::move(b), arrayB);
  // array_cat is not strict: a NULL side gives the other one.
  auto e = std::make_unique<Expr>(ExprKind::Coalesce, array);
  std::vector<ExprPtr> both;
  both.push_back(plan::cloneExpr(*a));
  both.push_back(plan::cloneExpr(*b));
  e->args.push_back(call("duet_rt_array_cat", array, std::move(both)));
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

ExprPtr Binder::patternMatch(const char* function, const char* op, std::vector<ExprPtr>& args, uint32_t location) {
  SqlType text{TypeId::Text, -1};
  if (!isStringType(args[0]->type.id))
    fail(sqlstate::kUndefinedFunction,
         fmt::format("operator does not exist: {} {} {}", typeName(args[0]->type), op, typeName(args[1]->type)),
         location);
  // PostgreSQL's pattern operators for bpchar match the padded value: no cast to text,
  // which would strip the trailing blanks.
  for (size_t i = 0; i < args.size(); ++i)
    if (i > 0 || args[i]->type.id != TypeId::Char)
      args[i] = coerce(std::move(args[i]), text, CastContext::Implicit, location);
  return call(function, {TypeId::Bool, -1}, std::move(args));
}

ExprPtr Binder::bindBinary(const std::string& op, ExprPtr a, ExprPtr b, uint32_t location) {
  if (Op o = comparisonOp(op); o != Op::None) return compare(o, std::move(a), std::move(b), location);
  if (ExprPtr e = bindJsonOperator(op, a, b, location)) return e;
  // The pattern-matching operators: regular expressions (~, ~* and their negations !~,
  // !~*) and LIKE's operator names (~~, ~~*, !~~, !~~*).
  static const std::pair<const char*, const char*> kPatternOps[] = {{"~", "duet_rt_text_regex_match"},
                                                                    {"~*", "duet_rt_text_regex_imatch"},
                                                                    {"~~", "duet_rt_text_like"},
                                                                    {"~~*", "duet_rt_text_ilike"}};
  for (const auto& [name, function] : kPatternOps) {
    bool negated = op.size() == std::strlen(name) + 1 && op[0] == '!' && op.compare(1, std::string::npos, name) == 0;
    if (op != name && !negated) continue;
    std::vector<ExprPtr> args;
    args.push_back(std::move(a));
    args.push_back(std::move(b));
    ExprPtr match = patternMatch(function, op.c_str(), args, location);
    return negated ? notExpr(std::move(match)) : std::move(match);
  }

  auto binary = [&](Op o, SqlType type) {
    auto e = std::make_unique<Expr>(ExprKind::Binary, type);
    e->op = o;
    e->args.push_back(std::move(a));
    e->args.push_back(std::move(b));
    return e;
  };
  if (ExprPtr e = bindBitwise(op, a, b, location)) return e;
  if (op == "||") {
    if (a->type.isArray() || b->type.isArray()) return concatArrays(std::move(a), std::move(b), location);
    // bytea || bytea (byteacat), an untyped literal on either side read as bytea.
    SqlType bytea{TypeId::Bytea, -1};
    if ((a->type.id == TypeId::Bytea || b->type.id == TypeId::Bytea) &&
        (a->type.id == TypeId::Bytea || a->type.id == TypeId::Unknown) &&
        (b->type.id == TypeId::Bytea || b->type.id == TypeId::Unknown)) {
      a = coerce(std::move(a), bytea, CastContext::Implicit, location);
      b = coerce(std::move(b), bytea, CastContext::Implicit, location);
      return binary(Op::Concat, bytea);
    }
    // textanycat and anytextcat: one side must be a string (an untyped literal is text).
    if (!isStringType(a->type.id) && !isStringType(b->type.id))
      failNoOperator(typeName(a->type), "||", typeName(b->type), location);
    SqlType text{TypeId::Text, -1};
    a = coerce(std::move(a), text, CastContext::Assignment, location);
    b = coerce(std::move(b), text, CastContext::Assignment, location);
    return binary(Op::Concat, text);
  }
  Op o = op == "+"   ? Op::Add
         : op == "-" ? Op::Sub
         : op == "*" ? Op::Mul
         : op == "/" ? Op::Div
         : op == "%" ? Op::Mod
         : op == "^" ? Op::Pow
                     : Op::None;
  if (o == Op::None)
    fail(sqlstate::kUndefinedFunction,
         fmt::format("operator does not exist: {} {} {}", typeName(a->type), op, typeName(b->type)), location);
  if (ExprPtr e = bindDatetimeArithmetic(o, op, a, b, location)) return e;
  // date arithmetic: date +/- integer, date - date
  if (a->type.id == TypeId::Date && (o == Op::Add || o == Op::Sub)) {
    if (b->type.id == TypeId::Date && o == Op::Sub) return binary(o, {TypeId::Int4, -1});
    b = coerce(std::move(b), {TypeId::Int4, -1}, CastContext::Implicit, location);
    return binary(o, {TypeId::Date, -1});
  }
  if (b->type.id == TypeId::Date && o == Op::Add) {
    std::swap(a, b);
    b = coerce(std::move(b), {TypeId::Int4, -1}, CastContext::Implicit, location);
    return binary(o, {TypeId::Date, -1});
  }
  if (a->type.id == TypeId::Unknown && b->type.id == TypeId::Unknown) {
    a = coerce(std::move(a), {TypeId::Numeric, -1}, CastContext::Implicit, location);
  }
  SqlType leftType = a->type, rightType = b->type;
  unify(a, b, op, location);
  SqlType t = a->type;
  // PostgreSQL has no % for real or double precision.
  if (!numericRank(t.id) || (o == Op::Mod && (t.id == TypeId::Float4 || t.id == TypeId::Float8)))
    fail(sqlstate::kUndefinedFunction,
         fmt::format("operator does not exist: {} {} {}", typeName(leftType), op, typeName(rightType)), location);
  if (o == Op::Pow && t.id != TypeId::Numeric) {
    a = coerce(std::move(a), {TypeId::Float8, -1}, CastContext::Implicit, location);
    b = coerce(std::move(b), {TypeId::Float8, -1}, CastContext::Implicit, location);
    t = {TypeId::Float8, -1};
  }
  t.typmod = -1;
  return binary(o, t);
}

// The operators of interval and timestamps, as pg_operator has them: timestamp(tz) and
// date +/- interval (a date becomes timestamp first, as date_pl_interval does), interval
// +/- interval, interval * and / double precision, timestamp - timestamp. Null when the
// operands are none of these, for the number and date operators to bind.
ExprPtr Binder::bindDatetimeArithmetic(Op o, const std::string& op, ExprPtr& a, ExprPtr& b, uint32_t location) {
  auto isTs = [](TypeId t) { return t == TypeId::Timestamp || t == TypeId::TimestampTz; };
  auto binary = [&](Op bo, SqlType type) {
    auto e = std::make_unique<Expr>(ExprKind::Binary, type);
    e->op = bo;
    e->args.push_back(std::move(a));
    e->args.push_back(std::move(b));
    return e;
  };
  const SqlType interval{TypeId::Interval, -1}, float8{TypeId::Float8, -1};
  TypeId ta = a->type.id, tb = b->type.id;
  bool additive = o == Op::Add || o == Op::Sub;
  if (ta == TypeId::Interval || tb == TypeId::Interval) {
    SqlType leftType = a->type, rightType = b->type;
    auto noOperator = [&] {
      fail(sqlstate::kUndefinedFunction,
           fmt::format("operator does not exist: {} {} {}", typeName(leftType), op, typeName(rightType)), location);
    };
    // The interval on the right of +, the other operand on the left (interval + date).
    if (o == Op::Add && ta == TypeId::Interval && tb != TypeId::Interval && tb != TypeId::Unknown) {
      std::swap(a, b);
      std::swap(ta, tb);
    }
    if (additive && tb == TypeId::Interval) {
      if (ta == TypeId::Interval || ta == TypeId::Unknown) {
        a = coerce(std::move(a), interval, CastContext::Implicit, location);
        return binary(o, interval);
      }
      if (ta == TypeId::Date) a = coerce(std::move(a), {TypeId::Timestamp, -1}, CastContext::Implicit, location);
      if (isTs(a->type.id)) {
        SqlType t{a->type.id, -1};
        return binary(o, t);
      }
      noOperator();
    }
    if (additive && ta == TypeId::Interval && tb == TypeId::Unknown) {
      b = coerce(std::move(b), interval, CastContext::Implicit, location);
      return binary(o, interval);
    }
    if (o == Op::Mul && tb == TypeId::Interval) {
      std::swap(a, b);
      std::swap(ta, tb);
    }
    if ((o == Op::Mul || o == Op::Div) && ta == TypeId::Interval && (numericRank(tb) || tb == TypeId::Unknown)) {
      b = coerce(std::move(b), float8, CastContext::Implicit, location);
      return binary(o, interval);
    }
    noOperator();
  }
  // timestamp + unknown: the literal is an interval (the only timestamp + x operator).
  if (o == Op::Add && isTs(ta) && tb == TypeId::Unknown) {
    b = coerce(std::move(b), interval, CastContext::Implicit, location);
    return binary(o, {ta, -1});
  }
  if (o == Op::Add && isTs(tb) && ta == TypeId::Unknown) {
    a = coerce(std::move(a), interval, CastContext::Implicit, location);
    std::swap(a, b);
    return binary(o, {tb, -1});
  }
  // timestamp - timestamp (a date with a timestamp is a timestamp): a justified interval.
  bool datetimeA = ta == TypeId::Date || isTs(ta), datetimeB = tb == TypeId::Date || isTs(tb);
  if (o == Op::Sub && datetimeA && datetimeB && (isTs(ta) || isTs(tb))) {
    unify(a, b, op, location);
    return binary(o, interval);
  }
  return nullptr;
}

ExprPtr Binder::bindVariable(const sql::ColumnRef& ref, const Scope& scope) {
  if (!request_.resolveVariable || bindingDefault_) return nullptr;
  int param = request_.resolveVariable(ref.names, ref.location);
  if (param < 0) return nullptr;
  if (request_.variablesHideColumns) return plan::makeParam(param, paramTypes_[param]);
  // A column of this query or of one it is a subquery of.
  auto hasColumn = [&](const Scope& s) {
    if (ref.names.size() == 1) return findUnqualified(s, ref.names[0], 0, s.entries.size()).matches > 0;
    bool found = false;
    const std::string& table = ref.names[ref.names.size() - 2];
    for (const auto& entry : s.entries)
      if (entry.alias == table)
        for (const auto& n : entry.names) found = found || n == ref.names.back();
    return found;
  };
  bool column = hasColumn(scope);
  for (const OuterLevel* level : outer_) column = column || hasColumn(*level->scope);
  if (column && request_.columnsHideVariables) return nullptr;
  if (column) {
    std::string shown;
    for (const auto& n : ref.names) shown += (shown.empty() ? "" : ".") + n;
    throw SqlError(sqlstate::kAmbiguousColumn, fmt::format("column reference \"{}\" is ambiguous", shown),
                   "It could refer to either a PL/pgSQL variable or a table column.", {},
                   charPosition(request_.queryText, ref.location));
  }
  return plan::makeParam(param, paramTypes_[param]);
}

ExprPtr Binder::bindColumn(const sql::ColumnRef& ref, const Scope& scope) {
  if (ExprPtr variable = bindVariable(ref, scope)) return variable;
  if (!outer_.empty() && !refersTo(ref, scope))
    if (ExprPtr outer = outerColumn(ref, outer_.size() - 1)) return outer;
  return bindLocalColumn(ref, scope);
}

ExprPtr Binder::outerColumn(const sql::ColumnRef& ref, size_t level) {
  OuterLevel& L = *outer_[level];
  ExprPtr value;
  if (refersTo(ref, *L.scope)) {
    // Bound as that query binds it: over its aggregation's output when it aggregates. The
    // name is that scope's own, so the binding looks no further out.
    try {
      value = bind(ref, *L.scope, L.agg);
    } catch (const SqlError& e) {
      if (e.code != sqlstate::kGroupingError) throw;
      fail(sqlstate::kGroupingError,
           fmt::format("subquery uses ungrouped column \"{}\" from outer query", shownColumn(ref, *L.scope)),
           ref.location);
    }
  } else if (level > 0) {
    value = outerColumn(ref, level - 1);
  }
  if (!value) return nullptr;
  if (value->kind == ExprKind::Param) return value;  // a PL/pgSQL variable needs no capture
  size_t index = 0;
  while (index < L.captures.size() && !exprEquals(*L.captures[index], *value)) ++index;
  if (index == L.captures.size()) L.captures.push_back(plan::cloneExpr(*value));
  auto outerRef = std::make_unique<Expr>(ExprKind::OuterRef, value->type);
  outerRef->column = static_cast<int>(index);
  return outerRef;
}

std::vector<ExprPtr> Binder::correlated(const Scope& scope, const std::function<void()>& planInner) {
  return correlatedIn(scope, nullptr, planInner);
}

std::vector<ExprPtr> Binder::correlatedIn(const Scope& scope, AggContext* agg, const std::function<void()>& planInner) {
  OuterLevel level{&scope, agg, {}};
  outer_.push_back(&level);
  // A subquery inside an aggregate's arguments aggregates at its own level.
  bool aggregateInput = std::exchange(bindingAggregateInput_, false);
  try {
    planInner();
  } catch (...) {
    outer_.pop_back();
    bindingAggregateInput_ = aggregateInput;
    throw;
  }
  outer_.pop_back();
  bindingAggregateInput_ = aggregateInput;
  return std::move(level.captures);
}

void Binder::withoutVariables(const std::function<void()>& planInner) {
  bool saved = std::exchange(bindingDefault_, true);
  try {
    planInner();
  } catch (...) {
    bindingDefault_ = saved;
    throw;
  }
  bindingDefault_ = saved;
}

void Binder::withOuterDepth(size_t depth, const std::function<void()>& planInner) {
  std::vector<OuterLevel*> hidden(outer_.begin() + static_cast<std::ptrdiff_t>(std::min(depth, outer_.size())),
                                  outer_.end());
  outer_.resize(std::min(depth, outer_.size()));
  try {
    planInner();
  } catch (...) {
    outer_.insert(outer_.end(), hidden.begin(), hidden.end());
    throw;
  }
  outer_.insert(outer_.end(), hidden.begin(), hidden.end());
}

ExprPtr Binder::bindSubLink(const sql::SubLink& s, const Scope& scope, AggContext* agg,
                            const sql::BinaryOp* rowComparison) {
  if (!planSubquery_) fail(sqlstate::kFeatureNotSupported, "subqueries are not supported here", s.location);
  std::vector<OutputColumn> columns;
  plan::NodePtr sub;
  std::vector<ExprPtr> captures = correlatedIn(scope, agg, [&] { sub = planSubquery_(*s.subquery, columns); });
  auto e = std::make_unique<Expr>(ExprKind::Subquery, SqlType{TypeId::Bool, -1});
  e->captures = static_cast<int>(captures.size());
  e->args = std::move(captures);
  switch (s.link) {
    case sql::SubLinkKind::Exists: e->sublink = plan::Sublink::Exists; break;
    case sql::SubLinkKind::Scalar:
      if (rowComparison) {
        compareWithSubquery(*e, plan::Sublink::RowCompare, rowComparison->op,
                            bindRowFields(*rowComparison->left, scope, agg), columns, sub, rowComparison->location);
        break;
      }
      if (columns.size() != 1) fail(sqlstate::kSyntaxError, "subquery must return only one column", s.location);
      e->sublink = plan::Sublink::Scalar;
      e->type = columns[0].type;
      break;
    case sql::SubLinkKind::Array:
      if (columns.size() != 1) fail(sqlstate::kSyntaxError, "subquery must return only one column", s.location);
      if (columns[0].type.isArray())
        fail(sqlstate::kFeatureNotSupported, "ARRAY(subquery) of arrays is not supported yet", s.location);
      e->sublink = plan::Sublink::Array;
      e->type = SqlType::arrayOf(columns[0].type.withoutTypmod());
      break;
    case sql::SubLinkKind::Any:
    case sql::SubLinkKind::All:
      compareWithSubquery(*e, s.link == sql::SubLinkKind::Any ? plan::Sublink::Any : plan::Sublink::All, s.op,
                          bindRowFields(*s.test, scope, agg), columns, sub, s.location);
      break;
  }
  e->subplan = std::shared_ptr<plan::Node>(sub.release());
  return e;
}

void Binder::compareWithSubquery(Expr& e, plan::Sublink kind, const std::string& op, std::vector<ExprPtr> left,
                                 const std::vector<OutputColumn>& columns, plan::NodePtr& sub, uint32_t location) {
  if (columns.size() > left.size()) fail(sqlstate::kSyntaxError, "subquery has too many columns", location);
  if (columns.size() < left.size()) fail(sqlstate::kSyntaxError, "subquery has too few columns", location);
  e.op = comparisonOp(op);
  if (e.op == Op::None) {
    if (left.size() > 1) failRowOperator(op, std::move(left[0]), plan::makeColumn(0, columns[0].type), location);
    fail(sqlstate::kUndefinedFunction,
         fmt::format("operator does not exist: {} {} {}", typeName(left[0]->type), op, typeName(columns[0].type)),
         location);
  }
  // Each pair in its common type: the subquery's columns through a projection.
  std::vector<ExprPtr> right;
  bool cast = false;
  for (size_t i = 0; i < left.size(); ++i) {
    right.push_back(plan::makeColumn(static_cast<int>(i), columns[i].type));
    unify(left[i], right[i], op, location);
    cast = cast || right[i]->kind != ExprKind::Column;
  }
  if (cast) {
    auto project = std::make_unique<plan::Node>(plan::NodeKind::Project);
    for (auto& r : right) {
      project->outputTypes.push_back(r->type);
      project->exprs.push_back(std::move(r));
    }
    project->children.push_back(std::move(sub));
    sub = std::move(project);
  }
  e.sublink = kind;
  for (auto& l : left) e.args.push_back(std::move(l));
}

// The system column tableoid: the oid of the table a row comes from, a constant per scope
// entry (pg_dump and other tools select it beside every catalog row). The other system
// columns (ctid, xmin, ...) have no meaning in DuetDB's storage.
namespace {
ExprPtr tableOidColumn(const ScopeEntry& entry) {
  auto e = std::make_unique<Expr>(ExprKind::Const, SqlType::of(TypeAlias::Oid));
  int64_t oid = entry.table->oid;
  std::memcpy(e->constant, &oid, sizeof oid);
  return e;
}
}  // namespace

ExprPtr Binder::bindLocalColumn(const sql::ColumnRef& ref, const Scope& scope) {
  const std::string& column = ref.names.back();
  const ScopeEntry* found = nullptr;
  int index = -1;
  if (ref.names.size() >= 2) {
    const std::string& table = ref.names[ref.names.size() - 2];
    for (const auto& entry : scope.entries) {
      if (entry.alias != table) continue;
      for (size_t c = 0; c < entry.names.size(); ++c)
        if (entry.names[c] == column) {
          if (found)  // a derived table or join alias repeating a name
            fail(sqlstate::kAmbiguousColumn, fmt::format("column reference \"{}\" is ambiguous", column), ref.location);
          found = &entry;
          index = static_cast<int>(c);
        }
      if (!found && column == "tableoid" && entry.table) return tableOidColumn(entry);
      if (!found)
        fail(sqlstate::kUndefinedColumn, fmt::format("column {}.{} does not exist", table, column), ref.location);
      break;
    }
    if (!found && std::find(scope.hidden.begin(), scope.hidden.end(), table) != scope.hidden.end())
      fail(sqlstate::kUndefinedTable, fmt::format("invalid reference to FROM-clause entry for table \"{}\"", table),
           ref.location, "",
           fmt::format("There is an entry for table \"{}\", but it cannot be referenced from this part of the query.",
                       table));
    // A table named by its name where an alias renamed it (PostgreSQL's errorMissingRTE).
    for (const auto& entry : scope.entries)
      if (!found && entry.table && entry.table->name == table && entry.alias != table)
        fail(sqlstate::kUndefinedTable, fmt::format("invalid reference to FROM-clause entry for table \"{}\"", table),
             ref.location, "", fmt::format("Perhaps you meant to reference the table alias \"{}\".", entry.alias));
    if (!found)
      fail(sqlstate::kUndefinedTable, fmt::format("missing FROM-clause entry for table \"{}\"", table), ref.location);
  } else {
    ColumnMatch m = findUnqualified(scope, column, 0, scope.entries.size());
    if (m.matches > 1)
      fail(sqlstate::kAmbiguousColumn, fmt::format("column reference \"{}\" is ambiguous", column), ref.location);
    if (m.matches == 0 && column == "tableoid") {
      const ScopeEntry* only = nullptr;
      int tables = 0;
      for (const auto& entry : scope.entries)
        if (entry.table) only = &entry, ++tables;
      if (tables > 1)
        fail(sqlstate::kAmbiguousColumn, fmt::format("column reference \"{}\" is ambiguous", column), ref.location);
      if (only) return tableOidColumn(*only);
    }
    if (m.matches == 0)
      fail(sqlstate::kUndefinedColumn, fmt::format("column \"{}\" does not exist", column), ref.location);
    return matchValue(scope, m);
  }
  return plan::makeColumn(found->offset + index, found->types[index]);
}

ColumnMatch findUnqualified(const Scope& scope, const std::string& name, size_t first, size_t end) {
  ColumnMatch m;
  for (size_t i = first; i < end; ++i) {
    const ScopeEntry& entry = scope.entries[i];
    for (size_t c = 0; c < entry.names.size(); ++c) {
      if (entry.names[c] != name) continue;
      // A merged column means its join column (the outermost one standing for it).
      int join = c < entry.joinColumn.size() ? entry.joinColumn[c] : -1;
      while (join >= 0 && scope.joinColumns[join].mergedInto >= 0) join = scope.joinColumns[join].mergedInto;
      ColumnMatch here{join >= 0 ? -1 : static_cast<int>(i), join >= 0 ? -1 : static_cast<int>(c), join, 1};
      if (m.matches == 0) {
        m = here;
      } else if (here.entry != m.entry || here.column != m.column || here.join != m.join) {
        ++m.matches;
      }
    }
  }
  return m;
}

ExprPtr matchValue(const Scope& scope, const ColumnMatch& m) {
  if (m.join >= 0) return plan::cloneExpr(*scope.joinColumns[m.join].value);
  const ScopeEntry& entry = scope.entries[m.entry];
  return plan::makeColumn(entry.offset + m.column, entry.types[m.column]);
}

bool Binder::containsAggregate(const sql::Expr& e) {
  checkStackDepth();  // it walks the parser's tree, which may be deeper than bind() went
  using K = sql::ExprKind;
  switch (e.kind) {
    case K::FuncCall: {
      // A window aggregate is no aggregation of the query, but its arguments and window may hold one.
      const auto& f = e.as<sql::FuncCall>();
      if (!f.over && isAggregateCall(f)) return true;
      for (const auto& a : f.args)
        if (containsAggregate(*a)) return true;
      if (f.over) {
        for (const auto& p : f.over->partitionBy)
          if (containsAggregate(*p)) return true;
        for (const auto& o : f.over->orderBy)
          if (containsAggregate(*o.expr)) return true;
      }
      return false;
    }
    case K::Unary: return containsAggregate(*e.as<sql::UnaryOp>().operand);
    case K::Binary:
      return containsAggregate(*e.as<sql::BinaryOp>().left) || containsAggregate(*e.as<sql::BinaryOp>().right);
    case K::Bool:
      for (const auto& a : e.as<sql::BoolExpr>().args)
        if (containsAggregate(*a)) return true;
      return false;
    case K::NullTest: return containsAggregate(*e.as<sql::NullTest>().arg);
    case K::Row:
      for (const auto& a : e.as<sql::RowExpr>().args)
        if (containsAggregate(*a)) return true;
      return false;
    case K::SubLink: return e.as<sql::SubLink>().test && containsAggregate(*e.as<sql::SubLink>().test);
    case K::BoolTest: return containsAggregate(*e.as<sql::BoolTest>().arg);
    case K::Cast: return containsAggregate(*e.as<sql::Cast>().arg);
    case K::Array:
      for (const auto& a : e.as<sql::ArrayExpr>().elements)
        if (containsAggregate(*a)) return true;
      return false;
    case K::FieldSelect: return containsAggregate(*e.as<sql::FieldSelect>().arg);
    case K::Subscript: {
      const auto& s = e.as<sql::Subscript>();
      if (containsAggregate(*s.arg)) return true;
      for (const auto& i : s.indexes)
        if ((i.lower && containsAggregate(*i.lower)) || (i.upper && containsAggregate(*i.upper))) return true;
      return false;
    }
    case K::Between: {
      const auto& b = e.as<sql::Between>();
      return containsAggregate(*b.arg) || containsAggregate(*b.low) || containsAggregate(*b.high);
    }
    case K::InList: {
      const auto& in = e.as<sql::InList>();
      if (containsAggregate(*in.arg)) return true;
      for (const auto& a : in.list)
        if (containsAggregate(*a)) return true;
      return false;
    }
    case K::Like: return containsAggregate(*e.as<sql::Like>().arg) || containsAggregate(*e.as<sql::Like>().pattern);
    case K::ArrayOp:
      return containsAggregate(*e.as<sql::ArrayOp>().left) || containsAggregate(*e.as<sql::ArrayOp>().array);
    case K::DistinctFrom:
      return containsAggregate(*e.as<sql::DistinctFrom>().left) || containsAggregate(*e.as<sql::DistinctFrom>().right);
    case K::Case: {
      const auto& c = e.as<sql::CaseExpr>();
      if (c.arg && containsAggregate(*c.arg)) return true;
      for (const auto& w : c.whens)
        if (containsAggregate(*w.condition) || containsAggregate(*w.result)) return true;
      return c.elseResult && containsAggregate(*c.elseResult);
    }
    default: return false;
  }
}

std::string Binder::targetName(const sql::Expr& e) {
  using K = sql::ExprKind;
  switch (e.kind) {
    case K::ColumnRef: return e.as<sql::ColumnRef>().names.back();
    case K::FuncCall: return e.as<sql::FuncCall>().names.back();
    case K::Cast: {
      const auto& c = e.as<sql::Cast>();
      std::string inner = targetName(*c.arg);
      return inner != "?column?" ? inner : c.type.name();
    }
    case K::Case: return "case";
    case K::Array: return "array";
    case K::SubLink: {
      // EXISTS names its column "exists"; a scalar subquery takes its column's name.
      const auto& link = e.as<sql::SubLink>();
      if (link.link == sql::SubLinkKind::Exists) return "exists";
      if (link.link == sql::SubLinkKind::Array) return "array";
      if (link.link != sql::SubLinkKind::Scalar || link.subquery->targets.size() != 1) return "?column?";
      const sql::ResTarget& t = link.subquery->targets[0];
      return t.alias.empty() ? targetName(*t.expr) : t.alias;
    }
    case K::Subscript: return targetName(*e.as<sql::Subscript>().arg);
    case K::FieldSelect: return e.as<sql::FieldSelect>().field;
    case K::Row: return "row";
    case K::SqlValue: {
      switch (e.as<sql::SqlValue>().value) {
        case sql::SqlValueKind::CurrentDate: return "current_date";
        case sql::SqlValueKind::CurrentTimestamp: return "current_timestamp";
        case sql::SqlValueKind::LocalTimestamp: return "localtimestamp";
        case sql::SqlValueKind::CurrentUser: return "current_user";
        case sql::SqlValueKind::SessionUser: return "session_user";
        case sql::SqlValueKind::User: return "current_user";
        case sql::SqlValueKind::CurrentSchema: return "current_schema";
        case sql::SqlValueKind::CurrentCatalog: return "current_catalog";
        default: return "?column?";
      }
    }
    case K::Literal: {
      const auto& l = e.as<sql::Literal>();
      return l.literal == sql::LiteralKind::Bool ? "bool" : "?column?";
    }
    default: return "?column?";
  }
}

ExprPtr Binder::bindFunction(const sql::FuncCall& f, const Scope& scope, AggContext* agg) {
  // A built-in function of a schema other than pg_catalog is named with its schema.
  std::string qualified = f.names.size() == 2 ? f.names[0] + "." + f.names[1] : "";
  bool otherSchemaBuiltin = !qualified.empty() && !builtinFunctionsNamed(qualified).empty();
  const std::string& name = otherSchemaBuiltin ? qualified : f.names.back();
  bool catalogOnly = f.names.size() > 1 && (f.names[0] == "pg_catalog" || otherSchemaBuiltin);
  // f(..., VARIADIC array) passes the array to a routine's VARIADIC parameter, or a
  // VARIADIC "any" built-in's (concat, format, json_build_array, num_nulls, ...).
  if (f.variadic) {
    std::vector<ExprPtr> args;
    for (const auto& a : f.args) args.push_back(bind(*a, scope, agg));
    if (!catalogOnly)
      if (const RoutineCandidate* r = resolveRoutine(f, args, false))
        return routineCall(*r, std::move(args), f.location);
    if (ExprPtr e = builtinCall(name, args, f.location, f.argNames, true)) return e;
    std::string spelled;
    for (const std::string& part : f.names) spelled += (spelled.empty() ? "" : ".") + part;
    failUndefinedRoutine(spelled, args, false, f.location, f.argNames);
  }
  if (f.names.size() > 1 && !catalogOnly) {
    std::vector<ExprPtr> args;
    for (const auto& a : f.args) args.push_back(bind(*a, scope, agg));
    if (const RoutineCandidate* r = resolveRoutine(f, args, false)) return routineCall(*r, std::move(args), f.location);
    fail(sqlstate::kInvalidSchemaName, fmt::format("schema \"{}\" does not exist", f.names[0]), f.location);
  }
  if (f.over) return bindWindowCall(f, scope, agg);
  if (isAggregateCall(f)) return bindAggregate(f, scope, agg);
  if (isWindowFunctionName(name))
    fail(sqlstate::kWrongObjectType, fmt::format("window function {} requires an OVER clause", name), f.location);
  if (isAggregateCall(f)) return bindAggregate(f, scope, agg);
  // What only an aggregate call may have (PostgreSQL's ParseFuncOrColumn).
  auto notAggregate = [&](const char* what) {
    fail(sqlstate::kWrongObjectType, fmt::format("{} specified, but {} is not an aggregate function", what, name),
         f.location);
  };
  if (f.distinct) notAggregate("DISTINCT");
  if (f.withinGroup) notAggregate("WITHIN GROUP");
  if (!f.orderBy.empty()) notAggregate("ORDER BY");
  if (f.filter) notAggregate("FILTER");
  for (size_t i = 0; i < f.argNames.size(); ++i)
    if (!f.argNames[i].empty() &&
        std::find(f.argNames.begin(), f.argNames.begin() + i, f.argNames[i]) != f.argNames.begin() + i)
      fail(sqlstate::kSyntaxError, fmt::format("argument name \"{}\" used more than once", f.argNames[i]),
           f.args[i]->location);
  std::vector<ExprPtr> args;
  for (const auto& a : f.args) args.push_back(bind(*a, scope, agg));
  auto arity = [&](size_t n) {
    if (args.size() != n) {
      fail(sqlstate::kUndefinedFunction, fmt::format("function {}({}) does not exist", name, argTypeList(args)),
           f.location);
    }
  };
  SqlType text{TypeId::Text, -1};
  if (name == "version") {
    arity(0);
    return textConst("PostgreSQL 15.0 (DuetDB 0.1) on x86_64-pc-linux-gnu, compiled by g++ 12, 64-bit");
  }
  if (name == "to_json" || name == "to_jsonb" || name == "array_to_json" || name == "row_to_json") {
    arity(1);
    if ((name == "array_to_json" && !args[0]->type.isArray()) ||
        (name == "row_to_json" && args[0]->type.id != TypeId::Record))
      fail(sqlstate::kUndefinedFunction, fmt::format("function {}({}) does not exist", name, argTypeList(args)),
           f.location);
    return toJson(std::move(args[0]), name == "to_jsonb", f.location);
  }
  static const std::pair<const char*, TypeAlias> kToReg[] = {
      {"to_regclass", TypeAlias::RegClass},         {"to_regtype", TypeAlias::RegType},
      {"to_regproc", TypeAlias::RegProc},           {"to_regprocedure", TypeAlias::RegProcedure},
      {"to_regnamespace", TypeAlias::RegNamespace}, {"to_regrole", TypeAlias::RegRole}};
  for (auto [fn, alias] : kToReg) {
    if (name != fn) continue;
    // to_regclass(name): name::regclass, or NULL where that cast would fail for want of the
    // object: CASE WHEN duet_q_reg_exists(name, alias) THEN name::regclass END.
    arity(1);
    args[0] = coerce(std::move(args[0]), text, CastContext::Implicit, f.location);
    std::vector<ExprPtr> test;
    test.push_back(plan::cloneExpr(*args[0]));
    test.push_back(int4Const(static_cast<int32_t>(alias)));
    auto e = std::make_unique<Expr>(ExprKind::Case, SqlType::of(alias));
    e->args.push_back(call("duet_q_reg_exists", {TypeId::Bool, -1}, std::move(test)));
    e->args.push_back(coerce(std::move(args[0]), SqlType::of(alias), CastContext::Explicit, f.location));
    return e;
  }
  // has_table_privilege and its kin: every role may do everything while DuetDB keeps no
  // privileges (issue 24); (user,) object, privilege.
  if (name.starts_with("has_") && name.ends_with("_privilege") && name.size() > 14) {
    static const char* const kObjects[] = {
        "table",  "column",     "schema", "database",  "function",  "sequence", "language", "foreign_data_wrapper",
        "server", "tablespace", "type",   "parameter", "any_column"};
    std::string_view object = std::string_view(name).substr(4, name.size() - 14);
    if (std::find(std::begin(kObjects), std::end(kObjects), object) != std::end(kObjects)) {
      size_t minArgs = object == "column" ? 3 : 2;
      if (args.size() < minArgs || args.size() > minArgs + 1) arity(minArgs);
      return boolConst(true);
    }
  }
  static const std::pair<const char*, int32_t> kRelationSizes[] = {
      {"pg_relation_size", 0}, {"pg_table_size", 1}, {"pg_indexes_size", 2}, {"pg_total_relation_size", 3}};
  for (auto [fn, what] : kRelationSizes) {
    if (name != fn) continue;
    // CASE WHEN duet_q_relation_exists(oid) THEN duet_q_relation_size(oid, what) END: NULL
    // for an oid that names no relation (catalog_functions.h).
    arity(1);
    args[0] = coerce(std::move(args[0]), SqlType::of(TypeAlias::RegClass), CastContext::Implicit, f.location);
    std::vector<ExprPtr> test, size;
    test.push_back(plan::cloneExpr(*args[0]));
    size.push_back(std::move(args[0]));
    size.push_back(int4Const(what));
    auto e = std::make_unique<Expr>(ExprKind::Case, SqlType{TypeId::Int8, -1});
    e->args.push_back(call("duet_q_relation_exists", {TypeId::Bool, -1}, std::move(test)));
    e->args.push_back(call("duet_q_relation_size", {TypeId::Int8, -1}, std::move(size)));
    return e;
  }
  if (name == "pg_typeof") {
    arity(1);
    // The argument's type is known now: its oid as a regtype constant, printed by name.
    return coerce(textConst(std::to_string(typeOid(args[0]->type))), SqlType::of(TypeAlias::RegType),
                  CastContext::Explicit, f.location);
  }
  if (name == "format_type" && args.size() == 2) {
    // Not strict in its typmod: a NULL one (psql's format_type(t, NULL)) means none, -1.
    auto typmod = std::make_unique<Expr>(ExprKind::Coalesce, SqlType{TypeId::Int4, -1});
    typmod->args.push_back(coerce(std::move(args[1]), {TypeId::Int4, -1}, CastContext::Implicit, f.location));
    typmod->args.push_back(int4Const(-1));
    args[1] = std::move(typmod);
    return builtinCall("format_type", args, f.location);
  }
  if (name == "current_setting" && args.size() == 2) {
    args[0] = coerce(std::move(args[0]), text, CastContext::Implicit, f.location);
    // current_setting(name, missing_ok): CASE WHEN duet_q_setting_exists(name, missing_ok)
    // THEN current_setting(name) END, NULL for an unknown name when missing_ok (and, the
    // call being strict, for a NULL argument, as in PostgreSQL).
    args[1] = coerce(std::move(args[1]), {TypeId::Bool, -1}, CastContext::Implicit, f.location);
    std::vector<ExprPtr> nameOnly;
    nameOnly.push_back(plan::cloneExpr(*args[0]));
    auto e = std::make_unique<Expr>(ExprKind::Case, text);
    e->args.push_back(call("duet_q_setting_exists", {TypeId::Bool, -1}, std::move(args)));
    e->args.push_back(builtinCall("current_setting", nameOnly, f.location));
    return e;
  }
  if (name == "coalesce") {
    if (args.empty()) arity(1);
    SqlType common = args[0]->type;
    for (const auto& a : args) {
      auto c = commonType(common, a->type);
      if (!c)
        fail(sqlstate::kDatatypeMismatch,
             fmt::format("COALESCE types {} and {} cannot be matched", typeName(common), typeName(a->type)),
             f.location);
      common = *c;
    }
    common = resolveUnknown(common);
    auto e = std::make_unique<Expr>(ExprKind::Coalesce, common);
    for (auto& a : args) e->args.push_back(coerce(std::move(a), common, CastContext::Implicit, f.location));
    return e;
  }
  if (name == "array_position") {
    ExprPtr position = builtinCall(name, args, f.location);
    if (!position) failUndefinedRoutine(name, args, false, f.location);
    // The runtime's 0 (no such element) is SQL's NULL.
    ExprPtr found = compare(Op::Ne, plan::cloneExpr(*position), int4Const(0), f.location);
    auto e = std::make_unique<Expr>(ExprKind::Case, position->type);
    e->args.push_back(std::move(found));
    e->args.push_back(std::move(position));
    return e;
  }
  if (name == "nullif") {
    arity(2);
    // The result has the type of the "=" operator's left input, so NULLIF(NULL, 1) is integer.
    ExprPtr value = std::move(args[0]);
    unify(value, args[1], "=", f.location);
    SqlType type = value->type;
    // CASE WHEN a = b THEN NULL ELSE a END, a evaluated once (before b).
    return evaluatedOnce(std::move(value), [&](const LetReader& read) {
      auto e = std::make_unique<Expr>(ExprKind::Case, type);
      e->hasElse = true;
      e->args.push_back(compare(Op::Eq, read(), std::move(args[1]), f.location));
      e->args.push_back(plan::makeNullConst(type));
      e->args.push_back(read());
      return e;
    });
  }
  if (name == "greatest" || name == "least") {
    if (args.empty()) arity(1);
    SqlType common = args[0]->type;
    for (const auto& a : args) common = commonType(common, a->type).value_or(common);
    common = resolveUnknown(common);
    // One Greatest node evaluates each argument once (a fold of CASEs cloned the running
    // result twice per argument: exponential in their number).
    auto e = std::make_unique<Expr>(ExprKind::Greatest, common);
    e->op = name == "greatest" ? Op::Gt : Op::Lt;
    for (ExprPtr& a : args) {
      a = coerce(std::move(a), common, CastContext::Implicit, f.location);
      // compare() checks that the type can be ordered, as the CASE fold's comparisons did.
      if (e->args.empty()) compare(e->op, plan::cloneExpr(*a), plan::cloneExpr(*a), f.location);
      e->args.push_back(std::move(a));
    }
    return e;
  }
  if (name == "array_length" || name == "array_upper" || name == "array_lower" || name == "cardinality") {
    bool byDimension = name != "cardinality";
    arity(byDimension ? 2 : 1);
    if (args[0]->type.id == TypeId::Unknown)
      fail(sqlstate::kDatatypeMismatch, "could not determine polymorphic type because input has type unknown",
           f.location);
    if (!args[0]->type.isArray() ||
        (byDimension && !castAllowed(args[1]->type.id, TypeId::Int4, CastContext::Implicit)))
      arity(99);
    ExprPtr array = std::move(args[0]);
    bool vector = isVectorAlias(array->type.alias);  // counts from 0 (see bindSubscript)
    SqlType int4{TypeId::Int4, -1};
    std::vector<ExprPtr> one;
    one.push_back(plan::cloneExpr(*array));
    ExprPtr count = call("duet_rt_array_cardinality", int4, std::move(one));
    if (!byDimension) return count;
    // NULL unless the dimension exists: dimension 1 of a non-empty array.
    std::vector<ExprPtr> check;
    check.push_back(std::move(array));
    check.push_back(coerce(std::move(args[1]), int4, CastContext::Implicit, f.location));
    auto e = std::make_unique<Expr>(ExprKind::Case, int4);
    e->args.push_back(call("duet_rt_array_has_dimension", {TypeId::Bool, -1}, std::move(check)));
    if (name == "array_lower") {
      e->args.push_back(int4Const(vector ? 0 : 1));
    } else if (vector) {
      auto last = std::make_unique<Expr>(ExprKind::Binary, int4);
      last->op = Op::Sub;
      last->args.push_back(std::move(count));
      last->args.push_back(int4Const(1));
      e->args.push_back(std::move(last));
    } else {
      e->args.push_back(std::move(count));
    }
    return e;
  }
  if (name == "abs") {
    arity(1);
    if (args[0]->type.id == TypeId::Unknown)
      args[0] = coerce(std::move(args[0]), {TypeId::Float8, -1}, CastContext::Implicit, f.location);
    SqlType t = args[0]->type;
    if (!numericRank(t.id)) arity(99);
    t.typmod = -1;
    auto e = std::make_unique<Expr>(ExprKind::Unary, t);
    e->op = Op::Abs;
    e->args.push_back(std::move(args[0]));
    return e;
  }
  if (ExprPtr e = builtinCall(name, args, f.location, f.argNames)) return e;
  if (!catalogOnly)
    if (const RoutineCandidate* r = resolveRoutine(f, args, false)) return routineCall(*r, std::move(args), f.location);
  // PostgreSQL names the function as the call spelled it, schema included.
  std::string spelled;
  for (const std::string& part : f.names) spelled += (spelled.empty() ? "" : ".") + part;
  failUndefinedRoutine(spelled, args, false, f.location, f.argNames);
}

void Binder::failUndefinedRoutine(const std::string& name, const std::vector<ExprPtr>& args, bool procedure,
                                  uint32_t location, const std::vector<std::string>& argNames) const {
  std::string types = argTypeList(args, argNames);
  const char* noun = procedure ? "procedure" : "function";
  throw SqlError(
      sqlstate::kUndefinedFunction, fmt::format("{} {}({}) does not exist", noun, name, types), {},
      fmt::format("No {} matches the given name and argument types. You might need to add explicit type casts.", noun),
      charPosition(request_.queryText, location));
}

void Binder::failAmbiguousRoutine(const std::string& name, const std::vector<ExprPtr>& args, bool procedure,
                                  uint32_t location) const {
  std::string types = argTypeList(args);
  const char* noun = procedure ? "procedure" : "function";
  throw SqlError("42725", fmt::format("{} {}({}) is not unique", noun, name, types), {},
                 fmt::format("Could not choose a best candidate {}. You might need to add explicit type casts.", noun),
                 charPosition(request_.queryText, location));
}

namespace {

// Which argument each parameter of a row with named parameters takes (positional
// arguments first, then `name => value`), -1 for a parameter left to its default; false
// when the call does not fit (an unknown or repeated name, a missing parameter without a
// default).
bool mapNamedArguments(const BuiltinFunction& f, const std::vector<std::string>& names, size_t count,
                       std::vector<int>& map) {
  size_t n = f.args.size();
  map.assign(n, -1);
  if (count > n) return false;
  for (size_t a = 0; a < count; ++a) {
    size_t k = a;
    if (a < names.size() && !names[a].empty()) {
      auto it = std::find(f.argNames.begin(), f.argNames.end(), names[a]);
      if (it == f.argNames.end()) return false;
      k = static_cast<size_t>(it - f.argNames.begin());
    }
    if (map[k] >= 0) return false;
    map[k] = static_cast<int>(a);
  }
  for (size_t k = 0; k < n; ++k)
    if (map[k] < 0 && k < n - f.defaults) return false;
  return true;
}

bool hasNames(const std::vector<std::string>& names) {
  return std::any_of(names.begin(), names.end(), [](const std::string& s) { return !s.empty(); });
}

// PostgreSQL's anycompatible resolution for a row with anyCompatible: the common type of
// its Unknown (anycompatible) arguments and of the elements of its Array
// (anycompatiblearray) ones, text when all are unknown literals; nullopt when a value goes
// where an array belongs, or the inputs have no common type (the row does not fit).
std::optional<SqlType> anyCompatibleType(const BuiltinFunction& f, const std::vector<ExprPtr>& args) {
  SqlType common{TypeId::Unknown, -1};
  for (size_t i = 0; i < f.args.size(); ++i) {
    SqlType t = args[i]->type;
    if (f.args[i] == TypeId::Array) {
      if (t.isArray())
        t = t.elementType();
      else if (t.id != TypeId::Unknown)  // an untyped literal takes the others' type
        return std::nullopt;
    } else if (f.args[i] == TypeId::Unknown) {
      if (t.isArray()) return std::nullopt;
    } else {
      continue;  // an ordinary parameter
    }
    std::optional<SqlType> next = commonType(common, t.withoutTypmod());
    if (!next) return std::nullopt;
    common = *next;
  }
  return resolveUnknown(common);
}

}  // namespace

ExprPtr Binder::builtinCall(const std::string& name, std::vector<ExprPtr>& args, uint32_t location,
                            const std::vector<std::string>& argNames, bool variadicArray) {
  BestCandidate<BuiltinFunction> chosen;
  bool named = hasNames(argNames);
  std::vector<int> map;
  // int2vector and oidvector count from 0 (see bindSubscript): their subscripts are theirs.
  bool vector = name == "generate_subscripts" && !args.empty() && isVectorAlias(args[0]->type.alias);
  for (const BuiltinFunction* f : builtinFunctionsNamed(vector ? "duet_vector_subscripts" : name)) {
    size_t fixed = f->args.size();
    // VARIADIC array: the rows whose "any" arguments it can stand for, positionally.
    if (variadicArray && (named || f->anyArgs != kVariadicAny || args.size() != fixed + 1)) continue;
    if (!f->argNames.empty()) {
      // Named parameters with defaults (make_interval): scored on the arguments given.
      if (!mapNamedArguments(*f, argNames, args.size(), map)) continue;
      CandidateScore score;
      bool ok = true;
      for (size_t i = 0; i < fixed && ok; ++i)
        if (map[i] >= 0) ok = score.add(args[map[i]]->type, f->paramType(i));
      if (ok) chosen.offer(f, score);
      continue;
    }
    if (named) continue;
    if (f->anyArgs == kVariadicAny ? args.size() <= fixed : args.size() != fixed + f->anyArgs) continue;
    CandidateScore score;
    bool ok = true;
    if (f->anyCompatible && !anyCompatibleType(*f, args)) continue;
    for (size_t i = 0; i < fixed && ok; ++i) {
      if (f->anyCompatible && (f->args[i] == TypeId::Unknown || f->args[i] == TypeId::Array)) {
        score.exact += args[i]->type.id != TypeId::Unknown;
        continue;
      }
      if (f->anyArray && f->args[i] == TypeId::Array) {
        if (args[i]->type.id == TypeId::Unknown)
          fail(sqlstate::kDatatypeMismatch, "could not determine polymorphic type because input has type unknown",
               location);
        ok = args[i]->type.isArray();
        score.exact += ok;
        continue;
      }
      ok = score.add(args[i]->type, f->paramType(i));
    }
    if (ok) chosen.offer(f, score);
  }
  const BuiltinFunction* best = chosen.best;
  if (!best) return nullptr;
  if (chosen.ambiguous) failAmbiguousRoutine(name, args, false, location);
  size_t fixed = best->args.size();
  if (!best->argNames.empty()) {
    // In parameter order, the defaults (zeros) filled in.
    mapNamedArguments(*best, argNames, args.size(), map);
    std::vector<ExprPtr> ordered;
    for (size_t i = 0; i < fixed; ++i) ordered.push_back(map[i] >= 0 ? std::move(args[map[i]]) : int4Const(0));
    args = std::move(ordered);
  }
  SqlType element{TypeId::Unknown, -1};  // an anyarray argument's element type
  std::optional<SqlType> compatible = best->anyCompatible ? anyCompatibleType(*best, args) : std::nullopt;
  for (size_t i = 0; i < fixed; ++i) {
    if (compatible && (best->args[i] == TypeId::Unknown || best->args[i] == TypeId::Array)) {
      SqlType to = best->args[i] == TypeId::Array ? SqlType::arrayOf(*compatible) : *compatible;
      args[i] = coerce(std::move(args[i]), to, CastContext::Implicit, location);
      continue;
    }
    if (best->anyArray && best->args[i] == TypeId::Array) {
      element = args[i]->type.elementType().withoutTypmod();
      continue;
    }
    args[i] = coerce(std::move(args[i]), best->paramType(i), CastContext::Implicit, location);
  }
  if (variadicArray) {
    // VARIADIC array: its elements are the "any" arguments, converted when the call runs.
    ExprPtr array = std::move(args.back());
    if (!array->type.isArray()) fail(sqlstate::kDatatypeMismatch, "VARIADIC argument must be an array", location);
    std::vector<ExprPtr> convert;
    convert.push_back(std::move(array));
    convert.push_back(boolConst(best->anyArgsAsJson));
    ExprPtr texts = call("duet_q_array_element_texts", SqlType::arrayOf({TypeId::Text, -1}), std::move(convert));
    if (best->variadicNullIsEmpty) {
      // A NULL array: no "any" arguments.
      auto none = std::make_unique<Expr>(ExprKind::Coalesce, texts->type);
      none->args.push_back(std::move(texts));
      none->args.push_back(std::make_unique<Expr>(ExprKind::ArrayBuild, none->type));
      texts = std::move(none);
    }
    args.back() = std::move(texts);
  } else if (best->anyArgs != 0) {
    // "any" arguments: their output texts, in one text[] that keeps their NULLs.
    SqlType text{TypeId::Text, -1};
    auto packed = std::make_unique<Expr>(ExprKind::ArrayBuild, SqlType::arrayOf(text));
    for (size_t i = fixed; i < args.size(); ++i)
      packed->args.push_back(best->anyArgsAsJson ? coerce(toJson(std::move(args[i]), false, location), text,
                                                          CastContext::Explicit, location)
                                                 : outputText(std::move(args[i]), location));
    args.resize(fixed);
    args.push_back(std::move(packed));
  }
  SqlType result{best->result, -1};
  if (best->result == TypeId::Array) result = SqlType::arrayOf({best->resultElement, -1});
  // anycompatiblearray in, anycompatiblearray out (array_remove).
  if (compatible && best->result == TypeId::Array && best->resultElement == TypeId::Unknown)
    result = SqlType::arrayOf(*compatible);
  if (best->anyArray && best->result == TypeId::Unknown) result = element;
  if (best->result == TypeId::Record) {
    std::vector<RecordField> fields;
    for (const auto& [field, type] : best->recordFields)
      fields.push_back({std::string(field), type == TypeId::Unknown ? element : SqlType{type, -1}});
    result = recordType(fields);
  }
  ExprPtr e = call(best->symbol, result, std::move(args));
  if (!best->returnsSet || bindingSetScan_) return e;
  // In a select list: the ProjectSet below the projection calls it, as for a routine.
  if (!setReturning_)
    fail(sqlstate::kFeatureNotSupported, fmt::format("set-returning functions are not allowed in {}", clause_),
         location);
  return collectSetCall(std::move(e), location);
}

ExprPtr Binder::collectSetCall(ExprPtr call, uint32_t location) {
  // Its arguments are over the FROM row: a set-returning call among them would run in a
  // ProjectSet of its own below this one.
  for (const auto& a : call->args)
    if (columnRange(*a).second >= setReturning_->firstColumn)
      fail(sqlstate::kFeatureNotSupported,
           "a set-returning function in the arguments of a set-returning function is not supported yet", location);
  SqlType type = call->type;
  setReturning_->calls.push_back(std::move(call));
  return plan::makeColumn(setReturning_->firstColumn + static_cast<int>(setReturning_->calls.size()) - 1, type);
}

bool Binder::isBuiltinSetFunction(const std::string& name) {
  for (const BuiltinFunction* f : builtinFunctionsNamed(name))
    if (f->returnsSet) return true;
  return false;
}

ExprPtr Binder::builtinSetCall(const std::string& name, std::vector<ExprPtr>& args, uint32_t location) {
  bindingSetScan_ = true;
  try {
    ExprPtr e = builtinCall(name, args, location);
    bindingSetScan_ = false;
    return e;
  } catch (...) {
    bindingSetScan_ = false;
    throw;
  }
}

ExprPtr Binder::outputText(ExprPtr e, uint32_t location) {
  SqlType text{TypeId::Text, -1};
  if (e->type.id == TypeId::Bool) {
    // boolout's t and f, where the cast to text says true and false; NULL stays NULL.
    auto out = std::make_unique<Expr>(ExprKind::Case, text);
    ExprPtr isFalse = notExpr(plan::cloneExpr(*e));
    out->args.push_back(std::move(e));
    out->args.push_back(textConst("t"));
    out->args.push_back(std::move(isFalse));
    out->args.push_back(textConst("f"));
    return out;
  }
  // bpcharout keeps the padding the cast to text strips; char(n) is a string like text.
  if (e->type.id == TypeId::Char) return e;
  return coerce(std::move(e), text, CastContext::Explicit, location);
}

ExprPtr Binder::bindArray(const sql::ArrayExpr& a, const Scope& scope, AggContext* agg, const SqlType* castTo) {
  for (const auto& element : a.elements)
    if (element->kind == sql::ExprKind::Array)
      fail(sqlstate::kFeatureNotSupported, "multidimensional arrays are not supported", element->location);
  std::vector<ExprPtr> elements;
  for (const auto& element : a.elements) elements.push_back(bind(*element, scope, agg));
  for (size_t i = 0; i < elements.size(); ++i)
    if (elements[i]->type.isArray())
      fail(sqlstate::kFeatureNotSupported, "multidimensional arrays are not supported", a.elements[i]->location);
  SqlType element;
  if (castTo) {
    element = castTo->elementType();
  } else {
    if (elements.empty())
      throw SqlError(sqlstate::kIndeterminateDatatype, "cannot determine type of empty array", {},
                     "Explicitly cast to the desired type, for example ARRAY[]::integer[].",
                     charPosition(request_.queryText, a.location));
    // select_common_type over the elements, as transformArrayExpr does.
    element = elements[0]->type;
    for (size_t i = 1; i < elements.size(); ++i) {
      auto t = commonType(element, elements[i]->type);
      if (!t)
        fail(sqlstate::kDatatypeMismatch,
             fmt::format("ARRAY types {} and {} cannot be matched", typeName(element), typeName(elements[i]->type)),
             a.elements[i]->location);
      element = *t;
    }
    element = resolveUnknown(element);
  }
  auto e = std::make_unique<Expr>(ExprKind::ArrayBuild, SqlType::arrayOf(element));
  for (size_t i = 0; i < elements.size(); ++i)
    e->args.push_back(coerce(std::move(elements[i]), element, castTo ? CastContext::Explicit : CastContext::Implicit,
                             a.elements[i]->location));
  return e;
}

ExprPtr Binder::bindSubscript(const sql::Subscript& s, const Scope& scope, AggContext* agg) {
  ExprPtr array = bind(*s.arg, scope, agg);
  // A name is PostgreSQL's fixed array of chars: name[i] is its "char" at i, counted from 0
  // (pg_dump reads typname[0]).
  if (array->type.alias == TypeAlias::Name && s.indexes.size() == 1 && !s.indexes[0].slice) {
    ExprPtr i = coerce(bind(*s.indexes[0].upper, scope, agg), {TypeId::Int4, -1}, CastContext::Assignment,
                       s.indexes[0].location);
    auto start = std::make_unique<Expr>(ExprKind::Binary, SqlType{TypeId::Int4, -1});
    start->op = Op::Add;
    start->args.push_back(std::move(i));
    start->args.push_back(int4Const(1));
    std::vector<ExprPtr> args;
    args.push_back(std::move(array));
    args.push_back(std::move(start));
    args.push_back(int4Const(1));
    return call("duet_rt_text_substr", SqlType::of(TypeAlias::InternalChar), std::move(args));
  }
  if (!array->type.isArray())
    fail(sqlstate::kDatatypeMismatch,
         fmt::format("cannot subscript type {} because it does not support subscripting", typeName(array->type)),
         s.arg->location);
  SqlType int4{TypeId::Int4, -1};
  std::vector<ExprPtr> indexes;
  for (const auto& index : s.indexes) {
    if (index.slice) fail(sqlstate::kFeatureNotSupported, "array slices are not supported yet", index.location);
    ExprPtr i = bind(*index.upper, scope, agg);
    // transformArraySubscripts: an assignment coercion to integer.
    if (!castAllowed(i->type.id, TypeId::Int4, CastContext::Assignment))
      fail(sqlstate::kDatatypeMismatch, "array subscript must have type integer", index.location);
    indexes.push_back(coerce(std::move(i), int4, CastContext::Assignment, index.location));
  }
  // int2vector and oidvector (pg_index.indkey, pg_proc.proargtypes) count from 0 in
  // PostgreSQL; they are arrays from 1 here.
  if (isVectorAlias(array->type.alias) && indexes.size() == 1) {
    auto shifted = std::make_unique<Expr>(ExprKind::Binary, int4);
    shifted->op = Op::Add;
    shifted->args.push_back(std::move(indexes[0]));
    shifted->args.push_back(int4Const(1));
    indexes[0] = std::move(shifted);
  }
  SqlType element = array->type.elementType();
  // Every array here has one dimension: more subscripts than that give NULL, as in PostgreSQL.
  if (indexes.size() != 1) return plan::makeNullConst(element);
  // CASE WHEN a IS NOT NULL THEN CASE WHEN a[i] exists and is not NULL THEN a[i] END END,
  // a and i evaluated once each; a NULL array is NULL without evaluating the subscript, as
  // PostgreSQL's SubscriptingRef skips its subscripts then (their errors, their calls).
  return evaluatedOnce(std::move(array), [&](const LetReader& readArray) {
    auto present = std::make_unique<Expr>(ExprKind::IsNull, SqlType{TypeId::Bool, -1});
    present->negated = true;
    present->args.push_back(readArray());
    auto e = std::make_unique<Expr>(ExprKind::Case, element);
    e->args.push_back(std::move(present));
    e->args.push_back(evaluatedOnce(std::move(indexes[0]), [&](const LetReader& readIndex) {
      std::vector<ExprPtr> checkArgs, getArgs;
      checkArgs.push_back(readArray());
      checkArgs.push_back(readIndex());
      getArgs.push_back(readArray());
      getArgs.push_back(readIndex());
      auto get = std::make_unique<Expr>(ExprKind::Case, element);
      get->args.push_back(call("duet_rt_array_has", {TypeId::Bool, -1}, std::move(checkArgs)));
      get->args.push_back(call(arrayGetFunction(element.id), element, std::move(getArgs)));
      return get;
    }));
    return e;
  });
}

// x IN (a, b, ...) bound as `x = a OR x = b ...` (`equalities`), each pair coerced on its
// own. When every comparison left x as it is (its items took x's type), one InList
// evaluates x once and the items in a loop; a list that mixes types keeps the OR.
ExprPtr Binder::inList(ExprPtr arg, ExprPtr equalities) {
  for (const ExprPtr& eq : equalities->args) {
    bool sameArg = eq->kind == ExprKind::Compare && eq->op == Op::Eq && eq->args[0]->type == arg->type &&
                   eq->args[1]->type == arg->type && eq->args[0]->kind == arg->kind;
    if (!sameArg) return equalities;
  }
  auto in = std::make_unique<Expr>(ExprKind::InList, SqlType{TypeId::Bool, -1});
  in->args.push_back(std::move(arg));
  for (ExprPtr& eq : equalities->args) in->args.push_back(std::move(eq->args[1]));
  return in;
}

// x = a OR x = b OR ... - x IN (a, b, ...) as ORMs and generators write it - with at least
// kMinEqualityRun such terms of one x (among the first kMaxEqualityXs x's) as one InList:
// the same truth value, NULLs included, and one loop instead of a branch per term (20,000
// terms compiled for seconds). Only where x is a column or a parameter and the items are
// constants or parameters of x's type, so that evaluating x once and the terms in another
// order changes nothing.
ExprPtr Binder::equalityRunsAsInLists(ExprPtr any) {
  constexpr size_t kMinEqualityRun = 8;
  constexpr size_t kMaxEqualityXs = 16;
  auto item = [](const Expr& eq) -> const Expr* {
    if (eq.kind != ExprKind::Compare || eq.op != Op::Eq) return nullptr;
    const Expr& x = *eq.args[0];
    const Expr& v = *eq.args[1];
    bool plainX = x.kind == ExprKind::Column || x.kind == ExprKind::Param;
    bool plainItem = (v.kind == ExprKind::Param || v.kind == ExprKind::Const) && v.type == x.type;
    return plainX && plainItem ? &x : nullptr;
  };
  // The terms of each x, by index.
  std::vector<std::pair<const Expr*, std::vector<size_t>>> groups;
  for (size_t i = 0; i < any->args.size(); ++i) {
    const Expr* x = item(*any->args[i]);
    if (!x) continue;
    auto g =
        std::find_if(groups.begin(), groups.end(), [&](const auto& group) { return exprEquals(*group.first, *x); });
    if (g != groups.end())
      g->second.push_back(i);
    else if (groups.size() < kMaxEqualityXs)
      groups.push_back({x, {i}});
  }
  std::vector<bool> listed(any->args.size(), false);
  std::vector<ExprPtr> lists;
  for (auto& [x, indexes] : groups) {
    if (indexes.size() < kMinEqualityRun) continue;
    auto in = std::make_unique<Expr>(ExprKind::InList, SqlType{TypeId::Bool, -1});
    in->args.push_back(std::move(any->args[indexes[0]]->args[0]));
    for (size_t i : indexes) {
      in->args.push_back(std::move(any->args[i]->args[1]));
      listed[i] = true;
    }
    lists.push_back(std::move(in));
  }
  if (lists.empty()) return any;
  std::vector<ExprPtr> terms;
  for (size_t i = 0; i < any->args.size(); ++i)
    if (!listed[i]) terms.push_back(std::move(any->args[i]));
  for (ExprPtr& in : lists) terms.push_back(std::move(in));
  if (terms.size() == 1) return std::move(terms[0]);
  any->args = std::move(terms);
  return any;
}

ExprPtr Binder::bind(const sql::Expr& e, const Scope& scope, AggContext* agg) {
  checkStackDepth();
  checkForInterrupts();
  using K = sql::ExprKind;
  // Over an aggregation, a whole expression that is a GROUP BY item reads its output.
  if (agg && e.kind != K::Literal && e.kind != K::Param && e.kind != K::SubLink && !containsAggregate(e)) {
    if (!agg->groupExprs.empty() || e.kind == K::ColumnRef) {
      ExprPtr plain = bind(e, scope, nullptr);
      if (plain->kind == ExprKind::Param) return plain;  // a PL/pgSQL variable
      for (size_t g = 0; g < agg->groupExprs.size(); ++g)
        if (exprEquals(*plain, *agg->groupExprs[g], &paramClass_))
          return plan::makeColumn(static_cast<int>(g), plain->type);
      if (e.kind == K::ColumnRef) {
        fail(sqlstate::kGroupingError,
             fmt::format("column \"{}\" must appear in the GROUP BY clause or be used in an aggregate function",
                         shownColumn(e.as<sql::ColumnRef>(), scope)),
             e.location);
      }
    }
  }
  switch (e.kind) {
    case K::GroupingSet: fail(sqlstate::kSyntaxError, "syntax error at or near \"(\"", e.location);
    case K::Literal: {
      const auto& l = e.as<sql::Literal>();
      switch (l.literal) {
        case sql::LiteralKind::Null: return plan::makeNullConst({TypeId::Unknown, -1});
        case sql::LiteralKind::Bool: return boolConst(l.text == "true");
        case sql::LiteralKind::String: return textConst(l.text, TypeId::Unknown);
        case sql::LiteralKind::Integer: {
          int64_t v = 0;
          auto [p, ec] = std::from_chars(l.text.data(), l.text.data() + l.text.size(), v);
          if (ec == std::errc() && p == l.text.data() + l.text.size()) {
            bool small = v >= INT32_MIN && v <= INT32_MAX;
            auto c = std::make_unique<Expr>(ExprKind::Const, SqlType{small ? TypeId::Int4 : TypeId::Int8, -1});
            if (small) {
              int32_t v32 = static_cast<int32_t>(v);
              std::memcpy(c->constant, &v32, 4);
            } else
              std::memcpy(c->constant, &v, 8);
            return c;
          }
          return plan::makeCast(textConst(l.text, TypeId::Unknown), {TypeId::Numeric, -1}, true);
        }
        case sql::LiteralKind::Numeric:
          return plan::makeCast(textConst(l.text, TypeId::Unknown), {TypeId::Numeric, -1}, true);
      }
      break;
    }
    case K::Param: {
      const auto& p = e.as<sql::Param>();
      int index = p.number - 1;
      if (const auto& numbered = request_.numberedParams)
        index = index >= 0 && index < static_cast<int>(numbered->size()) ? (*numbered)[index] : -1;
      if (index < 0 || index >= static_cast<int>(paramTypes_.size()))
        fail(sqlstate::kUndefinedParameter, fmt::format("there is no parameter ${}", p.number), e.location);
      return plan::makeParam(index, paramTypes_[index]);
    }
    case K::ColumnRef: {
      const auto& ref = e.as<sql::ColumnRef>();
      if (ref.star) fail(sqlstate::kSyntaxError, "\"*\" is not allowed here", e.location);
      return bindColumn(ref, scope);
    }
    case K::Unary: {
      const auto& u = e.as<sql::UnaryOp>();
      ExprPtr a = bind(*u.operand, scope, agg);
      if (u.op == "+") return a;
      if (u.op == "~") return bindBitNot(std::move(a), e.location);
      if (u.op != "-")
        fail(sqlstate::kUndefinedFunction, fmt::format("operator does not exist: {} {}", u.op, typeName(a->type)),
             e.location);
      if (a->type.id == TypeId::Unknown)
        a = coerce(std::move(a), {TypeId::Numeric, -1}, CastContext::Implicit, e.location);
      if (!numericRank(a->type.id) && a->type.id != TypeId::Interval)
        fail(sqlstate::kUndefinedFunction, fmt::format("operator does not exist: - {}", typeName(a->type)), e.location);
      SqlType t{a->type.id, -1};
      auto n = std::make_unique<Expr>(ExprKind::Unary, t);
      n->op = Op::Neg;
      n->args.push_back(std::move(a));
      return n;
    }
    case K::Binary: {
      const auto& bop = e.as<sql::BinaryOp>();
      if (bop.left->kind == K::Row || bop.right->kind == K::Row) return bindRowOperator(bop, scope, agg);
      return bindBinary(bop.op, bind(*bop.left, scope, agg), bind(*bop.right, scope, agg), e.location);
    }
    case K::Bool: {
      const auto& be = e.as<sql::BoolExpr>();
      const char* what = be.op == sql::BoolOpKind::And ? "AND" : be.op == sql::BoolOpKind::Or ? "OR" : "NOT";
      if (be.op == sql::BoolOpKind::Not) return notExpr(coerceToBool(bind(*be.args[0], scope, agg), what, e.location));
      auto n = std::make_unique<Expr>(be.op == sql::BoolOpKind::And ? ExprKind::And : ExprKind::Or,
                                      SqlType{TypeId::Bool, -1});
      for (const auto& a : be.args) n->args.push_back(coerceToBool(bind(*a, scope, agg), what, a->location));
      return n->kind == ExprKind::Or ? equalityRunsAsInLists(std::move(n)) : std::move(n);
    }
    case K::NullTest: {
      const auto& nt = e.as<sql::NullTest>();
      if (nt.arg->kind == K::Row) return bindRowNullTest(nt, scope, agg);
      ExprPtr arg = bind(*nt.arg, scope, agg);
      if (arg->type.id == TypeId::Record && arg->type.typmod >= 0) return recordNullTest(std::move(arg), nt.isNot);
      auto n = std::make_unique<Expr>(ExprKind::IsNull, SqlType{TypeId::Bool, -1});
      n->negated = nt.isNot;
      n->args.push_back(std::move(arg));
      return n;
    }
    case K::BoolTest: {
      const auto& bt = e.as<sql::BoolTest>();
      ExprPtr a = coerceToBool(bind(*bt.arg, scope, agg), "IS TRUE", e.location);
      using T = sql::BoolTestKind;
      if (bt.test == T::IsUnknown || bt.test == T::IsNotUnknown) {
        auto n = std::make_unique<Expr>(ExprKind::IsNull, SqlType{TypeId::Bool, -1});
        n->negated = bt.test == T::IsNotUnknown;
        n->args.push_back(std::move(a));
        return n;
      }
      auto n = std::make_unique<Expr>(ExprKind::IsTrue, SqlType{TypeId::Bool, -1});
      n->op = bt.test == T::IsTrue || bt.test == T::IsNotTrue ? Op::Eq : Op::Ne;
      n->negated = bt.test == T::IsNotTrue || bt.test == T::IsNotFalse;
      n->args.push_back(std::move(a));
      return n;
    }
    case K::DistinctFrom: {
      const auto& d = e.as<sql::DistinctFrom>();
      if (d.left->kind == K::Row || d.right->kind == K::Row) return bindRowDistinct(d, scope, agg);
      ExprPtr same = notDistinct(bind(*d.left, scope, agg), bind(*d.right, scope, agg), e.location);
      return d.isNot ? std::move(same) : notExpr(std::move(same));
    }
    case K::Between: {
      const auto& bt = e.as<sql::Between>();
      ExprPtr arg = bind(*bt.arg, scope, agg);
      shareParams(*arg);
      ExprPtr low = bind(*bt.low, scope, agg), high = bind(*bt.high, scope, agg);
      if (bt.symmetric) {  // the bounds are compared twice too
        shareParams(*low);
        shareParams(*high);
      }
      ExprPtr in = logic(ExprKind::And, compare(Op::Ge, plan::cloneExpr(*arg), plan::cloneExpr(*low), e.location),
                         compare(Op::Le, plan::cloneExpr(*arg), plan::cloneExpr(*high), e.location));
      if (bt.symmetric) {
        // In sequence: as arguments of one call, the move of arg could come before its clone.
        ExprPtr atLeastHigh = compare(Op::Ge, plan::cloneExpr(*arg), std::move(high), e.location);
        ExprPtr atMostLow = compare(Op::Le, std::move(arg), std::move(low), e.location);
        in = logic(ExprKind::Or, std::move(in), logic(ExprKind::And, std::move(atLeastHigh), std::move(atMostLow)));
      }
      return bt.isNot ? notExpr(std::move(in)) : std::move(in);
    }
    case K::InList: {
      const auto& in = e.as<sql::InList>();
      if (in.arg->kind == K::Row) return bindRowInList(in, scope, agg);
      ExprPtr arg = bind(*in.arg, scope, agg);
      shareParams(*arg);
      auto any = std::make_unique<Expr>(ExprKind::Or, SqlType{TypeId::Bool, -1});
      for (const auto& item : in.list)
        any->args.push_back(compare(Op::Eq, plan::cloneExpr(*arg), bind(*item, scope, agg), item->location));
      ExprPtr result = any->args.size() == 1 ? std::move(any->args[0]) : inList(std::move(arg), std::move(any));
      return in.isNot ? notExpr(std::move(result)) : std::move(result);
    }
    case K::Like: {
      const auto& l = e.as<sql::Like>();
      std::vector<ExprPtr> args;
      args.push_back(bind(*l.arg, scope, agg));
      args.push_back(bind(*l.pattern, scope, agg));
      if (l.escape) args.push_back(bind(*l.escape, scope, agg));
      const char* op = l.similar ? "~" : l.caseInsensitive ? "~~*" : "~~";
      ExprPtr match;
      if (l.similar)
        match = patternMatch(l.escape ? "duet_rt_text_similar_escape" : "duet_rt_text_similar", op, args, e.location);
      else if (l.escape)
        match = patternMatch(l.caseInsensitive ? "duet_rt_text_ilike_escape" : "duet_rt_text_like_escape", op, args,
                             e.location);
      if (match) return l.isNot ? notExpr(std::move(match)) : std::move(match);
      // Plain LIKE: a node of its own, which the code generator calls likeMatch for.
      ExprPtr call = patternMatch("", op, args, e.location);
      auto n = std::make_unique<Expr>(ExprKind::Like, SqlType{TypeId::Bool, -1});
      n->negated = l.isNot;
      n->caseInsensitive = l.caseInsensitive;
      n->args = std::move(call->args);
      return n;
    }
    case K::Cast: {
      const auto& c = e.as<sql::Cast>();
      SqlType target = resolveType(c.type);
      // ARRAY[...]::t[] takes its element type from the cast (so ARRAY[]::int[] works).
      if (target.isArray() && c.arg->kind == K::Array)
        return coerce(bindArray(c.arg->as<sql::ArrayExpr>(), scope, agg, &target), target, CastContext::Explicit,
                      e.location);
      return coerce(bind(*c.arg, scope, agg), target, CastContext::Explicit, e.location);
    }
    case K::Array: return bindArray(e.as<sql::ArrayExpr>(), scope, agg, nullptr);
    case K::Subscript: return bindSubscript(e.as<sql::Subscript>(), scope, agg);
    case K::Case: {
      const auto& c = e.as<sql::CaseExpr>();
      // CASE x WHEN v ...: each arm compares x = v, x evaluated once (a Let around the
      // CASE). An untyped literal x is text, as PostgreSQL's transformCaseExpr makes it.
      auto build = [&](const LetReader* subject) {
        std::vector<ExprPtr> conditions, results;
        for (const auto& w : c.whens) {
          if (subject)
            conditions.push_back(compare(Op::Eq, (*subject)(), bind(*w.condition, scope, agg), w.condition->location));
          else
            conditions.push_back(coerceToBool(bind(*w.condition, scope, agg), "CASE/WHEN", w.condition->location));
          results.push_back(bind(*w.result, scope, agg));
        }
        ExprPtr otherwise = c.elseResult ? bind(*c.elseResult, scope, agg) : nullptr;
        // PostgreSQL resolves the ELSE result first, then the THEN results in order (which
        // matters where the earlier type wins, as between char(n) and varchar).
        SqlType type = otherwise ? otherwise->type : results[0]->type;
        for (size_t i = 0; i < results.size(); ++i) {
          auto t = commonType(type, results[i]->type);
          if (!t)
            fail(sqlstate::kDatatypeMismatch,
                 fmt::format("CASE types {} and {} cannot be matched", typeName(type), typeName(results[i]->type)),
                 c.whens[i].result->location);
          type = *t;
        }
        type = resolveUnknown(type);
        auto n = std::make_unique<Expr>(ExprKind::Case, type);
        for (size_t i = 0; i < conditions.size(); ++i) {
          n->args.push_back(std::move(conditions[i]));
          n->args.push_back(coerce(std::move(results[i]), type, CastContext::Implicit, e.location));
        }
        if (otherwise) {
          n->hasElse = true;
          n->args.push_back(coerce(std::move(otherwise), type, CastContext::Implicit, e.location));
        }
        return n;
      };
      if (!c.arg) return build(nullptr);
      ExprPtr subject = bind(*c.arg, scope, agg);
      if (subject->type.id == TypeId::Unknown)
        subject = coerce(std::move(subject), {TypeId::Text, -1}, CastContext::Implicit, c.arg->location);
      return evaluatedOnce(std::move(subject), [&](const LetReader& read) { return build(&read); });
    }
    case K::FuncCall: return bindFunction(e.as<sql::FuncCall>(), scope, agg);
    case K::SqlValue: {
      const auto& v = e.as<sql::SqlValue>();
      using V = sql::SqlValueKind;
      std::vector<ExprPtr> noArgs;
      ExprPtr now = builtinCall("now", noArgs, e.location);
      switch (v.value) {
        case V::CurrentTimestamp: return now;
        case V::LocalTimestamp: return plan::makeCast(std::move(now), {TypeId::Timestamp, -1}, true);
        case V::CurrentDate: return plan::makeCast(std::move(now), {TypeId::Date, -1}, true);
        case V::CurrentUser:
        case V::CurrentRole:
        case V::User:
        case V::SessionUser: {
          std::vector<ExprPtr> args;
          args.push_back(textConst("session_authorization"));
          return builtinCall("current_setting", args, e.location);
        }
        case V::CurrentSchema: return builtinCall("current_schema", noArgs, e.location);
        default: fail(sqlstate::kFeatureNotSupported, "this SQL value function is not supported yet", e.location);
      }
    }
    case K::SubLink: return bindSubLink(e.as<sql::SubLink>(), scope, agg);
    case K::ArrayOp: return bindArrayOp(e.as<sql::ArrayOp>(), scope, agg);
    case K::Row: return bindRow(e.as<sql::RowExpr>(), scope, agg);
    case K::FieldSelect: return bindFieldSelect(e.as<sql::FieldSelect>(), scope, agg);
    case K::Default: fail(sqlstate::kSyntaxError, "DEFAULT is not allowed in this context", e.location);
  }
  fail(sqlstate::kInternalError, "unhandled expression", e.location);
}

}  // namespace duet::binder
