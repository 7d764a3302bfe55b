// StatementGenerator: the expression and plan generators behind the interface PL/pgSQL's
// routine compiler uses.
#include "compiler/codegen/statement_generator.h"

#include "compiler/codegen/codegen_internal.h"

namespace duet::codegen {

StatementGenerator::StatementGenerator(llvm::LLVMContext& ctx, llvm::Module& module, CompiledQuery& out)
    : codegen_(std::make_unique<Codegen>(ctx, module, out)) {}

StatementGenerator::~StatementGenerator() = default;

ValueBuilder& StatementGenerator::values() { return *codegen_; }

void StatementGenerator::emitStatement(const plan::Node& root, Row params, const Consumer& consume) {
  Codegen& cg = *codegen_;
  Row outerParams = std::exchange(cg.paramRow_, std::move(params));
  llvm::BasicBlock* end = cg.block("stmt.end");
  llvm::BasicBlock* start = cg.block("stmt.start");
  cg.b_.CreateBr(start);
  cg.b_.SetInsertPoint(start);
  llvm::BasicBlock* outerStart = std::exchange(cg.statementStart_, start);
  cg.pipelineEnd_.push_back(end);
  cg.produce(root, consume);
  if (!cg.terminated()) cg.b_.CreateBr(end);
  cg.pipelineEnd_.pop_back();
  cg.statementStart_ = outerStart;
  cg.b_.SetInsertPoint(end);
  cg.paramRow_ = std::move(outerParams);
}

llvm::BasicBlock* StatementGenerator::statementEnd() { return codegen_->pipelineEnd_.back(); }

SqlValue StatementGenerator::expression(const plan::Expr& e, Row params) {
  Row outerParams = std::exchange(codegen_->paramRow_, std::move(params));
  SqlValue v = codegen_->expr(e, {});
  codegen_->paramRow_ = std::move(outerParams);
  return v;
}

}  // namespace duet::codegen
