// VALUES lists as data. Every literal of a statement is lifted into a parameter, so the rows
// of `INSERT ... VALUES (1, 'a'), (2, 'b'), ...` are the same expressions over different
// parameters. Generated row by row, each row would carry its own copy of the consumer (the
// whole INSERT: checks, index maintenance), and a 20,000-row list took seconds of LLVM time
// on the executor. Instead one row's cells are generated once, inside a loop over the rows,
// reading each parameter through a table of its offsets in the parameter tuple. A NULL
// where other rows have a parameter is an entry of the table too (kNullCell). Other lists
// are generated row by row.
#include <cstring>

#include "compiler/codegen/codegen_internal.h"

namespace duet::codegen {

using plan::Expr;
using plan::ExprKind;

namespace {

// Lists shorter than this are generated row by row: the loop would not pay.
constexpr size_t kMinRowsForLoop = 8;
// A row's NULL in place of its template's parameter, among the row's parameters.
constexpr int kNullParam = -1;

// Appends the parameters of `e` in pre-order.
void collectParams(const Expr& e, std::vector<const Expr*>& out) {
  if (e.kind == ExprKind::Param) out.push_back(&e);
  for (const auto& a : e.args) collectParams(*a, out);
}

// Whether `b` is `a` with other parameters (of the same types) in the same places; appends
// b's parameters in pre-order.
bool sameShape(const Expr& a, const Expr& b, const TupleLayout& params, std::vector<int>& bParams) {
  if (a.kind != b.kind || !(a.type == b.type) || a.op != b.op || a.column != b.column || a.negated != b.negated ||
      a.constNull != b.constNull || a.function != b.function || a.routine != b.routine ||
      a.constString != b.constString || a.subplan || b.subplan || a.sublink != b.sublink || a.captures != b.captures ||
      std::memcmp(a.constant, b.constant, sizeof a.constant) != 0 || a.args.size() != b.args.size())
    return false;
  if (a.kind == ExprKind::Param) {
    if (!(params.types[static_cast<size_t>(a.param)] == params.types[static_cast<size_t>(b.param)])) return false;
    bParams.push_back(b.param);
  }
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!sameShape(*a.args[i], *b.args[i], params, bParams)) return false;
  return true;
}

bool isNullConstant(const Expr& e) { return e.kind == ExprKind::Const && e.constNull && e.args.empty(); }

// A column's cells, generated from its template (the first that is not a NULL constant):
// one of the same shape, or a NULL where the template is a parameter.
bool cellFits(const Expr& tmpl, const Expr& cell, const TupleLayout& params, std::vector<int>& cellParams) {
  if (tmpl.kind == ExprKind::Param && isNullConstant(cell)) {
    cellParams.push_back(kNullParam);
    return true;
  }
  return sameShape(tmpl, cell, params, cellParams);
}

}  // namespace

void Codegen::produceValues(const plan::Node& node, const Consumer& consume) {
  if (produceValuesLoop(node, consume)) return;
  for (const auto& exprs : node.rows) {
    std::vector<const plan::Expr*> cells;
    for (const auto& e : exprs) cells.push_back(e.get());
    Row row = valuesRow(node, cells);
    consume(row);
  }
}

bool Codegen::produceValuesLoop(const plan::Node& node, const Consumer& consume) {
  if (!paramsInTuple_ || valuesParams_ || node.rows.size() < kMinRowsForLoop) return false;
  size_t columns = node.rows[0].size();
  std::vector<const Expr*> templates(columns);
  for (size_t c = 0; c < columns; ++c) {
    for (const auto& cells : node.rows) {
      if (cells.size() != columns) return false;
      if (!templates[c] || isNullConstant(*templates[c])) templates[c] = cells[c].get();
      if (!isNullConstant(*templates[c])) break;
    }
  }
  std::vector<const Expr*> slots;
  for (const Expr* cell : templates) collectParams(*cell, slots);
  if (slots.empty()) return false;
  const TupleLayout& params = out_.paramLayout;
  std::vector<std::vector<uint32_t>> valueOffsets(slots.size()), nullOffsets(slots.size());
  std::vector<int> rowParams;
  for (const auto& cells : node.rows) {
    if (cells.size() != columns) return false;
    rowParams.clear();
    for (size_t c = 0; c < columns; ++c)
      if (!cellFits(*templates[c], *cells[c], params, rowParams)) return false;
    for (size_t k = 0; k < slots.size(); ++k) {
      bool null = rowParams[k] == kNullParam;
      auto p = static_cast<size_t>(null ? 0 : rowParams[k]);
      valueOffsets[k].push_back(null ? 0 : params.offsets[p]);
      nullOffsets[k].push_back(null ? kNullCell : params.nullOffset(p));
    }
  }
  ValuesParams tables;
  for (size_t k = 0; k < slots.size(); ++k)
    tables.tables[slots[k]] = {offsetTable(valueOffsets[k], "values.values"),
                               offsetTable(nullOffsets[k], "values.nulls")};
  uint64_t rows = node.rows.size();
  loop(
      b_.getInt64(0), [&] { return b_.getInt64(rows); },
      [&](llvm::Value* i, llvm::BasicBlock*) {
        tables.row = i;
        valuesParams_ = &tables;
        Row row = valuesRow(node, templates);
        valuesParams_ = nullptr;
        consume(row);
      });
  return true;
}

Row Codegen::valuesRow(const plan::Node& node, const std::vector<const Expr*>& cells) {
  Row row;
  for (size_t c = 0; c < cells.size(); ++c) {
    SqlValue v = expr(*cells[c], {});
    if (cells[c]->type != node.outputTypes[c] && node.outputTypes[c].id != cells[c]->type.id)
      v = cast(v, node.outputTypes[c], false);
    row.push_back(v);
  }
  return row;
}

}  // namespace duet::codegen
