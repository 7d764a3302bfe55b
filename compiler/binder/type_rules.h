// PostgreSQL's type resolution, reduced to the types DuetDB has: which implicit and
// assignment casts exist, and the common type of two operands (UNION/CASE/operators).
#pragma once
#include <optional>

#include "engine/types/type_id.h"

namespace duet::binder {

enum class CastContext : uint8_t { Implicit, Assignment, Explicit };

// Whether a value of `from` may become `to` in this context (PostgreSQL's pg_cast rules).
bool castAllowed(TypeId from, TypeId to, CastContext context);
// The type both operands are converted to, or nullopt when there is none (42804/42883).
// Two unknowns give unknown, so that folding over a list lets a later known input decide;
// the caller turns a final unknown into text (resolveUnknown).
std::optional<SqlType> commonType(SqlType a, SqlType b);
// Numeric precedence: int2 < int4 < int8 < numeric < float4 < float8 (0 for others).
int numericRank(TypeId t);
// The type a common type that is still unknown after all inputs resolves to: text.
SqlType resolveUnknown(SqlType t);

// PostgreSQL's type categories (pg_type.typcategory: 'B' boolean, 'N' numeric, 'S' string,
// 'D' date/time, 'T' timespan, 'A' array, 'U' user-defined (bytea, uuid, json, jsonb), 'X'
// unknown) and the preferred type of each (bool, float8, text, timestamptz, interval), for
// choosing among function candidates.
char typeCategory(TypeId t);
bool isPreferredType(TypeId t);

// How well a function candidate's parameters take a call's arguments, compared in the
// order of PostgreSQL's func_select_candidate: exact type matches; then known arguments
// whose parameter is the preferred type of their category (an integer goes to float8
// before numeric); then unknown arguments (untyped literals, NULL) given a string
// parameter; then unknown arguments given a preferred type. The best candidate has the
// greatest score; equal best scores are ambiguous (42725). Routines and built-in functions
// are chosen alike.
struct CandidateScore {
  int exact = 0, preferred = 0, unknownString = 0, unknownPreferred = 0;
  // Counts one argument of type `arg` passed to a parameter of type `param`; false when
  // the argument cannot become that type implicitly.
  bool add(SqlType arg, SqlType param);
  auto operator<=>(const CandidateScore&) const = default;
};

// The best of the candidates offered so far, by CandidateScore, and whether another one
// scored as well (ambiguous unless a later candidate beats both).
template <class Candidate>
struct BestCandidate {
  const Candidate* best = nullptr;
  CandidateScore score;
  bool ambiguous = false;
  // True when `c` is the best so far.
  bool offer(const Candidate* c, const CandidateScore& s) {
    if (!best || s > score) {
      best = c;
      score = s;
      ambiguous = false;
      return true;
    }
    if (s == score) ambiguous = true;
    return false;
  }
};

}  // namespace duet::binder
