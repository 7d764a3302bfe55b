// Calls of user-defined routines: which overload a call means and what it passes, as
// PostgreSQL's func_get_detail and ParseFuncOrColumn decide. Each candidate takes the
// call's arguments positionally, by name or both, with defaults for the missing trailing
// ones; a VARIADIC parameter takes a positional list of its elements (packed into its array
// here) unless the call says VARIADIC and passes the array itself. Polymorphic parameters
// take the types the arguments give them (polymorphic_types.h); the candidate chosen is
// rewritten with those types, so the call, its result and the session's compiled instance
// of the routine all see the actual types.
#include <fmt/format.h>

#include <algorithm>

#include "compiler/binder/binder.h"
#include "compiler/binder/polymorphic_types.h"
#include "compiler/parser/parser.h"
#include "engine/error.h"

namespace duet::binder {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

// How one candidate takes a call's arguments.
struct CallFit {
  RoutineCandidate* candidate = nullptr;
  std::vector<int> map;  // per parameter: the argument it takes, -1 for its default
  // The VARIADIC parameter takes the arguments from `packedFrom` on as its elements.
  bool expanded = false;
  size_t packedFrom = 0;
  // Per argument: the type of the parameter (or VARIADIC element) it goes to.
  std::vector<SqlType> declared;
  std::vector<Polymorphic> poly;
  // What the polymorphic types are resolved from: the arguments' types and the parameters
  // they go to, then those of the defaults the call takes.
  std::vector<SqlType> resolvedFrom;
  std::vector<Polymorphic> resolvedPoly;
  CandidateScore score;
  bool sameDeclaredTypes(const CallFit& o) const { return declared == o.declared && poly == o.poly; }
};

Polymorphic elementOf(Polymorphic p) {
  if (p == Polymorphic::AnyArray) return Polymorphic::AnyElement;
  if (p == Polymorphic::AnyCompatibleArray) return Polymorphic::AnyCompatible;
  return Polymorphic::None;
}

// FuncnameGetCandidates and func_match_argtypes for one candidate: how it would take the
// arguments, or nullopt when it cannot. `defaultTypes`: per parameter, the type of its
// DEFAULT where the parameter is polymorphic (unknown for an untyped literal or NULL).
std::optional<CallFit> fitCall(RoutineCandidate& c, const sql::FuncCall& f, const std::vector<ExprPtr>& args,
                               const std::vector<SqlType>& defaultTypes) {
  size_t n = c.argTypes.size();
  const std::vector<std::string>& names = f.argNames;
  bool named = std::any_of(names.begin(), names.end(), [](const std::string& s) { return !s.empty(); });
  CallFit fit;
  fit.candidate = &c;
  fit.map.assign(n, -1);
  fit.declared.resize(args.size());
  fit.poly.resize(args.size());
  // A VARIADIC parameter takes a list of elements when the call is positional, does not say
  // VARIADIC and gives at least one element.
  fit.expanded = c.variadic && !f.variadic && !named && args.size() >= n;
  // A named call cannot name the elements: it must pass the array with VARIADIC.
  if (c.variadic && !f.variadic && named) return std::nullopt;
  if (fit.expanded) {
    fit.packedFrom = n - 1;
    for (size_t a = 0; a < args.size(); ++a) {
      bool packed = a >= fit.packedFrom;
      size_t k = packed ? n - 1 : a;
      if (!packed) fit.map[k] = static_cast<int>(a);
      fit.declared[a] = packed ? c.argTypes[k].elementType() : c.argTypes[k];
      fit.poly[a] = packed ? elementOf(c.argPoly[k]) : c.argPoly[k];
    }
    fit.map[n - 1] = static_cast<int>(fit.packedFrom);
  } else {
    // Positional arguments first, then named ones.
    for (size_t a = 0; a < args.size(); ++a) {
      size_t k = a;
      if (a < names.size() && !names[a].empty())
        k = static_cast<size_t>(std::find(c.argNames.begin(), c.argNames.end(), names[a]) - c.argNames.begin());
      if (k >= n || fit.map[k] >= 0) return std::nullopt;
      fit.map[k] = static_cast<int>(a);
      fit.declared[a] = c.argTypes[k];
      fit.poly[a] = c.argPoly[k];
    }
    for (size_t k = 0; k < n; ++k)
      if (fit.map[k] < 0 && c.defaults[k].empty()) return std::nullopt;
  }
  fit.resolvedPoly = fit.poly;
  for (size_t a = 0; a < args.size(); ++a) {
    fit.resolvedFrom.push_back(args[a]->type);
    // A polymorphic parameter takes any type its family allows: checked below, no score.
    if (fit.poly[a] == Polymorphic::None && !fit.score.add(args[a]->type, fit.declared[a])) return std::nullopt;
  }
  if (c.polymorphic() && !polymorphicArgumentsFit(fit.resolvedFrom, fit.resolvedPoly)) return std::nullopt;
  // The defaults taken count as arguments of their own types once the candidate is chosen
  // (ParseFuncOrColumn's nargsplusdefs): f(a anyelement, b anyelement DEFAULT 0) is
  // f(int, int) for f(1), and f(1.5) is 42804.
  for (size_t k = 0; k < n && !fit.expanded; ++k) {
    if (fit.map[k] >= 0 || c.argPoly[k] == Polymorphic::None) continue;
    fit.resolvedFrom.push_back(defaultTypes[k]);
    fit.resolvedPoly.push_back(c.argPoly[k]);
  }
  return fit;
}

}  // namespace

ExprPtr Binder::routineCall(const RoutineCandidate& r, std::vector<ExprPtr> args, uint32_t location) {
  if (r.returnsSet && setReturning_ && r.returnType.id != TypeId::Unknown && !r.returnsComposite) {
    auto e = std::make_unique<Expr>(ExprKind::RoutineCall, r.returnType);
    e->routine = r.oid;
    e->args = std::move(args);
    return collectSetCall(std::move(e), location);
  }
  if (r.returnsSet)
    fail(sqlstate::kFeatureNotSupported,
         fmt::format("set-returning function {}() in the select list is not supported yet: use SELECT * FROM {}(...)",
                     r.name, r.name),
         location);
  // A row (several OUT arguments, RETURNS record) would be a composite value.
  if (r.returnType.id == TypeId::Unknown)
    fail(sqlstate::kFeatureNotSupported,
         fmt::format("function {}() returning a row in the select list is not supported yet: use SELECT * FROM {}(...)",
                     r.name, r.name),
         location);
  auto e = std::make_unique<Expr>(ExprKind::RoutineCall, r.returnType);
  e->routine = r.oid;
  e->args = std::move(args);
  return e;
}

const RoutineCandidate* Binder::resolveRoutine(const sql::FuncCall& f, std::vector<ExprPtr>& args, bool procedure) {
  if (!request_.resolveRoutines) return nullptr;
  routineCandidates_ = request_.resolveRoutines(f.names);
  if (routineCandidates_.empty()) return nullptr;
  std::vector<CallFit> fits;
  for (RoutineCandidate& c : routineCandidates_) {
    std::vector<SqlType> defaultTypes(c.argTypes.size(), SqlType{TypeId::Unknown, -1});
    for (size_t k = 0; k < c.argTypes.size(); ++k)
      if (c.argPoly[k] != Polymorphic::None && !c.defaults[k].empty())
        defaultTypes[k] = bindDefault(c.defaults[k])->type;
    std::optional<CallFit> fit = fitCall(c, f, args, defaultTypes);
    if (!fit) continue;
    // Of a variadic and a plain candidate that take the arguments as the same types,
    // PostgreSQL keeps the plain one (foo(int, int) over foo(VARIADIC int[]) for two).
    auto same = std::find_if(fits.begin(), fits.end(), [&](const CallFit& o) {
      return o.expanded != fit->expanded && o.sameDeclaredTypes(*fit);
    });
    if (same == fits.end())
      fits.push_back(std::move(*fit));
    else if (same->expanded)
      *same = std::move(*fit);
  }
  // Ranked as PostgreSQL's func_select_candidate (CandidateScore).
  BestCandidate<CallFit> chosen;
  for (const CallFit& fit : fits) chosen.offer(&fit, fit.score);
  const std::string& name = f.names.back();
  if (!chosen.best) failUndefinedRoutine(name, args, procedure, f.location);
  if (chosen.ambiguous) failAmbiguousRoutine(name, args, procedure, f.location);
  const CallFit& fit = *chosen.best;
  RoutineCandidate& best = *fit.candidate;
  if (best.procedure != procedure) {
    std::string shown = name + "(";
    for (size_t i = 0; i < best.argTypes.size(); ++i)
      shown += (i ? ", " : "") + (best.argPoly[i] != Polymorphic::None ? polymorphicName(best.argPoly[i])
                                                                       : typeName(best.argTypes[i].withoutTypmod()));
    shown += ")";
    fail("42809", fmt::format("{} is {}a procedure", shown, procedure ? "not " : ""), f.location, {},
         procedure ? "To call a function, use SELECT." : "To call a procedure, use CALL.");
  }
  // The call's types for the polymorphic parameters and results (enforce_generic_type_consistency).
  if (best.polymorphic()) resolvePolymorphicCandidate(best, bindPolymorphic(fit.resolvedFrom, fit.resolvedPoly));
  std::vector<ExprPtr> given = std::move(args);
  args.clear();
  // A polymorphic argument of its actual type stays as it is (a typmod included).
  auto pass = [&](ExprPtr e, size_t k, const SqlType& to) {
    if (best.argPoly[k] != Polymorphic::None && e->type.withoutTypmod() == to) return e;
    return coerce(std::move(e), to, CastContext::Implicit, f.location);
  };
  for (size_t k = 0; k < best.argTypes.size(); ++k) {
    if (fit.expanded && k == fit.packedFrom) {
      // The VARIADIC parameter's elements, as ARRAY[...] of its element type.
      SqlType element = best.argTypes[k].elementType().withoutTypmod();
      auto array = std::make_unique<Expr>(ExprKind::ArrayBuild, SqlType::arrayOf(element));
      for (size_t a = fit.packedFrom; a < given.size(); ++a)
        array->args.push_back(coerce(std::move(given[a]), element, CastContext::Implicit, f.location));
      args.push_back(std::move(array));
      continue;
    }
    if (fit.map[k] >= 0) {
      args.push_back(pass(std::move(given[fit.map[k]]), k, best.argTypes[k]));
      continue;
    }
    args.push_back(coerce(bindDefault(best.defaults[k]), best.argTypes[k], CastContext::Assignment, 0));
  }
  return &best;
}

ExprPtr Binder::bindDefault(const std::string& text) {
  auto parsed = sql::parseQuery("SELECT " + text);
  const auto& select = parsed.at(0).stmt->as<sql::SelectStmt>();
  Scope none;
  bool hidden = std::exchange(bindingDefault_, true);
  try {
    ExprPtr e = bind(*select.targets.at(0).expr, none);
    bindingDefault_ = hidden;
    return e;
  } catch (SqlError& e) {
    bindingDefault_ = hidden;
    e.position = 0;
    throw;
  }
}

}  // namespace duet::binder
