// The CONTEXT lines PostgreSQL writes for a PL/pgSQL or SQL function statement an error
// passed through (and GET DIAGNOSTICS PG_CONTEXT shows): made once per statement when the
// routine compiles (CompiledRoutine::statementContexts), picked at run time by the
// statement the frame says is running.
#pragma once
#include <string>
#include <string_view>

#include "compiler/plpgsql/plpgsql_ast.h"

namespace duet::plpgsql {

// `SQL statement "..."` for a statement that runs SQL of its own, then `PL/pgSQL function
// f(integer) line 4 at RAISE` (`signature`; the line counted in `body`); for a LANGUAGE
// sql body, `SQL function "f" statement 2` (`name`).
std::string contextLines(const Function& fn, const Stmt& s, std::string_view body, const std::string& signature,
                         const std::string& name);

// PostgreSQL's plpgsql_stmt_typename: "assignment", "SQL statement", "FOR over cursor", ...
std::string statementTypeName(const Stmt& s);

}  // namespace duet::plpgsql
