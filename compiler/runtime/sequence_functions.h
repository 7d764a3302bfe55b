// nextval, currval, setval and lastval: generated code calls these, and they ask the
// session (rt::SessionServices), which owns the sequences' values and what the redo log
// must know of them (session/session_sequences.h). A sequence is named by its relation oid
// (regclass) or by its name as text, read as regclass reads it.
#pragma once
#include <cstdint>

#include "compiler/runtime/query_runtime.h"

extern "C" {
int64_t duet_q_nextval(duet::rt::QueryContext* ctx, int64_t sequence);
int64_t duet_q_nextval_name(duet::rt::QueryContext* ctx, const duet::VarString* sequence);
int64_t duet_q_currval(duet::rt::QueryContext* ctx, int64_t sequence);
int64_t duet_q_currval_name(duet::rt::QueryContext* ctx, const duet::VarString* sequence);
// setval(sequence, value [, is_called]): returns `value`.
int64_t duet_q_setval(duet::rt::QueryContext* ctx, int64_t sequence, int64_t value);
int64_t duet_q_setval_name(duet::rt::QueryContext* ctx, const duet::VarString* sequence, int64_t value);
int64_t duet_q_setval_called(duet::rt::QueryContext* ctx, int64_t sequence, int64_t value, bool isCalled);
int64_t duet_q_setval_called_name(duet::rt::QueryContext* ctx, const duet::VarString* sequence, int64_t value,
                                  bool isCalled);
int64_t duet_q_lastval(duet::rt::QueryContext* ctx);
// A sequence read as a relation (SELECT last_value, is_called FROM s).
int64_t duet_q_sequence_value(duet::rt::QueryContext* ctx, int64_t sequence);
bool duet_q_sequence_is_called(duet::rt::QueryContext* ctx, int64_t sequence);
}
