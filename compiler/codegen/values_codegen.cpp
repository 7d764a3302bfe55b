// VALUES lists as data. The rows of `INSERT ... VALUES (1, 'a'), (2, 'b'), ...` are the same
// expressions over different literals (lifted into parameters, or constants where literals
// are not lifted: EXPLAIN, routine bodies). Generated row by row, each row would carry its
// own copy of the consumer (the whole INSERT: checks, index maintenance), and a 20,000-row
// list took seconds of LLVM time on the executor. Instead one row's cells are generated
// once, inside a loop over the rows, and each parameter or constant of that template reads
// its column of the list: a DataList (lookup_codegen.cpp) of the rows' parameters, through
// tables of their offsets in the parameter tuple, or of their constants, as one constant
// array. A NULL where other rows have a value is an item of the list too. Lists whose rows
// differ otherwise are generated row by row.
#include <cstring>

#include "compiler/codegen/codegen_internal.h"

namespace duet::codegen {

using plan::Expr;
using plan::ExprKind;

namespace {

// Lists shorter than this are generated row by row: the loop would not pay.
constexpr size_t kMinRowsForLoop = 8;

bool isNullConstant(const Expr& e) { return e.kind == ExprKind::Const && e.constNull && e.args.empty(); }

// A leaf whose value differs from row to row: a parameter or a constant.
bool isSlot(const Expr& e) { return (e.kind == ExprKind::Param || e.kind == ExprKind::Const) && e.args.empty(); }

// Appends the slots of `e` in pre-order.
void collectSlots(const Expr& e, std::vector<const Expr*>& out) {
  if (isSlot(e)) out.push_back(&e);
  for (const auto& a : e.args) collectSlots(*a, out);
}

// Whether `b` is `a` with other slots in the same places (a slot's items must then make a
// DataList: all parameters or all constants of one type, NULLs allowed); appends b's slots
// in pre-order.
bool sameShape(const Expr& a, const Expr& b, std::vector<const Expr*>& bSlots) {
  if (isSlot(a)) {
    if (!isSlot(b)) return false;
    bSlots.push_back(&b);
    return true;
  }
  if (a.kind != b.kind || !(a.type == b.type) || a.op != b.op || a.column != b.column || a.negated != b.negated ||
      a.explicitCast != b.explicitCast || a.caseInsensitive != b.caseInsensitive || a.hasElse != b.hasElse ||
      a.function != b.function || a.routine != b.routine || a.subplan || b.subplan || a.sublink != b.sublink ||
      a.captures != b.captures || a.args.size() != b.args.size())
    return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (!sameShape(*a.args[i], *b.args[i], bSlots)) return false;
  return true;
}

// A column's cells, generated from its template (the first that is not a NULL constant):
// one of the same shape, or a NULL where the template is a slot.
bool cellFits(const Expr& tmpl, const Expr& cell, std::vector<const Expr*>& cellSlots) {
  if (isSlot(tmpl) && isNullConstant(cell)) {
    cellSlots.push_back(&cell);
    return true;
  }
  return sameShape(tmpl, cell, cellSlots);
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
  if (valuesParams_ || node.rows.size() < kMinRowsForLoop) return false;
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
  for (const Expr* cell : templates) collectSlots(*cell, slots);
  if (slots.empty()) return false;
  std::vector<std::vector<const Expr*>> items(slots.size());
  std::vector<const Expr*> rowSlots;
  for (const auto& cells : node.rows) {
    if (cells.size() != columns) return false;
    rowSlots.clear();
    for (size_t c = 0; c < columns; ++c)
      if (!cellFits(*templates[c], *cells[c], rowSlots)) return false;
    for (size_t k = 0; k < slots.size(); ++k) items[k].push_back(rowSlots[k]);
  }
  ValuesParams tables;
  for (size_t k = 0; k < slots.size(); ++k) {
    std::optional<DataList> list = dataList(items[k]);
    if (!list) return false;
    tables.lists.emplace(slots[k], *list);
  }
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
