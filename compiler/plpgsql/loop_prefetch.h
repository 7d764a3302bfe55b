// Which index lookups of an integer FOR loop's body can be prefetched before the loop runs.
//
// A New-Order transaction looks up an item and a stock row per order line, one line after
// the other: each lookup waits for its cache misses (hash slot, then row) before the next
// begins. When a lookup's key depends only on the loop variable and on variables the loop
// does not change (`WHERE i_id = p_i_ids[i]`), the routine compiler computes the keys of
// the first iterations ahead of the loop and asks the cache for their slots and rows
// (Index::prefetchProbe, Index::peek), so those misses overlap. Prefetching changes no
// result; evaluating a key early must not either, so keys are limited to expressions that
// cannot raise an error (variables, constants, array elements, widening integer casts).
#pragma once
#include <set>
#include <vector>

#include "compiler/plan/plan.h"
#include "compiler/plpgsql/plpgsql_ast.h"

namespace duet::plpgsql {

// The variables a statement list may assign (targets of :=, INTO, FOR and GET
// DIAGNOSTICS, at any depth). False when it holds a CALL, which writes INOUT arguments
// back into variables it does not name as targets.
bool collectWrittenVariables(const StmtList& body, std::set<int>& written);

// Whether `e` can be evaluated ahead of its statement without raising an error or reading
// a parameter for which paramOk is false.
template <typename ParamOk>
bool prefetchableKey(const plan::Expr& e, const ParamOk& paramOk);

// The point lookups (NodeKind::IndexLookup) in a plan, not counting those in subqueries.
void collectIndexLookups(const plan::Node& node, std::vector<const plan::Node*>& out);

// ---- implementation of the template -------------------------------------------------------

bool isSafeArrayCall(const std::string& function);
bool isWideningIntegerCast(const plan::Expr& cast);

template <typename ParamOk>
bool prefetchableKey(const plan::Expr& e, const ParamOk& paramOk) {
  using plan::ExprKind;
  switch (e.kind) {
    case ExprKind::Const: return true;
    case ExprKind::Param: return paramOk(e.param);
    case ExprKind::Call:
      if (!isSafeArrayCall(e.function)) return false;
      break;
    case ExprKind::Cast:
      if (!isWideningIntegerCast(e)) return false;
      break;
    case ExprKind::LetRef: return true;  // its Let's value, checked there
    case ExprKind::Let:
    case ExprKind::Case:
    case ExprKind::Coalesce:
    case ExprKind::IsNull: break;
    default: return false;
  }
  for (const auto& a : e.args)
    if (!prefetchableKey(*a, paramOk)) return false;
  return true;
}

}  // namespace duet::plpgsql
