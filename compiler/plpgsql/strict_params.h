// STRICT INTO's errors with their parameters (PostgreSQL's print_strict_params): when a
// routine says `#print_strict_params on`, or says nothing and the plpgsql.print_strict_params
// setting is on where the error is raised, the P0002/P0003 of SELECT ... INTO STRICT (and
// the P0003 of INSERT/UPDATE/DELETE ... RETURNING INTO) get a DETAIL naming the values
// the statement read: `parameters: p = '5', q = NULL` for the variables of an embedded
// statement, `parameters: $1 = '5'` for EXECUTE's USING values.
//
// PostgreSQL decides when it compiles a routine, once per session; DuetDB compiles at
// CREATE, for every session, so the setting is read when the error happens.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/plpgsql/plpgsql_ast.h"
#include "compiler/runtime/query_runtime.h"
#include "engine/storage/layout.h"

namespace duet::plpgsql {

// The constant parts of one STRICT check of an embedded statement: generated code passes
// a tuple of `layout` holding the values of the variables `names`.
struct StrictSpec {
  std::string code, message, hint;
  PrintStrictParams mode = PrintStrictParams::Setting;
  std::vector<std::string> names;
  TupleLayout layout;
};

// Whether to list the parameters for a routine compiled with `mode`.
bool printStrictParams(const rt::QueryContext* ctx, PrintStrictParams mode);

// "parameters: a = '1', b = NULL" for the fields of `tuple` (named `names`, or $1, $2, ...
// when `names` is empty); empty when there are none. Values are written as their type's
// output function writes them, quotes doubled.
std::string strictParamsDetail(const std::vector<std::string>& names, const TupleLayout& layout, const uint8_t* tuple,
                               const rt::QueryContext* ctx);

}  // namespace duet::plpgsql

extern "C" {
// The STRICT check failed: raises spec's error, with the parameters when they are printed.
[[noreturn]] void duet_plpgsql_strict_fail(duet::rt::QueryContext* ctx, const duet::plpgsql::StrictSpec* spec,
                                           const uint8_t* values);
}
