// The recursive-descent parser's internal interface, shared by the parse_*.cpp files:
// token access and error helpers (parser_core.cpp), expressions (parse_expr.cpp), type
// names (parse_type.cpp), EXTRACT/POSITION/SUBSTRING/TRIM (parse_special_func.cpp), SELECT (parse_select.cpp),
// INSERT/UPDATE/DELETE (parse_dml.cpp), DDL (parse_ddl.cpp), functions and procedures (parse_routine.cpp) and utility
// statements (parse_utility.cpp).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/parser/ast.h"
#include "compiler/parser/parser.h"
#include "compiler/parser/token.h"
#include "engine/limits/stack_depth.h"

namespace duet::sql {

class Parser {
 public:
  Parser(std::string_view query, const ParseOptions& options);
  std::vector<ParsedStatement> parseAll();
  TypeName parseStandaloneType();  // a type name, then the end of the input

 private:
  // ---- tokens (parser_core.cpp) ----
  const Token& peek(int ahead = 0);  // throws the lexical error when it reaches one
  const Token& advance();
  bool isKw(std::string_view word, int ahead = 0);  // an unquoted word with this text
  bool acceptKw(std::string_view word);
  bool acceptIfNotExists();  // IF NOT EXISTS
  void expectKw(std::string_view word);
  bool isOp(std::string_view op, int ahead = 0);
  bool acceptOp(std::string_view op);
  void expectOp(std::string_view op);
  bool atStatementEnd();            // ';' or end of input
  [[noreturn]] void syntaxError();  // at the current token
  [[noreturn]] void syntaxErrorAt(const Token& t);
  [[noreturn]] void errorAt(const char* sqlstate, const std::string& message, uint32_t offset);

  bool isColId(int ahead = 0);         // identifier, unreserved or col_name keyword
  bool isTypeFuncName(int ahead = 0);  // identifier, unreserved or type_func_name keyword
  std::string parseColId();
  std::string parseColLabel();  // any word, reserved ones included
  QualifiedName parseQualifiedName();
  std::vector<QualifiedName> parseQualifiedNameList();
  std::vector<std::string> parseParenNameList();  // '(' ColId, ... ')'
  DropBehavior parseDropBehavior();
  bool parseOptionValue(DefElem& d, bool required);  // fills valueKind and value
  DefElem parseDefElem(bool withEquals);             // name [= value] or name [value]
  std::vector<DefElem> parseParenDefElems(bool withEquals);
  bool parseOptionalSignedInt(int& value);

  // ---- statements ----
  StmtPtr parseStatement();
  bool startsSelect(int ahead = 0);  // SELECT, VALUES or '(' SELECT ...
  // The '(' at `ahead` opens a subquery (select_with_parens), not an expression that starts
  // with one, as the operand of IN and ANY/ALL: `x IN ((SELECT 1) + 0, 2)`.
  bool startsParenSubquery(int ahead);
  StmtPtr parsePreparable();  // SELECT / VALUES / INSERT / UPDATE / DELETE

  // parse_select.cpp
  std::unique_ptr<SelectStmt> parseSelect();  // with ORDER BY / LIMIT / locking
  std::unique_ptr<SelectStmt> parseSetOperand(int level);
  std::unique_ptr<SelectStmt> parseSelectPrimary();
  void parseSimpleSelect(SelectStmt& s);
  void parseTableCommand(SelectStmt& s);
  void parseValuesBody(SelectStmt& s);
  ExprPtr parseValuesCell(int list, size_t column);
  // columns: per column of VALUES list `list`, whether every cell is a constant alone; its
  // lifted literals are among lifted_[firstLifted...].
  void unifyValuesKinds(int list, const std::vector<bool>& columns, size_t firstLifted);
  std::vector<ResTarget> parseTargetList();
  std::vector<TableRefPtr> parseFromList();
  TableRefPtr parseTableRef();
  TableRefPtr parseTablePrimary();
  std::optional<Alias> parseOptAlias(bool allowColumnList);
  void parseFunctionAlias(RangeFunction& fn);
  std::vector<SortBy> parseSortList();
  ExprPtr parsePositionalOrExpr();  // ORDER BY / GROUP BY item: a bare integer stays literal
  ExprPtr parseGroupByItem();       // an expression or a grouping set

  // parse_window.cpp
  std::unique_ptr<WindowDef> parseOver();
  std::vector<WindowDef> parseWindowClause();
  void parseWindowSpec(WindowDef& w);
  void parseFrame(WindowDef& w);
  FrameBound parseFrameBound();

  // parse_dml.cpp
  // WITH [RECURSIVE] name AS (query), ...: empty without WITH.
  WithList parseWithList();
  // The SELECT after a WITH list (`begin`: where the statement starts, for errors).
  std::unique_ptr<SelectStmt> parseSelectAfterWith(WithList with, uint32_t begin);
  StmtPtr parseInsert();
  StmtPtr parseUpdate();
  StmtPtr parseDelete();
  void parseWhereOrCurrent(ExprPtr& where, std::unique_ptr<ColumnRef>& currentOf);
  std::string parseDmlAlias();
  std::vector<ResTarget> parseOptReturning();
  std::unique_ptr<OnConflictClause> parseOnConflict();
  std::vector<SetClause> parseSetClauses();  // UPDATE's and ON CONFLICT DO UPDATE's SET list

  // parse_ddl.cpp
  StmtPtr parseCreate();
  StmtPtr parseCreateTable(bool temporary);
  StmtPtr parseCreateView(bool orReplace, bool temporary);
  StmtPtr parseCreateIndex();
  StmtPtr parseDrop();
  StmtPtr parseAlterTable();
  AlterTableCmd parseAlterTableCmd();
  AlterTableCmd parseAlterColumn();
  void parseTableLike(CreateTableStmt& s);
  void parseCreateTableAs(CreateTableStmt& s);
  void parseOnCommit(CreateTableStmt& s);
  // SELECT ... INTO t as CREATE TABLE t AS SELECT ... (the statement at [begin, lastEnd_)).
  StmtPtr selectIntoAsCreateTable(StmtPtr select, uint32_t begin);
  StmtPtr parseTruncate();
  ColumnDef parseColumnDef();
  bool parseColumnConstraint(std::vector<Constraint>& out);
  Constraint parseTableConstraint();
  void parseReferences(Constraint& c);
  void parseCheck(Constraint& c);
  // parse_sequence.cpp
  StmtPtr parseCreateSequence(bool temporary);
  StmtPtr parseCreateType();
  StmtPtr parseAlterSequence();
  std::vector<SequenceOption> parseSequenceOptions(bool alter);  // RESTART only when `alter`
  int64_t parseSignedInt64();

  // parse_routine.cpp
  StmtPtr parseCreateFunction(bool orReplace);
  void parseRoutineOptions(CreateFunctionStmt& s);
  bool acceptParamMode(RoutineParam& p);
  RoutineParam parseRoutineParam(bool allowDefault);
  TypeName parseFuncType();
  std::vector<RoutineParam> parseRoutineParams(bool allowDefaults);
  StmtPtr parseDropRoutine();
  StmtPtr parseAlterRoutine();
  StmtPtr parseComment();
  StmtPtr parseCall();

  // parse_utility.cpp
  StmtPtr parseTransaction();
  bool parseTransactionModes(TransactionStmt& t);
  StmtPtr parseSet();
  StmtPtr parseSetTransaction(bool local);
  std::string parseSettingName();
  DefElem parseSettingValue();
  StmtPtr parseShow();
  StmtPtr parseReset();
  StmtPtr parseDiscard();
  StmtPtr parseVacuum(bool isAnalyze);
  StmtPtr parseCreateDatabase();
  StmtPtr parseCreateRole(bool isUser);
  // CREATE and ALTER ROLE's options after the name and an optional WITH.
  void parseRoleOptions(std::vector<DefElem>& options);
  StmtPtr parseAlterRole();      // ALTER ROLE | USER name [WITH] options
  StmtPtr parseGrantRole();      // GRANT role [, ...] TO role [, ...], REVOKE ... FROM ...
  StmtPtr parseAlterDatabase();  // ALTER DATABASE name OWNER TO role
  StmtPtr parseCopy();
  StmtPtr parsePrepare();
  StmtPtr parseExecute();
  StmtPtr parseDeallocate();
  StmtPtr parseExplain();
  StmtPtr parseListen();
  StmtPtr parseUnlisten();
  StmtPtr parseNotify();
  StmtPtr parseLock();
  StmtPtr parseDeclareCursor();
  StmtPtr parseFetch();
  StmtPtr parseClosePortal();

  // ---- expressions (parse_expr.cpp) ----
  ExprPtr parseExpr();
  ExprPtr parseOr();
  ExprPtr parseAnd();
  ExprPtr parseNot();
  ExprPtr parseIs();
  ExprPtr parseComparison();
  ExprPtr parsePredicate();  // BETWEEN, IN, LIKE, ILIKE
  ExprPtr parseOtherOp();
  ExprPtr parseAdditive();
  ExprPtr parseMultiplicative();
  ExprPtr parsePower();
  ExprPtr parseAtTimeZone();
  ExprPtr parseUnary();
  ExprPtr negateConstant(const Token& minus, ExprPtr operand);
  ExprPtr parsePostfix();
  void parseCollation();  // COLLATE name (after the expression)
  ExprPtr parsePrimary();
  ExprPtr parseQuantifiedRhs(uint32_t loc, const std::string& op, ExprPtr left, ExprPtr (Parser::*rhs)());
  ExprPtr parseParenthesized();
  ExprPtr parseArrayConstructor(uint32_t location, bool nested);  // at '['
  ExprPtr parseSubscripts(ExprPtr e);
  ExprPtr parseIndirection(ExprPtr e);  // any [..] following e
  ExprPtr parseWordExpr();
  ExprPtr parseFuncArgs(std::unique_ptr<FuncCall> call);
  void parseAggregateSuffixes(FuncCall& call);
  ExprPtr parseCase();
  ExprPtr parseSpecialFunction();  // parse_special_func.cpp: EXTRACT, POSITION, SUBSTRING, TRIM, OVERLAY
  ExprPtr parseTypedLiteral(TypeName type);
  ExprPtr parseSqlValue(SqlValueKind kind, bool takesPrecision);
  std::unique_ptr<SelectStmt> parseParenSubquery();
  std::vector<ExprPtr> parseExprList();
  // A constant with nothing after it but ',' or ')', else null. `valuesCell`: NULL, TRUE
  // and FALSE are lifted too (a VALUES cell's).
  ExprPtr parseLoneConstant(bool valuesCell = false);
  ExprPtr makeConstant(const Token& t);                  // literal token -> Literal, or lifted Param
  ExprPtr liftLiteral(LiftedLiteral lit, size_t token);  // the Param that stands for it

  // ---- type names (parse_type.cpp) ----
  bool startsKeywordType(int ahead = 0);  // int, varchar, double precision, timestamp ...
  TypeName parseTypeName();
  void parseTypeModifiers(TypeName& t);
  // gram.y's opt_interval after INTERVAL (or its literal): YEAR TO MONTH, DAY TO SECOND(p), ...
  void parseIntervalFields(TypeName& t);
  void parseArrayBounds(TypeName& t);
  void resolveType(TypeName& t, bool fromKeyword);

  // ---- literal lifting (parser_core.cpp) ----
  void finishLifting(ParsedStatement& out, size_t firstToken, size_t endToken);

  std::string_view query_;
  ParseOptions options_;
  DecodedTexts decodedTexts_;  // before tokens_, which point into it
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  uint32_t lastEnd_ = 0;  // byte offset just past the last consumed token

  // Per statement:
  bool lifting_ = false;
  int maxParam_ = 0;
  int firstParam_ = -1;  // the first $n of the statement and where it is
  uint32_t firstParamLocation_ = 0;
  std::vector<LiftedLiteral> lifted_;
  // SELECT ... INTO table: the table and the clause's byte range, for parseAll to turn the
  // statement into CREATE TABLE AS.
  struct IntoClause {
    QualifiedName table;
    bool temporary = false;
    uint32_t begin = 0, end = 0;
  };
  std::optional<IntoClause> into_;
  // Where each lifted literal (same index as lifted_) stands: its Param node, its token
  // range [firstToken, lastToken] (firstToken is the '-' of a negative one), and, for a
  // whole VALUES cell, which gets a parameter of its own (finishLifting), its list (the
  // statement's how manieth) and column.
  struct LiftSite {
    Param* param;
    size_t firstToken, lastToken;
    int valuesList = -1, valuesColumn = -1;
    bool valuesCell() const { return valuesList >= 0; }
  };
  int valuesLists_ = 0;  // VALUES lists parsed
  // VALUES rows whose every cell is a constant alone, so one lifted literal each, in order
  // from firstLifted: the shape key names a run of such rows of the same kinds once.
  struct ConstantRow {
    size_t openToken, closeToken, firstLifted, cells;
  };
  std::vector<ConstantRow> constantRows_;
  std::vector<LiftSite> liftSites_;
};

}  // namespace duet::sql
