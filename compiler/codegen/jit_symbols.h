// The JIT's symbol table, for code that registers runtime functions without parsing LLVM's
// headers (jit.h): the compiler facade and PL/pgSQL's runtime; and the JIT's threads' end.
#pragma once
#include <string>

namespace duet {

// Registers every runtime function generated code may call (Jit::registerRuntime).
void registerJitRuntime();
// Names the function at `address` `name` for generated code (Jit::registerSymbol).
void registerJitSymbol(const std::string& name, void* address);
// Jit::finishThreads (compiler.h's finishCompilerThreads).
void finishJitThreads();

}  // namespace duet
