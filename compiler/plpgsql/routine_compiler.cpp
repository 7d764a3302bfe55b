// PL/pgSQL to LLVM IR. The routine's variables are slots of one tuple (the frame); every
// expression and embedded statement is bound and planned with the slots as its parameters
// ($1.. in slot order) and generated inline, produce/consume style, into the routine's own
// functions: an INTO target is a store in the consumer, a loop over a query is the query's
// pipeline with the loop body as its consumer. Control flow maps onto basic blocks; the
// body of a block with an EXCEPTION section becomes a function of its own, called through
// duet_plpgsql_try, which undoes the block's changes when it catches an error.
//
// Fixed-width variables (integers, booleans, floats, numeric, dates and timestamps, and
// their NULL flags) also live in allocas of each generated function, which SROA/mem2reg
// turn into SSA values: the frame escapes into every runtime call, so a value read from
// it must be loaded again after each call, while a value in an alloca stays in a
// register. Each function loads them from the frame on entry. The frame must hold their
// current values wherever code outside the function reads it:
//  * the routine's own function (depth 0) stores them back before calling an EXCEPTION
//    block (which reads and writes the frame) and before returning (runRoutine reads the
//    result and OUT slots); an error leaving it ends the call, so nothing else is needed;
//  * an EXCEPTION block body writes every assignment through to the frame as well, since
//    any statement in it may raise, and the handler, in the caller, must see the values
//    assigned before the error (PL/pgSQL does not roll variables back);
//  * after duet_plpgsql_try returns, the caller reloads them from the frame.
// Strings and arrays stay in the frame only.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Verifier.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "compiler/binder/type_rules.h"
#include "compiler/codegen/jit.h"
#include "compiler/codegen/statement_generator.h"
#include "compiler/compiler.h"
#include "compiler/parser/parser.h"
#include "compiler/plpgsql/compiled_routine.h"
#include "compiler/plpgsql/condition_names.h"
#include "compiler/plpgsql/cursor_runtime.h"
#include "compiler/plpgsql/dynamic_sql.h"
#include "compiler/plpgsql/loop_prefetch.h"
#include "compiler/plpgsql/routine_runtime.h"
#include "compiler/plpgsql/statement_context.h"
#include "compiler/plpgsql/strict_params.h"
#include "engine/elapsed.h"
#include "engine/limits/stack_depth.h"
#include "engine/storage/index.h"
#include "engine/types/array.h"
#include "engine/types/record.h"

namespace duet::plpgsql {
namespace {

using binder::CastContext;
using codegen::Row;
using codegen::SqlValue;

// A statement planned from a piece of the body, with the parse tree it came from.
struct Planned {
  std::vector<sql::ParsedStatement> parsed;
  PlannedStatement stmt;
  // The row and record variables the text names whole (`r`, `(r).a`, `f(r)`): parameters
  // after the slots and the extra ones, each its variable (-1 where the binder did not
  // read the name as the variable) and its row type.
  std::vector<std::pair<int, SqlType>> wholeRows;
};

// Where EXIT and CONTINUE may go: a loop, or a labelled block (EXIT only).
struct JumpTarget {
  std::string label;
  bool loop = false;
  llvm::BasicBlock* exit = nullptr;
  llvm::BasicBlock* cont = nullptr;
  int depth = 0;                   // the generated function (0: the routine, deeper: EXCEPTION block bodies)
  int exitCode = 0, contCode = 0;  // returned from a deeper function to jump here
  bool setsFound = false;          // a FOR loop (not LOOP, WHILE or a block): FOUND says it ran
};

// The generated function being filled: the routine itself or an EXCEPTION block body.
struct FunctionState {
  llvm::Function* fn = nullptr;
  llvm::BasicBlock* entry = nullptr;
  llvm::Value* ctx = nullptr;
  llvm::Value* vars = nullptr;
  llvm::Value* frame = nullptr;
  int depth = 0;
  // Per slot: the allocas (value, null flag) that hold it in this function, or nulls for
  // a slot read from the frame (see the comment at the top).
  std::vector<std::pair<llvm::AllocaInst*, llvm::AllocaInst*>> registers;
};

class RoutineCompiler {
 public:
  RoutineCompiler(const RoutineCompileRequest& req, const Function& fn, CompiledRoutine& out,
                  llvm::LLVMContext& context, llvm::Module& module)
      : req_(req),
        fn_(fn),
        out_(out),
        module_(module),
        statements_(context, module, *out.code),
        cg_(statements_.values()),
        b_(cg_.ir()) {}

  void allocateSlots() {
    for (size_t v = 0; v < fn_.variables.size(); ++v) {
      const Variable& var = fn_.variables[v];
      slotOf_.push_back(-1);
      fieldSlots_.emplace_back();
      rowNull_.push_back(-1);
      switch (var.type.kind) {
        case VarType::Kind::Scalar: slotOf_[v] = addSlot(var.type.scalar); break;
        case VarType::Kind::Row:
          for (const auto& [name, type] : var.type.columns) addField(static_cast<int>(v), name, type);
          break;
        case VarType::Kind::Array: slotOf_[v] = addSlot(SqlType::arrayOf(var.type.scalar)); break;
        case VarType::Kind::Record: break;  // not compiled yet: a statement using one fails
      }
    }
    shapeFromDefaults(*fn_.body);
    shapeRecords(fn_.body->body);
    const RoutineShape& shape = req_.shape;
    // OUT arguments of a composite type. A function's only one is its result as RETURNS t
    // is: its fields are the row, its variable's NULL flag the value's (wholeOutput).
    // Otherwise each has a hidden slot of its row type, filled from its fields where the
    // routine returns (packOutputRecords; an SQL body's final statement fills it).
    int wholeOutput = -1;
    std::map<int, int> outputRecords;  // parameter -> its hidden slot
    for (size_t p = 0; p < shape.params.size(); ++p) {
      if (!shape.params[p].output || shape.params[p].type.kind != VarType::Kind::Row) continue;
      if (req_.returnsRow && !shape.procedure)
        wholeOutput = static_cast<int>(p);
      else
        outputRecords[static_cast<int>(p)] = addSlot(rowTypeOf(static_cast<int>(p)));
    }
    for (const auto& [param, slot] : outputRecords) outputRecords_.emplace_back(param, slot);
    if (!shape.procedure && !shape.returnsSet && !shape.returnsVoid && !shape.hasOutputParams()) {
      if (req_.returnsRow) {
        // One row (of the caller's column definition list, or the table's): hidden slots
        // that RETURN fills and the call reads as it reads OUT arguments.
        returnsRow_ = true;
        for (const SqlType& t : req_.rowTypes) out_.outputSlots.push_back(addSlot(t));
        // Whether that row is NULL as a whole (RETURN NULL, a NULL row variable, an SQL
        // body without a row): a call as a value is then NULL.
        out_.resultRowNull = addSlot({TypeId::Bool, -1});
      } else {
        out_.returnsValue = true;
        out_.returnSlot = addSlot(req_.returnType);
      }
    }
    rowCountSlot_ = addSlot({TypeId::Int8, -1});
    out_.varLayout = TupleLayout::of(slotTypes_);
    // Call arguments: functions pass their input arguments, procedures all of theirs (OUT
    // ones too, as PostgreSQL 14 and later; their values are ignored).
    std::vector<SqlType> argTypes;
    for (size_t p = 0; p < shape.params.size(); ++p) {
      const RoutineParameter& param = shape.params[p];
      bool passed = shape.procedure ? true : param.input;
      if (param.output && static_cast<int>(p) == wholeOutput) {
        for (const auto& [name, slot] : fieldSlots_[p]) out_.outputSlots.push_back(slot);
        out_.resultRowNull = rowNull_[p];
      } else if (param.output && outputRecords.count(static_cast<int>(p))) {
        out_.outputSlots.push_back(outputRecords[static_cast<int>(p)]);
      } else if (param.output) {
        if (slotOf_[p] < 0)
          throw SqlError(sqlstate::kFeatureNotSupported,
                         fmt::format("output argument \"{}\" of this type is not supported yet", param.name));
        out_.outputSlots.push_back(slotOf_[p]);
      }
      if (!passed) continue;
      argTypes.push_back(slotOf_[p] >= 0 ? slotTypes_[slotOf_[p]] : param.type.scalar);
      out_.argSlots.push_back(param.input ? slotOf_[p] : -1);
      // A composite argument: a record value the call unpacks into the variable's fields.
      out_.argFieldSlots.emplace_back();
      out_.argRowNull.push_back(-1);
      if (param.input && param.type.kind == VarType::Kind::Row) {
        for (const auto& [name, slot] : fieldSlots_[p]) out_.argFieldSlots.back().push_back(slot);
        out_.argRowNull.back() = rowNull_[p];
      }
    }
    for (auto& t : argTypes) t = t.withoutTypmod();
    if (fn_.sqlBody) {
      numberedSlots_.emplace();
      for (int v : fn_.numberedParams) numberedSlots_->push_back(slotOf_[v]);
    }
    out_.argLayout = TupleLayout::of(argTypes);
    out_.rowLayout = TupleLayout::of(req_.rowTypes);
    out_.resultSlot = out_.returnsValue ? out_.returnSlot : out_.outputSlots.empty() ? -1 : out_.outputSlots[0];
    out_.resultLayout =
        TupleLayout::of({out_.resultSlot >= 0 ? slotTypes_[out_.resultSlot] : SqlType{TypeId::Text, -1}});
    // One row of a composite type, called as a value (SELECT f()): the row as one record.
    if ((returnsRow_ || wholeOutput >= 0) && req_.returnType.id == TypeId::Record) {
      out_.resultRecord = req_.returnType;
      out_.resultLayout = TupleLayout::of({req_.returnType});
    }
    out_.returnsSet = shape.returnsSet;
    out_.procedure = shape.procedure;
  }

  // `r := value` (or r's DECLARE default) for a RECORD r: the value's row type, named
  // where it is a composite type's (recordShapes_).
  void shapeFromValue(int v, const SqlText& value) {
    if (fn_.variables[v].type.kind != VarType::Kind::Record || !fieldSlots_[v].empty()) return;
    SqlError ignored("", "");
    std::optional<Planned> p = tryPlan(value, "SELECT ", {}, {}, &ignored);
    if (!p || p->stmt.plan->columns.size() != 1) return;
    SqlType type = p->stmt.plan->columns[0].type;
    if (type.id != TypeId::Record || type.typmod < 0) return;
    for (const RecordField& f : recordFields(type)) addField(v, f.name, f.type);
    recordShapes_[v] = type;
  }
  void shapeFromDefaults(const Block& b) {
    for (size_t i = 0; i < b.declared.size() && i < b.defaults.size(); ++i)
      if (b.defaults[i]) shapeFromValue(b.declared[i], *b.defaults[i]);
  }

  // A RECORD variable takes the row type of the first query assigned to it in the body
  // (FOR r IN query, SELECT ... INTO r): its fields become slots like a %ROWTYPE's.
  // PostgreSQL retypes a record on every assignment; a later query of another shape is
  // converted to the first one's column types here.
  void shapeRecords(const StmtList& list) {
    auto shapeFrom = [&](const std::vector<Target>& targets, const SqlText& query) {
      if (targets.size() != 1 || !targets[0].field.empty()) return;
      int v = targets[0].variable;
      if (fn_.variables[v].type.kind != VarType::Kind::Record || !fieldSlots_[v].empty()) return;
      SqlError ignored("", "");
      std::optional<Planned> p = tryPlan(query, "", {}, {}, &ignored);
      if (!p) return;
      for (const OutputColumn& c : p->stmt.plan->columns) addField(v, c.name, c.type);
    };
    for (const auto& st : list) {
      switch (st->kind) {
        case StmtKind::Block: {
          const auto& b = st->as<Block>();
          shapeFromDefaults(b);
          shapeRecords(b.body);
          for (const auto& h : b.handlers) shapeRecords(h.body);
          break;
        }
        case StmtKind::If: {
          const auto& i = st->as<If>();
          for (const auto& br : i.branches) shapeRecords(br.body);
          shapeRecords(i.elseBody);
          break;
        }
        case StmtKind::Case: {
          const auto& c = st->as<Case>();
          for (const auto& w : c.whens) shapeRecords(w.body);
          shapeRecords(c.elseBody);
          break;
        }
        case StmtKind::Assign: {
          const auto& a = st->as<Assign>();
          if (a.target.field.empty() && !a.target.subscript) shapeFromValue(a.target.variable, a.value);
          break;
        }
        case StmtKind::Loop:
        case StmtKind::While: shapeRecords(st->as<Loop>().body); break;
        case StmtKind::ForInt: shapeRecords(st->as<ForInt>().body); break;
        case StmtKind::ForEach: shapeRecords(st->as<ForEach>().body); break;
        case StmtKind::ForCursor: {
          const auto& f = st->as<ForCursor>();
          Target record;
          record.variable = f.variable;
          shapeFrom({record}, fn_.cursors[f.cursor].query);
          shapeRecords(f.body);
          break;
        }
        case StmtKind::ForQuery: {
          const auto& f = st->as<ForQuery>();
          shapeFrom(f.targets, f.query);
          shapeRecords(f.body);
          break;
        }
        case StmtKind::ExecSql: {
          const auto& e = st->as<ExecSql>();
          if (e.into) shapeFrom(e.targets, e.statement);
          break;
        }
        case StmtKind::CursorOpen: {
          const auto& o = st->as<CursorStmt>();
          if (o.query) openQueries_.emplace(o.variable, &*o.query);
          break;
        }
        case StmtKind::CursorFetch: {
          // A bound cursor's query, or the first OPEN ... FOR query of the variable.
          const auto& f = st->as<CursorStmt>();
          auto open = openQueries_.find(f.variable);
          if (f.cursor >= 0)
            shapeFrom(f.targets, fn_.cursors[f.cursor].query);
          else if (open != openQueries_.end())
            shapeFrom(f.targets, *open->second);
          break;
        }
        case StmtKind::Execute:
          if (st->as<Execute>().into) shapeFromConstantCommand(st->as<Execute>().targets, st->as<Execute>().query);
          break;
        case StmtKind::ForExecute: {
          const auto& f = st->as<ForExecute>();
          shapeFromConstantCommand(f.targets, f.query);
          shapeRecords(f.body);
          break;
        }
        default: break;
      }
    }
  }

  void generate(const std::string& name) {
    auto* fnType =
        llvm::FunctionType::get(b_.getInt32Ty(), {cg_.pointerType(), cg_.pointerType(), cg_.pointerType()}, false);
    FunctionState main = newFunction(fnType, name, llvm::Function::ExternalLinkage, 0);
    enter(main);
    loadRegisters();
    returnBlock_ = cg_.block("return");
    // FOUND starts false, ROW_COUNT 0 (plpgsql_estate_setup's eval_processed).
    setFound(b_.getFalse());
    setRowCount(b_.getInt64(0));
    emitBlock(*fn_.body);
    if (!terminated()) {
      if (out_.returnsValue || returnsRow_) {
        fail("2F005", "control reached end of function without RETURN");
      } else {
        packOutputRecords();
        flushRegisters();
        b_.CreateRet(b_.getInt32(0));
      }
    }
    b_.SetInsertPoint(returnBlock_);
    packOutputRecords();
    flushRegisters();
    b_.CreateRet(b_.getInt32(1));
  }

 private:
  // ---- slots and values ------------------------------------------------------------------
  int addSlot(SqlType t) {
    slotTypes_.push_back(t);
    return static_cast<int>(slotTypes_.size()) - 1;
  }
  // The OUT arguments of a composite type as the records the call returns (PL/pgSQL: its
  // variables are fields; an SQL body stores the record itself).
  void packOutputRecords() {
    if (fn_.sqlBody) return;
    for (const auto& [param, slot] : outputRecords_) storeSlot(slot, rowValue(param));
  }

  // A field of row or record variable v: a slot of its own. The first also gives v its
  // hidden slot whose NULL flag says v is NULL as a whole (PostgreSQL's record variables
  // are NULL until assigned, and `r := NULL` makes them so again; a row of NULL fields is
  // not NULL as a value), which rowNull_ names.
  void addField(int v, const std::string& name, SqlType type) {
    if (rowNull_[v] < 0) rowNull_[v] = addSlot({TypeId::Bool, -1});
    fieldSlots_[v].emplace_back(name, addSlot(type));
  }
  SqlValue loadSlot(int slot) {
    auto [value, null] = cur_.registers[slot];
    if (!value) return cg_.loadField(cur_.vars, out_.varLayout, slot);
    return {b_.CreateLoad(value->getAllocatedType(), value), b_.CreateLoad(b_.getInt1Ty(), null), slotTypes_[slot]};
  }
  void storeSlot(int slot, const SqlValue& v) {
    auto [value, null] = cur_.registers[slot];
    if (value) {
      b_.CreateStore(v.v, value);
      b_.CreateStore(v.null, null);
    }
    if (!value || cur_.depth > 0) cg_.storeField(cur_.vars, out_.varLayout, slot, v);
  }
  // Gives the function being entered its registers, loaded from the frame.
  void loadRegisters() {
    cur_.registers.assign(slotTypes_.size(), {nullptr, nullptr});
    for (size_t s = 0; s < slotTypes_.size(); ++s) {
      TypeId t = slotTypes_[s].id;
      if (t == TypeId::Array || isVarlenaType(t)) continue;
      cur_.registers[s] = {entryAlloca(cg_.sqlType(t)), entryAlloca(b_.getInt1Ty())};
    }
    reloadRegisters();
  }
  void reloadRegisters() {
    for (size_t s = 0; s < slotTypes_.size(); ++s) {
      auto [value, null] = cur_.registers[s];
      if (!value) continue;
      SqlValue v = cg_.loadField(cur_.vars, out_.varLayout, s);
      b_.CreateStore(v.v, value);
      b_.CreateStore(v.null, null);
    }
  }
  // The routine's function keeps its registers out of the frame until code outside
  // needs them there; EXCEPTION block bodies write through (see the top).
  void flushRegisters() {
    if (cur_.depth > 0) return;
    for (size_t s = 0; s < slotTypes_.size(); ++s)
      if (cur_.registers[s].first) cg_.storeField(cur_.vars, out_.varLayout, s, loadSlot(static_cast<int>(s)));
  }
  bool terminated() { return cg_.terminated(); }
  // Code after a jump or a raise is unreachable; it still needs a block to go into.
  void ensureOpen() {
    if (terminated()) b_.SetInsertPoint(cg_.block("dead"));
  }

  llvm::Value* cstr(const std::string& s) {
    auto storage = std::make_unique<unsigned char[]>(s.size() + 1);
    std::memcpy(storage.get(), s.c_str(), s.size() + 1);
    llvm::Value* p = cg_.ptrConst(storage.get());
    out_.code->constants.push_back(std::move(storage));
    return p;
  }

  void fail(const SqlError& e) {
    auto optional = [&](const std::string& s) { return s.empty() ? cg_.ptrConst(nullptr) : cstr(s); };
    cg_.call("duet_plpgsql_fail", b_.getVoidTy(), {cstr(e.code), cstr(e.what()), optional(e.detail), optional(e.hint)});
    b_.CreateUnreachable();
  }
  void fail(const std::string& code, const std::string& message, const std::string& hint = {}) {
    fail(SqlError(code, message, {}, hint));
  }
  // An error found while compiling: raised where the statement runs, or now when CREATE
  // validates an SQL body (as PostgreSQL analyses those at CREATE).
  void reject(const SqlError& e) {
    if (req_.validate) throw e;
    fail(e);
    ensureOpen();
  }

  // Converts a value for a variable of type `to`: assignment casts, else the explicit cast
  // (PostgreSQL falls back to converting through text there).
  // Arrays convert element by element, so their element types decide.
  std::optional<SqlValue> assignCast(SqlValue v, SqlType to) {
    SqlType from = v.type;
    bool arrays = from.isArray() && to.isArray();
    bool sameType = from.id == to.id && (!arrays || from.element == to.element);
    if (from == to || (sameType && to.typmod < 0)) return v;
    if (from.id == TypeId::Unknown) v.type = from = {TypeId::Text, -1};
    TypeId fromId = arrays ? from.element : from.id, toId = arrays ? to.element : to.id;
    if (fromId == toId || binder::castAllowed(fromId, toId, CastContext::Assignment)) return cg_.cast(v, to, false);
    if (binder::castAllowed(fromId, toId, CastContext::Explicit)) return cg_.cast(v, to, true);
    fail("42804",
         fmt::format("cannot assign a value of type {} to a variable of type {}", typeName(from), typeName(to)));
    ensureOpen();
    return std::nullopt;
  }

  void assignSlot(int slot, const SqlValue& v, const Variable* var) {
    std::optional<SqlValue> c = assignCast(v, slotTypes_[slot]);
    if (!c) return;
    if (var && var->notNull) {
      cg_.ifThen(c->null, [&] {
        fail("22004", fmt::format("null value cannot be assigned to variable \"{}\" declared NOT NULL", var->name));
      });
    }
    storeSlot(slot, *c);
    // A field assigned (or a row stored field by field): the row or record is a value.
    if (var) setRowNull(static_cast<int>(var - fn_.variables.data()), b_.getFalse());
  }

  // Whether row or record variable v is NULL as a whole (see addField); nothing for others.
  void setRowNull(int v, llvm::Value* null) {
    if (rowNull_[v] >= 0) storeSlot(rowNull_[v], {b_.getTrue(), null, {TypeId::Bool, -1}});
  }

  // The row type of row or record variable v as a value: its declared composite type (a
  // parameter's, `t`, `t%ROWTYPE`) while that still has the variable's fields, else a
  // record of them.
  SqlType rowTypeOf(int v) {
    const Variable& var = fn_.variables[v];
    if (var.type.kind == VarType::Kind::Record && fieldSlots_[v].empty()) return {TypeId::Record, -1};
    std::vector<RecordField> fields;
    for (const auto& [name, slot] : fieldSlots_[v]) fields.push_back({name, slotTypes_[slot]});
    std::optional<SqlType> declared;
    if (var.type.kind == VarType::Kind::Row && var.type.scalar.id == TypeId::Record)
      declared = var.type.scalar;
    else if (auto shape = recordShapes_.find(v); shape != recordShapes_.end())
      declared = shape->second;
    else if (var.type.kind == VarType::Kind::Row && !var.type.table.empty() && req_.resolveTypeName)
      declared = req_.resolveTypeName(var.type.table);
    auto sameFields = [&](const std::vector<RecordField>& other) {
      return std::equal(fields.begin(), fields.end(), other.begin(), other.end(), [](const auto& a, const auto& b) {
        return a.name == b.name && a.type.withoutTypmod() == b.type.withoutTypmod();
      });
    };
    if (declared && declared->id == TypeId::Record && sameFields(recordFields(*declared))) return *declared;
    return recordType(fields);
  }

  // Row or record variable v as one record value (NULL when it is NULL as a whole, as a
  // record that no statement of the body gives a row type always is).
  SqlValue rowValue(int v) {
    SqlType type = rowTypeOf(v);
    if (rowNull_[v] < 0) return cg_.nullOf(type);
    Row fields;
    std::vector<SqlType> types;
    for (const auto& [name, slot] : fieldSlots_[v]) {
      fields.push_back(loadSlot(slot));
      types.push_back(slotTypes_[slot]);
    }
    const TupleLayout* layout = out_.code->layouts.add(TupleLayout::of(types));
    llvm::Value* tuple = cg_.tupleAlloca(*layout);
    cg_.storeRow(tuple, *layout, fields);
    llvm::Value* record = cg_.call("duet_q_record_build", cg_.pointerType(),
                                   {cur_.ctx, tuple, cg_.ptrConst(layout), b_.getInt32(type.typmod)});
    return {record, loadSlot(rowNull_[v]).null, type};
  }

  // The slots an assignment target writes: one for a scalar or a field, every field of a
  // row variable. Empty (after emitting a failure) for what is not compiled yet.
  std::vector<int> targetSlots(const Target& t) {
    const Variable& var = fn_.variables[t.variable];
    if (t.subscript && slotOf_[t.variable] >= 0 && !slotTypes_[slotOf_[t.variable]].isArray()) {
      fail("42804", fmt::format("cannot subscript type {} because it does not support subscripting",
                                typeName(slotTypes_[slotOf_[t.variable]])));
      ensureOpen();
      return {};
    }
    if (var.type.kind == VarType::Kind::Row || var.type.kind == VarType::Kind::Record) {
      std::vector<int> slots;
      for (const auto& [name, slot] : fieldSlots_[t.variable])
        if (t.field.empty() || name == t.field) slots.push_back(slot);
      if (slots.empty()) {
        fail(t.field.empty() ? "55000" : "42703",
             t.field.empty() ? fmt::format("record \"{}\" is not assigned yet", var.name)
                             : fmt::format("record \"{}\" has no field \"{}\"", var.name, t.field));
        ensureOpen();
      }
      return slots;
    }
    if (slotOf_[t.variable] < 0) {
      fail(sqlstate::kFeatureNotSupported, fmt::format("variable \"{}\" of this type is not supported yet", var.name));
      ensureOpen();
      return {};
    }
    return {slotOf_[t.variable]};
  }

  // Stores a row into INTO targets: columns in order, missing ones NULL.
  void assignTargets(const std::vector<Target>& targets, const Row& row) {
    size_t column = 0;
    for (const Target& t : targets) {
      for (int slot : targetSlots(t)) {
        if (column < row.size())
          assignSlot(slot, row[column], &fn_.variables[t.variable]);
        else
          storeSlot(slot, cg_.nullOf(slotTypes_[slot]));
        ++column;
      }
    }
  }
  // No row: NULL into every target, which a NOT NULL variable refuses (22004).
  void nullTargets(const std::vector<Target>& targets) {
    for (const Target& t : targets)
      for (int slot : targetSlots(t)) assignSlot(slot, cg_.nullOf(slotTypes_[slot]), &fn_.variables[t.variable]);
  }

  void setFound(llvm::Value* found) { storeSlot(slotOf_[fn_.found], cg_.notNull(found, {TypeId::Bool, -1})); }
  void setRowCount(llvm::Value* count) { storeSlot(rowCountSlot_, cg_.notNull(count, {TypeId::Int8, -1})); }

  // ---- embedded SQL ------------------------------------------------------------------------
  // Throws (failing the statement when it runs) for a record that no query in the body
  // assigns (55000, its structure is unknown) and for a field a record does not have.
  int slotForReference(const VariableRef& ref) {
    const Variable& var = fn_.variables[ref.variable];
    if (var.type.kind == VarType::Kind::Row || var.type.kind == VarType::Kind::Record) {
      if (var.type.kind == VarType::Kind::Record && fieldSlots_[ref.variable].empty())
        throw SqlError("55000", fmt::format("record \"{}\" is not assigned yet", var.name),
                       "The tuple structure of a not-yet-assigned record is indeterminate.");
      for (const auto& [name, slot] : fieldSlots_[ref.variable])
        if (name == ref.field) return slot;
      if (!ref.field.empty())
        throw SqlError("42703", fmt::format("record \"{}\" has no field \"{}\"", var.name, ref.field));
      return -1;
    }
    return slotOf_[ref.variable];
  }

  // Binds and plans prefix + text + suffix with the variables (and `extra` parameters after
  // them) as parameters. On failure emits the error where the statement would run.
  std::optional<Planned> plan(const SqlText& text, const std::string& prefix, const std::string& suffix = {},
                              const std::vector<SqlType>& extra = {}, bool cursorQuery = false) {
    SqlError error("", "");
    std::optional<Planned> p = tryPlan(text, prefix, suffix, extra, &error, cursorQuery);
    if (!p) {
      reject(error);
      return p;
    }
    // A STABLE or IMMUTABLE routine runs its statements read-only (SPI's read_only, an SQL
    // function's readonly_func): one that writes fails where it runs. CREATE accepts it,
    // and its checks of the statement go on (the code after the failure is unreachable).
    if (req_.readOnly) {
      const char* command = p->stmt.plan->command == PreparedPlan::Command::Call
                                ? "CALL"
                                : writingCommand(*p->stmt.plan, *p->parsed[0].stmt);
      if (command) {
        fail(SqlError(sqlstate::kFeatureNotSupported,
                      fmt::format("{} is not allowed in a non-volatile function", command)));
        ensureOpen();
      }
    }
    return p;
  }

  std::optional<Planned> tryPlan(const SqlText& text, const std::string& prefix, const std::string& suffix,
                                 const std::vector<SqlType>& extra, SqlError* error, bool cursorQuery = false) {
    Planned p;
    std::string sql = prefix + text.text + suffix;
    try {
      p.parsed = sql::parseQuery(sql);
      if (p.parsed.size() != 1)
        throw SqlError(sqlstate::kSyntaxError, "expected one statement in a PL/pgSQL statement");
      PlanRequest r;
      r.stmt = p.parsed[0].stmt.get();
      r.declaredParamTypes = slotTypes_;
      r.declaredParamTypes.insert(r.declaredParamTypes.end(), extra.begin(), extra.end());
      // A row or record variable named whole is a parameter of its row type, which the
      // statement reads as one record built from the fields when it runs.
      std::map<int, size_t> wholeParams;  // variable -> its index in p.wholeRows
      for (const VariableRef& ref : text.variables) {
        VarType::Kind kind = fn_.variables[ref.variable].type.kind;
        if (!ref.field.empty() || wholeParams.count(ref.variable) ||
            (kind != VarType::Kind::Row && kind != VarType::Kind::Record))
          continue;
        wholeParams.emplace(ref.variable, p.wholeRows.size());
        p.wholeRows.emplace_back(-1, rowTypeOf(ref.variable));
      }
      // An SQL body's $n of a composite argument is its whole value too.
      std::vector<int> numbered = numberedSlots_ ? *numberedSlots_ : std::vector<int>{};
      for (size_t n = 0; n < numbered.size(); ++n) {
        int v = fn_.numberedParams[n];
        if (numbered[n] >= 0 || fieldSlots_[v].empty()) continue;
        auto [whole, added] = wholeParams.emplace(v, p.wholeRows.size());
        if (added) p.wholeRows.emplace_back(-1, rowTypeOf(v));
        numbered[n] = static_cast<int>(r.declaredParamTypes.size() + whole->second);
        if (static_cast<int>(n) < p.parsed[0].explicitParams) p.wholeRows[whole->second].first = v;
      }
      int wholeBase = static_cast<int>(r.declaredParamTypes.size());
      for (const auto& [variable, type] : p.wholeRows) r.declaredParamTypes.push_back(type);
      r.explicitParamCount = static_cast<int>(r.declaredParamTypes.size());
      r.queryText = sql;
      r.resolveTable = req_.resolveTable;
      r.resolveRoutines = req_.resolveRoutines;
      r.resolveTypeName = req_.resolveTypeName;
      uint32_t prefixLen = static_cast<uint32_t>(prefix.size());
      r.resolveVariable = [&](const std::vector<std::string>&, uint32_t location) -> int {
        if (location < prefixLen) return -1;
        for (const VariableRef& ref : text.variables) {
          if (ref.offset - text.begin != location - prefixLen) continue;
          auto whole = wholeParams.find(ref.variable);
          if (ref.field.empty() && whole != wholeParams.end()) {
            p.wholeRows[whole->second].first = ref.variable;
            return wholeBase + static_cast<int>(whole->second);
          }
          return slotForReference(ref);
        }
        return -1;
      };
      r.columnsHideVariables = fn_.sqlBody || fn_.variableConflict == VariableConflict::UseColumn;
      r.variablesHideColumns = fn_.variableConflict == VariableConflict::UseVariable;
      if (numberedSlots_) r.numberedParams = std::move(numbered);
      r.optLevel = req_.optLevel;
      r.cursorQuery = cursorQuery;
      p.stmt = planTree(r);
    } catch (SqlError& e) {
      e.position = 0;
      *error = e;
      return std::nullopt;
    }
    return p;
  }

  // Before a COMMIT or ROLLBACK in a procedure: the variables' strings (and other varlena
  // values) copied to the statement's arena, which lives until the CALL ends. They may point
  // into table rows, whose replaced or deleted strings a commit frees.
  void ownVariableStrings() {
    for (size_t s = 0; s < slotTypes_.size(); ++s) {
      if (!isVarlenaType(slotTypes_[s].id)) continue;
      Row value{loadSlot(static_cast<int>(s))};
      ownStrings(value);
      storeSlot(static_cast<int>(s), value[0]);
    }
  }

  // The row's strings (and other varlena values) copied to the statement's arena, for
  // variables that outlive the memory they point into.
  void ownStrings(Row& row) {
    for (SqlValue& column : row) {
      if (!isVarlenaType(column.type.id)) continue;
      llvm::Value* value = column.v;
      llvm::Value* kept = entryAlloca(value->getType());
      b_.CreateStore(value, kept);
      cg_.ifThen(b_.CreateNot(column.null),
                 [&] { b_.CreateStore(cg_.call("duet_q_own_string", cg_.pointerType(), {value}), kept); });
      column.v = b_.CreateLoad(value->getType(), kept);
    }
  }

  // Generates a planned statement here, calling `consume` per row (of its result or its
  // RETURNING list). The parameter row is the variables' current values plus `extra`.
  // Runtime state the statement builds (sorts, hash tables) is freed when it ends, so a
  // loop does not pile it up until the call returns (it counts against the statement's
  // memory limit); its rows' strings are first copied to the statement's arena, for the
  // variables that keep them. A FOR loop's rows feed its body while that state lives:
  // there (keepState) the state stays until the call ends.
  void emit(const Planned& p, const Row& extra, const codegen::Consumer& consume, bool keepState = false) {
    bool release = !keepState && codegen::holdsState(*p.stmt.root);
    llvm::Value* mark = nullptr;
    if (release) {
      mark = entryAlloca(llvm::ArrayType::get(b_.getInt64Ty(), 3));
      cg_.call("duet_q_state_mark", b_.getVoidTy(), {cur_.ctx, mark});
    }
    codegen::Consumer owning = [&](Row& row) {
      ownStrings(row);
      consume(row);
    };
    Row params = variables();
    params.insert(params.end(), extra.begin(), extra.end());
    for (const auto& [variable, type] : p.wholeRows)
      params.push_back(variable >= 0 ? rowValue(variable) : cg_.nullOf(type));
    statements_.emitStatement(*p.stmt.root, std::move(params), release ? owning : consume);
    if (release) cg_.call("duet_q_state_release", b_.getVoidTy(), {cur_.ctx, mark});
  }
  // The variables' current values: what embedded statements read as their parameters.
  Row variables() {
    Row values;
    for (size_t s = 0; s < slotTypes_.size(); ++s) values.push_back(loadSlot(static_cast<int>(s)));
    return values;
  }

  static std::vector<SqlType> columnTypes(const Planned& p) {
    std::vector<SqlType> t;
    for (const auto& c : p.stmt.plan->columns) t.push_back(c.type);
    return t;
  }

  // An expression: SELECT <text>, one column, its first row (NULL if none).
  std::optional<SqlValue> evaluate(const SqlText& text, const std::string& prefix = "SELECT ",
                                   const std::string& suffix = {}, const Row& extra = {}) {
    std::vector<SqlType> extraTypes;
    for (const SqlValue& v : extra) extraTypes.push_back(v.type);
    std::optional<Planned> p = plan(text, prefix, suffix, extraTypes);
    if (!p) return std::nullopt;
    if (p->stmt.plan->columns.size() != 1) {
      fail("42601", fmt::format("query \"{}{}\" returned {} columns", prefix, text.text, p->stmt.plan->columns.size()));
      ensureOpen();
      return std::nullopt;
    }
    SqlType type = p->stmt.plan->columns[0].type;
    const TupleLayout* layout = out_.code->layouts.add(TupleLayout::of({type}));
    llvm::Value* temp = cg_.tupleAlloca(*layout);
    cg_.storeField(temp, *layout, 0, cg_.nullOf(type));
    // An expression PostgreSQL cannot evaluate as a simple one runs as a query, whose
    // rows (one, or none) ROW_COUNT then counts (exec_run_select's eval_processed).
    llvm::Value* rows = nullptr;
    if (runsAsQuery(*p->stmt.root)) {
      rows = entryAlloca(b_.getInt64Ty());
      b_.CreateStore(b_.getInt64(0), rows);
    }
    emit(*p, extra, [&](Row& row) {
      cg_.storeField(temp, *layout, 0, row[0]);
      if (rows) b_.CreateStore(b_.getInt64(1), rows);
      b_.CreateBr(statements_.statementEnd());
      ensureOpen();
    });
    if (rows) setRowCount(b_.CreateLoad(b_.getInt64Ty(), rows));
    return cg_.loadField(temp, *layout, 0);
  }

  // Whether an expression's plan is more than PostgreSQL's simple expressions
  // (exec_simple_check_plan): a query with FROM, WHERE, aggregation, a set-returning
  // function, sorting, a limit or a subquery, rather than one computed row.
  static bool runsAsQuery(const plan::Node& n) {
    if (n.kind != plan::NodeKind::Project && n.kind != plan::NodeKind::Values) return true;
    bool subquery = false;
    plan::forEachExpr(n, [&](const plan::Expr& e) { subquery = subquery || holdsSubquery(e); });
    if (subquery) return true;
    for (const auto& c : n.children)
      if (runsAsQuery(*c)) return true;
    return false;
  }
  static bool holdsSubquery(const plan::Expr& e) {
    if (e.kind == plan::ExprKind::Subquery) return true;
    for (const auto& a : e.args)
      if (holdsSubquery(*a)) return true;
    return false;
  }

  // A condition (IF, WHILE, EXIT WHEN): true when the boolean is true (NULL is false).
  llvm::Value* condition(const SqlText& text) {
    auto v = evaluate(text);
    if (!v) return b_.getFalse();
    std::optional<SqlValue> c = assignCast(*v, {TypeId::Bool, -1});
    if (!c) return b_.getFalse();
    return b_.CreateAnd(c->v, b_.CreateNot(c->null));
  }

  // ---- generated functions and jumps ---------------------------------------------------------
  FunctionState newFunction(llvm::FunctionType* type, const std::string& name, llvm::Function::LinkageTypes linkage,
                            int depth) {
    FunctionState f;
    f.fn = llvm::Function::Create(type, linkage, name, module_);
    f.fn->setUWTableKind(llvm::UWTableKind::Async);  // errors unwind through it
    f.entry = llvm::BasicBlock::Create(cg_.context(), "entry", f.fn);
    f.ctx = f.fn->getArg(0);
    f.vars = f.fn->getArg(1);
    f.frame = f.fn->getArg(2);
    f.depth = depth;
    return f;
  }
  void enter(const FunctionState& f) {
    cur_ = f;
    cg_.enterFunction(f.fn, f.entry, f.ctx);
  }

  void jumpTo(const JumpTarget& t, bool toContinue) {
    size_t index = static_cast<size_t>(&t - targets_.data());
    closeCursorLoopsLeft(index);
    // A FOR loop that a jump to an enclosing target leaves has run: it sets FOUND as at its
    // end (PostgreSQL's exec_stmt_fori and kin set it however the loop is left).
    for (size_t i = index + 1; i < targets_.size(); ++i) {
      if (!targets_[i].setsFound) continue;
      setFound(b_.getTrue());
      break;
    }
    if (t.depth == cur_.depth) {
      b_.CreateBr(toContinue ? t.cont : t.exit);
    } else {
      b_.CreateRet(b_.getInt32(toContinue ? t.contCode : t.exitCode));
    }
  }
  void emitReturn() {
    closeCursorLoopsLeft(-1);
    if (cur_.depth == 0)
      b_.CreateBr(returnBlock_);
    else
      b_.CreateRet(b_.getInt32(1));
  }
  JumpTarget& pushTarget(const std::string& label, bool loop, llvm::BasicBlock* exit, llvm::BasicBlock* cont) {
    JumpTarget t;
    t.label = label;
    t.loop = loop;
    t.exit = exit;
    t.cont = cont;
    t.depth = cur_.depth;
    t.exitCode = nextCode_++;
    t.contCode = nextCode_++;
    targets_.push_back(t);
    return targets_.back();
  }

  // An alloca in the current function's entry block (mem2reg lifts the scalar ones).
  llvm::AllocaInst* entryAlloca(llvm::Type* type, size_t count = 1) {
    llvm::IRBuilder<> eb(cur_.entry, cur_.entry->getFirstInsertionPt());
    return eb.CreateAlloca(type, count == 1 ? nullptr : b_.getInt32(static_cast<uint32_t>(count)));
  }

  // A loop's body: EXIT goes to `exit`, CONTINUE and the end of the body to `next`.
  void emitLoopBody(const std::string& label, const StmtList& body, llvm::BasicBlock* exit, llvm::BasicBlock* next,
                    bool setsFound = true) {
    size_t mark = targets_.size();
    pushTarget(label, true, exit, next).setsFound = setsFound;
    emitList(body);
    targets_.resize(mark);
    markStatement();  // the loop's own again, for its next condition or fetch
    if (!terminated()) b_.CreateBr(next);
  }

  // ---- statements ---------------------------------------------------------------------
  void emitList(const StmtList& list) {
    for (const auto& s : list) {
      ensureOpen();
      emitStatement(*s);
    }
  }

  void initDeclared(const Block& block) {
    for (size_t i = 0; i < block.declared.size(); ++i) {
      int v = block.declared[i];
      const Variable& var = fn_.variables[v];
      std::vector<int> slots;
      if (var.type.kind == VarType::Kind::Row || var.type.kind == VarType::Kind::Record) {
        for (const auto& f : fieldSlots_[v]) slots.push_back(f.second);
      } else if (slotOf_[v] >= 0) {
        slots.push_back(slotOf_[v]);
      }
      const auto& init = i < block.defaults.size() ? block.defaults[i] : std::nullopt;
      setRowNull(v, b_.getTrue());
      if (init && slots.size() == 1 && var.type.kind != VarType::Kind::Row) {
        if (auto value = evaluate(*init)) assignSlot(slots[0], *value, &var);
      } else if (init && (var.type.kind == VarType::Kind::Row || var.type.kind == VarType::Kind::Record)) {
        Target whole;
        whole.variable = v;
        assignRow(whole, slots, *init, /*convert=*/false);
      } else {
        for (int slot : slots) storeSlot(slot, cg_.nullOf(slotTypes_[slot]));
        if (init) {
          fail(sqlstate::kFeatureNotSupported,
               fmt::format("a default for variable \"{}\" of this type is not supported yet", var.name));
          ensureOpen();
        }
      }
    }
  }

  void emitBlock(const Block& block) {
    llvm::BasicBlock* end = cg_.block("block.end");
    initDeclared(block);
    ensureOpen();
    size_t mark = targets_.size();
    if (!block.label.empty()) pushTarget(block.label, false, end, nullptr);
    if (!block.hasExceptions) {
      emitList(block.body);
    } else {
      emitProtected(block, end);
    }
    targets_.resize(mark);
    if (!terminated()) b_.CreateBr(end);
    b_.SetInsertPoint(end);
  }

  // The body of a block with EXCEPTION handlers runs in a function of its own, called
  // through duet_plpgsql_try; its result says how it ended (see JumpTarget).
  void emitProtected(const Block& block, llvm::BasicBlock* end) {
    FunctionState outer = cur_;
    auto* type =
        llvm::FunctionType::get(b_.getInt32Ty(), {cg_.pointerType(), cg_.pointerType(), cg_.pointerType()}, false);
    FunctionState inner =
        newFunction(type, outer.fn->getName().str() + ".block", llvm::Function::InternalLinkage, outer.depth + 1);
    llvm::BasicBlock* resume = b_.GetInsertBlock();
    enter(inner);
    loadRegisters();
    emitList(block.body);
    if (!terminated()) b_.CreateRet(b_.getInt32(0));
    enter(outer);
    b_.SetInsertPoint(resume);

    flushRegisters();
    llvm::Value* code = cg_.call("duet_plpgsql_try", b_.getInt32Ty(), {inner.fn, cur_.ctx, cur_.vars, cur_.frame});
    reloadRegisters();
    llvm::BasicBlock* handlers = cg_.block("handlers");
    llvm::BasicBlock* returned = cg_.block("returned");
    llvm::SwitchInst* sw = b_.CreateSwitch(code, end);
    sw->addCase(b_.getInt32(-1), handlers);
    sw->addCase(b_.getInt32(1), returned);
    b_.SetInsertPoint(returned);
    emitReturn();
    for (const JumpTarget& t : targets_) {
      for (bool toContinue : {false, true}) {
        if (toContinue && !t.loop) continue;
        llvm::BasicBlock* jump = cg_.block("jump");
        sw->addCase(b_.getInt32(toContinue ? t.contCode : t.exitCode), jump);
        b_.SetInsertPoint(jump);
        jumpTo(t, toContinue);
      }
    }
    b_.SetInsertPoint(handlers);
    for (auto [variable, what] : {std::pair{block.sqlstateVariable, 0}, std::pair{block.sqlerrmVariable, 1}}) {
      if (variable < 0 || slotOf_[variable] < 0) continue;
      llvm::Value* text = cg_.call("duet_plpgsql_error_text", cg_.pointerType(), {cur_.frame, b_.getInt32(what)});
      storeSlot(slotOf_[variable], cg_.notNull(text, slotTypes_[slotOf_[variable]]));
    }
    for (const ExceptionHandler& h : block.handlers) {
      std::string codes;
      for (const ExceptionCondition& c : h.conditions) {
        if (c.sqlstates.empty()) codes += "*****";
        for (const auto& s : c.sqlstates) codes += s;
      }
      llvm::BasicBlock* run = cg_.block("handler");
      llvm::BasicBlock* next = cg_.block("handler.next");
      llvm::Value* match = cg_.call("duet_plpgsql_error_matches", b_.getInt8Ty(), {cur_.frame, cstr(codes)});
      b_.CreateCondBr(b_.CreateICmpNE(match, b_.getInt8(0)), run, next);
      b_.SetInsertPoint(run);
      emitList(h.body);
      if (!terminated()) {
        cg_.call("duet_plpgsql_pop_error", b_.getVoidTy(), {cur_.frame});
        b_.CreateBr(end);
      }
      b_.SetInsertPoint(next);
    }
    cg_.call("duet_plpgsql_reraise", b_.getVoidTy(), {cur_.frame});
    b_.CreateUnreachable();
  }

  // Each statement first stores its index into the frame (RoutineFrame::statement), so
  // that an error's CONTEXT and PG_CONTEXT can say where the routine was.
  void emitStatement(const Stmt& s) {
    checkStackDepth();
    int enclosing = markedStatement_;
    markedStatement_ = statementContext(s);
    markStatement();
    emitStatementKind(s);
    markedStatement_ = enclosing;
  }

  void markStatement() {
    if (markedStatement_ >= 0 && !terminated()) b_.CreateStore(b_.getInt32(markedStatement_), cur_.frame);
  }

  // The CompiledRoutine::statementContexts entry of `s`, made on first use.
  int statementContext(const Stmt& s) {
    auto [it, added] = contextOf_.try_emplace(&s, static_cast<int>(out_.statementContexts.size()));
    if (added) out_.statementContexts.push_back(contextLines(fn_, s, req_.body, out_.name, req_.shape.name));
    return it->second;
  }

  void emitStatementKind(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Block: emitBlock(s.as<Block>()); return;
      case StmtKind::Assign: emitAssign(s.as<Assign>()); return;
      case StmtKind::If: emitIf(s.as<If>()); return;
      case StmtKind::Case: emitCase(s.as<Case>()); return;
      case StmtKind::Loop:
      case StmtKind::While: emitLoop(s.as<Loop>()); return;
      case StmtKind::ForInt: emitForInt(s.as<ForInt>()); return;
      case StmtKind::ForQuery: emitForQuery(s.as<ForQuery>()); return;
      case StmtKind::Exit: emitExit(s.as<Exit>()); return;
      case StmtKind::Return: emitReturnStmt(s.as<Return>()); return;
      case StmtKind::ReturnNext: emitReturnNext(s.as<Return>()); return;
      case StmtKind::ReturnQuery: emitReturnQuery(s.as<Return>()); return;
      case StmtKind::Perform: emitPerform(s.as<Perform>()); return;
      case StmtKind::ExecSql: emitExecSql(s.as<ExecSql>()); return;
      case StmtKind::GetDiagnostics: emitGetDiagnostics(s.as<GetDiagnostics>()); return;
      case StmtKind::Raise: emitRaise(s.as<Raise>()); return;
      case StmtKind::Null: return;
      case StmtKind::CursorOpen: emitCursorOpen(s.as<CursorStmt>()); return;
      case StmtKind::CursorFetch: emitCursorFetch(s.as<CursorStmt>()); return;
      case StmtKind::ForEach: emitForEach(s.as<ForEach>()); return;
      case StmtKind::Assert: emitAssert(s.as<Assert>()); return;
      case StmtKind::ForCursor: emitForCursor(s.as<ForCursor>()); return;
      case StmtKind::CursorMove: emitCursorMove(s.as<CursorStmt>()); return;
      case StmtKind::CursorClose: emitCursorClose(s.as<CursorStmt>()); return;
      case StmtKind::TransactionControl: {
        // In a function, as PostgreSQL: the caller's transaction is not the function's to end.
        if (!req_.shape.procedure)
          return fail(sqlstate::kInvalidTransactionTermination, "invalid transaction termination");
        const auto& t = s.as<TransactionControl>();
        ownVariableStrings();
        cg_.call("duet_plpgsql_end_transaction", b_.getVoidTy(), {cur_.ctx, b_.getInt1(t.commit), b_.getInt1(t.chain)});
        return;
      }
      case StmtKind::Execute: emitExecute(s.as<Execute>()); return;
      case StmtKind::ForExecute: emitForExecute(s.as<ForExecute>()); return;
      case StmtKind::ReturnQueryExecute: emitReturnQueryExecute(s.as<ReturnQueryExecute>()); return;
    }
  }

  void emitAssign(const Assign& a) {
    VarType::Kind kind = fn_.variables[a.target.variable].type.kind;
    bool composite = a.target.field.empty() && (kind == VarType::Kind::Row || kind == VarType::Kind::Record);
    if (composite && a.target.subscript) {
      fail("42804", fmt::format("cannot subscript type {} because it does not support subscripting",
                                typeName(rowTypeOf(a.target.variable))));
      ensureOpen();
      return;
    }
    std::vector<int> slots = targetSlots(a.target);
    if (slots.empty()) return;  // targetSlots emitted the failure
    if (composite) {
      assignRow(a.target, slots, a.value, /*convert=*/true);
      return;
    }
    if (a.target.subscript) {
      assignElement(slots[0], *a.target.subscript, a.value);
      return;
    }
    auto v = evaluate(a.value);
    if (v) assignSlot(slots[0], *v, &fn_.variables[a.target.variable]);
  }

  // r := value for a row variable (a composite type's, a %ROWTYPE) or a record whose row
  // type the body gives (shapeRecords): the value's fields in order into the variable's,
  // each with an assignment cast, missing ones NULL and extra ones ignored, as
  // PostgreSQL's exec_move_row; a NULL value makes the variable NULL.
  // An assignment statement (`convert`) takes another value for a row variable through
  // its text, as PostgreSQL coerces it to the variable's type (plpgsql's exec_cast_value
  // falls back to I/O conversion): '(1,x)' is a row, 5 a malformed record literal (22P02).
  // A DECLARE default is assigned as it is: a value that is no row is 42804.
  void assignRow(const Target& target, const std::vector<int>& slots, const SqlText& text, bool convert) {
    const Variable& var = fn_.variables[target.variable];
    std::optional<SqlValue> v = evaluate(text);
    if (!v) return;
    SqlType rowType = rowTypeOf(target.variable);
    if (convert && var.type.kind == VarType::Kind::Row && v->type.id != TypeId::Record &&
        compositeTypeOid(rowType) != 0)
      v = cg_.cast(cg_.cast(*v, {TypeId::Text, -1}, true), rowType, true);
    if (v->type.id != TypeId::Record || recordFields(v->type).empty()) {
      // `r := NULL` empties it; another value is no row.
      cg_.ifThen(b_.CreateNot(v->null),
                 [&] { fail(sqlstate::kDatatypeMismatch, "cannot assign non-composite value to a record variable"); });
      for (int slot : slots) storeSlot(slot, cg_.nullOf(slotTypes_[slot]));
      setRowNull(target.variable, b_.getTrue());
      return;
    }
    const std::vector<RecordField>& fields = recordFields(v->type);
    for (size_t i = 0; i < slots.size(); ++i) {
      if (i >= fields.size()) {
        storeSlot(slots[i], cg_.nullOf(slotTypes_[slots[i]]));
        continue;
      }
      const TupleLayout* layout = out_.code->layouts.add(TupleLayout::of({fields[i].type}));
      llvm::Value* tuple = cg_.tupleAlloca(*layout);
      cg_.storeField(tuple, *layout, 0, cg_.nullOf(fields[i].type));
      cg_.ifThen(b_.CreateNot(v->null), [&] {
        cg_.call("duet_q_record_field", b_.getVoidTy(),
                 {cur_.ctx, v->v, b_.getInt32(static_cast<int32_t>(i)), tuple, cg_.ptrConst(layout)});
      });
      assignSlot(slots[i], cg_.loadField(tuple, *layout, 0), &var);
    }
    setRowNull(target.variable, v->null);
  }

  // arr[i] := value: the array is rebuilt with the element replaced (arrays are values).
  void assignElement(int slot, const SqlText& subscript, const SqlText& value) {
    SqlType elementType = slotTypes_[slot].elementType();
    auto index = evaluate(subscript);
    if (!index) return;
    std::optional<SqlValue> i = assignCast(*index, {TypeId::Int4, -1});
    if (!i) return;
    cg_.ifThen(i->null, [&] { fail("22004", "array subscript in assignment must not be null"); });
    auto v = evaluate(value);
    if (!v) return;
    std::optional<SqlValue> element = assignCast(*v, elementType);
    if (!element) return;
    llvm::AllocaInst* buffer = entryAlloca(llvm::ArrayType::get(b_.getInt8Ty(), 16));
    buffer->setAlignment(llvm::Align(16));
    llvm::Value* stored = element->v;
    if (elementType.id == TypeId::Bool) stored = b_.CreateZExt(stored, b_.getInt8Ty());
    b_.CreateStore(b_.CreateSelect(element->null, llvm::Constant::getNullValue(stored->getType()), stored), buffer);
    SqlValue array = loadSlot(slot);
    llvm::Value* current = b_.CreateSelect(array.null, llvm::Constant::getNullValue(cg_.pointerType()), array.v);
    llvm::Value* updated = cg_.call("duet_plpgsql_array_set", cg_.pointerType(),
                                    {current, i->v, buffer, b_.CreateZExt(element->null, b_.getInt8Ty()),
                                     b_.getInt32(static_cast<int32_t>(elementType.id))});
    storeSlot(slot, cg_.notNull(updated, slotTypes_[slot]));
  }

  // When `c` holds, runs `body` and continues at `end`; otherwise goes on here.
  void branchTo(llvm::Value* c, const StmtList& body, llvm::BasicBlock* end) {
    llvm::BasicBlock* then = cg_.block("branch.then");
    llvm::BasicBlock* next = cg_.block("branch.next");
    b_.CreateCondBr(c, then, next);
    b_.SetInsertPoint(then);
    emitList(body);
    if (!terminated()) b_.CreateBr(end);
    b_.SetInsertPoint(next);
  }

  void emitIf(const If& s) {
    llvm::BasicBlock* end = cg_.block("if.end");
    for (const If::Branch& branch : s.branches) branchTo(condition(branch.condition), branch.body, end);
    emitList(s.elseBody);
    if (!terminated()) b_.CreateBr(end);
    b_.SetInsertPoint(end);
  }

  void emitCase(const Case& s) {
    llvm::BasicBlock* end = cg_.block("case.end");
    std::optional<SqlValue> subject;
    if (s.subject) {
      subject = evaluate(*s.subject);
      if (!subject) return;
    }
    for (const Case::When& w : s.whens) {
      llvm::Value* c;
      if (subject) {
        // The subject is one more parameter after the variables: $n IN (values).
        std::string param = fmt::format("${}", slotTypes_.size() + 1);
        auto v = evaluate(w.values, "SELECT " + param + " IN (", ")", {*subject});
        if (!v) return;
        c = cg_.isTrue(*v);
      } else {
        c = condition(w.values);
      }
      branchTo(c, w.body, end);
    }
    if (s.hasElse)
      emitList(s.elseBody);
    else
      fail("20000", "case not found", "CASE statement is missing ELSE part.");
    if (!terminated()) b_.CreateBr(end);
    b_.SetInsertPoint(end);
  }

  void emitLoop(const Loop& s) {
    llvm::BasicBlock* head = cg_.block("loop.head");
    llvm::BasicBlock* body = cg_.block("loop.body");
    llvm::BasicBlock* exit = cg_.block("loop.exit");
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    cg_.checkCancel();  // an endless loop ends with statement_timeout or a cancel request
    if (s.condition)
      b_.CreateCondBr(condition(*s.condition), body, exit);
    else
      b_.CreateBr(body);
    b_.SetInsertPoint(body);
    emitLoopBody(s.label, s.body, exit, head, false);
    b_.SetInsertPoint(exit);
  }

  // FOR i IN [REVERSE] lower .. upper [BY step]: bounds evaluated once, the counter kept
  // apart from the variable (assigning the variable does not change the iteration).
  void emitForInt(const ForInt& s) {
    SqlType int4{TypeId::Int4, -1};
    auto bound = [&](const SqlText& text, const char* what) -> llvm::Value* {
      auto v = evaluate(text);
      if (!v) return nullptr;
      std::optional<SqlValue> c = assignCast(*v, int4);
      if (!c) return nullptr;
      cg_.ifThen(c->null, [&] { fail("22004", fmt::format("{} of FOR loop cannot be null", what)); });
      return c->v;
    };
    llvm::Value* lower = bound(s.lower, "lower bound");
    if (!lower) return;
    llvm::Value* upper = bound(s.upper, "upper bound");
    if (!upper) return;
    llvm::Value* step = b_.getInt32(1);
    if (s.step) {
      step = bound(*s.step, "BY value");
      if (!step) return;
      cg_.ifThen(b_.CreateICmpSLE(step, b_.getInt32(0)),
                 [&] { fail("22023", "BY value of FOR loop must be greater than zero"); });
    }
    prefetchLookups(s, lower, upper, step);
    llvm::AllocaInst* counter = entryAlloca(b_.getInt32Ty());
    llvm::AllocaInst* iterated = entryAlloca(b_.getInt1Ty());
    b_.CreateStore(lower, counter);
    b_.CreateStore(b_.getFalse(), iterated);
    llvm::BasicBlock* head = cg_.block("for.head");
    llvm::BasicBlock* body = cg_.block("for.body");
    llvm::BasicBlock* next = cg_.block("for.next");
    llvm::BasicBlock* exit = cg_.block("for.exit");
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    llvm::Value* i = b_.CreateLoad(b_.getInt32Ty(), counter);
    b_.CreateCondBr(withinBound(s, i, upper), body, exit);
    b_.SetInsertPoint(body);
    b_.CreateStore(b_.getTrue(), iterated);
    storeSlot(slotOf_[s.variable], cg_.notNull(i, slotTypes_[slotOf_[s.variable]]));
    emitLoopBody(s.label, s.body, exit, next);
    b_.SetInsertPoint(next);
    cg_.checkCancel();
    stepCounter(s, counter, b_.CreateLoad(b_.getInt32Ty(), counter), step, head, exit);
    b_.SetInsertPoint(exit);
    setFound(b_.CreateLoad(b_.getInt1Ty(), iterated));
  }

  // Whether counter value i is still within an integer FOR loop's upper bound.
  llvm::Value* withinBound(const ForInt& s, llvm::Value* i, llvm::Value* upper) {
    return s.reverse ? b_.CreateICmpSGE(i, upper) : b_.CreateICmpSLE(i, upper);
  }

  // counter = current + step (minus, for REVERSE), then on to `head`; stepping past the
  // integer range ends the loop instead (goes to `exit`), as in PostgreSQL.
  void stepCounter(const ForInt& s, llvm::AllocaInst* counter, llvm::Value* current, llvm::Value* step,
                   llvm::BasicBlock* head, llvm::BasicBlock* exit) {
    llvm::Function* op = llvm::Intrinsic::getDeclaration(
        &module_, s.reverse ? llvm::Intrinsic::ssub_with_overflow : llvm::Intrinsic::sadd_with_overflow,
        {b_.getInt32Ty()});
    llvm::Value* r = b_.CreateCall(op, {current, step});
    b_.CreateStore(b_.CreateExtractValue(r, 0), counter);
    b_.CreateCondBr(b_.CreateExtractValue(r, 1), exit, head);
  }

  // Asks the cache for what the index lookups of the loop's first iterations will read
  // (loop_prefetch.h): each iteration's keys are computed in turn, first to prefetch their
  // hash slots, then, with those arrived, the rows they name.
  void prefetchLookups(const ForInt& s, llvm::Value* lower, llvm::Value* upper, llvm::Value* step) {
    constexpr int kAhead = 16;  // iterations prefetched: enough for an order's lines
    std::set<int> written;
    int loopSlot = slotOf_[s.variable];
    if (loopSlot < 0 || !collectWrittenVariables(s.body, written)) return;
    std::set<int> writtenSlots;
    for (int v : written) {
      if (v < 0) continue;
      if (slotOf_[v] >= 0) writtenSlots.insert(slotOf_[v]);
      for (const auto& field : fieldSlots_[v]) writtenSlots.insert(field.second);
    }
    auto paramOk = [&](int p) {
      return p == loopSlot || (p >= 0 && p < static_cast<int>(slotTypes_.size()) && !writtenSlots.count(p));
    };
    std::vector<Planned> plans;
    std::vector<const plan::Node*> lookups;
    for (const auto& st : s.body) {
      if (st->kind != StmtKind::ExecSql) continue;
      SqlError error("", "");
      std::optional<Planned> p = tryPlan(st->as<ExecSql>().statement, "", "", {}, &error);
      if (!p) continue;  // its error is reported where the statement is compiled
      plans.push_back(std::move(*p));
      std::vector<const plan::Node*> found;
      collectIndexLookups(*plans.back().stmt.root, found);
      for (const plan::Node* n : found)
        if (n->keySet < 0 &&
            std::all_of(
                n->keys.begin(), n->keys.end(), [&](const plan::ExprPtr& k) { return prefetchableKey(*k, paramOk); }))
          lookups.push_back(n);
    }
    if (lookups.empty()) return;
    llvm::AllocaInst* counter = entryAlloca(b_.getInt32Ty());
    llvm::AllocaInst* done = entryAlloca(b_.getInt32Ty());
    std::vector<llvm::Value*> keyTuples;
    for (const plan::Node* n : lookups) keyTuples.push_back(cg_.tupleAlloca(n->index->keyLayout()));
    for (bool rows : {false, true}) {  // hash slots first, then the rows they name
      b_.CreateStore(lower, counter);
      b_.CreateStore(b_.getInt32(0), done);
      llvm::BasicBlock* head = cg_.block("prefetch.head");
      llvm::BasicBlock* body = cg_.block("prefetch.body");
      llvm::BasicBlock* exit = cg_.block("prefetch.exit");
      b_.CreateBr(head);
      b_.SetInsertPoint(head);
      llvm::Value* i = b_.CreateLoad(b_.getInt32Ty(), counter);
      llvm::Value* inRange = withinBound(s, i, upper);
      llvm::Value* more = b_.CreateICmpSLT(b_.CreateLoad(b_.getInt32Ty(), done), b_.getInt32(kAhead));
      b_.CreateCondBr(b_.CreateAnd(inRange, more), body, exit);
      b_.SetInsertPoint(body);
      storeSlot(loopSlot, cg_.notNull(i, slotTypes_[loopSlot]));
      Row params = variables();
      for (size_t l = 0; l < lookups.size(); ++l) {
        const plan::Node* n = lookups[l];
        Row keys;
        for (const auto& k : n->keys) keys.push_back(statements_.expression(*k, params));
        cg_.storeRow(keyTuples[l], n->index->keyLayout(), keys);
        if (rows) {
          cg_.call("duet_index_prefetch_row", b_.getVoidTy(),
                   {cg_.ptrConst(n->index), cg_.ptrConst(n->table), keyTuples[l]});
        } else {
          cg_.call("duet_index_prefetch_probe", b_.getVoidTy(), {cg_.ptrConst(n->index), keyTuples[l]});
        }
      }
      b_.CreateStore(b_.CreateAdd(b_.CreateLoad(b_.getInt32Ty(), done), b_.getInt32(1)), done);
      stepCounter(s, counter, i, step, head, exit);
      b_.SetInsertPoint(exit);
    }
  }

  // FOR target IN query: the query's rows are materialised first (the body may change the
  // tables it reads), then the body runs as the consumer of each row.
  void emitForQuery(const ForQuery& s) {
    std::optional<Planned> p = plan(s.query, "");
    if (!p) return;
    if (p->stmt.plan->command != PreparedPlan::Command::Select && !p->stmt.plan->returnsRows) {
      fail("42601", "cannot open a query that does not return rows in a FOR loop");
      return;
    }
    std::vector<SqlType> types = columnTypes(*p);
    auto materialise = std::make_unique<plan::Node>(plan::NodeKind::Materialize);
    materialise->outputTypes = types;
    materialise->children.push_back(std::move(p->stmt.root));
    p->stmt.root = std::move(materialise);
    llvm::AllocaInst* iterated = entryAlloca(b_.getInt1Ty());
    b_.CreateStore(b_.getFalse(), iterated);
    llvm::BasicBlock* exit = nullptr;
    emit(
        *p, {},
        [&](Row& row) {
          exit = statements_.statementEnd();
          b_.CreateStore(b_.getTrue(), iterated);
          assignTargets(s.targets, row);
          llvm::BasicBlock* next = cg_.block("forq.next");
          emitLoopBody(s.label, s.body, exit, next);
          b_.SetInsertPoint(next);
          cg_.checkCancel();
        },
        /*keepState=*/true);
    setFound(b_.CreateLoad(b_.getInt1Ty(), iterated));
  }

  // ---- FOREACH over an array (exec_stmt_foreach_a)

  // The array is evaluated once; each element in turn (with SLICE 1 the whole array, the
  // one slice a one-dimensional array has) is assigned to the target and the body runs.
  // FOUND says afterwards whether it ran. The checks PostgreSQL makes before the first
  // iteration come in its order: NULL, not an array, slice dimension, target type.
  void emitForEach(const ForEach& s) {
    std::optional<SqlValue> array = evaluate(s.array);
    if (!array) return;
    cg_.ifThen(array->null, [&] { fail("22004", "FOREACH expression must not be null"); });
    if (!array->type.isArray()) {
      SqlType shown = array->type.id == TypeId::Unknown ? SqlType{TypeId::Text, -1} : array->type;
      fail("42804", fmt::format("FOREACH expression must yield an array, not type {}", typeName(shown)));
      ensureOpen();
      return;
    }
    SqlValue value = cg_.notNull(array->v, array->type);
    llvm::Value* count = cg_.callSql("duet_rt_array_cardinality", {TypeId::Int4, -1}, {value});
    llvm::Value* nonEmpty = b_.CreateICmpSGT(count, b_.getInt32(0));
    if (!checkSliceDimension(s.slice, nonEmpty) || !checkForEachTarget(s, nonEmpty)) {
      setFound(b_.getFalse());
      return;
    }
    // A slice is the whole array, once.
    llvm::Value* iterations = s.slice > 0 ? b_.getInt32(1) : count;
    llvm::AllocaInst* counter = entryAlloca(b_.getInt32Ty());
    b_.CreateStore(b_.getInt32(0), counter);
    llvm::BasicBlock* head = cg_.block("foreach.head");
    llvm::BasicBlock* body = cg_.block("foreach.body");
    llvm::BasicBlock* next = cg_.block("foreach.next");
    llvm::BasicBlock* exit = cg_.block("foreach.exit");
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    llvm::Value* i = b_.CreateLoad(b_.getInt32Ty(), counter);
    b_.CreateCondBr(b_.CreateICmpSLT(i, iterations), body, exit);
    b_.SetInsertPoint(body);
    SqlValue item = s.slice > 0 ? value : arrayElement(value, b_.CreateAdd(i, b_.getInt32(1)));
    const Target& target = s.targets[0];
    for (int slot : targetSlots(target)) assignSlot(slot, item, &fn_.variables[target.variable]);
    emitLoopBody(s.label, s.body, exit, next);
    b_.SetInsertPoint(next);
    cg_.checkCancel();  // an endless loop ends with statement_timeout or a cancel request
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(b_.getInt32Ty(), counter), b_.getInt32(1)), counter);
    b_.CreateBr(head);
    b_.SetInsertPoint(exit);
    setFound(nonEmpty);
  }

  // SLICE n must not exceed the array's dimensions: 1 for a non-empty array, 0 for an
  // empty one (DuetDB's arrays have one dimension). False when it always does.
  bool checkSliceDimension(int slice, llvm::Value* nonEmpty) {
    if (slice == 0) return true;
    auto outOfRange = [&](int dimensions) {
      fail("2202E", fmt::format("slice dimension ({}) is out of the valid range 0..{}", slice, dimensions));
    };
    cg_.ifThen(b_.CreateNot(nonEmpty), [&] { outOfRange(0); });
    if (slice == 1) return true;
    outOfRange(1);
    ensureOpen();
    return false;
  }

  // Whether the target can take the array's elements (or slices): an array variable for
  // SLICE, any other variable without (42804, as PostgreSQL's checks before the loop).
  // Arrays hold no rows, so a row, record or list of variables fails at the first element.
  // False when the loop cannot run (after emitting its failure).
  bool checkForEachTarget(const ForEach& s, llvm::Value* nonEmpty) {
    const Target& target = s.targets[0];
    VarType::Kind kind = fn_.variables[target.variable].type.kind;
    bool scalar = s.targets.size() == 1 &&
                  (!target.field.empty() || kind == VarType::Kind::Scalar || kind == VarType::Kind::Array);
    bool arrayTarget = false;
    if (scalar) {
      std::vector<int> slots = targetSlots(target);
      if (slots.size() != 1) return false;  // targetSlots emitted the failure
      arrayTarget = slotTypes_[slots[0]].isArray();
    }
    const char* wrongKind = s.slice > 0 && !arrayTarget   ? "FOREACH ... SLICE loop variable must be of an array type"
                            : s.slice == 0 && arrayTarget ? "FOREACH loop variable must not be of an array type"
                                                          : nullptr;
    if (wrongKind) {
      fail("42804", wrongKind);
      ensureOpen();
      return false;
    }
    if (scalar) return true;
    bool record = s.targets.size() == 1 && kind == VarType::Kind::Record;
    cg_.ifThen(nonEmpty, [&] {
      fail("42804", fmt::format("cannot assign non-composite value to a {} variable", record ? "record" : "row"));
    });
    return false;
  }

  // Element `index` (1-based, within its bounds) of a non-NULL array; NULL for a NULL element.
  SqlValue arrayElement(const SqlValue& array, llvm::Value* index) {
    SqlType element = array.type.elementType();
    SqlValue position = cg_.notNull(index, {TypeId::Int4, -1});
    const TupleLayout* layout = out_.code->layouts.add(TupleLayout::of({element}));
    llvm::Value* temp = cg_.tupleAlloca(*layout);
    cg_.storeField(temp, *layout, 0, cg_.nullOf(element));
    llvm::Value* present = cg_.callSql("duet_rt_array_has", {TypeId::Bool, -1}, {array, position});
    cg_.ifThen(present, [&] {
      llvm::Value* v = cg_.callSql(arrayGetFunction(element.id), element, {array, position});
      cg_.storeField(temp, *layout, 0, cg_.notNull(v, element));
    });
    return cg_.loadField(temp, *layout, 0);
  }

  // ---- cursors (cursor_runtime.h): OPEN reads the query's rows into a portal of the
  // session, named by the cursor variable; FETCH and MOVE move it, CLOSE drops it.

  CursorSpec* cursorSpec(int variable) {
    auto spec = std::make_unique<CursorSpec>();
    spec->variable = fn_.variables[variable].name;
    out_.cursorStatements.push_back(std::move(spec));
    return out_.cursorStatements.back().get();
  }

  // The portal name OPEN uses: the cursor variable's value, or when that is NULL a new
  // "<unnamed portal N>", which the variable takes (exec_stmt_open).
  llvm::Value* portalName(int variable) {
    int slot = slotOf_[variable];
    cg_.ifThen(loadSlot(slot).null, [&] {
      llvm::Value* name = cg_.call("duet_plpgsql_cursor_name", cg_.pointerType(), {cur_.ctx});
      assignSlot(slot, {name, b_.getFalse(), slotTypes_[slot]}, &fn_.variables[variable]);
    });
    return loadSlot(slot).v;
  }

  void emitCursorOpen(const CursorStmt& s) {
    if (s.cursor >= 0) {
      const Cursor& c = fn_.cursors[s.cursor];
      openCursor(s.variable, c.query, c.scrollable, [&] { assignCursorArguments(c, s.arguments); });
    } else if (s.query) {
      openCursor(s.variable, *s.query, s.scrollable, [] {});
    } else {
      std::optional<DynamicCall> call = prepareDynamic(*s.dynamic, rt::DynamicUse::Cursor, {});
      if (!call) return;
      cg_.call("duet_plpgsql_cursor_open_execute", b_.getVoidTy(),
               {cur_.ctx, cg_.ptrConst(call->spec), call->command, call->params, portalName(s.variable),
                b_.getInt8(s.scrollable)});
    }
  }

  // OPEN (42P03 while its portal is open), `beforeQuery` (a bound cursor's arguments
  // assigned), then the query's rows read into the portal. Returns the portal; null when
  // the query cannot run (after emitting its failure).
  llvm::Value* openCursor(int variable, const SqlText& query, bool scrollable,
                          const std::function<void()>& beforeQuery) {
    std::optional<Planned> p = plan(query, "", {}, {}, /*cursorQuery=*/true);
    if (!p) return nullptr;
    if (!p->stmt.plan->returnsRows) {
      fail("42P11", "cannot open a query that does not return rows as a cursor");
      return nullptr;
    }
    CursorSpec* spec = cursorSpec(variable);
    // Whole rows of the query, row ids included (compiler.h's cursorRows).
    TupleLayout layout = TupleLayout::of(p->stmt.root->outputTypes);
    CursorRows kept = cursorRows(*p->stmt.plan, layout);
    spec->rowLayout = std::move(kept.layout);
    spec->rowIds = std::move(kept.rowIds);
    for (const OutputColumn& c : p->stmt.plan->columns) spec->columnNames.push_back(c.name);
    spec->scrollable = scrollable;
    llvm::Value* portal =
        cg_.call("duet_plpgsql_cursor_open", cg_.pointerType(), {cur_.ctx, cg_.ptrConst(spec), portalName(variable)});
    llvm::Value* rows = cg_.call("duet_plpgsql_cursor_rows", cg_.pointerType(), {portal});
    beforeQuery();
    llvm::Value* tuple = cg_.tupleAlloca(layout);
    emit(*p, {}, [&](Row& row) {
      for (size_t i = 0; i < row.size(); ++i) cg_.storeField(tuple, layout, i, row[i]);
      cg_.call("duet_q_buffer_append", b_.getVoidTy(), {rows, tuple});  // copies the row, strings too
    });
    return portal;
  }

  // FOR r IN c [(arguments)] (exec_stmt_forc): opens c, fetches each row into r's fields
  // and runs the body, then closes c; FOUND says whether the body ran. The body may FETCH
  // or MOVE c itself, not CLOSE it (the loop pins it: 24000). A jump out of the loop to an
  // enclosing loop or block closes c on its way (jumpTo), and so does RETURN (emitReturn).
  void emitForCursor(const ForCursor& s) {
    const Cursor& c = fn_.cursors[s.cursor];
    Target record;
    record.variable = s.variable;
    std::optional<DynamicTargets> targets = dynamicTargets({record});
    if (!targets) return;
    llvm::Value* portal = openCursor(c.variable, c.query, c.scrollable, [&] { assignCursorArguments(c, s.arguments); });
    if (!portal) return;
    CursorSpec* spec = cursorSpec(c.variable);
    spec->targetLayout = TupleLayout::of(targets->types(slotTypes_));
    llvm::Value* target = cg_.tupleAlloca(spec->targetLayout);
    cg_.call("duet_plpgsql_cursor_pin", b_.getVoidTy(), {portal});
    llvm::AllocaInst* iterated = entryAlloca(b_.getInt1Ty());
    b_.CreateStore(b_.getFalse(), iterated);
    llvm::BasicBlock* head = cg_.block("forc.head");
    llvm::BasicBlock* body = cg_.block("forc.body");
    llvm::BasicBlock* next = cg_.block("forc.next");
    llvm::BasicBlock* exit = cg_.block("forc.exit");
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    llvm::Value* found = b_.CreateICmpNE(
        cg_.call("duet_plpgsql_cursor_next", b_.getInt8Ty(), {cur_.ctx, cg_.ptrConst(spec), portal, target}),
        b_.getInt8(0));
    b_.CreateCondBr(found, body, exit);
    b_.SetInsertPoint(body);
    b_.CreateStore(b_.getTrue(), iterated);
    assignFromTuple(*targets, target, spec->targetLayout);
    cursorLoops_.push_back({targets_.size(), cur_.depth, portal});
    emitLoopBody(s.label, s.body, exit, next);
    cursorLoops_.pop_back();
    b_.SetInsertPoint(next);
    cg_.checkCancel();
    b_.CreateBr(head);
    b_.SetInsertPoint(exit);
    releaseCursor(portal);
    setFound(b_.CreateLoad(b_.getInt1Ty(), iterated));
  }

  // Closes a portal its FOR loop pinned.
  void releaseCursor(llvm::Value* portal) {
    cg_.call("duet_plpgsql_cursor_release", b_.getVoidTy(), {cur_.ctx, portal});
  }

  // Before a jump to targets_[target]: closes the cursors of the FOR loops over cursors
  // that it leaves in the function being generated (a deeper function closes its own
  // before it returns the jump's code). RETURN leaves them all (target -1).
  void closeCursorLoopsLeft(ptrdiff_t target) {
    for (auto loop = cursorLoops_.rbegin(); loop != cursorLoops_.rend(); ++loop)
      if (loop->depth == cur_.depth && static_cast<ptrdiff_t>(loop->targets) > target) releaseCursor(loop->portal);
  }

  // OPEN's values into the cursor's argument variables, converted to their types: all
  // evaluated first, then assigned, as PostgreSQL's SELECT ... INTO of them.
  void assignCursorArguments(const Cursor& c, const std::vector<SqlText>& values) {
    Row row;
    for (const SqlText& text : values) {
      std::optional<SqlValue> value = evaluate(text);
      if (!value) return;
      row.push_back(*value);
    }
    for (size_t i = 0; i < row.size(); ++i) assignSlot(slotOf_[c.arguments[i]], row[i], &fn_.variables[c.arguments[i]]);
  }

  // The row the direction lands on into the targets, FOUND true and ROW_COUNT 1; none
  // (past either end), NULLs, FOUND false and ROW_COUNT 0.
  void emitCursorFetch(const CursorStmt& s) {
    std::optional<DynamicTargets> targets = dynamicTargets(s.targets);
    if (!targets) return;
    CursorSpec* spec = cursorSpec(s.variable);
    spec->targetLayout = TupleLayout::of(targets->types(slotTypes_));
    llvm::Value* target = cg_.tupleAlloca(spec->targetLayout);
    llvm::Value* processed = moveCursor(s, spec, target);
    if (!processed) return;
    assignFromTuple(*targets, target, spec->targetLayout, "this cursor", kFetchRecordHint);
    setFound(b_.CreateICmpNE(processed, b_.getInt64(0)));
    setRowCount(processed);
  }

  // MOVE (exec_stmt_fetch's is_move): ROW_COUNT is the rows it passed (for ABSOLUTE and
  // RELATIVE whether it landed on one), FOUND whether that is any.
  void emitCursorMove(const CursorStmt& s) {
    llvm::Value* processed = moveCursor(s, cursorSpec(s.variable), nullptr);
    if (!processed) return;
    setRowCount(processed);
    setFound(b_.CreateICmpNE(processed, b_.getInt64(0)));
  }

  // Runs FETCH's (a target) or MOVE's (none) direction: the rows processed (i64). The
  // count or position is evaluated as an integer: NULL is 22004. Null after emitting a
  // failure.
  llvm::Value* moveCursor(const CursorStmt& s, CursorSpec* spec, llvm::Value* target) {
    const FetchDirection& d = s.direction;
    llvm::Value* count = b_.getInt64(d.count);
    if (d.expression) {
      std::optional<SqlValue> v = evaluate(*d.expression);
      if (!v) return nullptr;
      std::optional<SqlValue> n = assignCast(*v, {TypeId::Int4, -1});
      if (!n) return nullptr;
      cg_.ifThen(n->null, [&] { fail("22004", "relative or absolute cursor position is null"); });
      count = b_.CreateSExt(n->v, b_.getInt64Ty());
    }
    SqlValue name = loadSlot(slotOf_[s.variable]);
    return cg_.call("duet_plpgsql_cursor_fetch", b_.getInt64Ty(),
                    {cur_.ctx, cg_.ptrConst(spec), b_.CreateSelect(name.null, cg_.ptrConst(nullptr), name.v),
                     b_.getInt32(static_cast<int32_t>(d.kind)), count, b_.getInt8(target == nullptr),
                     target ? target : cg_.ptrConst(nullptr)});
  }

  void emitCursorClose(const CursorStmt& s) {
    SqlValue name = loadSlot(slotOf_[s.variable]);
    cg_.call(
        "duet_plpgsql_cursor_close", b_.getVoidTy(),
        {cur_.ctx, cg_.ptrConst(cursorSpec(s.variable)), b_.CreateSelect(name.null, cg_.ptrConst(nullptr), name.v)});
  }

  // ---- dynamic SQL (dynamic_sql.h): the command string and the USING values are evaluated
  // here; the session plans and runs the command when the statement runs, and the runtime
  // converts its rows to the targets' types.

  // A RECORD target takes its row type from the command when that is a string literal:
  // the statement planned now, with the USING values' types as its parameters'.
  void shapeFromConstantCommand(const std::vector<Target>& targets, const DynamicQuery& query) {
    if (targets.size() != 1 || !targets[0].field.empty()) return;
    int v = targets[0].variable;
    if (fn_.variables[v].type.kind != VarType::Kind::Record || !fieldSlots_[v].empty()) return;
    std::optional<std::string> text = constantCommand(query.command);
    if (!text) return;
    std::vector<SqlType> paramTypes;
    for (const SqlText& param : query.params) {
      SqlError ignored("", "");
      std::optional<Planned> p = tryPlan(param, "SELECT ", {}, {}, &ignored);
      if (!p || p->stmt.plan->columns.size() != 1) return;
      paramTypes.push_back(binder::resolveUnknown(p->stmt.plan->columns[0].type));
    }
    std::optional<PlannedStatement> planned;
    try {
      std::vector<sql::ParsedStatement> parsed = sql::parseQuery(*text);
      if (parsed.size() != 1) return;
      if (parsed[0].stmt->kind == sql::StmtKind::Explain) {  // FOR r IN EXECUTE 'EXPLAIN ...'
        addField(v, "QUERY PLAN", {TypeId::Text, -1});
        return;
      }
      PlanRequest r;
      r.stmt = parsed[0].stmt.get();
      r.declaredParamTypes = paramTypes;
      r.explicitParamCount = static_cast<int>(paramTypes.size());
      r.queryText = *text;
      r.resolveTable = req_.resolveTable;
      r.resolveRoutines = req_.resolveRoutines;
      r.resolveTypeName = req_.resolveTypeName;
      planned = planTree(r);
    } catch (const SqlError&) {
      return;  // the statement raises its error where it runs
    }
    for (const OutputColumn& c : planned->plan->columns) addField(v, c.name, binder::resolveUnknown(c.type));
  }

  // The slots of dynamic SQL's targets, each with its variable. A RECORD target whose row
  // type no query of the body gives has none: its fields would be slots of the frame, fixed
  // when the routine is compiled, so assigning it a row fails (unshapedRecord).
  struct DynamicTargets {
    std::vector<std::pair<int, const Variable*>> slots;
    const Variable* unshapedRecord = nullptr;
    std::vector<SqlType> types(const std::vector<SqlType>& slotTypes) const {
      std::vector<SqlType> t;
      for (const auto& [slot, var] : slots) t.push_back(slotTypes[slot]);
      return t;
    }
  };
  // Nullopt after emitting the failure of a target that cannot be assigned.
  std::optional<DynamicTargets> dynamicTargets(const std::vector<Target>& targets) {
    DynamicTargets out;
    for (const Target& t : targets) {
      const Variable& var = fn_.variables[t.variable];
      if (var.type.kind == VarType::Kind::Record && fieldSlots_[t.variable].empty()) {
        out.unshapedRecord = &var;
        continue;
      }
      std::vector<int> slots = targetSlots(t);
      if (slots.empty()) return std::nullopt;  // targetSlots emitted the failure
      for (int slot : slots) out.slots.emplace_back(slot, &var);
    }
    return out;
  }
  // The targets from a tuple the runtime converted to their types.
  // A FETCH's record whose row type is unknown: the variable was not opened FOR a query here.
  static constexpr const char* kFetchRecordHint =
      "Open the cursor with OPEN ... FOR query in this routine, or use a row type (%ROWTYPE) or scalar variables.";
  // `source` names what the rows come from, for the error of a record whose row type is
  // unknown, and `hint` how to give it one.
  void assignFromTuple(
      const DynamicTargets& targets, llvm::Value* tuple, const TupleLayout& layout,
      const char* source = "EXECUTE's command",
      const char* hint = "Give the command as a string literal, or use a row type (%ROWTYPE) or scalar variables.") {
    if (targets.unshapedRecord) {
      fail(SqlError(
          sqlstate::kFeatureNotSupported,
          fmt::format("record \"{}\" cannot take the row type of {} yet", targets.unshapedRecord->name, source),
          "Its row type must be known when the routine is compiled.", hint));
      ensureOpen();
      return;
    }
    for (size_t i = 0; i < targets.slots.size(); ++i)
      assignSlot(targets.slots[i].first, cg_.loadField(tuple, layout, i), targets.slots[i].second);
  }

  // What a dynamic statement hands the runtime: its spec, the command as text (null when
  // NULL: the runtime raises 22004) and the tuple of its USING values.
  struct DynamicCall {
    DynamicSpec* spec = nullptr;
    llvm::Value* command = nullptr;
    llvm::Value* params = nullptr;
  };
  std::optional<DynamicCall> prepareDynamic(const DynamicQuery& query, rt::DynamicUse use,
                                            const std::vector<SqlType>& targetTypes) {
    std::optional<SqlValue> command = evaluate(query.command);
    if (!command) return std::nullopt;
    SqlType text{TypeId::Text, -1};
    if (command->type.id == TypeId::Unknown || command->type.id == TypeId::Varchar)
      command->type = text;  // the same representation
    else if (command->type.id != TypeId::Text)
      command = cg_.cast(*command, text, true);  // other values by their output function
    Row values;
    std::vector<SqlType> types;
    for (const SqlText& param : query.params) {
      std::optional<SqlValue> v = evaluate(param);
      if (!v) return std::nullopt;
      v->type = binder::resolveUnknown(v->type);  // an untyped USING value is text, as in PostgreSQL
      values.push_back(*v);
      types.push_back(v->type);
    }
    auto spec = std::make_unique<DynamicSpec>();
    spec->use = use;
    spec->paramLayout = TupleLayout::of(types);
    spec->targetLayout = TupleLayout::of(targetTypes);
    spec->readOnly = req_.readOnly;
    DynamicCall call;
    call.spec = spec.get();
    call.command = b_.CreateSelect(command->null, cg_.ptrConst(nullptr), command->v);
    call.params = cg_.tupleAlloca(spec->paramLayout);
    cg_.storeRow(call.params, spec->paramLayout, values);
    out_.dynamicStatements.push_back(std::move(spec));
    return call;
  }

  // EXECUTE [INTO]: FOUND stays as it was (PostgreSQL sets only ROW_COUNT).
  void emitExecute(const Execute& s) {
    DynamicTargets targets;
    if (s.into) {
      std::optional<DynamicTargets> found = dynamicTargets(s.targets);
      if (!found) return;
      targets = std::move(*found);
    }
    std::optional<DynamicCall> call = prepareDynamic(s.query, rt::DynamicUse::Execute, targets.types(slotTypes_));
    if (!call) return;
    call->spec->into = s.into;
    call->spec->strict = s.strict;
    call->spec->printStrictParams = fn_.printStrictParams;
    llvm::Value* target = s.into ? cg_.tupleAlloca(call->spec->targetLayout) : cg_.ptrConst(nullptr);
    llvm::Value* processed = cg_.call("duet_plpgsql_execute", b_.getInt64Ty(),
                                      {cur_.ctx, cg_.ptrConst(call->spec), call->command, call->params, target});
    if (s.into) assignFromTuple(targets, target, call->spec->targetLayout);
    setRowCount(processed);
  }

  // FOR targets IN EXECUTE: the rows are read first (as a FOR over a query), then the body
  // runs per row. Their buffer stays with the call's runtime state, as a FOR over a query's
  // does: a FOR over a query in the body keeps its variables pointing into its own.
  void emitForExecute(const ForExecute& s) {
    std::optional<DynamicTargets> targets = dynamicTargets(s.targets);
    if (!targets) return;
    std::optional<DynamicCall> call = prepareDynamic(s.query, rt::DynamicUse::Cursor, targets->types(slotTypes_));
    if (!call) return;
    llvm::Value* spec = cg_.ptrConst(call->spec);
    llvm::Value* rows =
        cg_.call("duet_plpgsql_execute_rows", cg_.pointerType(), {cur_.ctx, spec, call->command, call->params});
    llvm::Value* count = cg_.call("duet_q_buffer_size", b_.getInt64Ty(), {rows});
    llvm::AllocaInst* index = entryAlloca(b_.getInt64Ty());
    b_.CreateStore(b_.getInt64(0), index);
    llvm::Value* target = cg_.tupleAlloca(call->spec->targetLayout);
    llvm::BasicBlock* head = cg_.block("forx.head");
    llvm::BasicBlock* body = cg_.block("forx.body");
    llvm::BasicBlock* next = cg_.block("forx.next");
    llvm::BasicBlock* exit = cg_.block("forx.exit");
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    llvm::Value* i = b_.CreateLoad(b_.getInt64Ty(), index);
    b_.CreateCondBr(b_.CreateICmpULT(i, count), body, exit);
    b_.SetInsertPoint(body);
    cg_.call("duet_plpgsql_execute_row", b_.getVoidTy(), {cur_.ctx, spec, rows, i, target});
    assignFromTuple(*targets, target, call->spec->targetLayout);
    emitLoopBody(s.label, s.body, exit, next);
    b_.SetInsertPoint(next);
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(b_.getInt64Ty(), index), b_.getInt64(1)), index);
    cg_.checkCancel();
    b_.CreateBr(head);
    b_.SetInsertPoint(exit);
    setFound(b_.CreateICmpUGT(count, b_.getInt64(0)));
  }

  // RETURN QUERY EXECUTE: FOUND and ROW_COUNT as RETURN QUERY sets them.
  void emitReturnQueryExecute(const ReturnQueryExecute& s) {
    std::optional<DynamicCall> call = prepareDynamic(s.query, rt::DynamicUse::ReturnQuery, out_.rowLayout.types);
    if (!call) return;
    llvm::Value* count = cg_.call("duet_plpgsql_return_query_execute", b_.getInt64Ty(),
                                  {cur_.ctx, cur_.frame, cg_.ptrConst(call->spec), call->command, call->params});
    setRowCount(count);
    setFound(b_.CreateICmpSGT(count, b_.getInt64(0)));
  }

  void emitExit(const Exit& s) {
    const JumpTarget* target = nullptr;
    for (auto it = targets_.rbegin(); it != targets_.rend() && !target; ++it) {
      if (s.label.empty() ? it->loop : it->label == s.label) target = &*it;
    }
    if (!target || (s.isContinue && !target->loop)) {
      // The parser rejects these at CREATE; reaching here means a construct it let through.
      fail("42601", s.isContinue ? "CONTINUE cannot be used outside a loop"
                                 : "EXIT cannot be used outside a loop, unless it has a label");
      return;
    }
    if (s.when) {
      llvm::Value* c = condition(*s.when);
      llvm::BasicBlock* jump = cg_.block("exit.jump");
      llvm::BasicBlock* stay = cg_.block("exit.stay");
      b_.CreateCondBr(c, jump, stay);
      b_.SetInsertPoint(jump);
      jumpTo(*target, s.isContinue);
      b_.SetInsertPoint(stay);
      return;
    }
    jumpTo(*target, s.isContinue);
  }

  // check_sql_fn_retval: what an SQL function's final statement returns must fit the
  // declared result, column count and assignment casts (42P13, at CREATE).
  std::optional<SqlError> sqlResultMismatch(const Planned* p) {
    std::vector<SqlType> expected = out_.returnsValue ? std::vector<SqlType>{req_.returnType} : req_.rowTypes;
    bool composite = req_.shape.procedure || req_.returnsRow || expected.size() != 1;
    auto mismatch = [&](std::string detail) {
      std::string declared = req_.returnsRow ? req_.rowTypeName : composite ? "record" : typeName(expected[0]);
      return SqlError("42P13", fmt::format("return type mismatch in function declared to return {}", declared),
                      std::move(detail));
    };
    if (!p || !p->stmt.plan->returnsRows)
      return mismatch("Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING.");
    auto assignable = [](SqlType from, SqlType to) {
      if (from.id == TypeId::Unknown) from = {TypeId::Text, -1};
      return from.id == to.id || binder::castAllowed(from.id, to.id, CastContext::Assignment);
    };
    const std::vector<OutputColumn>& columns = p->stmt.plan->columns;
    // A function returning record takes any row at CREATE; each call checks it against
    // its column definition list.
    if (req_.returnsRecord && req_.validate) return std::nullopt;
    if (wholeRowResult(*p)) return std::nullopt;
    if (!composite) {
      if (columns.size() != 1) return mismatch("Final statement must return exactly one column.");
      if (!assignable(columns[0].type, expected[0]))
        return mismatch(fmt::format("Actual return type is {}.", typeName(columns[0].type)));
      return std::nullopt;
    }
    if (columns.size() > expected.size()) return mismatch("Final statement returns too many columns.");
    if (columns.size() < expected.size()) return mismatch("Final statement returns too few columns.");
    for (size_t c = 0; c < columns.size(); ++c) {
      if (!assignable(columns[c].type, expected[c]))
        return mismatch(fmt::format("Final statement returns {} instead of {} at column {}.", typeName(columns[c].type),
                                    typeName(expected[c]), c + 1));
    }
    return std::nullopt;
  }

  // An SQL function returning one row of a composite type whose final statement has one
  // column of a composite type: that value is the result (check_sql_fn_retval takes a lone
  // column that converts to the result type; a record of other column types fails when
  // returned, 42804).
  bool wholeRowResult(const Planned& p) const {
    const std::vector<OutputColumn>& columns = p.stmt.plan->columns;
    if (out_.resultRecord.id != TypeId::Record || columns.size() != 1) return false;
    SqlType t = columns[0].type;
    return t.id == TypeId::Record && t.typmod >= 0 && (t == out_.resultRecord || compositeTypeOid(t) == 0);
  }

  // An SQL function's final statement: its first row is the result (NULL, or a row of
  // NULLs, when there is none). A SELECT stops after that row; INSERT/UPDATE/DELETE
  // ... RETURNING still change every row they reach.
  void emitFinalStatement(const Return& s) {
    std::optional<Planned> p;
    if (s.value && !(p = plan(*s.value, ""))) return;
    if (std::optional<SqlError> e = sqlResultMismatch(p ? &*p : nullptr)) {
      reject(*e);
      return;
    }
    std::vector<int> slots = out_.returnsValue ? std::vector<int>{out_.returnSlot} : out_.outputSlots;
    bool select = p->stmt.plan->command == PreparedPlan::Command::Select;
    llvm::Value* count = countAlloca();
    auto first = [&] { return b_.CreateICmpEQ(b_.CreateLoad(b_.getInt64Ty(), count), b_.getInt64(0)); };
    bool whole = wholeRowResult(*p);
    emit(*p, {}, [&](Row& row) {
      auto store = [&] {
        if (whole) return storeReturnedRecord(row[0], "returned record type does not match expected record type");
        for (size_t c = 0; c < slots.size(); ++c) assignSlot(slots[c], row[c], nullptr);
        if (out_.resultRowNull >= 0) storeSlot(out_.resultRowNull, {b_.getTrue(), b_.getFalse(), {TypeId::Bool, -1}});
      };
      if (select) {
        store();
        increment(count);
        b_.CreateBr(statements_.statementEnd());
        ensureOpen();
        return;
      }
      cg_.ifThen(first(), store);
      increment(count);
    });
    cg_.ifThen(first(), [&] {
      for (int slot : slots) storeSlot(slot, cg_.nullOf(slotTypes_[slot]));
      // One row of a composite type: NULL without a row (fmgr_sql's NULL result).
      if (out_.resultRowNull >= 0) storeSlot(out_.resultRowNull, cg_.nullOf({TypeId::Bool, -1}));
    });
    emitReturn();
  }

  void emitReturnStmt(const Return& s) {
    if (s.finalStatement) {
      emitFinalStatement(s);
      return;
    }
    if (s.value && out_.returnsValue) {
      auto v = evaluate(*s.value);
      if (!v) return;
      assignSlot(out_.returnSlot, *v, nullptr);
    }
    if (s.value && returnsRow_) {
      const char* wrong = "returned record type does not match expected record type";
      if (std::optional<int> variable = wholeRowVariable(*s.value)) {
        std::optional<Row> row = rowOfVariable(*variable, wrong);
        if (!row) return;
        for (size_t c = 0; c < row->size(); ++c) storeSlot(out_.outputSlots[c], (*row)[c]);
        storeSlot(out_.resultRowNull, {b_.getTrue(), loadSlot(rowNull_[*variable]).null, {TypeId::Bool, -1}});
      } else if (!returnRecordValue(*s.value, wrong)) {
        return;
      }
    }
    emitReturn();
  }

  // RETURN <expression> in a function returning one row: the value as storeReturnedRecord
  // takes it. False after emitting the failure.
  bool returnRecordValue(const SqlText& text, const char* wrong) {
    std::optional<SqlValue> v = evaluate(text);
    if (!v) return false;
    storeReturnedRecord(*v, wrong);
    return true;
  }

  // The one row a function returns, from a value: its fields (rowOfRecord) into the result
  // slots, and whether it is NULL.
  void storeReturnedRecord(const SqlValue& v, const char* wrong) {
    Row row = rowOfRecord(v, wrong);
    for (size_t c = 0; c < out_.outputSlots.size(); ++c) storeSlot(out_.outputSlots[c], row[c]);
    storeSlot(out_.resultRowNull, {b_.getTrue(), v.null, {TypeId::Bool, -1}});
  }

  // A value as a result row: a record whose fields have the result's column types
  // (converted by position without casts, as rowOfVariable) gives its fields, NULL a row
  // of NULLs; any other value is 42804, as PostgreSQL's exec_stmt_return[_next].
  Row rowOfRecord(const SqlValue& v, const char* wrong) {
    const std::vector<SqlType>& expected = req_.rowTypes;
    Row row;
    for (const SqlType& t : expected) row.push_back(cg_.nullOf(t));
    if (v.type.id != TypeId::Record || v.type.typmod < 0) {
      cg_.ifThen(b_.CreateNot(v.null), [&] {
        fail(sqlstate::kDatatypeMismatch, "cannot return non-composite value from function returning composite type");
      });
      return row;
    }
    const std::vector<RecordField>& fields = recordFields(v.type);
    std::string detail;
    for (size_t c = 0; c < fields.size() && c < expected.size() && detail.empty(); ++c)
      if (fields[c].type.id != expected[c].id) detail = columnTypeDetail(fields[c].type, expected[c], c);
    if (detail.empty() && fields.size() != expected.size()) detail = columnCountDetail(fields.size(), expected.size());
    if (!detail.empty()) {
      // PostgreSQL checks the row it has: a NULL returns without one.
      cg_.ifThen(b_.CreateNot(v.null), [&] { fail(SqlError("42804", wrong, detail)); });
      return row;
    }
    for (size_t c = 0; c < expected.size(); ++c) {
      const TupleLayout* layout = out_.code->layouts.add(TupleLayout::of({expected[c]}));
      llvm::Value* tuple = cg_.tupleAlloca(*layout);
      cg_.storeField(tuple, *layout, 0, row[c]);
      cg_.ifThen(b_.CreateNot(v.null), [&] {
        cg_.call("duet_q_record_field", b_.getVoidTy(),
                 {cur_.ctx, v.v, b_.getInt32(static_cast<int32_t>(c)), tuple, cg_.ptrConst(layout)});
      });
      row[c] = cg_.loadField(tuple, *layout, 0);
    }
    return row;
  }

  void appendRow(const Row& row) {
    const TupleLayout& layout = out_.rowLayout;
    if (row.size() != layout.types.size()) {
      fail(SqlError("42804", "structure of query does not match function result type",
                    columnCountDetail(row.size(), layout.types.size())));
      ensureOpen();
      return;
    }
    llvm::Value* tuple = cg_.tupleAlloca(layout);
    for (size_t c = 0; c < row.size(); ++c) {
      std::optional<SqlValue> v = assignCast(row[c], layout.types[c]);
      if (!v) return;
      cg_.storeField(tuple, layout, c, *v);
    }
    cg_.call("duet_plpgsql_append_row", b_.getVoidTy(), {cur_.frame, tuple});
  }

  // build_attrmap_by_position's details, for rows that do not fit the result.
  static std::string columnCountDetail(size_t returned, size_t expected) {
    return fmt::format("Number of returned columns ({}) does not match expected column count ({}).", returned,
                       expected);
  }
  static std::string columnTypeDetail(SqlType returned, SqlType expected, size_t column) {
    return fmt::format("Returned type {} does not match expected type {} in column {}.", typeName(returned),
                       typeName(expected), column + 1);
  }

  // The row or record variable that RETURN [NEXT] names alone in a function returning
  // rows: its fields are the row (PostgreSQL's retvarno), not an expression's value.
  std::optional<int> wholeRowVariable(const SqlText& value) {
    if (value.variables.size() != 1 || !value.variables[0].field.empty()) return std::nullopt;
    const VariableRef& ref = value.variables[0];
    VarType::Kind kind = fn_.variables[ref.variable].type.kind;
    if (kind != VarType::Kind::Row && kind != VarType::Kind::Record) return std::nullopt;
    std::string text = value.text;
    std::erase_if(text, [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
    std::string written;
    for (const std::string& n : ref.names) written += (written.empty() ? "" : ".") + n;
    if (text.size() != written.size() ||
        !std::equal(text.begin(), text.end(), written.begin(), [](char a, char b) { return std::tolower(a) == b; }))
      return std::nullopt;
    return ref.variable;
  }

  // The fields of a row or record variable as a result row, which must have the result's
  // column types (PostgreSQL converts by position and casts nothing: 42804 `wrong`, with
  // its detail, when the statement runs). Nullopt after emitting the failure.
  std::optional<Row> rowOfVariable(int variable, const char* wrong) {
    const Variable& var = fn_.variables[variable];
    const auto& fields = fieldSlots_[variable];
    if (fields.empty()) {
      fail(SqlError("55000", fmt::format("record \"{}\" is not assigned yet", var.name),
                    "The tuple structure of a not-yet-assigned record is indeterminate."));
      ensureOpen();
      return std::nullopt;
    }
    const std::vector<SqlType>& expected = req_.rowTypes;
    std::string detail;
    for (size_t c = 0; c < fields.size() && c < expected.size() && detail.empty(); ++c)
      if (slotTypes_[fields[c].second].id != expected[c].id)
        detail = columnTypeDetail(slotTypes_[fields[c].second], expected[c], c);
    if (detail.empty() && fields.size() != expected.size()) detail = columnCountDetail(fields.size(), expected.size());
    if (!detail.empty()) {
      fail(SqlError("42804", wrong, detail));
      ensureOpen();
      return std::nullopt;
    }
    Row row;
    for (const auto& [name, slot] : fields) row.push_back(loadSlot(slot));
    return row;
  }

  void emitReturnNext(const Return& s) {
    if (s.value && req_.returnsRow) {
      if (std::optional<int> variable = wholeRowVariable(*s.value)) {
        if (std::optional<Row> row = rowOfVariable(*variable, "wrong record type supplied in RETURN NEXT"))
          appendRow(*row);
        return;
      }
    }
    if (s.value) {
      auto v = evaluate(*s.value);
      if (v && req_.returnsRow)
        appendRow(rowOfRecord(*v, "returned record type does not match expected record type"));
      else if (v)
        appendRow({*v});
      return;
    }
    packOutputRecords();
    Row row;
    for (int slot : out_.outputSlots) row.push_back(loadSlot(slot));
    appendRow(row);
  }

  void emitReturnQuery(const Return& s) {
    std::optional<Planned> p = plan(*s.value, "");
    if (!p) return;
    if (s.finalStatement) {
      if (std::optional<SqlError> e = sqlResultMismatch(&*p)) {
        reject(*e);
        return;
      }
    }
    std::vector<SqlType> types = columnTypes(*p);
    if (!s.finalStatement && !returnQueryTypesMatch(types)) return;
    llvm::Value* count = countAlloca();
    emit(*p, {}, [&](Row& row) {
      appendRow(row);
      increment(count);
    });
    finishCount(count);
  }

  // RETURN QUERY's columns must have the result columns' types exactly (PostgreSQL's
  // convert_tuples_by_position; typmods aside): 42804 when the statement runs.
  bool returnQueryTypesMatch(const std::vector<SqlType>& types) {
    const std::vector<SqlType>& expected = out_.rowLayout.types;
    if (types.size() != expected.size()) return true;  // appendRow reports the count
    for (size_t c = 0; c < types.size(); ++c) {
      SqlType t = types[c].id == TypeId::Unknown ? SqlType{TypeId::Text, -1} : types[c];
      bool same = t.id == expected[c].id && (!t.isArray() || t.elementType().id == expected[c].elementType().id);
      if (!same) {
        fail(SqlError("42804", "structure of query does not match function result type",
                      columnTypeDetail(t, expected[c], c)));
        ensureOpen();
        return false;
      }
    }
    return true;
  }

  llvm::Value* countAlloca() {
    llvm::AllocaInst* count = entryAlloca(b_.getInt64Ty());
    b_.CreateStore(b_.getInt64(0), count);
    return count;
  }
  void increment(llvm::Value* count) {
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(b_.getInt64Ty(), count), b_.getInt64(1)), count);
  }
  // FOUND and ROW_COUNT after a statement that processed `count` rows.
  void finishCount(llvm::Value* count) {
    llvm::Value* n = b_.CreateLoad(b_.getInt64Ty(), count);
    setRowCount(n);
    setFound(b_.CreateICmpSGT(n, b_.getInt64(0)));
  }

  void emitPerform(const Perform& s) {
    std::optional<Planned> p = plan(s.query, "SELECT ");
    if (!p) return;
    llvm::Value* count = countAlloca();
    emit(*p, {}, [&](Row&) { increment(count); });
    finishCount(count);
  }

  llvm::Value* undoPtr() {
    llvm::Value* field = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), cur_.ctx, offsetof(rt::QueryContext, undo));
    return b_.CreateLoad(cg_.pointerType(), field);
  }
  llvm::Value* affectedRowsPtr() {
    return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), cur_.ctx, offsetof(rt::QueryContext, affectedRows));
  }

  void emitExecSql(const ExecSql& s) {
    std::optional<Planned> p = plan(s.statement, "");
    if (!p) return;
    const PreparedPlan& info = *p->stmt.plan;
    bool select = info.command == PreparedPlan::Command::Select;
    if (info.command == PreparedPlan::Command::Call) {
      if (req_.shape.procedure) ownVariableStrings();  // the procedure it calls may COMMIT
      emitCall(*p);
      return;
    }
    if (!s.into && !s.discardRows && info.returnsRows) {
      fail("42601", "query has no destination for result data",
           select ? "If you want to discard the results of a SELECT, use PERFORM instead." : "");
      return;
    }
    llvm::Value* count = countAlloca();
    if (!select) b_.CreateStore(b_.getInt64(0), affectedRowsPtr());
    // INTO keeps the first row and counts the rows, as PL/pgSQL's exec_stmt_execsql reads
    // them from SPI: a SELECT stops at the first row, or with STRICT at the second; DML at
    // its second RETURNING row, where its foreign key checks still run (the executor's
    // end). Only then are FOUND and ROW_COUNT set, the count checked (P0002, P0003) and
    // the row assigned.
    const TupleLayout* first = nullptr;
    llvm::Value* firstRow = nullptr;
    if (s.into) {
      first = out_.code->layouts.add(TupleLayout::of(columnTypes(*p)));
      firstRow = cg_.tupleAlloca(*first);
    }
    int64_t enough = select && !s.strict ? 1 : 2;
    emit(*p, {}, [&](Row& row) {
      if (!s.into) return;
      llvm::Value* n = b_.CreateLoad(b_.getInt64Ty(), count);
      cg_.ifThen(b_.CreateICmpEQ(n, b_.getInt64(0)), [&] { cg_.storeRow(firstRow, *first, row); });
      increment(count);
      llvm::BasicBlock* stop = cg_.block("into.stop");
      llvm::BasicBlock* more = cg_.block("into.more");
      b_.CreateCondBr(b_.CreateICmpSGE(b_.CreateLoad(b_.getInt64Ty(), count), b_.getInt64(enough)), stop, more);
      b_.SetInsertPoint(stop);
      if (!select) cg_.call("duet_undo_run_deferred", b_.getVoidTy(), {undoPtr()});
      b_.CreateBr(statements_.statementEnd());
      b_.SetInsertPoint(more);
    });
    llvm::Value* returned = b_.CreateLoad(b_.getInt64Ty(), count);
    if (!select) b_.CreateStore(b_.CreateLoad(b_.getInt64Ty(), affectedRowsPtr()), count);
    finishCount(count);
    if (!s.into) return;
    if (s.strict)
      cg_.ifThen(b_.CreateICmpEQ(returned, b_.getInt64(0)), [&] { strictFail(s, "P0002", "query returned no rows"); });
    // STRICT, and INSERT/UPDATE/DELETE ... RETURNING INTO: exactly one row.
    if (s.strict || !select) {
      cg_.ifThen(b_.CreateICmpSGT(returned, b_.getInt64(1)), [&] {
        strictFail(s, "P0003", "query returned more than one row",
                   "Make sure the query returns a single row, or use LIMIT 1.");
      });
    }
    llvm::Value* none = b_.CreateICmpEQ(returned, b_.getInt64(0));
    cg_.ifThen(none, [&] { nullTargets(s.targets); });
    cg_.ifThen(b_.CreateNot(none), [&] {
      Row row;
      for (size_t i = 0; i < first->types.size(); ++i) row.push_back(cg_.loadField(firstRow, *first, i));
      assignTargets(s.targets, row);
    });
  }

  // STRICT INTO's error, with the values of the variables the statement reads for
  // print_strict_params (strict_params.h): plain variables in the order they are declared,
  // then record fields in the order the statement names them, as PostgreSQL numbers its
  // datums. A row variable read whole is left out.
  void strictFail(const ExecSql& s, const std::string& code, const std::string& message, const std::string& hint = {}) {
    if (fn_.printStrictParams == PrintStrictParams::Off) {
      fail(code, message, hint);
      return;
    }
    auto spec = std::make_unique<StrictSpec>();
    spec->code = code;
    spec->message = message;
    spec->hint = hint;
    spec->mode = fn_.printStrictParams;
    std::set<int> plain;
    std::vector<std::pair<std::string, int>> fields;  // name, slot
    for (const VariableRef& ref : s.statement.variables) {
      if (ref.field.empty()) {
        if (slotOf_[ref.variable] >= 0) plain.insert(ref.variable);
        continue;
      }
      for (const auto& [name, slot] : fieldSlots_[ref.variable])
        if (name == ref.field &&
            std::none_of(fields.begin(), fields.end(), [&](const auto& f) { return f.second == slot; }))
          fields.emplace_back(name, slot);
    }
    Row values;
    for (int v : plain) {
      spec->names.push_back(fn_.variables[v].name);
      values.push_back(loadSlot(slotOf_[v]));
    }
    for (const auto& [name, slot] : fields) {
      spec->names.push_back(name);
      values.push_back(loadSlot(slot));
    }
    std::vector<SqlType> types;
    for (const SqlValue& v : values) types.push_back(v.type);
    spec->layout = TupleLayout::of(types);
    llvm::Value* tuple = cg_.tupleAlloca(spec->layout);
    for (size_t i = 0; i < values.size(); ++i) cg_.storeField(tuple, spec->layout, i, values[i]);
    cg_.call("duet_plpgsql_strict_fail", b_.getVoidTy(), {cur_.ctx, cg_.ptrConst(spec.get()), tuple});
    b_.CreateUnreachable();
    out_.strictChecks.push_back(std::move(spec));
  }

  // CALL p(...) (exec_stmt_call): the procedure's OUT and INOUT arguments come back as its
  // row, stored into the variables passed in their places. An argument there that is not
  // a plain variable is 42601 when the statement runs, as in PostgreSQL, where a cast
  // around the variable counts as not writable too.
  void emitCall(const Planned& p) {
    const std::vector<std::pair<int, std::string>>& outputs = p.stmt.plan->callOutputs;
    if (fn_.sqlBody && !outputs.empty()) {
      reject(SqlError(sqlstate::kFeatureNotSupported,
                      "calling procedures with output arguments is not supported in SQL functions"));
      return;
    }
    std::vector<int> slots;
    for (const auto& [argument, name] : outputs) {
      const plan::Expr& arg = *p.stmt.root->exprs[argument];
      if (arg.kind != plan::ExprKind::Param || arg.param >= static_cast<int>(slotTypes_.size())) {
        fail("42601", name.empty() ? fmt::format("procedure parameter {} is an output parameter but corresponding "
                                                 "argument is not writable",
                                                 argument + 1)
                                   : fmt::format("procedure parameter \"{}\" is an output parameter but "
                                                 "corresponding argument is not writable",
                                                 name));
        ensureOpen();
        return;
      }
      const Variable* var = variableOfSlot(arg.param);
      if (var && var->constant) {
        fail("22005", fmt::format("variable \"{}\" is declared CONSTANT", var->name));
        ensureOpen();
        return;
      }
      slots.push_back(arg.param);
    }
    emit(p, {}, [&](Row& row) {
      for (size_t c = 0; c < slots.size() && c < row.size(); ++c)
        assignSlot(slots[c], row[c], variableOfSlot(slots[c]));
    });
  }

  // The variable a slot belongs to (a record's field slots belong to the record).
  const Variable* variableOfSlot(int slot) const {
    for (size_t v = 0; v < fn_.variables.size(); ++v) {
      if (slotOf_[v] == slot) return &fn_.variables[v];
      for (const auto& field : fieldSlots_[v])
        if (field.second == slot) return &fn_.variables[v];
    }
    return nullptr;
  }

  void emitGetDiagnostics(const GetDiagnostics& s) {
    for (const auto& [target, item] : s.items) {
      std::vector<int> slots = targetSlots(target);
      if (slots.size() != 1) continue;
      if (item == GetDiagnostics::Item::RowCount) {
        assignSlot(slots[0], loadSlot(rowCountSlot_), &fn_.variables[target.variable]);
      } else if (s.stacked) {
        int32_t what = static_cast<int32_t>(item) - static_cast<int32_t>(GetDiagnostics::Item::ReturnedSqlstate);
        llvm::Value* text = cg_.call("duet_plpgsql_error_text", cg_.pointerType(), {cur_.frame, b_.getInt32(what)});
        assignSlot(slots[0], cg_.notNull(text, {TypeId::Text, -1}), &fn_.variables[target.variable]);
      } else {  // PG_CONTEXT
        llvm::Value* text = cg_.call("duet_plpgsql_call_stack", cg_.pointerType(), {cur_.frame});
        assignSlot(slots[0], cg_.notNull(text, {TypeId::Text, -1}), &fn_.variables[target.variable]);
      }
    }
  }

  void emitRaise(const Raise& s) {
    if (s.reraise) {
      cg_.call("duet_plpgsql_reraise", b_.getVoidTy(), {cur_.frame});
      b_.CreateUnreachable();
      return;
    }
    auto spec = std::make_unique<RaiseSpec>();
    spec->level = s.level;
    spec->hasFormat = s.format.has_value();
    if (s.format) spec->format = *s.format;
    spec->formatArgs = s.args.size();
    if (s.condition) {
      spec->conditionName = s.condition->name;
      if (!s.condition->sqlstates.empty()) spec->sqlstate = s.condition->sqlstates[0];
      if (s.condition->name.empty() && !spec->sqlstate.empty()) spec->conditionName = spec->sqlstate;
    }
    std::vector<const SqlText*> texts;
    for (const auto& a : s.args) texts.push_back(&a);
    for (const auto& [option, value] : s.options) {
      spec->options.push_back(option);
      texts.push_back(&value);
    }
    size_t n = texts.size();
    llvm::AllocaInst* values = entryAlloca(cg_.pointerType(), std::max<size_t>(n, 1));
    llvm::AllocaInst* nulls = entryAlloca(b_.getInt8Ty(), std::max<size_t>(n, 1));
    SqlType text{TypeId::Text, -1};
    for (size_t i = 0; i < n; ++i) {
      auto v = evaluate(*texts[i]);
      if (!v) return;
      SqlValue t = v->type.id == TypeId::Text ? *v : cg_.cast(*v, text, true);
      // A format argument is printed with its type's output function: a boolean's is t or f
      // (boolout), where a cast to text gives true or false.
      if (v->type.id == TypeId::Bool && i < s.args.size())
        t.v = b_.CreateSelect(v->v, cg_.stringConstant("t"), cg_.stringConstant("f"));
      b_.CreateStore(t.v, b_.CreateConstInBoundsGEP1_64(cg_.pointerType(), values, i));
      b_.CreateStore(b_.CreateZExt(t.null, b_.getInt8Ty()), b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), nulls, i));
    }
    cg_.call("duet_plpgsql_raise", b_.getVoidTy(), {cur_.ctx, cg_.ptrConst(spec.get()), values, nulls});
    if (s.level == RaiseLevel::Exception) b_.CreateUnreachable();
    out_.raises.push_back(std::move(spec));
  }

  // ASSERT (exec_stmt_assert): skipped while plpgsql.check_asserts is off; a false or NULL
  // condition raises P0004 with the message's text, "assertion failed" without one or
  // for a NULL one.
  void emitAssert(const Assert& s) {
    llvm::Value* enabled = cg_.call("duet_plpgsql_asserts_enabled", b_.getInt8Ty(), {cur_.ctx});
    cg_.ifThen(b_.CreateICmpNE(enabled, b_.getInt8(0)), [&] {
      llvm::Value* holds = condition(s.condition);
      cg_.ifThen(b_.CreateNot(holds), [&] {
        llvm::Value* message = cg_.ptrConst(nullptr);
        if (s.message) {
          std::optional<SqlValue> v = evaluate(*s.message);
          if (!v) return;
          SqlValue text = v->type.id == TypeId::Text ? *v : cg_.cast(*v, {TypeId::Text, -1}, true);
          message = b_.CreateSelect(text.null, cg_.ptrConst(nullptr), text.v);
        }
        cg_.call("duet_plpgsql_assert_failed", b_.getVoidTy(), {message});
        b_.CreateUnreachable();
      });
    });
  }

  const RoutineCompileRequest& req_;
  const Function& fn_;
  CompiledRoutine& out_;
  llvm::Module& module_;
  codegen::StatementGenerator statements_;
  codegen::ValueBuilder& cg_;  // the routine's own code: control flow, variables, casts
  llvm::IRBuilder<>& b_;
  FunctionState cur_;
  llvm::BasicBlock* returnBlock_ = nullptr;
  std::vector<SqlType> slotTypes_;
  std::vector<int> slotOf_;  // per variable: its slot, -1 for rows and records (fields)
  std::vector<std::vector<std::pair<std::string, int>>> fieldSlots_;  // per row / record variable
  std::vector<int> rowNull_;             // per row / record variable with fields: its NULL-as-a-whole slot, else -1
  std::map<int, SqlType> recordShapes_;  // per RECORD variable shaped by a value: the value's type
  std::vector<std::pair<int, int>> outputRecords_;  // composite OUT arguments and their record slots
  int rowCountSlot_ = -1;
  // The FOR loops over cursors being generated, innermost last: where their jump targets
  // begin in targets_, the function (depth) and the portal a jump out of them closes.
  struct CursorLoop {
    size_t targets;
    int depth;
    llvm::Value* portal;
  };
  std::vector<CursorLoop> cursorLoops_;
  std::unordered_map<const Stmt*, int> contextOf_;  // statementContexts index per statement
  int markedStatement_ = -1;                        // of the statement being emitted
  std::map<int, const SqlText*> openQueries_;      // per unbound cursor variable, its first OPEN's query (shapeRecords)
  bool returnsRow_ = false;                        // RETURNS record or t (not SETOF): RETURN fills outputSlots
  std::optional<std::vector<int>> numberedSlots_;  // LANGUAGE sql: the slot $n names
  std::vector<JumpTarget> targets_;
  int nextCode_ = 2;  // 0 and 1 are "fell through" and "returned"
};

}  // namespace

std::unique_ptr<CompiledRoutine> compileRoutine(const RoutineCompileRequest& request) {
  auto started = std::chrono::steady_clock::now();
  registerRoutineRuntime();
  registerDynamicSqlRuntime();
  registerCursorRuntime();
  std::string source = "$$" + request.body + "$$";
  BodySource body{source, 0, static_cast<uint32_t>(source.size()), request.body};
  Function fn =
      request.sqlBody ? parseSqlBody(request.shape, body) : parsePlpgsqlBody(request.shape, body, request.tableColumns);

  auto out = std::make_unique<CompiledRoutine>();
  out->name = request.signature;
  out->strict = request.strict;
  out->voidIsNull = request.sqlBody;  // fmgr_sql returns a NULL datum for void
  out->code = std::make_unique<CompiledQuery>();
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("routine", *context);
  static std::atomic<uint64_t> counter{0};
  std::string name = "routine" + std::to_string(counter.fetch_add(1));
  {
    RoutineCompiler compiler(request, fn, *out, *context, *module);
    compiler.allocateSlots();
    compiler.generate(name);
  }
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*module, &stream))
    throw SqlError(sqlstate::kInternalError, fmt::format("could not compile {}: {}", request.signature, stream.str()));
  out->code->code = Jit::instance().compile(std::move(context), std::move(module), {name}, request.optLevel,
                                            request.optimiseBudgetMs);
  out->entry = reinterpret_cast<CompiledRoutine::Entry>(out->code->code.functions[0]);
  out->compileMs = msSince(started);
  return out;
}

}  // namespace duet::plpgsql
