// The actual types of a call to a routine with polymorphic parameters (anyelement and its
// kin), as PostgreSQL's check_generic_type_consistency and enforce_generic_type_consistency
// find them: every anyelement, anynonarray and anyarray argument names one element type
// (the same type, anyarray's as its element), the anycompatible family's arguments one
// common type; unknown arguments (untyped literals, NULL) take what the others decide.
// The binder uses it to choose among routines and to type a call; the session compiles one
// instance of the routine per distinct resolution, from the same rules.
#pragma once
#include <vector>

#include "compiler/binder/plan_request.h"
#include "engine/types/polymorphic.h"
#include "engine/types/type_id.h"

namespace duet::binder {

struct PolymorphicBinding {
  SqlType element{TypeId::Unknown, -1};     // anyelement; Unknown while no argument decides it
  SqlType compatible{TypeId::Unknown, -1};  // anycompatible
};

// Whether arguments of types `args` fit parameters declared `params` (None: not
// polymorphic, not looked at): arrays where the family wants one, no array for
// any(compatible)nonarray, one element type, a common type for the anycompatible family.
bool polymorphicArgumentsFit(const std::vector<SqlType>& args, const std::vector<Polymorphic>& params);

// The binding of the arguments. 42804 when they do not fit, with PostgreSQL's messages
// (the defaults a call takes are checked only here: "arguments declared "anyelement" are
// not all alike"), or "could not determine polymorphic type because input has type
// unknown" when anyelement's family has only unknown arguments; the anycompatible
// family's are text then.
PolymorphicBinding bindPolymorphic(const std::vector<SqlType>& args, const std::vector<Polymorphic>& params);

// What `p` stands for under `binding` (42704 for an array of an array, which DuetDB's
// one-dimensional arrays cannot be).
SqlType actualType(Polymorphic p, const PolymorphicBinding& binding);

// `c` with its polymorphic argument and result types replaced by what they stand for.
void resolvePolymorphicCandidate(RoutineCandidate& c, const PolymorphicBinding& binding);

// PostgreSQL's validator checks a PL/pgSQL body with integer standing for anyelement's and
// anycompatible's families (plpgsql_resolve_polymorphic_argtypes' forValidator).
inline constexpr PolymorphicBinding kValidatorBinding{{TypeId::Int4, -1}, {TypeId::Int4, -1}};

}  // namespace duet::binder
