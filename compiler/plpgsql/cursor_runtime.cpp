#include "compiler/plpgsql/cursor_runtime.h"

#include <cstring>
#include <mutex>

#include <fmt/format.h>

#include "compiler/codegen/jit_symbols.h"
#include "compiler/plpgsql/dynamic_sql.h"
#include "engine/error.h"

namespace duet::plpgsql {

void registerCursorRuntime() {
  static std::once_flag once;
  std::call_once(once, [] {
#define DUET_PL(fn) registerJitSymbol(#fn, reinterpret_cast<void*>(&fn))
    DUET_PL(duet_plpgsql_cursor_name);
    DUET_PL(duet_plpgsql_cursor_open);
    DUET_PL(duet_plpgsql_cursor_rows);
    DUET_PL(duet_plpgsql_cursor_fetch);
    DUET_PL(duet_plpgsql_cursor_close);
    DUET_PL(duet_plpgsql_cursor_pin);
    DUET_PL(duet_plpgsql_cursor_next);
    DUET_PL(duet_plpgsql_cursor_release);
#undef DUET_PL
  });
}

}  // namespace duet::plpgsql

using namespace duet;
using namespace duet::plpgsql;

namespace {

rt::SessionServices& cursors(rt::QueryContext* ctx) { return rt::sessionFor(ctx, "a cursor"); }

// The open portal the cursor variable names (exec_stmt_fetch's and exec_stmt_close's checks).
rt::Portal& portalNamed(rt::QueryContext* ctx, const CursorSpec& spec, const VarString* name) {
  if (!name) throw SqlError("22004", fmt::format("cursor variable \"{}\" is null", spec.variable));
  rt::Portal* portal = cursors(ctx).findCursor(name->view());
  if (!portal) throw SqlError(sqlstate::kInvalidCursorName, fmt::format("cursor \"{}\" does not exist", name->view()));
  return *portal;
}

// The row the portal stands on into the targets, or NULLs when it stands on none.
void fetchInto(rt::QueryContext* ctx, const CursorSpec& spec, rt::Portal& portal, uint64_t processed, uint8_t* target) {
  const TupleLayout& to = spec.targetLayout;
  if (processed == 0) {
    for (size_t c = 0; c < to.types.size(); ++c) target[to.nullOffset(c)] = 1;
    return;
  }
  convertRow(portal.rows->layout(), portal.rows->at(portal.position().row() - 1), to, target, typeContextOf(ctx));
}

}  // namespace

extern "C" {

const VarString* duet_plpgsql_cursor_name(rt::QueryContext* ctx) {
  return statementArena().makeString(cursors(ctx).unnamedCursorName());
}

rt::Portal* duet_plpgsql_cursor_open(rt::QueryContext* ctx, const CursorSpec* spec, const VarString* name) {
  rt::Portal& portal =
      cursors(ctx).openCursor(std::string(name->view()), spec->rowLayout, spec->columnNames, spec->scrollable);
  portal.rowIds = spec->rowIds;
  portal.routineUse = true;
  return &portal;
}

rt::TupleBuffer* duet_plpgsql_cursor_rows(rt::Portal* portal) { return portal->rows.get(); }

int64_t duet_plpgsql_cursor_fetch(rt::QueryContext* ctx, const CursorSpec* spec, const VarString* name,
                                  int32_t direction, int64_t count, bool move, uint8_t* target) {
  rt::Portal& portal = portalNamed(ctx, *spec, name);
  portal.routineUse = true;
  uint64_t processed = portal.position().fetch(static_cast<rt::FetchKind>(direction), count, move);
  if (!move) fetchInto(ctx, *spec, portal, processed, target);
  return static_cast<int64_t>(processed);
}

void duet_plpgsql_cursor_close(rt::QueryContext* ctx, const CursorSpec* spec, const VarString* name) {
  cursors(ctx).closeCursor(portalNamed(ctx, *spec, name));
}

void duet_plpgsql_cursor_pin(rt::Portal* portal) { portal->pinned = true; }

bool duet_plpgsql_cursor_next(rt::QueryContext* ctx, const CursorSpec* spec, rt::Portal* portal, uint8_t* target) {
  portal->routineUse = true;
  uint64_t processed = portal->position().fetch(rt::FetchKind::Forward, 1, false);
  if (processed > 0) fetchInto(ctx, *spec, *portal, processed, target);
  return processed > 0;
}

void duet_plpgsql_cursor_release(rt::QueryContext* ctx, rt::Portal* portal) {
  portal->pinned = false;
  cursors(ctx).closeCursor(*portal);
}

}  // extern "C"
