// Statement nodes for functions and procedures: CREATE [OR REPLACE] FUNCTION | PROCEDURE,
// DROP FUNCTION | PROCEDURE | ROUTINE, and CALL. The body stays text here; the PL/pgSQL
// parser (compiler/plpgsql) and the SQL parser read it later.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/parser/ast_stmt.h"

namespace duet::sql {

enum class RoutineKind : uint8_t { Function, Procedure };

// PostgreSQL's argument modes; Table marks a column of RETURNS TABLE (...), which is an
// output argument that only RETURNS TABLE can declare.
enum class ParamMode : uint8_t { In, Out, InOut, Variadic, Table };

struct RoutineParam {
  std::string name;  // empty when the parameter is unnamed
  ParamMode mode = ParamMode::In;
  bool modeWritten = false;  // IN/OUT/INOUT/VARIADIC appeared (DROP's list keeps them)
  TypeName type;
  ExprPtr defaultExpr;                        // DEFAULT expr or = expr; null when none
  uint32_t defaultBegin = 0, defaultEnd = 0;  // byte range of the default's text
  uint32_t location = 0;
};

// One CREATE FUNCTION option, in the order written. `name` is the group PostgreSQL checks
// for "conflicting or redundant options": as, language, volatility, strict, security,
// leakproof, cost, rows, support, parallel, window, set.
struct RoutineOption {
  std::string name;
  std::string value;  // language name, immutable/stable/volatile, true/false, parallel mode, ...
  uint32_t location = 0;
  // SET name {TO | =} value, ...: the values (`value` is the setting's name); none for
  // SET name FROM CURRENT.
  std::vector<std::string> setValues;
  bool fromCurrent = false;
};

struct CreateFunctionStmt : Stmt {
  CreateFunctionStmt() : Stmt(StmtKind::CreateFunction) {}
  RoutineKind routine = RoutineKind::Function;
  bool orReplace = false;
  QualifiedName name;
  std::vector<RoutineParam> params;  // RETURNS TABLE columns follow with ParamMode::Table

  bool hasReturns = false;  // a RETURNS clause was written (functions only)
  bool returnsSet = false;  // SETOF type, or RETURNS TABLE
  bool returnsTable = false;
  TypeName returnType;  // unset for RETURNS TABLE and when !hasReturns

  std::vector<RoutineOption> options;
  // AS 'body' (or AS $tag$body$tag$): the decoded text and the string token's byte range,
  // so that errors inside the body can be reported at positions in this statement.
  bool hasBody = false;
  std::string body;
  uint32_t bodyTokenBegin = 0, bodyTokenEnd = 0;
  std::string language;  // folded; empty when no LANGUAGE option was given
};

// DROP FUNCTION | PROCEDURE | ROUTINE: each name with its argument list, if one was given.
struct RoutineRef {
  QualifiedName name;
  bool argsGiven = false;
  std::vector<RoutineParam> args;
};

enum class RoutineObject : uint8_t { Function, Procedure, Routine };

struct DropRoutineStmt : Stmt {
  DropRoutineStmt() : Stmt(StmtKind::DropRoutine) {}
  RoutineObject object = RoutineObject::Function;
  std::vector<RoutineRef> routines;
  bool ifExists = false;
  DropBehavior behavior = DropBehavior::Default;
};

// ALTER FUNCTION | PROCEDURE | ROUTINE name [(arguments)] OWNER TO role: what a dump says;
// DuetDB keeps no owners, so it only checks that both exist.
struct AlterRoutineStmt : Stmt {
  AlterRoutineStmt() : Stmt(StmtKind::AlterRoutine) {}
  RoutineObject object = RoutineObject::Function;
  RoutineRef routine;
  std::string owner;
};

// COMMENT ON TABLE | VIEW | INDEX | SEQUENCE | COLUMN | SCHEMA | FUNCTION | PROCEDURE name
// IS 'text' | NULL.
struct CommentStmt : Stmt {
  CommentStmt() : Stmt(StmtKind::Comment) {}
  enum class Object : uint8_t { Table, View, Index, Sequence, Column, Schema, Function, Procedure } object{};
  QualifiedName name;               // a COLUMN's ends with the column
  RoutineRef routine;               // FUNCTION, PROCEDURE
  std::optional<std::string> text;  // NULL: the comment goes
};

struct CallStmt : Stmt {
  CallStmt() : Stmt(StmtKind::Call) {}
  std::unique_ptr<FuncCall> call;
};

}  // namespace duet::sql
