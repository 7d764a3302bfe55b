// CREATE [OR REPLACE] FUNCTION | PROCEDURE, DROP FUNCTION | PROCEDURE | ROUTINE, CALL
// (gram.y's CreateFunctionStmt, RemoveFuncStmt and CallStmt). Options are only collected
// here; their conflicts and meaning are checked where the statement runs, as PostgreSQL's
// CreateFunction does, so that errors come in PostgreSQL's order.
#include "compiler/parser/parser_impl.h"

namespace duet::sql {

bool Parser::acceptParamMode(RoutineParam& p) {
  if (acceptKw("in")) {
    p.mode = acceptKw("out") ? ParamMode::InOut : ParamMode::In;
  } else if (acceptKw("out")) {
    p.mode = ParamMode::Out;
  } else if (acceptKw("inout")) {
    p.mode = ParamMode::InOut;
  } else if (acceptKw("variadic")) {
    p.mode = ParamMode::Variadic;
  } else {
    return false;
  }
  p.modeWritten = true;
  return true;
}

// func_arg: [mode] [name] [mode] type, then DEFAULT expr or = expr where allowed. A word
// is a parameter name when a type can follow it: `a int`, but not `int`, `varchar(10)`,
// `double precision` or `t DEFAULT 1`.
RoutineParam Parser::parseRoutineParam(bool allowDefault) {
  RoutineParam p;
  p.location = peek().offset;
  bool modeFirst = acceptParamMode(p);
  bool typeFollows = isTypeFuncName(1) || startsKeywordType(1) || isKw("in", 1) || isKw("out", 1) || isKw("inout", 1) ||
                     isKw("variadic", 1);
  if (isTypeFuncName() && !startsKeywordType() && typeFollows) {
    p.name = advance().str();
    if (!modeFirst) acceptParamMode(p);
  }
  p.type = parseFuncType();
  if (allowDefault && (acceptKw("default") || acceptOp("="))) {
    p.defaultBegin = peek().offset;
    p.defaultExpr = parseExpr();
    p.defaultEnd = lastEnd_;
  }
  return p;
}

// func_type: a type name, or a column's type, `table.column%TYPE` (a qualified name
// without modifiers or array bounds).
TypeName Parser::parseFuncType() {
  TypeName t = parseTypeName();
  if (t.names.size() >= 2 && t.modifiers.empty() && t.arrayBounds == 0 && isOp("%") && isKw("type", 1)) {
    advance();
    advance();
    t.columnType = true;
    t.resolved = false;
  }
  return t;
}

std::vector<RoutineParam> Parser::parseRoutineParams(bool allowDefaults) {
  std::vector<RoutineParam> params;
  expectOp("(");
  if (!isOp(")")) {
    do params.push_back(parseRoutineParam(allowDefaults));
    while (acceptOp(","));
  }
  expectOp(")");
  return params;
}

StmtPtr Parser::parseCreateFunction(bool orReplace) {
  auto s = std::make_unique<CreateFunctionStmt>();
  s->orReplace = orReplace;
  if (!acceptKw("function")) {
    expectKw("procedure");
    s->routine = RoutineKind::Procedure;
  }
  s->name = parseQualifiedName();
  s->params = parseRoutineParams(true);
  if (s->routine == RoutineKind::Function && isKw("returns") && !isKw("null", 1)) {
    advance();
    s->hasReturns = true;
    if (acceptKw("table")) {
      s->returnsSet = s->returnsTable = true;
      expectOp("(");
      do {
        RoutineParam column;
        column.location = peek().offset;
        column.mode = ParamMode::Table;
        column.name = parseColId();
        column.type = parseFuncType();
        s->params.push_back(std::move(column));
      } while (acceptOp(","));
      expectOp(")");
    } else {
      s->returnsSet = acceptKw("setof");
      s->returnType = parseFuncType();
    }
  }
  parseRoutineOptions(*s);
  return s;
}

// createfunc_opt_item, in any order.
void Parser::parseRoutineOptions(CreateFunctionStmt& s) {
  while (!atStatementEnd()) {
    RoutineOption o;
    o.location = peek().offset;
    auto set = [&](const char* name, std::string value) {
      o.name = name;
      o.value = std::move(value);
    };
    if (acceptKw("as")) {
      if (peek().kind != TokenKind::String) syntaxError();
      const Token& body = advance();
      s.hasBody = true;
      s.body = body.text;
      s.bodyTokenBegin = body.offset;
      s.bodyTokenEnd = body.offset + body.length;
      if (acceptOp(",")) {  // AS 'obj_file', 'link_symbol' of C functions
        if (peek().kind != TokenKind::String) syntaxError();
        advance();
      }
      set("as", "");
    } else if (acceptKw("language")) {
      if (peek().kind == TokenKind::String)
        set("language", advance().str());
      else if (isColId() || isTypeFuncName())
        set("language", advance().str());
      else
        syntaxError();
      s.language = o.value;
    } else if (isKw("immutable") || isKw("stable") || isKw("volatile")) {
      set("volatility", advance().str());
    } else if (acceptKw("strict")) {
      set("strict", "true");
    } else if (acceptKw("called")) {
      expectKw("on");
      expectKw("null");
      expectKw("input");
      set("strict", "false");
    } else if (acceptKw("returns")) {  // RETURNS NULL ON NULL INPUT
      expectKw("null");
      expectKw("on");
      expectKw("null");
      expectKw("input");
      set("strict", "true");
    } else if (isKw("external") || isKw("security")) {
      if (acceptKw("external"))
        expectKw("security");
      else
        advance();
      if (!isKw("definer") && !isKw("invoker")) syntaxError();
      set("security", advance().str() == "definer" ? "true" : "false");
    } else if (acceptKw("leakproof")) {
      set("leakproof", "true");
    } else if (isKw("not") && isKw("leakproof", 1)) {
      advance();
      advance();
      set("leakproof", "false");
    } else if (isKw("cost") || isKw("rows")) {
      std::string name = advance().str();
      if (peek().kind == TokenKind::Word || peek().kind == TokenKind::String) syntaxError();
      DefElem number;
      parseOptionValue(number, true);
      set(name == "cost" ? "cost" : "rows", number.value);
    } else if (acceptKw("support")) {
      set("support", parseQualifiedName().name());
    } else if (acceptKw("parallel")) {
      set("parallel", parseColId());
    } else if (acceptKw("window")) {
      set("window", "true");
    } else if (acceptKw("set")) {  // SET configuration_parameter { TO | = } value, ...
      std::string name = parseColId();
      while (acceptOp(".")) name += "." + parseColLabel();
      if (acceptKw("from")) {
        expectKw("current");
        o.fromCurrent = true;
      } else {
        if (!acceptKw("to")) expectOp("=");
        do {
          DefElem value;
          parseOptionValue(value, true);
          o.setValues.push_back(std::move(value.value));
        } while (acceptOp(","));
      }
      set("set", name);
    } else if (acceptKw("reset")) {
      set("reset", isKw("all") ? advance().str() : parseColId());
    } else {
      syntaxError();
    }
    s.options.push_back(std::move(o));
  }
}

StmtPtr Parser::parseDropRoutine() {
  auto s = std::make_unique<DropRoutineStmt>();
  std::string object = advance().str();
  s->object = object == "function"    ? RoutineObject::Function
              : object == "procedure" ? RoutineObject::Procedure
                                      : RoutineObject::Routine;
  if (isKw("if")) {
    advance();
    expectKw("exists");
    s->ifExists = true;
  }
  do {
    RoutineRef r;
    r.name = parseQualifiedName();
    if (isOp("(")) {
      r.argsGiven = true;
      r.args = parseRoutineParams(false);
    }
    s->routines.push_back(std::move(r));
  } while (acceptOp(","));
  s->behavior = parseDropBehavior();
  return s;
}

StmtPtr Parser::parseAlterRoutine() {
  expectKw("alter");
  auto s = std::make_unique<AlterRoutineStmt>();
  std::string object = advance().str();
  s->object = object == "function"    ? RoutineObject::Function
              : object == "procedure" ? RoutineObject::Procedure
                                      : RoutineObject::Routine;
  s->routine.name = parseQualifiedName();
  if (isOp("(")) {
    s->routine.argsGiven = true;
    s->routine.args = parseRoutineParams(false);
  }
  expectKw("owner");
  expectKw("to");
  s->owner = parseColId();
  return s;
}

StmtPtr Parser::parseComment() {
  using Object = CommentStmt::Object;
  expectKw("comment");
  expectKw("on");
  auto s = std::make_unique<CommentStmt>();
  static const std::pair<const char*, Object> kObjects[] = {
      {"table", Object::Table},       {"view", Object::View},          {"index", Object::Index},
      {"sequence", Object::Sequence}, {"column", Object::Column},      {"schema", Object::Schema},
      {"function", Object::Function}, {"procedure", Object::Procedure}};
  bool known = false;
  for (auto [word, object] : kObjects)
    if (!known && acceptKw(word)) {
      s->object = object;
      known = true;
    }
  if (!known) syntaxError();
  if (s->object == Object::Function || s->object == Object::Procedure) {
    s->routine.name = parseQualifiedName();
    if (isOp("(")) {
      s->routine.argsGiven = true;
      s->routine.args = parseRoutineParams(false);
    }
  } else {
    s->name = parseQualifiedName();
  }
  expectKw("is");
  if (!acceptKw("null")) {
    if (peek().kind != TokenKind::String) syntaxError();
    s->text = advance().str();
  }
  return s;
}

StmtPtr Parser::parseCall() {
  expectKw("call");
  auto s = std::make_unique<CallStmt>();
  QualifiedName name = parseQualifiedName();
  if (!isOp("(")) syntaxError();
  auto call = std::make_unique<FuncCall>(name.location);
  call->names = std::move(name.parts);
  ExprPtr parsed = parseFuncArgs(std::move(call));
  s->call.reset(&parsed.release()->as<FuncCall>());
  return s;
}

}  // namespace duet::sql
