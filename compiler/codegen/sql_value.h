// SQL values in generated code, and the one place their type rules live: how each SQL type
// is represented in IR, read from and written to tuples, compared, computed with and cast,
// and how NULL propagates. The expression and plan generators (codegen_internal.h) and
// PL/pgSQL's routine compiler build on this layer (Tidy Tuples' layering: SQL values over an
// IR builder); neither emits type-dependent IR of its own.
#pragma once
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/codegen/compiled_query.h"

namespace duet::codegen {

// A SQL value in SSA form: the value (undefined when null), its null flag (i1) and its SQL
// type. Every value says its type, so an operation never needs to be told it.
struct SqlValue {
  SqlValue(llvm::Value* value, llvm::Value* isNull, SqlType sqlType) : v(value), null(isNull), type(sqlType) {}
  llvm::Value* v;
  llvm::Value* null;
  SqlType type;
};
using Row = std::vector<SqlValue>;
using Consumer = std::function<void(Row&)>;

class ValueBuilder {
 public:
  ValueBuilder(llvm::LLVMContext& ctx, llvm::Module& module, CompiledQuery& out);

  // --- the function being generated ---------------------------------------------------
  // Code goes into `fn` from here on: allocas into `entry`, the QueryContext* is `queryContext`.
  void enterFunction(llvm::Function* fn, llvm::BasicBlock* entry, llvm::Value* queryContext);
  llvm::IRBuilder<>& ir() { return b_; }
  llvm::LLVMContext& context() { return ctx_; }
  llvm::Type* pointerType() { return ptrTy_; }
  llvm::BasicBlock* block(const char* name);  // a new block in the function
  bool terminated() { return b_.GetInsertBlock()->getTerminator() != nullptr; }

  // --- representation and memory --------------------------------------------------------
  llvm::Type* sqlType(TypeId t);  // SSA type (bool is i1)
  llvm::Type* memType(TypeId t);  // in-memory type (bool is i8)
  SqlValue loadField(llvm::Value* tuple, const TupleLayout& layout, size_t column);
  SqlValue loadValue(llvm::Value* valuePtr, llvm::Value* nullFlagPtr, SqlType t);
  void storeField(llvm::Value* tuple, const TupleLayout& layout, size_t column, const SqlValue& v);
  llvm::Value* tupleAlloca(const TupleLayout& layout);  // zeroed, in the entry block
  void storeRow(llvm::Value* tuple, const TupleLayout& layout, const Row& row);
  llvm::Value* ptrConst(const void* p);
  // A VarString holding `s`, owned by the compiled code's constants.
  llvm::Value* stringConstant(std::string_view s);
  llvm::Value* i1(bool b) { return b ? b_.getTrue() : b_.getFalse(); }
  SqlValue nullOf(SqlType t);
  // A value known not to be NULL.
  SqlValue notNull(llvm::Value* v, SqlType t) { return {v, b_.getFalse(), t}; }

  // --- runtime calls --------------------------------------------------------------------
  llvm::FunctionCallee runtime(const std::string& name, llvm::Type* ret, std::vector<llvm::Type*> args);
  llvm::Value* call(const std::string& name, llvm::Type* ret, std::vector<llvm::Value*> args);
  // A runtime function on SQL values (not NULL): `leading` arguments first, booleans passed
  // and returned as i8 (the C ABI's bool).
  llvm::Value* callSql(const std::string& name, SqlType result, const std::vector<SqlValue>& args,
                       std::vector<llvm::Value*> leading = {});
  llvm::Value* typeContext();  // the session's const TypeContext*

  // --- control flow -------------------------------------------------------------------
  // for (i = begin; i < end(); ++i) body(i, continueBlock); `end` is re-evaluated in the
  // loop header. The insertion point afterwards is the block after the loop.
  void loop(llvm::Value* begin, const std::function<llvm::Value*()>& end,
            const std::function<void(llvm::Value* i, llvm::BasicBlock* next)>& body);
  // Raises 57014 when the session's cancel flag is set: an atomic load and a branch inline,
  // the runtime call only once cancelled. Emitted per chunk of a scan, per row of an index
  // range, per outer row of a nested loop and per probe row of a hash join, so even a long
  // join stops promptly.
  void checkCancel();
  // Emits `then` only when cond (i1) is true.
  void ifThen(llvm::Value* cond, const std::function<void()>& then);
  // The value that flows into the current block (a join point) from each predecessor.
  SqlValue phi(const std::vector<std::pair<llvm::BasicBlock*, SqlValue>>& incoming, SqlType type);
  // A strict operation: `compute` runs only when no argument is NULL; the result is NULL
  // otherwise. Arguments known not null (constant false flags) cost no branch.
  SqlValue strict(const std::vector<SqlValue>& args, SqlType resultType, const std::function<llvm::Value*()>& compute);

  // --- SQL operators (value_operators.cpp) --------------------------------------------
  // Comparison (Eq, Ne, Lt, Le, Gt, Ge) of two values of one type: a boolean, NULL when
  // either is. Floats order NaN as PostgreSQL does; numeric and strings compare in the runtime.
  SqlValue compare(plan::Op op, const SqlValue& a, const SqlValue& b);
  // Row comparison (a1, a2, ...) op (b1, b2, ...), pairs of one type, as PostgreSQL's row
  // comparisons: = all pairs equal and <> any unequal (three-valued AND / OR); the ordering
  // operators decided by the first pair that is not equal, NULL if a NULL pair comes first.
  SqlValue rowCompare(plan::Op op, std::span<const SqlValue> a, std::span<const SqlValue> b);
  // Add, Sub, Mul, Div, Mod, Pow, Concat giving `result`: integers inline with overflow
  // checks, date arithmetic, floats and numeric in the runtime (PostgreSQL's errors).
  SqlValue arithmetic(plan::Op op, const SqlValue& a, const SqlValue& b, SqlType result);
  SqlValue negate(const SqlValue& v);
  SqlValue absolute(const SqlValue& v);
  // Truth of a boolean for WHERE: true and not null (i1).
  llvm::Value* isTrue(const SqlValue& v);

  // --- casts (value_casts.cpp) ----------------------------------------------------------
  // v as type `to`, by PostgreSQL's cast rules (typmods applied; explicitCast: an explicit
  // cast's length rules, which truncate instead of failing).
  SqlValue cast(const SqlValue& v, SqlType to, bool explicitCast);

 protected:
  // Operands known not to be NULL.
  llvm::Value* compareValues(plan::Op op, TypeId t, llvm::Value* a, llvm::Value* b);
  llvm::Value* arithmeticValues(plan::Op op, TypeId t, llvm::Value* a, llvm::Value* b);
  llvm::Value* numericArithmetic(plan::Op op, llvm::Value* a, llvm::Value* b);
  llvm::Value* sameNumericScale(llvm::Value* a, llvm::Value* b);
  llvm::Value* intervalArithmetic(plan::Op op, const SqlValue& a, const SqlValue& b, SqlType result);
  SqlValue castArray(const SqlValue& v, SqlType to, bool explicitCast);
  // 22003 "<type> out of range"; the block ends unreachable.
  void raiseIntegerOverflow(TypeId t);

  llvm::LLVMContext& ctx_;
  llvm::Module& module_;
  llvm::IRBuilder<> b_;
  CompiledQuery& out_;
  llvm::Function* fn_ = nullptr;
  llvm::Value* qctx_ = nullptr;  // QueryContext*
  llvm::BasicBlock* entry_ = nullptr;
  llvm::Type* ptrTy_;
  llvm::Type* i64Ty_;
};

}  // namespace duet::codegen
