// The code generator's interface for a generator that embeds compiled statements in
// functions of its own: PL/pgSQL's routine compiler builds a routine's control flow with
// the SQL values of ValueBuilder and has each embedded statement generated here, reading
// the routine's variables as its parameters.
#pragma once
#include <memory>

#include "compiler/codegen/sql_value.h"

namespace duet::codegen {

class Codegen;

// Whether running `node` creates runtime state (buffers, group or join tables) in the
// query context, which code that runs it repeatedly - a subquery per outer row, a
// PL/pgSQL statement per loop iteration - frees after each run (duet_q_state_release).
bool holdsState(const plan::Node& node);

class StatementGenerator {
 public:
  StatementGenerator(llvm::LLVMContext& ctx, llvm::Module& module, CompiledQuery& out);
  ~StatementGenerator();

  // The function being generated and its values (enterFunction first).
  ValueBuilder& values();
  // Generates statement `root` at the insertion point, its $1..$n read from `params`,
  // calling `consume` per row (of its result or RETURNING list). Each execution starts
  // afresh (state that lives across its rows is reset where it begins); the insertion
  // point afterwards is where it ends.
  void emitStatement(const plan::Node& root, Row params, const Consumer& consume);
  // Inside `consume`: the block where the statement being emitted ends (a jump there stops
  // it after this row).
  llvm::BasicBlock* statementEnd();
  // The value of expression `e` of a statement, its $1..$n read from `params`.
  SqlValue expression(const plan::Expr& e, Row params);

 private:
  std::unique_ptr<Codegen> codegen_;
};

}  // namespace duet::codegen
