// PL/pgSQL's cursors at run time: OPEN, FETCH, MOVE and CLOSE on the session's portals
// (rt::SessionServices' cursor calls, compiler/runtime/portal.h), named by the cursor
// variable's value. A portal a routine opens stays open after it returns, until CLOSE or
// the transaction's end, so that a function can return a refcursor its caller fetches from.
// Rows reach the targets converted as PL/pgSQL assigns (dynamic_sql.h's convertRow): the
// portal may be another routine's or a DECLARE's, of a row type known only now.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/plpgsql/compiled_routine.h"
#include "compiler/runtime/portal.h"

namespace duet::plpgsql {

// A cursor statement's constant parts.
struct CursorSpec {
  std::string variable;                  // the cursor variable, for its errors
  TupleLayout rowLayout;                 // OPEN of a query: the query's rows, their names,
  std::vector<std::string> columnNames;  // and whether it may move backwards
  bool scrollable = true;
  rt::CursorRowIds rowIds;   // what WHERE CURRENT OF reads in its rows (rt::Portal::rowIds)
  TupleLayout targetLayout;  // FETCH and FOR: the targets' slots, which a row is converted to
};

// Registers the duet_plpgsql_cursor_* functions with the JIT (once).
void registerCursorRuntime();

}  // namespace duet::plpgsql

extern "C" {
// OPEN of a NULL cursor variable: a new "<unnamed portal N>" (in the statement's arena).
const duet::VarString* duet_plpgsql_cursor_name(duet::rt::QueryContext* ctx);
// OPEN: portal `name` for spec->rowLayout's rows (42P03 while one of that name is open);
// the query's rows go to duet_plpgsql_cursor_rows(portal).
duet::rt::Portal* duet_plpgsql_cursor_open(duet::rt::QueryContext* ctx, const duet::plpgsql::CursorSpec* spec,
                                           const duet::VarString* name);
duet::rt::TupleBuffer* duet_plpgsql_cursor_rows(duet::rt::Portal* portal);
// FETCH (move false) or MOVE of portal `name` (22004 for NULL, 34000 for none) in a
// direction (rt::FetchKind) and count; returns the rows processed (ROW_COUNT). FETCH puts
// the row it landed on into `target` (spec->targetLayout), NULLs when none.
int64_t duet_plpgsql_cursor_fetch(duet::rt::QueryContext* ctx, const duet::plpgsql::CursorSpec* spec,
                                  const duet::VarString* name, int32_t direction, int64_t count, bool move,
                                  uint8_t* target);
// CLOSE (22004, 34000 as FETCH; 24000 for a portal a FOR loop reads).
void duet_plpgsql_cursor_close(duet::rt::QueryContext* ctx, const duet::plpgsql::CursorSpec* spec,
                               const duet::VarString* name);
// FOR over a cursor: pins the portal it opened (CLOSE is 24000 meanwhile), reads the next
// row into `target` (false at the end), and closes it at the loop's end.
void duet_plpgsql_cursor_pin(duet::rt::Portal* portal);
bool duet_plpgsql_cursor_next(duet::rt::QueryContext* ctx, const duet::plpgsql::CursorSpec* spec,
                              duet::rt::Portal* portal, uint8_t* target);
void duet_plpgsql_cursor_release(duet::rt::QueryContext* ctx, duet::rt::Portal* portal);
}
