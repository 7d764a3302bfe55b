// StatementGenerator: the expression and plan generators behind the interface PL/pgSQL's
// routine compiler uses.
#include "compiler/codegen/statement_generator.h"

#include <unordered_set>

#include "compiler/codegen/codegen_internal.h"

namespace duet::codegen {

StatementGenerator::StatementGenerator(llvm::LLVMContext& ctx, llvm::Module& module, CompiledQuery& out)
    : codegen_(std::make_unique<Codegen>(ctx, module, out)) {}

StatementGenerator::~StatementGenerator() = default;

ValueBuilder& StatementGenerator::values() { return *codegen_; }

void StatementGenerator::emitStatement(const plan::Node& root, Row params, const Consumer& consume) {
  Codegen& cg = *codegen_;
  Row outerParams = std::exchange(cg.paramRow_, std::move(params));
  plan::UsedColumns outerUsed = std::exchange(cg.used_, plan::UsedColumns(root));
  llvm::BasicBlock* end = cg.block("stmt.end");
  llvm::BasicBlock* start = cg.block("stmt.start");
  cg.b_.CreateBr(start);
  cg.b_.SetInsertPoint(start);
  llvm::BasicBlock* outerStart = std::exchange(cg.statementStart_, start);
  cg.pipelineEnd_.push_back(end);
  // What the codegen remembers by plan node address must go with this statement's plan: a
  // later statement's plan may be allocated at the same addresses (an ordered aggregate
  // then took another's row layout and the JIT crashed).
  std::unordered_set<const plan::AggSpec*> collectedBefore;
  for (const auto& [agg, rows] : cg.collectedRows_) collectedBefore.insert(agg);
  std::unordered_set<const plan::Node*> joinsBefore;
  for (const auto& [join, slot] : cg.joinSlots_) joinsBefore.insert(join);
  cg.produce(root, consume);
  std::erase_if(cg.collectedRows_, [&](const auto& e) { return !collectedBefore.count(e.first); });
  std::erase_if(cg.joinSlots_, [&](const auto& e) { return !joinsBefore.count(e.first); });
  if (!cg.terminated()) cg.b_.CreateBr(end);
  cg.pipelineEnd_.pop_back();
  cg.statementStart_ = outerStart;
  cg.b_.SetInsertPoint(end);
  cg.paramRow_ = std::move(outerParams);
  cg.used_ = std::move(outerUsed);
}

llvm::BasicBlock* StatementGenerator::statementEnd() { return codegen_->pipelineEnd_.back(); }

SqlValue StatementGenerator::expression(const plan::Expr& e, Row params) {
  Row outerParams = std::exchange(codegen_->paramRow_, std::move(params));
  plan::UsedColumns outerUsed = std::exchange(codegen_->used_, plan::UsedColumns(e));
  SqlValue v = codegen_->expr(e, {});
  codegen_->paramRow_ = std::move(outerParams);
  codegen_->used_ = std::move(outerUsed);
  return v;
}

}  // namespace duet::codegen
