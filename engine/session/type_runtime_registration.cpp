// The type library's duet_rt_* functions (see runtime_registration.cpp for why this is
// a file of its own).
#include "compiler/codegen/jit.h"
#include "engine/types/runtime.h"

namespace duet {

void registerTypeRuntimeSymbols(Jit& jit) {
  for (const RuntimeSymbol& s : runtimeSymbols()) jit.registerSymbol(s.name, s.address);
}

}  // namespace duet
