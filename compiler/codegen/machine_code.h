// Native code the JIT made of one module: the addresses of the functions asked for, and
// ownership of the code, which is freed when the last copy of `owner` goes. No LLVM type
// appears here, so that what holds compiled code (plans, routines, the session's caches)
// does not parse LLVM's headers.
#pragma once
#include <memory>
#include <vector>

namespace duet {

struct MachineCode {
  std::vector<void*> functions;  // in the order of the names given to Jit::compile
  std::shared_ptr<void> owner;   // frees the code (ORC's resource tracker) when released
  // What making it took (EXPLAIN ANALYZE's JIT section): LLVM's optimisation passes, and
  // the machine code's generation and linking.
  double optimiseMs = 0, emitMs = 0;
  bool optimised = false;  // LLVM's passes ran (the cheap tier's code has none)
};

}  // namespace duet
