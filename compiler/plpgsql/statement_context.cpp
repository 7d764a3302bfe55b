#include "compiler/plpgsql/statement_context.h"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>

namespace duet::plpgsql {
namespace {

std::string_view trimmed(std::string_view t) {
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  return t;
}

// The SQL a statement hands to the executor, as PostgreSQL shows it (INTO left out), or ""
// for one that runs none of its own.
std::string statementSql(const Stmt& s) {
  if (s.kind == StmtKind::ExecSql) return std::string(trimmed(s.as<ExecSql>().statement.text));
  if (s.kind == StmtKind::Perform) return "SELECT " + std::string(trimmed(s.as<Perform>().query.text));
  return {};
}

}  // namespace

std::string statementTypeName(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Block: return "statement block";
    case StmtKind::Assign: return "assignment";
    case StmtKind::If: return "IF";
    case StmtKind::Case: return "CASE";
    case StmtKind::Loop: return "LOOP";
    case StmtKind::While: return "WHILE";
    case StmtKind::ForInt: return "FOR with integer loop variable";
    case StmtKind::ForQuery: return "FOR over SELECT rows";
    case StmtKind::Exit: return s.as<Exit>().isContinue ? "CONTINUE" : "EXIT";
    case StmtKind::Return: return "RETURN";
    case StmtKind::ReturnNext: return "RETURN NEXT";
    case StmtKind::ReturnQuery:
    case StmtKind::ReturnQueryExecute: return "RETURN QUERY";
    case StmtKind::Perform: return "PERFORM";
    case StmtKind::ExecSql: return s.as<ExecSql>().call ? "CALL" : "SQL statement";
    case StmtKind::GetDiagnostics:
      return s.as<GetDiagnostics>().stacked ? "GET STACKED DIAGNOSTICS" : "GET DIAGNOSTICS";
    case StmtKind::Raise: return "RAISE";
    case StmtKind::Null: return "NULL";
    case StmtKind::TransactionControl: return s.as<TransactionControl>().commit ? "COMMIT" : "ROLLBACK";
    case StmtKind::CursorOpen: return "OPEN";
    case StmtKind::CursorFetch: return "FETCH";
    case StmtKind::CursorMove: return "MOVE";
    case StmtKind::CursorClose: return "CLOSE";
    case StmtKind::Execute: return "EXECUTE";
    case StmtKind::ForExecute: return "FOR over EXECUTE statement";
    case StmtKind::ForEach: return "FOREACH over array";
    case StmtKind::Assert: return "ASSERT";
    case StmtKind::ForCursor: return "FOR over cursor";
  }
  return "statement";
}

std::string contextLines(const Function& fn, const Stmt& s, std::string_view body, const std::string& signature,
                         const std::string& name) {
  if (fn.sqlBody) {
    const StmtList& top = fn.body->body;
    size_t n = 1;
    while (n <= top.size() && top[n - 1].get() != &s) ++n;
    return fmt::format("SQL function \"{}\" statement {}", name, n);
  }
  auto upTo = body.begin() + static_cast<std::ptrdiff_t>(std::min<size_t>(s.location, body.size()));
  auto line = 1 + std::count(body.begin(), upTo, '\n');
  std::string text;
  if (std::string sql = statementSql(s); !sql.empty()) text = fmt::format("SQL statement \"{}\"\n", sql);
  return text + fmt::format("PL/pgSQL function {} line {} at {}", signature, line, statementTypeName(s));
}

}  // namespace duet::plpgsql
