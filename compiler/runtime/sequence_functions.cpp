#include "compiler/runtime/sequence_functions.h"

#include "engine/error.h"
#include "engine/types/catalog_lookup.h"
#include "engine/types/type_context.h"

using duet::VarString;
using duet::rt::QueryContext;
using duet::rt::sessionFor;

namespace {

// A relation oid as regclass holds it; one no relation can have names none.
uint32_t relationOid(int64_t oid) { return oid < 0 || oid > UINT32_MAX ? 0 : static_cast<uint32_t>(oid); }

// The text a name-taking call got, read as regclass reads it (42P01 for no such relation).
uint32_t relationOid(QueryContext* ctx, const VarString* name) {
  const duet::CatalogLookup* c = ctx->typeContext ? ctx->typeContext->catalog : nullptr;
  if (!c) throw duet::SqlError(duet::sqlstate::kFeatureNotSupported, "sequences are not supported here");
  return c->oidOf(duet::TypeAlias::RegClass, name->view());
}

}  // namespace

extern "C" {

int64_t duet_q_nextval(QueryContext* ctx, int64_t sequence) {
  return sessionFor(ctx, "nextval()").nextval(relationOid(sequence));
}

int64_t duet_q_nextval_name(QueryContext* ctx, const VarString* sequence) {
  return sessionFor(ctx, "nextval()").nextval(relationOid(ctx, sequence));
}

int64_t duet_q_currval(QueryContext* ctx, int64_t sequence) {
  return sessionFor(ctx, "currval()").currval(relationOid(sequence));
}

int64_t duet_q_currval_name(QueryContext* ctx, const VarString* sequence) {
  return sessionFor(ctx, "currval()").currval(relationOid(ctx, sequence));
}

int64_t duet_q_setval(QueryContext* ctx, int64_t sequence, int64_t value) {
  sessionFor(ctx, "setval()").setval(relationOid(sequence), value, true);
  return value;
}

int64_t duet_q_setval_name(QueryContext* ctx, const VarString* sequence, int64_t value) {
  sessionFor(ctx, "setval()").setval(relationOid(ctx, sequence), value, true);
  return value;
}

int64_t duet_q_setval_called(QueryContext* ctx, int64_t sequence, int64_t value, bool isCalled) {
  sessionFor(ctx, "setval()").setval(relationOid(sequence), value, isCalled);
  return value;
}

int64_t duet_q_setval_called_name(QueryContext* ctx, const VarString* sequence, int64_t value, bool isCalled) {
  sessionFor(ctx, "setval()").setval(relationOid(ctx, sequence), value, isCalled);
  return value;
}

int64_t duet_q_lastval(QueryContext* ctx) { return sessionFor(ctx, "lastval()").lastval(); }

int64_t duet_q_sequence_value(QueryContext* ctx, int64_t sequence) {
  bool isCalled = false;
  return sessionFor(ctx, "reading a sequence").sequenceValue(relationOid(sequence), &isCalled);
}

bool duet_q_sequence_is_called(QueryContext* ctx, int64_t sequence) {
  bool isCalled = false;
  sessionFor(ctx, "reading a sequence").sequenceValue(relationOid(sequence), &isCalled);
  return isCalled;
}

}  // extern "C"
