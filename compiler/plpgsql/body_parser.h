// The recursive-descent PL/pgSQL parser (pl_gram.y's grammar for the statements DuetDB
// supports). It reads the body with the SQL lexer, keeps a scope stack of blocks and loops
// with their labels and variables, and cuts SQL expressions and statements out as text the
// way read_sql_construct does: up to a terminator at parenthesis depth 0.
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/parser/ast_stmt.h"
#include "compiler/parser/token.h"
#include "compiler/plpgsql/plpgsql.h"

namespace duet::plpgsql {

class BodyParser {
 public:
  BodyParser(const RoutineShape& routine, const BodySource& source, const TableLookup& tables);
  Function parse();

 private:
  struct Scope {
    std::string label;
    bool loop = false;
    std::vector<int> variables;
    // `name ALIAS FOR $n | variable`: another name for a variable of this or an outer scope.
    std::vector<std::pair<std::string, int>> aliases;
    std::vector<std::pair<std::string, int>> cursors;  // name, Function::cursors index
    int find(const std::vector<Variable>& all, std::string_view name) const;
  };

  // ---- tokens and errors
  const sql::Token& peek(int ahead = 0);
  const sql::Token& advance();
  bool isKw(std::string_view word, int ahead = 0);
  bool acceptKw(std::string_view word);
  void expectKw(std::string_view word);
  bool isOp(std::string_view op, int ahead = 0);
  void expectOp(std::string_view op);
  [[noreturn]] void syntaxError(const char* what = "syntax error");
  [[noreturn]] void errorAt(const char* code, const std::string& message, uint32_t offset, std::string hint = {});
  [[noreturn]] void errorNoPosition(const char* code, const std::string& message);

  // ---- scopes and variables
  int declare(Variable v);
  int lookupVariable(std::string_view name) const;
  int lookupInBlock(std::string_view label, std::string_view name) const;
  std::string variableWord();   // an identifier usable as a variable or label name
  std::string optionalLabel();  // `<<label>>` before a block or loop, or ""
  Target parseAssignableTarget();
  bool parseTarget(Target& t, bool assignment);  // false: the word is no variable
  void checkAssignable(const Target& t);

  // ---- SQL text
  struct Cut {
    SqlText sql;
    const sql::Token* end = nullptr;  // the terminator (not consumed)
  };
  Cut readSql(std::initializer_list<std::string_view> until, const char* expected, bool expression);
  SqlText expression(std::initializer_list<std::string_view> until, const char* expected);
  bool isTerminator(const sql::Token& t, std::initializer_list<std::string_view> until) const;
  void checkExpression(SqlText& e);
  void checkStatement(SqlText& s);
  void collectVariables(const sql::Stmt& stmt, uint32_t begin, size_t prefix, SqlText& into);

  // ---- declarations
  void parseDeclarations(Block& block);
  void parseAlias(const std::string& name);
  StmtPtr parseTransactionControl(uint32_t loc);
  void parseCursorDeclaration(const std::string& name, uint32_t location, Block& block);
  void parseOpenFor(CursorStmt& open);
  std::vector<int> parseCursorParameters();
  std::vector<SqlText> parseCursorArguments(int cursor);
  StmtPtr parseForCursor(std::string label, uint32_t loc, const std::vector<std::string>& names, uint32_t varAt);
  StmtPtr parseCursorStatement(uint32_t loc);
  FetchDirection parseFetchDirection();
  bool parseDirectionCount(FetchDirection& direction);
  SqlText readDirectionExpression();
  // The cursor `name` names in scope (unless a variable of an inner scope hides it), or -1.
  int lookupCursor(std::string_view name) const;
  // In a cursor's argument list (argumentList), ',' and ')' end the type too.
  VarType parseDataType(uint32_t& typeLocation, bool argumentList = false);

  // ---- statements
  std::unique_ptr<Block> parseBlock(std::string label, uint32_t location);
  StmtList parseStatements();
  StmtPtr parseStatement();
  StmtPtr parseIf(uint32_t loc);
  StmtPtr parseCase(uint32_t loc);
  StmtPtr parseLoop(StmtKind kind, std::string label, uint32_t loc);
  StmtPtr parseFor(std::string label, uint32_t loc);
  // FOR's targets over rows: one record or row variable, or a list of scalar variables.
  std::vector<Target> rowLoopTargets(const std::vector<std::string>& names, uint32_t varAt);
  StmtList parseLoopBody(const std::string& label);
  StmtPtr parseForEach(std::string label, uint32_t loc);
  bool parseForEachTargets(std::vector<Target>& targets);
  StmtPtr parseAssert(uint32_t loc);
  StmtPtr parseExit(uint32_t loc);
  StmtPtr parseReturn(uint32_t loc);
  StmtPtr parseRaise(uint32_t loc);
  StmtPtr parseGetDiagnostics(uint32_t loc);
  StmtPtr parseExecSql(uint32_t loc);
  StmtPtr parseAssignment(uint32_t loc);
  ExceptionCondition parseCondition(bool allowOthers);
  // ---- dynamic SQL (body_dynamic_sql.cpp), after the EXECUTE keyword
  StmtPtr parseExecute(uint32_t loc);
  StmtPtr parseForExecute(std::string label, uint32_t loc, std::vector<Target> targets);
  StmtPtr parseReturnQueryExecute(uint32_t loc);
  std::vector<SqlText> parseUsing(std::initializer_list<std::string_view> until, const char* expected);
  void checkEndLabel(const std::string& label);
  void expectSemicolon();

  const RoutineShape& routine_;
  const BodySource& source_;
  const TableLookup& tables_;
  sql::DecodedTexts decodedTexts_;  // before tokens_, which point into it
  std::vector<sql::Token> tokens_;
  size_t pos_ = 0;
  Function fn_;
  std::vector<Scope> scopes_;
};

}  // namespace duet::plpgsql
