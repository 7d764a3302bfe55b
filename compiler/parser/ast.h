// The SQL abstract syntax tree: expressions (ast_expr.h), type names (ast_type.h) and
// statements (ast_stmt.h, ast_routine.h). Include this header to use the tree.
#pragma once
#include "compiler/parser/ast_expr.h"
#include "compiler/parser/ast_routine.h"
#include "compiler/parser/ast_stmt.h"
#include "compiler/parser/ast_type.h"
