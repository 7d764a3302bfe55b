// Running a statement that is one routine call on its parameters (PreparedPlan::directCall)
// without the plan's code: the parameter tuple is handed to the routine as its argument
// tuple (or its fields copied there when the order differs or a NULL stands for an
// argument) and the routine's result is encoded for the client as it comes back. This is what the plan's code would do through
// duet_q_call_routine(_rows), minus the copies, so results, errors and notices are the
// same; runStatement around it keeps the transaction, statement_timeout and cancel
// handling of every statement.
#include "compiler/plpgsql/compiled_routine.h"
#include "engine/session/sql_session.h"
#include "engine/storage/tuple_storage.h"

namespace duet {
namespace {

bool sameTypes(const TupleLayout& layout, const std::vector<OutputColumn>& columns) {
  if (layout.types.size() != columns.size()) return false;
  for (size_t i = 0; i < columns.size(); ++i)
    if (layout.types[i] != columns[i].type) return false;
  return true;
}

}  // namespace

bool SqlSession::callDirectly(PreparedPlan& plan, const uint8_t* params, const std::vector<int16_t>& formats,
                              ResultSink& sink) {
  const DirectCall& call = *plan.directCall;
  std::shared_ptr<plpgsql::CompiledRoutine> routine = compiledRoutine(call.routine);
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
    if (param != DirectCall::kNull && argLayout.types[a] != paramLayout.types[param]) return false;
    inOrder = inOrder && param == static_cast<int>(a);
  }
  // Parameters $1..$n of the argument types in order: the parameter tuple is the argument
  // tuple (equal types give equal layouts).
  TupleStorage copied(inOrder ? 0 : argLayout.size);
  const uint8_t* args = params;
  if (!inOrder) {
    for (size_t a = 0; a < call.argParams.size(); ++a) {
      if (call.argParams[a] == DirectCall::kNull) {
        copied.data()[argLayout.nullOffset(a)] = 1;
      } else {
        copyField(paramLayout, params, call.argParams[a], argLayout, copied.data(), a);
      }
    }
    args = copied.data();
  }

  rt::QueryContext ctx = makeContext(params);
  RowEncoder encoder(resultLayout, formats);
  int64_t rows = 0;
  if (value) {
    TupleStorage result(resultLayout.size);
    plpgsql::runRoutine(*routine, ctx, args, result.data(), nullptr);
    encoder.encode(result.data(), settings_.typeContext());
    sink.dataRow(encoder.fields(), encoder.size());
    rows = 1;
  } else {
    rt::TupleBuffer out(resultLayout);
    plpgsql::runRoutine(*routine, ctx, args, nullptr, &out);
    for (size_t i = 0; i < out.size(); ++i) {
      encoder.encode(out.at(i), settings_.typeContext());
      sink.dataRow(encoder.fields(), encoder.size());
    }
    rows = static_cast<int64_t>(out.size());
  }
  ++plan.directCalls;
  sink.commandComplete(commandTag(plan, rows, 0));
  return true;
}

}  // namespace duet
