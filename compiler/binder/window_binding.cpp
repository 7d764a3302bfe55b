// Window function calls: f(args) OVER (...) in a select list or its ORDER BY. A call binds
// its arguments and its window over the rows the windows see (the FROM row, or the
// aggregation's output), lands in the WindowContext the planner collects, and stands for
// its value as a WindowResult until the planner makes a Window node compute it.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "compiler/binder/binder.h"
#include "compiler/functions/builtin_functions.h"
#include "engine/error.h"

namespace duet::binder {

using plan::ExprKind;
using plan::ExprPtr;
using plan::WindowFrame;
using plan::WindowFunc;

namespace {

// The built-in window functions (PostgreSQL's pg_proc rows with prokind 'w').
struct WindowFunctionDef {
  const char* name;
  WindowFunc func;
  size_t minArgs, maxArgs;
};
constexpr WindowFunctionDef kWindowFunctions[] = {
    {"row_number", WindowFunc::RowNumber, 0, 0},
    {"rank", WindowFunc::Rank, 0, 0},
    {"dense_rank", WindowFunc::DenseRank, 0, 0},
    {"percent_rank", WindowFunc::PercentRank, 0, 0},
    {"cume_dist", WindowFunc::CumeDist, 0, 0},
    {"ntile", WindowFunc::Ntile, 1, 1},
    {"lag", WindowFunc::Lag, 1, 3},
    {"lead", WindowFunc::Lead, 1, 3},
    {"first_value", WindowFunc::FirstValue, 1, 1},
    {"last_value", WindowFunc::LastValue, 1, 1},
    {"nth_value", WindowFunc::NthValue, 2, 2},
};

const WindowFunctionDef* findWindowFunction(const std::string& name) {
  for (const auto& d : kWindowFunctions)
    if (name == d.name) return &d;
  return nullptr;
}

// RANGE with an offset: the type the ORDER BY key is compared in and the offset's type
// (PostgreSQL's in_range support functions), or Unknown for a key type without them.
std::pair<TypeId, TypeId> rangeOffsetTypes(TypeId key) {
  switch (key) {
    case TypeId::Int2:
    case TypeId::Int4:
    case TypeId::Int8: return {TypeId::Int8, TypeId::Int8};
    case TypeId::Numeric: return {TypeId::Numeric, TypeId::Numeric};
    case TypeId::Float4:
    case TypeId::Float8: return {TypeId::Float8, TypeId::Float8};
    case TypeId::Date:
    case TypeId::Timestamp: return {TypeId::Timestamp, TypeId::Interval};
    case TypeId::TimestampTz: return {TypeId::TimestampTz, TypeId::Interval};
    case TypeId::Interval: return {TypeId::Interval, TypeId::Interval};
    default: return {TypeId::Unknown, TypeId::Unknown};
  }
}

bool hasOffset(const sql::WindowDef& w) { return w.start.offset || w.end.offset; }

// A window definition with its WINDOW clause references followed.
struct EffectiveWindow {
  const std::vector<sql::ExprPtr>* partition;
  const std::vector<sql::SortBy>* order;
  const sql::WindowDef* frame;
};

}  // namespace

bool isWindowFunctionName(const std::string& name) { return findWindowFunction(name) != nullptr; }

const sql::WindowDef& Binder::namedWindow(const std::string& name, uint32_t location) const {
  if (windows_ && windows_->named)
    for (const auto& w : *windows_->named)
      if (w.name == name) return w;
  fail(sqlstate::kUndefinedObject, fmt::format("window \"{}\" does not exist", name), location);
}

ExprPtr Binder::bindWindowCall(const sql::FuncCall& f, const Scope& scope, AggContext* agg) {
  const std::string& name = f.names.back();
  if (bindingWindowCall_) fail(sqlstate::kWindowingError, "window function calls cannot be nested", f.location);
  if (bindingAggregateInput_)
    fail(sqlstate::kGroupingError, "aggregate function calls cannot contain window function calls", f.location);
  if (!windows_)
    fail(sqlstate::kWindowingError, fmt::format("window functions are not allowed in {}", clause_), f.location);
  bindingWindowCall_ = true;
  plan::WindowCall call;
  const WindowFunctionDef* def = f.names.size() == 1 ? findWindowFunction(name) : nullptr;
  if (def) {
    if (f.distinct)
      fail(sqlstate::kFeatureNotSupported, "DISTINCT is not implemented for window functions", f.location);
    call.func = def->func;
    for (const auto& a : f.args) call.args.push_back(bind(*a, scope, agg));
    if (f.star || call.args.size() < def->minArgs || call.args.size() > def->maxArgs)
      fail(sqlstate::kUndefinedFunction,
           fmt::format("function {}({}) does not exist", name, f.star ? "*" : argTypeList(call.args)), f.location);
    auto integerArg = [&](size_t i) {
      call.args[i] = coerce(std::move(call.args[i]), {TypeId::Int4, -1}, CastContext::Implicit, f.args[i]->location);
    };
    switch (def->func) {
      case WindowFunc::RowNumber:
      case WindowFunc::Rank:
      case WindowFunc::DenseRank: call.resultType = {TypeId::Int8, -1}; break;
      case WindowFunc::PercentRank:
      case WindowFunc::CumeDist: call.resultType = {TypeId::Float8, -1}; break;
      case WindowFunc::Ntile:
        integerArg(0);
        call.resultType = {TypeId::Int4, -1};
        break;
      case WindowFunc::Lag:
      case WindowFunc::Lead: {
        if (call.args.size() > 1) integerArg(1);
        SqlType t = call.args[0]->type;
        if (call.args.size() > 2) {  // lag(anycompatible, integer, anycompatible)
          auto common = commonType(t, call.args[2]->type);
          if (!common)
            fail(sqlstate::kUndefinedFunction,
                 fmt::format("function {}({}) does not exist", name, argTypeList(call.args)), f.location);
          t = resolveUnknown(*common);
          call.args[2] = coerce(std::move(call.args[2]), t, CastContext::Implicit, f.args[2]->location);
        }
        t = resolveUnknown(t);
        call.args[0] = coerce(std::move(call.args[0]), t, CastContext::Implicit, f.args[0]->location);
        call.resultType = call.args[0]->type;
        break;
      }
      case WindowFunc::NthValue: integerArg(1); [[fallthrough]];
      case WindowFunc::FirstValue:
      case WindowFunc::LastValue:
        if (call.args[0]->type.id == TypeId::Unknown)
          call.args[0] = coerce(std::move(call.args[0]), {TypeId::Text, -1}, CastContext::Implicit, f.location);
        call.resultType = call.args[0]->type;
        break;
      case WindowFunc::Aggregate: break;
    }
  } else if (isAggregateCall(f) && name != "grouping") {
    if (f.distinct)
      fail(sqlstate::kFeatureNotSupported, "DISTINCT is not implemented for window functions", f.location);
    if (!f.orderBy.empty() && !f.withinGroup)
      fail(sqlstate::kFeatureNotSupported, "aggregate ORDER BY is not implemented for window functions", f.location);
    if (f.withinGroup)
      fail(sqlstate::kWrongObjectType, fmt::format("OVER is not supported for ordered-set aggregate {}", name),
           f.location);
    call.func = WindowFunc::Aggregate;
    call.agg = aggregateSpec(f, scope, agg);
    call.resultType = call.agg.resultType;
  } else if (!builtinFunctionsNamed(name).empty()) {
    fail(sqlstate::kWrongObjectType,
         fmt::format("OVER specified, but {} is not a window function nor an aggregate function", name), f.location);
  } else {
    std::vector<ExprPtr> args;
    for (const auto& a : f.args) args.push_back(bind(*a, scope, agg));
    fail(sqlstate::kUndefinedFunction, fmt::format("function {}({}) does not exist", name, argTypeList(args)),
         f.location);
  }
  size_t window = bindWindow(*f.over, scope, agg, call.frame);
  bindingWindowCall_ = false;
  auto e = std::make_unique<plan::Expr>(ExprKind::WindowResult, call.resultType);
  e->column = static_cast<int>(windows_->calls.size());
  windows_->calls.push_back({window, std::move(call)});
  return e;
}

// Binds the window `over` names (a WINDOW clause entry, or its own definition built on
// one), its frame into `frame`, and returns its place among the context's windows (calls
// with the same PARTITION BY and ORDER BY share one, and so one sort).
size_t Binder::bindWindow(const sql::WindowDef& over, const Scope& scope, AggContext* agg, WindowFrame& frame) {
  // PostgreSQL's rules for building on a named window: the copy may add ORDER BY when the
  // base has none and a frame of its own; OVER name takes the named window as it is.
  std::function<EffectiveWindow(const sql::WindowDef&)> effective = [&](const sql::WindowDef& w) -> EffectiveWindow {
    if (w.refName.empty()) return {&w.partitionBy, &w.orderBy, &w};
    EffectiveWindow base = effective(namedWindow(w.refName, w.location));
    if (w.reference) return base;
    if (!w.partitionBy.empty())
      fail(sqlstate::kWindowingError, fmt::format("cannot override PARTITION BY clause of window \"{}\"", w.refName),
           w.partitionBy[0]->location);
    if (!w.orderBy.empty() && !base.order->empty())
      fail(sqlstate::kWindowingError, fmt::format("cannot override ORDER BY clause of window \"{}\"", w.refName),
           w.orderBy[0].expr->location);
    if (base.frame->hasFrame)
      fail(sqlstate::kWindowingError, fmt::format("cannot copy window \"{}\" because it has a frame clause", w.refName),
           w.location);
    return {base.partition, w.orderBy.empty() ? base.order : &w.orderBy, &w};
  };
  EffectiveWindow def = effective(over);
  WindowContext::Window bound;
  for (const auto& p : *def.partition) bound.partition.push_back(bind(*p, scope, agg));
  for (const auto& o : *def.order) {
    bound.order.push_back(bind(*o.expr, scope, agg));
    plan::SortKey k;
    k.descending = o.dir == sql::SortDir::Desc;
    k.nullsFirst = o.nulls == sql::NullsOrder::Default ? k.descending : o.nulls == sql::NullsOrder::First;
    bound.orderKeys.push_back(k);
  }
  for (auto* list : {&bound.partition, &bound.order})
    for (auto& e : *list)
      if (e->type.id == TypeId::Unknown)
        e = coerce(std::move(e), {TypeId::Text, -1}, CastContext::Implicit, over.location);

  const sql::WindowDef& f = *def.frame;
  using M = WindowFrame::Mode;
  frame.mode = f.mode == sql::FrameMode::Rows ? M::Rows : f.mode == sql::FrameMode::Groups ? M::Groups : M::Range;
  frame.start = static_cast<WindowFrame::Bound>(f.start.kind);
  frame.end = static_cast<WindowFrame::Bound>(f.end.kind);
  frame.exclude = static_cast<WindowFrame::Exclude>(f.exclusion);
  SqlType keyType{TypeId::Unknown, -1};
  if (frame.mode == M::Range && hasOffset(f)) {
    if (bound.order.size() != 1)
      fail(sqlstate::kWindowingError, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column",
           f.location);
    auto [compareIn, offsetType] = rangeOffsetTypes(bound.order[0]->type.id);
    if (compareIn == TypeId::Unknown)
      fail(sqlstate::kFeatureNotSupported,
           fmt::format("RANGE with offset PRECEDING/FOLLOWING is not supported for column type {}",
                       typeName(bound.order[0]->type)),
           (*def.order)[0].expr->location);
    // The key is compared, and so sorted, in the offset arithmetic's type (a date as a
    // timestamp): the order is the same.
    if (bound.order[0]->type.id != compareIn)
      bound.order[0] = plan::makeCast(std::move(bound.order[0]), {compareIn, -1}, false);
    keyType = {offsetType, -1};
  }
  if (frame.mode == M::Groups && bound.order.empty())
    fail(sqlstate::kWindowingError, "GROUPS mode requires an ORDER BY clause", f.location);
  frame.startOffset = frameOffset(f.start, frame.mode, keyType, scope, agg);
  frame.endOffset = frameOffset(f.end, frame.mode, keyType, scope, agg);

  auto sameList = [&](const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!exprEquals(*a[i], *b[i], &paramClass_)) return false;
    return true;
  };
  auto& windows = windows_->windows;
  for (size_t i = 0; i < windows.size(); ++i) {
    const auto& w = windows[i];
    bool sameKeys = std::equal(w.orderKeys.begin(), w.orderKeys.end(), bound.orderKeys.begin(), bound.orderKeys.end(),
                               [](const plan::SortKey& x, const plan::SortKey& y) {
                                 return x.descending == y.descending && x.nullsFirst == y.nullsFirst;
                               });
    if (sameKeys && sameList(w.partition, bound.partition) && sameList(w.order, bound.order)) return i;
  }
  windows.push_back(std::move(bound));
  return windows.size() - 1;
}

// A frame bound's offset: a value of no row (PostgreSQL allows no column in it), int8 for
// ROWS and GROUPS, `offsetType` for RANGE.
ExprPtr Binder::frameOffset(const sql::FrameBound& bound, WindowFrame::Mode mode, SqlType offsetType,
                            const Scope& scope, AggContext* agg) {
  if (!bound.offset) return nullptr;
  const char* construct = mode == WindowFrame::Mode::Rows     ? "ROWS"
                          : mode == WindowFrame::Mode::Groups ? "GROUPS"
                                                              : "RANGE";
  ExprPtr e = bind(*bound.offset, scope, agg);
  if (columnRange(*e).first >= 0)
    fail(sqlstate::kInvalidColumnReference, fmt::format("argument of {} must not contain variables", construct),
         bound.offset->location);
  SqlType t = mode == WindowFrame::Mode::Range ? offsetType : SqlType{TypeId::Int8, -1};
  return coerce(std::move(e), t, CastContext::Implicit, bound.offset->location);
}

}  // namespace duet::binder
