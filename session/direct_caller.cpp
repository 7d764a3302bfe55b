// Running a statement that is one routine call on its parameters (PreparedPlan::directCall)
// without the plan's code: the parameter tuple is handed to the routine as its argument
// tuple (or its fields copied there when the order differs, an integer is widened or a
// NULL stands for an argument) and the routine's result is encoded for the client as it
// comes back. This is what the plan's code would do through
// duet_q_call_routine(_rows), minus the copies, so results, errors and notices are the
// same; runStatement around it keeps the transaction, statement_timeout and cancel
// handling of every statement.
#include "session/direct_caller.h"

#include <cstring>

#include "compiler/compiler.h"
#include "engine/storage/key_ops.h"
#include "engine/storage/tuple_storage.h"
#include "session/statement.h"

namespace duet {
namespace {

// Argument `to` of `args` from parameter `from` of `params`, a narrower integer.
void widenField(const TupleLayout& params, const uint8_t* paramTuple, size_t from, const TupleLayout& args,
                uint8_t* argTuple, size_t to) {
  int64_t v = loadIntegerLike(params.types[from].id, paramTuple + params.offsets[from]);
  uint8_t* field = argTuple + args.offsets[to];
  if (args.types[to].id == TypeId::Int4) {
    auto narrow = static_cast<int32_t>(v);
    std::memcpy(field, &narrow, sizeof narrow);
  } else {
    std::memcpy(field, &v, sizeof v);
  }
  argTuple[args.nullOffset(to)] = paramTuple[params.nullOffset(from)];
}

bool sameTypes(const TupleLayout& layout, const std::vector<OutputColumn>& columns) {
  if (layout.types.size() != columns.size()) return false;
  for (size_t i = 0; i < columns.size(); ++i)
    if (layout.types[i] != columns[i].type) return false;
  return true;
}

}  // namespace

bool DirectCaller::call(PreparedPlan& plan, const uint8_t* params, const std::vector<int16_t>& formats,
                        ResultSink& sink) {
  const DirectCall& call = *plan.directCall;
  const CachedRoutine& cached = routines_.compiledRoutine(call.routine, call.resultRow, call.argTypes);
  // SET clauses: the general path applies them around the call (RoutineCache::callRoutine).
  if (!cached.config.empty()) return false;
  std::shared_ptr<plpgsql::CompiledRoutine> routine = cached.code;
  // The routine was compiled from the catalog the plan was made from (both are stale
  // together), so these hold; checking is cheap and keeps a mismatch on the plan's path.
  const TupleLayout& argLayout = routine->argLayout;
  const TupleLayout& paramLayout = plan.compiled->paramLayout;
  bool value = call.form == DirectCall::Form::Value;
  const TupleLayout& resultLayout = value ? routine->resultLayout : routine->rowLayout;
  if (argLayout.types.size() != call.argParams.size() || !sameTypes(resultLayout, plan.columns)) return false;
  bool inOrder = argLayout.types.size() == paramLayout.types.size();
  for (size_t a = 0; a < call.argParams.size(); ++a) {
    int param = call.argParams[a];
    if (param == DirectCall::kNull) {
      inOrder = false;
      continue;
    }
    const SqlType& from = paramLayout.types[param];
    if (from != argLayout.types[a] && !widensInteger(from, argLayout.types[a])) return false;
    inOrder = inOrder && param == static_cast<int>(a) && from == argLayout.types[a];
  }
  // Parameters $1..$n of the argument types in order: the parameter tuple is the argument
  // tuple (equal types give equal layouts).
  TupleStorage copied(inOrder ? 0 : argLayout.size);
  const uint8_t* args = params;
  if (!inOrder) {
    for (size_t a = 0; a < call.argParams.size(); ++a) {
      int param = call.argParams[a];
      if (param == DirectCall::kNull) {
        copied.data()[argLayout.nullOffset(a)] = 1;
      } else if (paramLayout.types[param] != argLayout.types[a]) {
        widenField(paramLayout, params, param, argLayout, copied.data(), a);
      } else {
        copyField(paramLayout, params, param, argLayout, copied.data(), a);
      }
    }
    args = copied.data();
  }

  rt::QueryContext ctx = state_.queryContext(params);
  // The encoder is set up once the routine has run (whatever it ran is done with it): its
  // buffers serve every call.
  RowEncoder& encoder = encoder_;
  int64_t rows = 0;
  if (value) {
    TupleStorage result(resultLayout.size);
    plpgsql::runRoutine(*routine, ctx, args, result.data(), nullptr);
    encoder.reset(resultLayout, formats);
    encoder.encode(result.data(), state_.settings.typeContext());
    sink.dataRow(encoder.fields(), encoder.size());
    rows = 1;
  } else {
    rt::TupleBuffer out(resultLayout);
    plpgsql::runRoutine(*routine, ctx, args, nullptr, &out);
    encoder.reset(resultLayout, formats);
    for (size_t i = 0; i < out.size(); ++i) {
      encoder.encode(out.at(i), state_.settings.typeContext());
      sink.dataRow(encoder.fields(), encoder.size());
    }
    rows = static_cast<int64_t>(out.size());
  }
  ++plan.directCalls;
  sink.commandComplete(commandTag(plan, rows, 0));
  return true;
}

}  // namespace duet
