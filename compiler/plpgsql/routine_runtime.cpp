// The precompiled half of PL/pgSQL routines: running a call (frame set-up, arguments in,
// results out), EXCEPTION blocks (catching SqlError and undoing the block's changes),
// RAISE, and the rows a set-returning routine produces. Generated code calls the
// duet_plpgsql_* functions below.
#include <fmt/format.h>

#include <cstring>
#include <mutex>
#include <optional>

#include "compiler/codegen/jit_symbols.h"
#include "compiler/plpgsql/compiled_routine.h"
#include "compiler/plpgsql/condition_names.h"
#include "compiler/plpgsql/cursor_runtime.h"
#include "compiler/plpgsql/dynamic_sql.h"
#include "compiler/plpgsql/routine_runtime.h"
#include "compiler/plpgsql/strict_params.h"
#include "engine/limits/stack_depth.h"
#include "engine/storage/tuple_storage.h"
#include "engine/storage/undo_log.h"
#include "engine/types/array.h"
#include "engine/types/raw_value.h"
#include "engine/types/record.h"

namespace duet::plpgsql {

CompiledRoutine::~CompiledRoutine() = default;

namespace {

std::string formatMessage(const std::string& format, const VarString* const* values, const uint8_t* nulls,
                          size_t count) {
  std::string out;
  size_t arg = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] == '%' && i + 1 < format.size() && format[i + 1] == '%') {
      out += '%';
      ++i;
    } else if (format[i] == '%' && arg < count) {
      out += nulls[arg] ? std::string("<NULL>") : std::string(values[arg]->view());
      ++arg;
    } else {
      out += format[i];
    }
  }
  return out;
}

bool isSqlstate(std::string_view s) {
  if (s.size() != 5) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'))) return false;
  return true;
}

// A void function's one value: empty, as PostgreSQL prints void, or NULL (voidIsNull).
void setVoidResult(const TupleLayout& layout, uint8_t* tuple, bool voidIsNull) {
  if (voidIsNull) {
    tuple[layout.nullOffset(0)] = 1;
    return;
  }
  const VarString* empty = statementArena().makeString(std::string_view());
  std::memcpy(tuple + layout.offsets[0], &empty, sizeof empty);
  tuple[layout.nullOffset(0)] = 0;
}

// A composite argument into its variable's field slots (a NULL one leaves them and the
// variable NULL). Varlena fields point into the record, which lives as long as the call's
// arguments.
void unpackRecordArgument(const CompiledRoutine& routine, const uint8_t* args, size_t a, uint8_t* vars) {
  const TupleLayout& al = routine.argLayout;
  if (args[al.nullOffset(a)]) return;
  RecordView record(loadRaw<const VarString*>(args + al.offsets[a]));
  const TupleLayout& vl = routine.varLayout;
  if (int flag = routine.argRowNull[a]; flag >= 0) {
    vars[vl.nullOffset(static_cast<size_t>(flag))] = 0;
    storeRaw(vars + vl.offsets[static_cast<size_t>(flag)], true);
  }
  const std::vector<int>& slots = routine.argFieldSlots[a];
  alignas(16) unsigned char value[16];
  for (size_t i = 0; i < slots.size() && i < record.size(); ++i) {
    auto slot = static_cast<size_t>(slots[i]);
    if (record.isNull(static_cast<uint32_t>(i))) continue;
    TypeId type = vl.types[slot].id;
    record.load(static_cast<uint32_t>(i), type, value);
    std::memcpy(vars + vl.offsets[slot], value, physicalSize(type));
    vars[vl.nullOffset(slot)] = 0;
  }
}

// The row a function returning one row of a composite type produced, as a record value.
const VarString* recordOfSlots(const CompiledRoutine& routine, const uint8_t* vars) {
  const TupleLayout& vl = routine.varLayout;
  std::vector<SqlType> types;
  std::vector<const void*> values;
  std::vector<uint8_t> nulls;
  for (int slot : routine.outputSlots) {
    auto s = static_cast<size_t>(slot);
    types.push_back(vl.types[s]);
    values.push_back(vars + vl.offsets[s]);
    nulls.push_back(vars[vl.nullOffset(s)]);
  }
  return makeRecord(routine.resultRecord, types, values.data(), nulls.data(), statementArena());
}

}  // namespace

namespace {

// The frame of the routine running on this thread, innermost: errors' and PG_CONTEXT's
// call stack.
thread_local RoutineFrame* tRunningFrame = nullptr;

// The CONTEXT lines of the calls from `frame` outwards, each at its current statement.
std::string callStack(const RoutineFrame* frame) {
  std::string text;
  for (; frame; frame = frame->caller) {
    if (frame->statement < 0 || !frame->statementContexts) continue;
    if (!text.empty()) text += '\n';
    if (!frame->dynamicSql.empty()) text += fmt::format("SQL statement \"{}\"\n", frame->dynamicSql);
    text += (*frame->statementContexts)[static_cast<size_t>(frame->statement)];
  }
  return text;
}

}  // namespace

RoutineFrame* runningFrame() { return tRunningFrame; }

// Set by the first routine boundary the error meets (or the EXECUTE that ran it), while
// the frames it passed through still say where they were.
void setErrorContext(SqlError& e, const RoutineFrame* frame) {
  if (e.contextSet) return;
  e.contextSet = true;
  std::string stack = callStack(frame);
  if (stack.empty()) return;
  e.context = e.context.empty() ? stack : e.context + "\n" + stack;
}

void runRoutine(const CompiledRoutine& routine, rt::QueryContext& ctx, const uint8_t* args, uint8_t* result,
                rt::TupleBuffer* rows) {
  checkStackDepth();  // recursion ends with 54001 at max_stack_depth, as in PostgreSQL

  if (routine.strict) {
    for (size_t a = 0; a < routine.argLayout.types.size(); ++a) {
      if (!args[routine.argLayout.nullOffset(a)]) continue;
      if (result) result[0] = 1;  // the one result column is NULL
      // A set has no rows; one value (or OUT row) is a row of NULLs, as in FROM of any
      // function returning NULL (a procedure without output arguments: none).
      if (rows && !routine.returnsSet && !routine.rowLayout.types.empty()) {
        TupleStorage nulls(routine.rowLayout.size);
        std::memset(nulls.data(), 1, routine.rowLayout.types.size());
        rows->append(nulls.data());
      }
      return;
    }
  }
  // The frame: every variable starts NULL (PostgreSQL's initial value without DEFAULT); the
  // NULL flags lead the tuple (TupleLayout::nullOffset). On the stack unless it is large:
  // a routine's frame is allocated per call.
  const TupleLayout& vl = routine.varLayout;
  alignas(16) uint8_t localFrame[2048];
  std::optional<TupleStorage> largeFrame;
  uint8_t* vars = localFrame;
  if (vl.size > sizeof localFrame) vars = largeFrame.emplace(vl.size).data();
  std::memset(vars, 0, vl.size);
  std::memset(vars, 1, vl.types.size());
  for (size_t a = 0; a < routine.argSlots.size(); ++a) {
    if (routine.argSlots[a] >= 0) copyField(routine.argLayout, args, a, vl, vars, routine.argSlots[a]);
    if (!routine.argFieldSlots[a].empty()) unpackRecordArgument(routine, args, a, vars);
  }

  RoutineFrame frame;
  frame.statementContexts = &routine.statementContexts;
  frame.caller = tRunningFrame;
  if (routine.returnsSet) {
    if (!rows)
      throw SqlError(sqlstate::kFeatureNotSupported, "set-valued function called in context that cannot accept a set");
    frame.rows = rows;
  }
  // The routine's statements count their own rows; the calling statement's count stays.
  int64_t callerAffected = ctx.affectedRows;
  struct Running {
    explicit Running(RoutineFrame* f) { tRunningFrame = f; }
    ~Running() { tRunningFrame = tRunningFrame->caller; }
  };
  try {
    Running running(&frame);
    routine.entry(&ctx, vars, &frame);
  } catch (SqlError& e) {
    setErrorContext(e, &frame);
    throw;
  }
  ctx.affectedRows = callerAffected;

  if (routine.returnsSet) return;
  if (result) {
    const TupleLayout& rl = routine.resultLayout;
    if (routine.resultRecord.id == TypeId::Record) {
      bool null = vars[vl.nullOffset(static_cast<size_t>(routine.resultRowNull))] != 0;
      if (!null) storeRaw(result + rl.offsets[0], recordOfSlots(routine, vars));
      result[rl.nullOffset(0)] = null ? 1 : 0;
    } else if (routine.resultSlot >= 0) {
      copyField(vl, vars, routine.resultSlot, rl, result, 0);
    } else {
      setVoidResult(rl, result, routine.voidIsNull);
    }
  }
  if (rows) {
    const TupleLayout& rl = routine.rowLayout;
    if (rl.types.empty()) return;  // a procedure without output arguments
    TupleStorage rowStorage(rl.size);
    uint8_t* row = rowStorage.data();
    if (routine.returnsValue) {
      copyField(vl, vars, routine.returnSlot, rl, row, 0);
    } else if (routine.outputSlots.empty()) {
      setVoidResult(rl, row, routine.voidIsNull);  // SELECT * FROM f() of a void function: one row
    } else {
      for (size_t i = 0; i < routine.outputSlots.size(); ++i) copyField(vl, vars, routine.outputSlots[i], rl, row, i);
    }
    rows->append(row);
  }
}

void registerRoutineRuntime() {
  static std::once_flag once;
  std::call_once(once, [] {
#define DUET_PL(fn) registerJitSymbol(#fn, reinterpret_cast<void*>(&fn))
    DUET_PL(duet_plpgsql_try);
    DUET_PL(duet_plpgsql_error_matches);
    DUET_PL(duet_plpgsql_pop_error);
    DUET_PL(duet_plpgsql_call_stack);
    DUET_PL(duet_plpgsql_reraise);
    DUET_PL(duet_plpgsql_raise);
    DUET_PL(duet_plpgsql_fail);
    DUET_PL(duet_plpgsql_strict_fail);
    DUET_PL(duet_plpgsql_append_row);
    DUET_PL(duet_plpgsql_asserts_enabled);
    DUET_PL(duet_plpgsql_assert_failed);
    DUET_PL(duet_plpgsql_end_transaction);
    DUET_PL(duet_plpgsql_array_set);
    DUET_PL(duet_plpgsql_error_text);
#undef DUET_PL
  });
}

}  // namespace duet::plpgsql

using namespace duet;
using namespace duet::plpgsql;

extern "C" {

int32_t duet_plpgsql_try(BlockEntry block, rt::QueryContext* ctx, uint8_t* vars, RoutineFrame* frame) {
  UndoLog::Mark mark = ctx->undo->mark();
  size_t buffers = ctx->buffers.size(), groups = ctx->groups.size(), joins = ctx->joins.size();
  // The session refuses COMMIT and ROLLBACK while the body runs (whatever it calls).
  struct Subtransaction {
    rt::SessionServices* session;
    explicit Subtransaction(rt::SessionServices* s) : session(s) {
      if (session) session->subtransaction(true);
    }
    ~Subtransaction() {
      if (session) session->subtransaction(false);
    }
  };
  uint64_t cursorsOpened = ctx->session ? ctx->session->cursorsOpened() : 0;
  try {
    Subtransaction subtransaction(ctx->session);
    return block(ctx, vars, frame);
  } catch (SqlError& e) {
    // The block is a subtransaction: its changes go, and the cursors it opened; the
    // variables keep their values, other cursors their positions.
    ctx->undo->rollbackTo(mark);
    if (ctx->session) ctx->session->subtransactionRolledBack();
    if (ctx->session) ctx->session->closeCursorsOpenedSince(cursorsOpened);
    ctx->buffers.resize(buffers);
    ctx->groups.resize(groups);
    ctx->joins.resize(joins);
    setErrorContext(e, frame);
    frame->caught.push_back(std::move(e));
    return -1;
  }
}

bool duet_plpgsql_error_matches(RoutineFrame* frame, const char* codes) {
  const std::string& code = frame->caught.back().code;
  for (const char* c = codes; *c; c += 5) {
    std::string_view want(c, 5);
    if (want == "*****") {  // OTHERS: all but query_canceled and assert_failure
      if (code != "57014" && code != "P0004") return true;
    } else if (want.substr(2) == "000") {  // a class
      if (code.compare(0, 2, want.substr(0, 2)) == 0) return true;
    } else if (code == want) {
      return true;
    }
  }
  return false;
}

const VarString* duet_plpgsql_call_stack(RoutineFrame* frame) { return statementArena().makeString(callStack(frame)); }

void duet_plpgsql_pop_error(RoutineFrame* frame) {
  if (!frame->caught.empty()) frame->caught.pop_back();
}

void duet_plpgsql_reraise(RoutineFrame* frame) {
  if (frame->caught.empty())
    throw SqlError("0Z002", "RAISE without parameters cannot be used outside an exception handler");
  SqlError e = frame->caught.back();
  throw e;
}

const VarString* duet_plpgsql_error_text(RoutineFrame* frame, int32_t what) {
  if (frame->caught.empty())
    throw SqlError("0Z002", "GET STACKED DIAGNOSTICS cannot be used outside an exception handler");
  const SqlError& e = frame->caught.back();
  // In GetDiagnostics::Item's order from ReturnedSqlstate; empty, as PostgreSQL shows a
  // field the error did not set.
  std::string_view text;
  switch (what) {
    case 0: text = e.code; break;
    case 1: text = e.what(); break;
    case 2: text = e.detail; break;
    case 3: text = e.hint; break;
    case 4: text = e.context; break;
    case 5: text = e.columnName; break;
    case 6: text = e.constraintName; break;
    case 7: text = e.dataTypeName; break;
    case 8: text = e.tableName; break;
    case 9: text = e.schemaName; break;
    default: break;
  }
  return statementArena().makeString(text);
}

void duet_plpgsql_raise(rt::QueryContext* ctx, const RaiseSpec* spec, const VarString* const* values,
                        const uint8_t* nulls) {
  std::string code = spec->sqlstate, message, detail, hint, column, constraint, dataType, table, schema;
  bool haveMessage = spec->hasFormat;
  if (spec->hasFormat) message = formatMessage(spec->format, values, nulls, spec->formatArgs);
  for (size_t i = 0; i < spec->options.size(); ++i) {
    size_t v = spec->formatArgs + i;
    if (nulls[v]) throw SqlError("22004", "RAISE statement option cannot be null");
    std::string text(values[v]->view());
    switch (spec->options[i]) {
      case Raise::Option::Errcode:
        if (isSqlstate(text)) {
          code = text;
        } else {
          auto codes = conditionSqlstates(text);
          if (codes.empty()) throw SqlError("42704", fmt::format("unrecognized exception condition \"{}\"", text));
          code = codes[0];
        }
        break;
      case Raise::Option::Message:
        message = text;
        haveMessage = true;
        break;
      case Raise::Option::Detail: detail = text; break;
      case Raise::Option::Hint: hint = text; break;
      case Raise::Option::Column: column = text; break;
      case Raise::Option::Constraint: constraint = text; break;
      case Raise::Option::Datatype: dataType = text; break;
      case Raise::Option::Table: table = text; break;
      case Raise::Option::Schema: schema = text; break;
    }
  }
  if (!haveMessage) message = spec->conditionName.empty() ? (code.empty() ? "P0001" : code) : spec->conditionName;
  if (spec->level == RaiseLevel::Exception) {
    SqlError error(code.empty() ? "P0001" : code, message, detail, hint);
    error.columnName = std::move(column);
    error.constraintName = std::move(constraint);
    error.dataTypeName = std::move(dataType);
    error.tableName = std::move(table);
    error.schemaName = std::move(schema);
    throw error;
  }
  if (!ctx->session) return;
  // The session drops what client_min_messages filters out (DEBUG and LOG by default).
  switch (spec->level) {
    case RaiseLevel::Debug: ctx->session->notice("DEBUG", message); break;
    case RaiseLevel::Log: ctx->session->notice("LOG", message); break;
    case RaiseLevel::Info: ctx->session->notice("INFO", message); break;
    case RaiseLevel::Notice: ctx->session->notice("NOTICE", message); break;
    case RaiseLevel::Warning: ctx->session->notice("WARNING", message); break;
    case RaiseLevel::Exception: break;  // thrown above
  }
}

void duet_plpgsql_fail(const char* code, const char* message, const char* detail, const char* hint) {
  throw SqlError(code, message, detail ? detail : "", hint ? hint : "");
}

const VarString* duet_plpgsql_array_set(const VarString* array, int32_t index, const void* value, bool isNull,
                                        int32_t elementType) {
  uint32_t size = array ? ArrayView(array).size() : 0;
  // PostgreSQL gives a NULL or empty array the assigned index as its lower bound ([2:2]={5}),
  // and extends others below 1: DuetDB's arrays start at 1.
  if (index < 1 || (size == 0 && index != 1))
    throw SqlError(sqlstate::kFeatureNotSupported, "arrays with a lower bound other than 1 are not supported");
  auto element = static_cast<TypeId>(elementType);
  ArrayBuilder out(element);
  uint32_t n = std::max<uint32_t>(size, static_cast<uint32_t>(index));
  if (n > kMaxArrayElements) throw SqlError("54000", "array size exceeds the maximum allowed");
  out.reserve(n);
  alignas(16) unsigned char slot[16];
  for (uint32_t i = 0; i < n; ++i) {
    if (i + 1 == static_cast<uint32_t>(index)) {
      if (isNull)
        out.appendNull();
      else
        out.append(value);
    } else if (i < size && !ArrayView(array).isNull(i)) {
      ArrayView(array).load(i, slot);
      out.append(slot);
    } else {
      out.appendNull();
    }
  }
  return out.finish(statementArena());
}

void duet_plpgsql_append_row(RoutineFrame* frame, const uint8_t* tuple) { frame->rows->append(tuple); }

bool duet_plpgsql_asserts_enabled(rt::QueryContext* ctx) {
  const std::string* value = ctx->settings ? ctx->settings->currentSetting("plpgsql.check_asserts") : nullptr;
  return !value || *value != "off";
}

void duet_plpgsql_assert_failed(const VarString* message) {
  throw SqlError("P0004", message ? std::string(message->view()) : std::string("assertion failed"));
}

void duet_plpgsql_end_transaction(rt::QueryContext* ctx, bool commit, bool chain) {
  // The session closes the transaction's cursors, but keeps those FOR loops read open.
  rt::sessionFor(ctx, commit ? "COMMIT" : "ROLLBACK").endTransactionInCall(*ctx, commit, chain);
}

}  // extern "C"
