// Registers with the JIT every function generated code may call: storage entry points,
// the type library's duet_rt_* functions and the query runtime's duet_q_* functions.
#pragma once

namespace duet {
void registerRuntimeSymbols();
}
