#include "compiler/plpgsql/loop_prefetch.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace duet::plpgsql {

namespace {

bool startsWithCall(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (text.size() - i < 4) return false;
  for (size_t k = 0; k < 4; ++k)
    if (std::tolower(static_cast<unsigned char>(text[i + k])) != "call"[k]) return false;
  return text.size() - i == 4 || !std::isalnum(static_cast<unsigned char>(text[i + 4]));
}

void addTargets(const std::vector<Target>& targets, std::set<int>& written) {
  for (const Target& t : targets) written.insert(t.variable);
}

}  // namespace

bool collectWrittenVariables(const StmtList& body, std::set<int>& written) {
  for (const auto& s : body) {
    switch (s->kind) {
      case StmtKind::Block: {
        const auto& b = s->as<Block>();
        written.insert(b.declared.begin(), b.declared.end());
        if (b.sqlstateVariable >= 0) written.insert(b.sqlstateVariable);
        if (b.sqlerrmVariable >= 0) written.insert(b.sqlerrmVariable);
        if (!collectWrittenVariables(b.body, written)) return false;
        for (const auto& h : b.handlers)
          if (!collectWrittenVariables(h.body, written)) return false;
        break;
      }
      case StmtKind::Assign: written.insert(s->as<Assign>().target.variable); break;
      case StmtKind::If: {
        const auto& i = s->as<If>();
        for (const auto& br : i.branches)
          if (!collectWrittenVariables(br.body, written)) return false;
        if (!collectWrittenVariables(i.elseBody, written)) return false;
        break;
      }
      case StmtKind::Case: {
        const auto& c = s->as<Case>();
        for (const auto& w : c.whens)
          if (!collectWrittenVariables(w.body, written)) return false;
        if (!collectWrittenVariables(c.elseBody, written)) return false;
        break;
      }
      case StmtKind::Loop:
      case StmtKind::While:
        if (!collectWrittenVariables(s->as<Loop>().body, written)) return false;
        break;
      case StmtKind::ForInt: {
        const auto& f = s->as<ForInt>();
        written.insert(f.variable);
        if (!collectWrittenVariables(f.body, written)) return false;
        break;
      }
      case StmtKind::ForQuery: {
        const auto& f = s->as<ForQuery>();
        addTargets(f.targets, written);
        if (!collectWrittenVariables(f.body, written)) return false;
        break;
      }
      case StmtKind::ForEach: {
        const auto& f = s->as<ForEach>();
        addTargets(f.targets, written);
        if (!collectWrittenVariables(f.body, written)) return false;
        break;
      }
      case StmtKind::ExecSql: {
        const auto& e = s->as<ExecSql>();
        if (startsWithCall(e.statement.text)) return false;
        addTargets(e.targets, written);
        break;
      }
      case StmtKind::GetDiagnostics:
        for (const auto& [target, item] : s->as<GetDiagnostics>().items) written.insert(target.variable);
        break;
      case StmtKind::Exit:
      case StmtKind::Return:
      case StmtKind::ReturnNext:
      case StmtKind::ReturnQuery:
      case StmtKind::Perform:
      case StmtKind::Raise:
      case StmtKind::Assert:
      case StmtKind::Null: break;
      case StmtKind::TransactionControl: return false;  // ends the transaction the rows were read in
      case StmtKind::CursorOpen:
      case StmtKind::CursorFetch:
      case StmtKind::CursorClose:
      case StmtKind::CursorMove:
      case StmtKind::ForCursor: return false;
      // A dynamic CALL has no variables to write back into: its USING values are values.
      case StmtKind::Execute: addTargets(s->as<Execute>().targets, written); break;
      case StmtKind::ForExecute: {
        const auto& f = s->as<ForExecute>();
        addTargets(f.targets, written);
        if (!collectWrittenVariables(f.body, written)) return false;
        break;
      }
      case StmtKind::ReturnQueryExecute: break;
    }
  }
  return true;
}

bool isSafeArrayCall(const std::string& function) {
  static const char* const kSafe[] = {"duet_rt_array_has",       "duet_rt_array_get_bool", "duet_rt_array_get_int2",
                                      "duet_rt_array_get_int4",  "duet_rt_array_get_int8", "duet_rt_array_get_float4",
                                      "duet_rt_array_get_float8"};
  return std::find(std::begin(kSafe), std::end(kSafe), function) != std::end(kSafe);
}

bool isWideningIntegerCast(const plan::Expr& cast) {
  auto rank = [](TypeId t) { return t == TypeId::Int2 ? 1 : t == TypeId::Int4 ? 2 : t == TypeId::Int8 ? 3 : 0; };
  int from = rank(cast.args[0]->type.id), to = rank(cast.type.id);
  return from > 0 && to >= from;
}

void collectIndexLookups(const plan::Node& node, std::vector<const plan::Node*>& out) {
  if (node.kind == plan::NodeKind::IndexLookup) out.push_back(&node);
  for (const auto& c : node.children) collectIndexLookups(*c, out);
}

}  // namespace duet::plpgsql
