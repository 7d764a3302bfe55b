// Storage's and the type library's symbol tables are registered from separate files:
// both headers declare duet::RuntimeSymbol, so one file cannot include both.
#include "engine/session/runtime_registration.h"

#include "compiler/codegen/jit.h"
#include "compiler/codegen/query_runtime.h"
#include "engine/storage/storage_runtime.h"

namespace duet {

void registerTypeRuntimeSymbols(Jit& jit);  // type_runtime_registration.cpp

void registerRuntimeSymbols() {
  Jit& jit = Jit::instance();
  for (const RuntimeSymbol& s : storageRuntimeSymbols()) jit.registerSymbol(s.name, s.address);
  registerTypeRuntimeSymbols(jit);
#define DUET_Q(fn) jit.registerSymbol(#fn, reinterpret_cast<void*>(&fn))
  DUET_Q(duet_q_emit);
  DUET_Q(duet_q_check_cancel);
  DUET_Q(duet_q_buffer_new);
  DUET_Q(duet_q_buffer_append);
  DUET_Q(duet_q_buffer_size);
  DUET_Q(duet_q_buffer_at);
  DUET_Q(duet_q_sorter_new);
  DUET_Q(duet_q_sorter_sort);
  DUET_Q(duet_q_groups_new);
  DUET_Q(duet_q_groups_find);
  DUET_Q(duet_q_groups_size);
  DUET_Q(duet_q_groups_entry);
  DUET_Q(duet_q_join_new);
  DUET_Q(duet_q_join_insert);
  DUET_Q(duet_q_join_finish);
  DUET_Q(duet_q_join_next);
  DUET_Q(duet_q_add_affected);
#undef DUET_Q
}

}  // namespace duet
