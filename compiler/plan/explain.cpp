// EXPLAIN's rendering of a plan tree (explain.h): first a display tree in PostgreSQL's
// terms (Shown: its node types, detail lines and figures), then that tree as text or JSON.
#include "compiler/plan/explain.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/limits/stack_depth.h"
#include "engine/storage/index.h"
#include "engine/storage/table.h"
#include "engine/types/record.h"
#include "engine/types/value_io.h"

namespace duet::plan {
namespace {

using Names = std::vector<std::string>;

// One detail of a node: "Filter: (a > 1)", "Sort Key: a, b DESC", "Workers Planned: 2".
struct Detail {
  std::string name;
  std::vector<std::string> values;
  bool list = false;    // JSON: an array (Sort Key, Group Key, Output)
  bool number = false;  // JSON: a number
};

// A node as EXPLAIN shows it.
struct Shown {
  std::string nodeType;  // PostgreSQL's "Node Type"
  std::string label;     // the text line: "Seq Scan on t t1", "Hash Left Join"
  // JSON properties after "Node Type", in order ("Join Type", "Relation Name", ...).
  std::vector<std::pair<std::string, std::string>> props;
  bool parallelAware = false;
  double planRows = 0;
  const NodeActuals* actual = nullptr;  // a plan node's figures, or `own`
  std::optional<NodeActuals> own;       // figures derived for a node of the display only
  Names output;                         // VERBOSE
  std::vector<Detail> details;
  bool hasFilter = false;
  std::optional<NodeActuals> filterInput;  // ANALYZE: what the node below its Filter passed on
  std::string relationship;                // "Outer", "Inner", "Member", "SubPlan"
  std::string subplanName;                 // "SubPlan 1"
  std::vector<Shown> children;             // subplans last
};

const NodeActuals* figures(const Shown& s) { return s.own ? &*s.own : s.actual; }

// A node of the display only (Gather, Hash) shows the figures of the node it stands over.
void copyFigures(Shown& to, const Shown& from) {
  to.planRows = from.planRows;
  to.actual = from.actual;
  to.own = from.own;
}

std::string quoteLiteral(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

const char* opText(Op op) {
  switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Mod: return "%";
    case Op::Pow: return "^";
    case Op::Concat: return "||";
    case Op::Eq: return "=";
    case Op::Ne: return "<>";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::Neg: return "-";
    case Op::Not: return "NOT";
    case Op::Abs: return "@";
    case Op::BitAnd: return "&";
    case Op::BitOr: return "|";
    case Op::BitXor: return "#";
    case Op::ShiftLeft: return "<<";
    case Op::ShiftRight: return ">>";
    case Op::BitNot: return "~";
    case Op::None: break;
  }
  return "?";
}

const char* aggName(AggKind k) {
  switch (k) {
    case AggKind::CountStar:
    case AggKind::Count: return "count";
    case AggKind::Sum: return "sum";
    case AggKind::Avg: return "avg";
    case AggKind::Min: return "min";
    case AggKind::Max: return "max";
    case AggKind::BoolAnd: return "bool_and";
    case AggKind::BoolOr: return "bool_or";
    case AggKind::Grouping: return "grouping";
    case AggKind::Stepped:
    case AggKind::Collected: break;  // named by their AggSpec
  }
  return "?";
}

bool isTableAccess(NodeKind k) {
  return k == NodeKind::TableScan || k == NodeKind::IndexLookup || k == NodeKind::IndexRange ||
         k == NodeKind::CurrentOf;
}

class Explainer {
 public:
  explicit Explainer(const ExplainInput& in) : in_(in), numbers_(explainNumbers(*in.root)) {
    std::vector<const Node*> relations;
    std::set<const Node*> seen;
    relationsOf(*in.root, relations, seen);
    qualify_ = relations.size() > 1;  // as PostgreSQL: names are qualified once several relations are read
    // Each relation by a name of its own, in the order they are shown: a second t is t_1,
    // as PostgreSQL names it.
    std::map<std::string, int> taken;
    for (const Node* r : relations) {
      std::string base = baseName(*r);
      int& uses = taken[base];
      relationNames_[r] = uses ? fmt::format("{}_{}", base, uses) : base;
      ++uses;
    }
  }

  Shown top() {
    const Node& root = *in_.root;
    Shown s = show(root);
    if (root.gatherThreads <= 1) return s;
    // The root's pipeline runs on workers whose rows stream to the statement's thread.
    Shown gather;
    gather.nodeType = gather.label = "Gather";
    copyFigures(gather, s);
    if (const NodeActuals* a = figures(s); a && a->loops > 0) {
      // One Gather collects what every worker's pipeline passed on.
      double loops = static_cast<double>(a->loops);
      gather.own = NodeActuals{a->rows, 1, a->startupMs / loops, a->totalMs / loops};
    }
    gather.output = s.output;
    gather.details.push_back(number("Workers Planned", root.gatherThreads));
    s.relationship = "Outer";
    gather.children.push_back(std::move(s));
    return gather;
  }

 private:
  static Detail text(std::string name, std::string value) { return Detail{std::move(name), {std::move(value)}}; }
  static Detail number(std::string name, uint64_t value) {
    return Detail{std::move(name), {std::to_string(value)}, false, true};
  }
  static Detail list(std::string name, Names values) { return Detail{std::move(name), std::move(values), true}; }

  const NodeActuals* actualOf(const Node& n) const {
    if (!in_.actuals) return nullptr;
    auto it = numbers_.find(&n);
    return it != numbers_.end() && it->second < in_.actuals->size() ? &(*in_.actuals)[it->second] : nullptr;
  }

  // --- names -------------------------------------------------------------------------

  std::string qualified(const std::string& relation, const std::string& column) const {
    return qualify_ ? relation + "." + column : column;
  }

  // The relations a plan reads, in the order EXPLAIN shows them (a hash join's probe side
  // before its build side, subqueries after a node's inputs).
  static void relationsOf(const Node& n, std::vector<const Node*>& out, std::set<const Node*>& seen) {
    checkStackDepth();
    if (!seen.insert(&n).second) return;
    NodeKind k = n.kind;
    if (isTableAccess(k) || k == NodeKind::IndexJoin || k == NodeKind::FunctionScan || k == NodeKind::WorkTableScan ||
        k == NodeKind::CteScan || (k == NodeKind::Values && n.rows.size() > 1))
      out.push_back(&n);
    if (k == NodeKind::HashJoin) {
      relationsOf(*n.children[1], out, seen);
      relationsOf(*n.children[0], out, seen);
    } else {
      for (const auto& c : n.children) relationsOf(*c, out, seen);
    }
    std::vector<const Node*> subplans;
    forEachExpr(n, [&](const Expr& e) { subplansIn(e, subplans); });
    for (const Node* s : subplans) relationsOf(*s, out, seen);
  }

  static void subplansIn(const Expr& e, std::vector<const Node*>& out) {
    if (e.subplan) out.push_back(e.subplan.get());
    for (const auto& a : e.args) subplansIn(*a, out);
  }

  // What the plan calls a relation: its alias, its table's or function's name.
  std::string baseName(const Node& n) const {
    if (!n.alias.empty()) return n.alias;
    if (n.table) return n.table->name();
    if (n.kind == NodeKind::FunctionScan) return n.function.empty() ? routineName(n.routine) : functionName(n.function);
    return "*VALUES*";
  }

  // The name EXPLAIN gives a relation: its own, unless another took it first.
  std::string relationOf(const Node& n) const {
    auto it = relationNames_.find(&n);
    return it != relationNames_.end() ? it->second : baseName(n);
  }

  Names tableNames(const Node& n, const Table& table) const {
    Names out;
    std::string rel = relationOf(n);
    for (const auto& c : table.columns()) out.push_back(qualified(rel, c.name));
    out.push_back(qualified(rel, "rowid"));
    return out;
  }

  Names concat(Names a, const Names& b) const {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }

  // The names of a join's row, for its residual predicate: per the planner's layout.
  Names joinedNames(const Node& n) {
    const Names& first = names(*n.children[0]);
    const Names& second = lateralInner(n, [&] { return names(*n.children[1]); });
    if (n.semi != SemiJoin::None) return concat(second, first);  // the probe row, then the build row
    return n.rightFirst ? concat(second, first) : concat(first, second);
  }

  // The names of a node's output columns, for the expressions of the nodes above it.
  const Names& names(const Node& n) {
    if (auto it = names_.find(&n); it != names_.end()) return it->second;
    checkStackDepth();
    Names out;
    if (!isTableAccess(n.kind) && !n.columnNames.empty() && n.columnNames.size() == n.outputTypes.size()) {
      for (const auto& c : n.columnNames) out.push_back(qualified(relationOf(n), c));
      return names_[&n] = std::move(out);
    }
    switch (n.kind) {
      case NodeKind::TableScan:
      case NodeKind::IndexLookup:
      case NodeKind::IndexRange:
      case NodeKind::CurrentOf: out = tableNames(n, *n.table); break;
      case NodeKind::IndexJoin: out = concat(names(*n.children[0]), tableNames(n, *n.table)); break;
      case NodeKind::Values:
      case NodeKind::WorkTableScan:
      case NodeKind::CteScan:
      case NodeKind::FunctionScan:
        for (size_t i = 0; i < n.outputTypes.size(); ++i)
          out.push_back(n.kind == NodeKind::FunctionScan && n.outputTypes.size() == 1
                            ? relationOf(n)
                            : qualified(relationOf(n), fmt::format("column{}", i + 1)));
        break;
      case NodeKind::Filter:
      case NodeKind::Sort:
      case NodeKind::Limit:
      case NodeKind::Distinct:
      case NodeKind::Materialize:
      case NodeKind::Repeat:
      case NodeKind::Append:
      case NodeKind::RecursiveUnion: out = names(*n.children[0]); break;
      case NodeKind::Project: out = exprTexts(n.exprs, names(*n.children[0])); break;
      case NodeKind::NestedLoopJoin:
      case NodeKind::HashJoin: out = n.semi != SemiJoin::None ? names(*n.children[1]) : joinedNames(n); break;
      case NodeKind::Aggregate: {
        const Names& input = names(*n.children[0]);
        out = exprTexts(n.exprs, input);
        for (const auto& a : n.aggs) out.push_back(aggText(a, input));
        break;
      }
      case NodeKind::ProjectSet:
        out = names(*n.children[0]);
        for (const auto& call : n.exprs) out.push_back(expr(*call, names(*n.children[0])));
        break;
      case NodeKind::Insert:
      case NodeKind::Update:
      case NodeKind::Delete: out = exprTexts(n.returning, tableNames(n, *n.table)); break;
      case NodeKind::Window: {
        const Names& input = names(*n.children[0]);
        out = input;
        for (const auto& c : n.windowCalls) out.push_back(windowCallText(c, input));
        break;
      }
    }
    return names_[&n] = std::move(out);
  }

  // --- expressions ---------------------------------------------------------------------

  Names exprTexts(const std::vector<ExprPtr>& exprs, const Names& input) {
    Names out;
    for (const auto& e : exprs) out.push_back(expr(*e, input));
    return out;
  }

  std::string args(const Expr& e, const Names& input, size_t from = 0) {
    std::string s;
    for (size_t i = from; i < e.args.size(); ++i) s += (i > from ? ", " : "") + expr(*e.args[i], input);
    return s;
  }

  std::string functionName(const std::string& symbol) const {
    std::string name = in_.functionName ? in_.functionName(symbol) : std::string();
    return name.empty() ? symbol : name;
  }

  std::string routineName(uint32_t oid) const {
    std::string name = in_.routineName ? in_.routineName(oid) : std::string();
    return name.empty() ? fmt::format("function {}", oid) : name;
  }

  std::string callText(const Node& n, const Names& input) {
    std::string s;
    for (size_t i = 0; i < n.exprs.size(); ++i) s += (i ? ", " : "") + expr(*n.exprs[i], input);
    return (n.function.empty() ? routineName(n.routine) : functionName(n.function)) + "(" + s + ")";
  }

  std::string aggText(const AggSpec& a, const Names& input) {
    if (a.kind == AggKind::CountStar) return "count(*)";
    std::string name = a.name.empty() ? aggName(a.kind) : std::string(a.name);
    if (!a.arg) return name + "()";
    return fmt::format("{}({}{})", name, a.distinct ? "DISTINCT " : "", expr(*a.arg, input));
  }

  // As PostgreSQL's VERBOSE output shows a window call: "rank() OVER (?)".
  std::string windowCallText(const WindowCall& c, const Names& input) {
    static const char* const kNames[] = {"row_number", "rank", "dense_rank",  "percent_rank", "cume_dist", "ntile",
                                         "lag",        "lead", "first_value", "last_value",   "nth_value"};
    if (c.func == WindowFunc::Aggregate) return aggText(c.agg, input) + " OVER (?)";
    std::string args;
    for (const std::string& a : exprTexts(c.args, input)) args += (args.empty() ? "" : ", ") + a;
    return std::string(kNames[static_cast<size_t>(c.func)]) + "(" + args + ") OVER (?)";
  }

  Names sortKeyTexts(const std::vector<SortKey>& sortKeys, const Names& input) {
    Names keys;
    for (const SortKey& k : sortKeys) {
      std::string key = k.column >= 0 && static_cast<size_t>(k.column) < input.size() ? input[k.column] : "?";
      if (k.descending) key += " DESC";
      if (k.nullsFirst != k.descending) key += k.nullsFirst ? " NULLS FIRST" : " NULLS LAST";
      keys.push_back(std::move(key));
    }
    return keys;
  }

  std::string constant(const Expr& e) const {
    if (e.constNull) return "NULL";
    TypeId t = e.type.id;
    if (isStringType(t)) return quoteLiteral(e.constString) + "::" + typeName(e.type);
    if (t == TypeId::Array) return "'...'::" + typeName(e.type);
    std::string v;
    formatText(e.type, e.constant, v, in_.typeContext);
    return literalText(e.type, v);
  }

  std::string expr(const Expr& e, const Names& input) {
    checkStackDepth();
    auto arg = [&](size_t i) { return expr(*e.args[i], input); };
    switch (e.kind) {
      case ExprKind::Column:
      case ExprKind::Aggregate:
        return e.column >= 0 && static_cast<size_t>(e.column) < input.size() ? input[e.column] : "?column?";
      case ExprKind::Const: return constant(e);
      case ExprKind::Param: {
        std::string v;
        bool isNull = false;
        if (!in_.paramValue || !in_.paramValue(e.param, v, isNull)) return fmt::format("${}", e.param + 1);
        return isNull ? "NULL" : literalText(e.type, v);
      }
      case ExprKind::Cast: {
        // A constant (or a parameter's value) cast is a constant of the new type, as
        // PostgreSQL folds it: '5'::bigint.
        const Expr& from = *e.args[0];
        std::string raw;
        bool isNull = false;
        if (from.kind == ExprKind::Const && !from.constNull && from.type.id != TypeId::Array) {
          raw = from.constString;
          if (!isStringType(from.type.id)) formatText(from.type, from.constant, raw, in_.typeContext);
          return literalText(e.type, raw);
        }
        if (from.kind == ExprKind::Param && in_.paramValue && in_.paramValue(from.param, raw, isNull))
          return isNull ? "NULL" : literalText(e.type, raw);
        std::string a = arg(0);
        return (a.starts_with("(") ? a : "(" + a + ")") + "::" + typeName(e.type);
      }
      case ExprKind::Unary:
        if (e.op == Op::Abs) return "abs(" + arg(0) + ")";
        return fmt::format("({} {})", opText(e.op), arg(0));
      case ExprKind::Binary:
      case ExprKind::Compare: return fmt::format("({} {} {})", arg(0), opText(e.op), arg(1));
      case ExprKind::And:
      case ExprKind::Or: {
        std::string s;
        for (size_t i = 0; i < e.args.size(); ++i)
          s += (i ? (e.kind == ExprKind::And ? " AND " : " OR ") : "") + arg(i);
        return "(" + s + ")";
      }
      case ExprKind::IsNull: return fmt::format("({} IS {}NULL)", arg(0), e.negated ? "NOT " : "");
      case ExprKind::IsTrue:
        return fmt::format("({} IS {}{})", arg(0), e.negated ? "NOT " : "", e.op == Op::Eq ? "TRUE" : "FALSE");
      case ExprKind::Like:
        return fmt::format("({} {}~~{} {})", arg(0), e.negated ? "!" : "", e.caseInsensitive ? "*" : "", arg(1));
      case ExprKind::Case: {
        std::string s = "CASE";
        size_t pairs = (e.args.size() - (e.hasElse ? 1 : 0)) / 2;
        for (size_t i = 0; i < pairs; ++i) s += " WHEN " + arg(2 * i) + " THEN " + arg(2 * i + 1);
        if (e.hasElse) s += " ELSE " + arg(e.args.size() - 1);
        return s + " END";
      }
      case ExprKind::Coalesce: return "COALESCE(" + args(e, input) + ")";
      case ExprKind::Call: return functionName(e.function) + "(" + args(e, input) + ")";
      case ExprKind::RoutineCall: return routineName(e.routine) + "(" + args(e, input) + ")";
      case ExprKind::ArrayBuild: return "ARRAY[" + args(e, input) + "]";
      case ExprKind::RecordBuild: return "ROW(" + args(e, input) + ")";
      case ExprKind::FieldSelect: return "(" + arg(0) + ")." + recordFields(e.args[0]->type)[e.column].name;
      case ExprKind::Subquery: return subquery(e, input);
      case ExprKind::OuterRef:
        if (!captures_.empty() && e.column >= 0 && static_cast<size_t>(e.column) < captures_.back().size())
          return captures_.back()[e.column];
        return "?outer?";
      case ExprKind::Let: {
        // Shown where it is read, as PostgreSQL shows a CASE's subject or NULLIF's operand.
        lets_.push_back(arg(0));
        std::string body = arg(1);
        lets_.pop_back();
        return body;
      }
      case ExprKind::LetRef: return lets_.at(lets_.size() - 1 - static_cast<size_t>(e.column));
      case ExprKind::Greatest: return (e.op == Op::Gt ? "GREATEST(" : "LEAST(") + args(e, input) + ")";
      case ExprKind::InList: return "(" + arg(0) + " IN (" + args(e, input, 1) + "))";
      case ExprKind::RowCompare: {
        std::vector<std::string> sides[2];
        for (size_t i = 0; i < e.args.size(); ++i) sides[2 * i / e.args.size()].push_back(arg(i));
        return fmt::format("(ROW({}) {} ROW({}))", fmt::join(sides[0], ", "), opText(e.op), fmt::join(sides[1], ", "));
      }
      case ExprKind::ArrayCompare: {
        static const std::pair<const char*, const char*> kPatternOps[] = {{"duet_rt_text_like", "~~"},
                                                                          {"duet_rt_text_ilike", "~~*"},
                                                                          {"duet_rt_text_regex_match", "~"},
                                                                          {"duet_rt_text_regex_imatch", "~*"}};
        std::string op = e.op != Op::None ? opText(e.op) : e.function;
        for (const auto& [function, name] : kPatternOps)
          if (e.function == function) op = std::string(e.negated ? "!" : "") + name;
        return fmt::format("({} {} {} ({}))", arg(0), op, e.sublink == plan::Sublink::All ? "ALL" : "ANY", arg(1));
      }
      case ExprKind::WindowResult: break;  // the planner leaves none in a plan
    }
    return "?";
  }

  // "(SubPlan 2)": the subquery's plan becomes a "SubPlan N" child of the node shown now.
  std::string subquery(const Expr& e, const Names& input) {
    const Node* plan = e.subplan.get();
    auto it = subplans_.emplace(plan, static_cast<int>(subplans_.size()) + 1).first;
    std::string name = fmt::format("SubPlan {}", it->second);
    if (owner_ && shownSubplans_.insert(plan).second) {
      captures_.push_back({});
      for (int i = 0; i < e.captures; ++i) captures_.back().push_back(expr(*e.args[i], input));
      Shown* owner = owner_;
      owner_ = nullptr;  // the subplan's own expressions show their subqueries on its nodes
      Shown sub = show(*plan);
      owner_ = owner;
      captures_.pop_back();
      sub.relationship = "SubPlan";
      sub.subplanName = name;
      owner->children.push_back(std::move(sub));
    }
    switch (e.sublink) {
      case Sublink::Exists: return "EXISTS(" + name + ")";
      case Sublink::Scalar: return "(" + name + ")";
      case Sublink::Array: return "ARRAY(" + name + ")";
      case Sublink::Any:
      case Sublink::All:
      case Sublink::RowCompare: {
        std::vector<std::string> left;
        for (size_t i = e.captures; i < e.args.size(); ++i) left.push_back(expr(*e.args[i], input));
        std::string test = left.size() == 1 ? left[0] : fmt::format("ROW({})", fmt::join(left, ", "));
        if (e.sublink == Sublink::RowCompare) return fmt::format("({} {} ({}))", test, opText(e.op), name);
        return fmt::format("({} {} {} ({}))", test, opText(e.op), e.sublink == Sublink::Any ? "ANY" : "ALL", name);
      }
    }
    return "(" + name + ")";
  }

  // An expression shown on `owner`: the subqueries in it become owner's SubPlans.
  std::string exprOn(Shown& owner, const Expr& e, const Names& input) {
    Shown* saved = owner_;
    owner_ = &owner;
    std::string s = expr(e, input);
    owner_ = saved;
    return s;
  }

  static std::string conditions(const std::vector<std::string>& parts) {
    if (parts.size() == 1) return parts[0];
    std::string s;
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? " AND " : "") + parts[i];
    return "(" + s + ")";
  }

  // --- nodes ---------------------------------------------------------------------------

  Shown leaf(const Node& n, std::string nodeType, std::string label) {
    Shown s;
    s.nodeType = std::move(nodeType);
    s.label = std::move(label);
    s.planRows = n.estimatedRows;
    s.actual = actualOf(n);
    return s;
  }

  void addChild(Shown& s, Shown child, const char* relationship) {
    child.relationship = relationship;
    s.children.push_back(std::move(child));
  }

  void relation(Shown& s, const Node& n) {
    std::string table = n.table->name();
    std::string alias = relationOf(n);
    s.label += " on " + table + (alias != table ? " " + alias : "");
    s.props.emplace_back("Relation Name", table);
    s.props.emplace_back("Alias", alias);
  }

  std::string keyColumn(const Node& n, size_t k) const {
    return qualified(relationOf(n), n.table->columns()[n.index->columns()[k]].name);
  }

  // "Index Scan using t_pkey on t" with its Index Cond; `keysInput` names what the key
  // expressions read (an index join's left row).
  Shown indexScan(const Node& n, const Names& keysInput) {
    Shown s = leaf(n, "Index Scan", n.descending ? "Index Scan Backward" : "Index Scan");
    s.label += " using " + n.index->name();
    s.props.emplace_back("Scan Direction", n.descending ? "Backward" : "Forward");
    s.props.emplace_back("Index Name", n.index->name());
    relation(s, n);
    std::vector<std::string> parts;
    for (size_t k = 0; k < n.keys.size(); ++k) {
      std::string value = exprOn(s, *n.keys[k], keysInput);
      if (static_cast<int>(k) == n.keySet) value = "ANY (" + value + ")";  // each value of the set in turn
      parts.push_back(fmt::format("({} = {})", keyColumn(n, k), value));
    }
    if (n.rangeLow)
      parts.push_back(fmt::format("({} {} {})", keyColumn(n, n.keys.size()), n.lowInclusive ? ">=" : ">",
                                  exprOn(s, *n.rangeLow, keysInput)));
    if (n.rangeHigh)
      parts.push_back(fmt::format("({} {} {})", keyColumn(n, n.keys.size()), n.highInclusive ? "<=" : "<",
                                  exprOn(s, *n.rangeHigh, keysInput)));
    if (!parts.empty()) s.details.push_back(text("Index Cond", conditions(parts)));
    return s;
  }

  void addWorkers(Shown& s, uint32_t threads) {
    // The statement's thread is one of a parallel run's threads: the others are workers.
    if (threads > 1) s.details.push_back(number("Workers Planned", threads - 1));
  }

  Shown join(const Node& n) {
    const char* type = n.keepBuildSide            ? "Full"
                       : n.outer                  ? "Left"
                       : n.semi == SemiJoin::Semi ? "Semi"
                       : n.semi != SemiJoin::None ? "Anti"
                                                  : "Inner";
    bool hash = n.kind == NodeKind::HashJoin;
    std::string base = hash ? "Hash" : "Nested Loop";
    // A semi or anti join that hashes its outer rows: PostgreSQL (16 on) names that shape a
    // right semi or anti join.
    if (n.semiBuildsOuter) base = "Hash Right";
    std::string label =
        std::string(type) == "Inner" ? (hash ? "Hash Join" : "Nested Loop") : fmt::format("{} {} Join", base, type);
    Shown s = leaf(n, hash ? "Hash Join" : "Nested Loop", label);
    s.props.emplace_back("Join Type", type);
    if (hash) {
      // PostgreSQL's order: the probe (outer) side, then the hash table built of the other.
      const Names& build = names(*n.children[0]);
      const Names& probe = names(*n.children[1]);
      std::vector<std::string> parts;
      for (size_t k = 0; k < n.exprs.size(); ++k)
        parts.push_back(fmt::format("({} = {})", exprOn(s, *n.rightKeys[k], probe), exprOn(s, *n.exprs[k], build)));
      s.details.push_back(text("Hash Cond", conditions(parts)));
      if (n.predicate) s.details.push_back(text("Join Filter", exprOn(s, *n.predicate, joinedNames(n))));
      if (n.filtersGroups) s.details.push_back(text("Aggregate Input Filter", "Hash Cond"));
      const Node& probeSide = *n.children[n.semiBuildsOuter ? 0 : 1];
      const Node& buildSide = *n.children[n.semiBuildsOuter ? 1 : 0];
      addChild(s, show(probeSide), "Outer");
      Shown h = show(buildSide);
      Shown hashNode;
      hashNode.nodeType = hashNode.label = "Hash";
      copyFigures(hashNode, h);
      addWorkers(n.semiBuildsOuter ? s : hashNode, n.parallelThreads);
      if (n.semiBuildsOuter) addWorkers(hashNode, n.outerBuildThreads);
      addChild(hashNode, std::move(h), "Outer");
      addChild(s, std::move(hashNode), "Inner");
    } else {
      if (n.predicate) s.details.push_back(text("Join Filter", exprOn(s, *n.predicate, joinedNames(n))));
      addChild(s, show(*n.children[0]), "Outer");
      addChild(s, lateralInner(n, [&] { return show(*n.children[1]); }), "Inner");
    }
    return s;
  }

  // `f` run on a join's inner side: a LATERAL one's OuterRefs read what the join captures
  // of its outer row.
  template <class F>
  auto lateralInner(const Node& join, F f) -> decltype(f()) {
    if (join.kind != NodeKind::NestedLoopJoin || join.exprs.empty()) return f();
    captures_.push_back(exprTexts(join.exprs, names(*join.children[0])));
    auto result = f();
    captures_.pop_back();
    return result;
  }

  // An index join: a Nested Loop whose inner side is an index probe per outer row.
  Shown indexJoin(const Node& n) {
    Shown s = leaf(n, "Nested Loop", n.outer ? "Nested Loop Left Join" : "Nested Loop");
    s.props.emplace_back("Join Type", n.outer ? "Left" : "Inner");
    Shown outer = show(*n.children[0]);
    Shown inner = indexScan(n, names(*n.children[0]));
    inner.planRows = 1;
    inner.actual = nullptr;
    if (s.actual && outer.actual) inner.own = NodeActuals{s.actual->rows, outer.actual->rows, 0, 0};
    addChild(s, std::move(outer), "Outer");
    addChild(s, std::move(inner), "Inner");
    return s;
  }

  Shown aggregate(const Node& n, const Names& keys, bool hashed, const char* label) {
    Shown s = leaf(n, "Aggregate", label);
    s.props.emplace_back("Strategy", hashed ? "Hashed" : "Plain");
    if (!keys.empty()) s.details.push_back(list("Group Key", keys));
    addWorkers(s, n.parallelThreads);
    addChild(s, show(*n.children[0]), "Outer");
    return s;
  }

  Shown show(const Node& n) {
    checkStackDepth();
    switch (n.kind) {
      case NodeKind::TableScan: {
        Shown s = leaf(n, "Seq Scan", n.morsels ? "Parallel Seq Scan" : "Seq Scan");
        s.parallelAware = n.morsels;
        relation(s, n);
        return s;
      }
      case NodeKind::IndexLookup:
      case NodeKind::IndexRange: return indexScan(n, {});
      case NodeKind::CurrentOf: {
        Shown s = leaf(n, "Tid Scan", "Tid Scan");
        relation(s, n);
        const plan::Expr& cursor = *n.keys[0];
        s.details.push_back(text(
            "TID Cond", "CURRENT OF " + (cursor.kind == ExprKind::Const ? cursor.constString : exprOn(s, cursor, {}))));
        return s;
      }
      case NodeKind::IndexJoin: return indexJoin(n);
      case NodeKind::Values:
        if (n.rows.size() == 1) return leaf(n, "Result", "Result");
        return leaf(n, "Values Scan", "Values Scan on \"*VALUES*\"");
      case NodeKind::Filter: {
        // A detail of the node below, as PostgreSQL's quals are.
        Shown s = show(*n.children[0]);
        std::string predicate = exprOn(s, *n.predicate, names(*n.children[0]));
        if (s.hasFilter) {
          for (auto& d : s.details)
            if (d.name == "Filter") d.values[0] = "(" + d.values[0] + " AND " + predicate + ")";
        } else {
          s.details.push_back(text("Filter", predicate));
          s.hasFilter = true;
          if (const NodeActuals* a = figures(s)) s.filterInput = *a;
        }
        s.planRows = n.estimatedRows;
        s.actual = actualOf(n);
        return s;
      }
      case NodeKind::Project: {
        // A projection is the output of the node below (VERBOSE shows it).
        Shown s = show(*n.children[0]);
        s.output = names(n);
        for (const auto& e : n.exprs) exprOn(s, *e, names(*n.children[0]));  // its subqueries
        // What it computes for the hash join above (planner/build_side_exprs.cpp).
        if (n.computedFrom >= 0) {
          Names computed(names(n).begin() + n.computedFrom, names(n).end());
          s.details.push_back(list("Computed", computed));
        }
        s.planRows = n.estimatedRows;
        if (const NodeActuals* mine = actualOf(n)) s.actual = mine;
        return s;
      }
      case NodeKind::NestedLoopJoin:
      case NodeKind::HashJoin: return join(n);
      case NodeKind::Aggregate: {
        const Names& input = names(*n.children[0]);
        Names keys;
        for (const auto& e : n.exprs) keys.push_back(expr(*e, input));
        Shown s = aggregate(n, keys, !n.exprs.empty(), n.exprs.empty() ? "Aggregate" : "HashAggregate");
        for (const auto& a : n.aggs)
          if (a.arg) exprOn(s, *a.arg, input);
        return s;
      }
      case NodeKind::Distinct: {
        const Names& input = names(*n.children[0]);
        if (!n.exprs.empty()) {  // DISTINCT ON: the first row of each key over sorted rows
          Shown s = leaf(n, "Unique", "Unique");
          addChild(s, show(*n.children[0]), "Outer");
          return s;
        }
        // DISTINCT: a hash table of the rows seen, as PostgreSQL's HashAggregate.
        Names keys(input.begin(), input.end());
        return aggregate(n, keys, true, "HashAggregate");
      }
      case NodeKind::Sort: {
        Shown s = leaf(n, "Sort", "Sort");
        s.details.push_back(list("Sort Key", sortKeyTexts(n.sortKeys, names(*n.children[0]))));
        addWorkers(s, n.parallelThreads);
        addChild(s, show(*n.children[0]), "Outer");
        return s;
      }
      case NodeKind::Window: {
        // The node sorts its input itself: shown as PostgreSQL's WindowAgg over a Sort.
        Shown s = leaf(n, "WindowAgg", "WindowAgg");
        Shown input = show(*n.children[0]);
        if (n.sortKeys.empty()) {
          addChild(s, std::move(input), "Outer");
          return s;
        }
        Shown sort;
        sort.nodeType = sort.label = "Sort";
        copyFigures(sort, input);
        sort.details.push_back(list("Sort Key", sortKeyTexts(n.sortKeys, names(*n.children[0]))));
        addChild(sort, std::move(input), "Outer");
        addChild(s, std::move(sort), "Outer");
        return s;
      }
      case NodeKind::Limit: {
        Shown s = leaf(n, "Limit", "Limit");
        if (in_.options.verbose) {
          if (n.limit) s.details.push_back(text("Limit", exprOn(s, *n.limit, {})));
          if (n.offset) s.details.push_back(text("Offset", exprOn(s, *n.offset, {})));
        }
        addChild(s, show(*n.children[0]), "Outer");
        return s;
      }
      case NodeKind::Materialize: {
        Shown s = leaf(n, "Materialize", "Materialize");
        addChild(s, show(*n.children[0]), "Outer");
        return s;
      }
      case NodeKind::Repeat: {
        // INTERSECT ALL / EXCEPT ALL: each row as often as its count says (no PostgreSQL twin).
        Shown s = leaf(n, "Repeat", "Repeat");
        s.details.push_back(text("Repeat Count", exprOn(s, *n.exprs[0], names(*n.children[0]))));
        addChild(s, show(*n.children[0]), "Outer");
        return s;
      }
      case NodeKind::Append: {
        Shown s = leaf(n, "Append", "Append");
        for (const auto& c : n.children) addChild(s, show(*c), "Member");
        return s;
      }
      case NodeKind::RecursiveUnion: {
        Shown s = leaf(n, "Recursive Union", "Recursive Union");
        addChild(s, show(*n.children[0]), "Outer");
        addChild(s, show(*n.children[1]), "Inner");
        return s;
      }
      case NodeKind::WorkTableScan: {
        Shown s = leaf(n, "WorkTable Scan", "WorkTable Scan on " + relationOf(n));
        s.props.emplace_back("CTE Name", relationOf(n));
        s.props.emplace_back("Alias", relationOf(n));
        return s;
      }
      case NodeKind::CteScan: {
        // PostgreSQL shows the WITH query's plan once, as an InitPlan named "CTE name";
        // here each read shows it, though it runs once.
        std::string alias = relationOf(n);
        Shown s = leaf(n, "CTE Scan", "CTE Scan on " + n.cteName + (alias != n.cteName ? " " + alias : ""));
        s.props.emplace_back("CTE Name", n.cteName);
        s.props.emplace_back("Alias", alias);
        addChild(s, show(*n.children[0]), "Outer");
        return s;
      }
      case NodeKind::FunctionScan: {
        std::string function = n.function.empty() ? routineName(n.routine) : functionName(n.function);
        std::string alias = relationOf(n);
        Shown s = leaf(n, "Function Scan", "Function Scan on " + function + (alias != function ? " " + alias : ""));
        s.props.emplace_back("Function Name", function);
        s.props.emplace_back("Alias", alias);
        if (in_.options.verbose) s.details.push_back(text("Function Call", callText(n, {})));
        return s;
      }
      case NodeKind::ProjectSet: {
        Shown s = leaf(n, "ProjectSet", "ProjectSet");
        for (const auto& e : n.exprs) exprOn(s, *e, names(*n.children[0]));  // its subqueries
        addChild(s, show(*n.children[0]), "Outer");
        return s;
      }
      case NodeKind::Insert:
      case NodeKind::Update:
      case NodeKind::Delete: {
        const char* op = n.kind == NodeKind::Insert ? "Insert" : n.kind == NodeKind::Update ? "Update" : "Delete";
        Shown s = leaf(n, "ModifyTable", op);
        s.props.emplace_back("Operation", op);
        relation(s, n);
        if (!n.returning.empty()) s.output = names(n);
        if (n.onConflict != plan::OnConflict::None) {
          s.details.push_back(
              text("Conflict Resolution", n.onConflict == plan::OnConflict::Update ? "UPDATE" : "NOTHING"));
          Names arbiters;
          for (const Index* index : n.arbiters) arbiters.push_back(index->name());
          s.details.push_back(list("Conflict Arbiter Indexes", std::move(arbiters)));
        }
        addChild(s, show(*n.children[0]), "Outer");
        return s;
      }
    }
    return leaf(n, "?", "?");
  }

  const ExplainInput& in_;
  std::unordered_map<const Node*, uint32_t> numbers_;
  bool qualify_ = false;
  std::unordered_map<const Node*, Names> names_;
  std::unordered_map<const Node*, std::string> relationNames_;
  std::map<const Node*, int> subplans_;  // subquery plans named so far, by number
  std::set<const Node*> shownSubplans_;  // and those among them shown as a node's SubPlan
  std::vector<Names> captures_;          // the texts an OuterRef reads, innermost last
  std::vector<std::string> lets_;        // the texts a LetRef reads, innermost last
  Shown* owner_ = nullptr;               // where the subqueries of expressions rendered now go
};

// --- text -----------------------------------------------------------------------------

std::string rowsText(double rows) { return fmt::format("{:.0f}", rows); }

// The rows a node's Filter removed, per loop.
std::optional<double> removedByFilter(const Shown& s) {
  const NodeActuals* a = figures(s);
  if (!a || !s.filterInput || a->loops == 0 || s.filterInput->rows < a->rows) return std::nullopt;
  return static_cast<double>(s.filterInput->rows - a->rows) / static_cast<double>(a->loops);
}

void textLines(const Shown& s, size_t at, bool arrow, const ExplainOptions& o, std::vector<std::string>& out) {
  checkStackDepth();
  std::string line = std::string(arrow ? at - 4 : at, ' ') + (arrow ? "->  " : "") + s.label;
  if (o.costs) line += "  (rows=" + rowsText(s.planRows) + ")";
  if (o.analyze) {
    const NodeActuals* a = figures(s);
    if (!a || a->loops == 0) {
      line += " (never executed)";
    } else {
      double loops = static_cast<double>(a->loops);
      if (o.timing)
        line += fmt::format(" (actual time={:.3f}..{:.3f} rows={:.0f} loops={})", a->startupMs / loops,
                            a->totalMs / loops, static_cast<double>(a->rows) / loops, a->loops);
      else
        line += fmt::format(" (actual rows={:.0f} loops={})", static_cast<double>(a->rows) / loops, a->loops);
    }
  }
  out.push_back(std::move(line));
  std::string pad(at + 2, ' ');
  if (o.verbose && !s.output.empty()) {
    std::string list;
    for (size_t i = 0; i < s.output.size(); ++i) list += (i ? ", " : "") + s.output[i];
    out.push_back(pad + "Output: " + list);
  }
  for (const Detail& d : s.details) {
    std::string v;
    for (size_t i = 0; i < d.values.size(); ++i) v += (i ? ", " : "") + d.values[i];
    out.push_back(pad + d.name + ": " + v);
    if (d.name == "Filter" && o.analyze)
      if (std::optional<double> removed = removedByFilter(s))
        out.push_back(pad + "Rows Removed by Filter: " + rowsText(*removed));
  }
  for (const Shown& c : s.children) {
    if (c.subplanName.empty()) {
      textLines(c, at + 6, true, o, out);
    } else {
      out.push_back(pad + c.subplanName);
      textLines(c, at + 8, true, o, out);
    }
  }
}

// --- JSON -----------------------------------------------------------------------------

std::string jsonString(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20)
          out += fmt::format("\\u{:04x}", c);
        else
          out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string ms(double v) { return fmt::format("{:.3f}", v); }

// Members of one JSON object, written as PostgreSQL indents them (two spaces a level).
class JsonObject {
 public:
  explicit JsonObject(size_t indent) : indent_(indent) {}
  void add(const std::string& key, const std::string& rawValue) {
    members_.push_back(std::string(indent_ + 2, ' ') + jsonString(key) + ": " + rawValue);
  }
  std::string str() const {
    std::string s = "{\n";
    for (size_t i = 0; i < members_.size(); ++i) s += members_[i] + (i + 1 < members_.size() ? ",\n" : "\n");
    return s + std::string(indent_, ' ') + "}";
  }

 private:
  size_t indent_;
  std::vector<std::string> members_;
};

std::string jsonArray(const std::vector<std::string>& rawItems, size_t indent) {
  if (rawItems.empty()) return "[]";
  std::string s = "[\n";
  for (size_t i = 0; i < rawItems.size(); ++i)
    s += std::string(indent + 2, ' ') + rawItems[i] + (i + 1 < rawItems.size() ? ",\n" : "\n");
  return s + std::string(indent, ' ') + "]";
}

std::string jsonPlan(const Shown& s, size_t indent, const ExplainOptions& o) {
  checkStackDepth();
  JsonObject obj(indent);
  obj.add("Node Type", jsonString(s.nodeType));
  if (!s.relationship.empty()) obj.add("Parent Relationship", jsonString(s.relationship));
  if (!s.subplanName.empty()) obj.add("Subplan Name", jsonString(s.subplanName));
  obj.add("Parallel Aware", s.parallelAware ? "true" : "false");
  for (const auto& [key, value] : s.props) obj.add(key, jsonString(value));
  if (o.costs) obj.add("Plan Rows", rowsText(s.planRows));
  if (o.analyze) {
    const NodeActuals* a = figures(s);
    double loops = a && a->loops ? static_cast<double>(a->loops) : 1;
    if (o.timing) {
      obj.add("Actual Startup Time", ms(a ? a->startupMs / loops : 0));
      obj.add("Actual Total Time", ms(a ? a->totalMs / loops : 0));
    }
    obj.add("Actual Rows", rowsText(a ? static_cast<double>(a->rows) / loops : 0));
    obj.add("Actual Loops", std::to_string(a ? a->loops : 0));
  }
  if (o.verbose && !s.output.empty()) {
    std::vector<std::string> items;
    for (const auto& v : s.output) items.push_back(jsonString(v));
    obj.add("Output", jsonArray(items, indent + 2));
  }
  for (const Detail& d : s.details) {
    if (d.list) {
      std::vector<std::string> items;
      for (const auto& v : d.values) items.push_back(jsonString(v));
      obj.add(d.name, jsonArray(items, indent + 2));
    } else {
      obj.add(d.name, d.number ? d.values[0] : jsonString(d.values[0]));
    }
    if (d.name == "Filter" && o.analyze)
      if (std::optional<double> removed = removedByFilter(s)) obj.add("Rows Removed by Filter", rowsText(*removed));
  }
  if (!s.children.empty()) {
    std::vector<std::string> plans;
    for (const Shown& c : s.children) plans.push_back(jsonPlan(c, indent + 4, o));
    obj.add("Plans", jsonArray(plans, indent + 2));
  }
  return obj.str();
}

void numberNodes(const Node& n, std::unordered_map<const Node*, uint32_t>& out);

void numberSubplans(const Expr& e, std::unordered_map<const Node*, uint32_t>& out) {
  if (e.subplan) numberNodes(*e.subplan, out);
  for (const auto& a : e.args) numberSubplans(*a, out);
}

void numberNodes(const Node& n, std::unordered_map<const Node*, uint32_t>& out) {
  checkStackDepth();
  if (!out.emplace(&n, static_cast<uint32_t>(out.size())).second) return;  // a shared subplan
  forEachExpr(n, [&](const Expr& e) { numberSubplans(e, out); });
  for (const auto& c : n.children) numberNodes(*c, out);
}

}  // namespace

std::string literalText(SqlType type, const std::string& text) {
  bool plainNumber = !text.empty() && text.find_first_not_of("0123456789.") == std::string::npos;
  if ((type.id == TypeId::Int4 || type.id == TypeId::Numeric) && plainNumber) return text;
  if (type.id == TypeId::Bool) return text == "t" || text == "true" ? "true" : "false";
  return quoteLiteral(text) + "::" + typeName(type);
}

std::unordered_map<const Node*, uint32_t> explainNumbers(const Node& root) {
  std::unordered_map<const Node*, uint32_t> out;
  numberNodes(root, out);
  return out;
}

namespace {

// The JIT section's tier lines, as (name, [(item, ms)]): the first tier carries the IR's
// generation.
std::vector<std::pair<std::string, std::vector<std::pair<std::string, double>>>> jitTiers(const ExplainJit& j) {
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, double>>>> tiers;
  if (j.cheap)
    tiers.push_back(
        {"Cheap Tier",
         {{"Generation", j.generateMs}, {"Emission", j.cheapEmitMs}, {"Total", j.generateMs + j.cheapEmitMs}}});
  if (j.optimised) {
    double generation = j.cheap ? 0 : j.generateMs;
    std::vector<std::pair<std::string, double>> items;
    if (!j.cheap) items.push_back({"Generation", generation});
    items.push_back({"Optimization", j.optimiseMs});
    items.push_back({"Emission", j.optimisedEmitMs});
    items.push_back({"Total", generation + j.optimiseMs + j.optimisedEmitMs});
    tiers.push_back({"Optimized Tier", std::move(items)});
  }
  return tiers;
}

void jitText(const ExplainJit& j, std::vector<std::string>& out) {
  out.push_back("JIT:");
  out.push_back("  Functions: " + std::to_string(j.functions));
  for (const auto& [name, items] : jitTiers(j)) {
    std::string line = "  " + name + ":";
    for (size_t i = 0; i < items.size(); ++i)
      line += (i ? ", " : " ") + items[i].first + " " + ms(items[i].second) + " ms";
    out.push_back(line);
  }
  if (j.cheapMorsels + j.optimisedMorsels > 0)
    out.push_back(fmt::format("  Morsels: Cheap {}, Optimized {}", j.cheapMorsels, j.optimisedMorsels));
}

std::string jitJson(const ExplainJit& j) {
  JsonObject jit(4);
  jit.add("Functions", std::to_string(j.functions));
  for (const auto& [name, items] : jitTiers(j)) {
    JsonObject tier(6);
    for (const auto& [item, value] : items) tier.add(item, ms(value));
    jit.add(name, tier.str());
  }
  if (j.cheapMorsels + j.optimisedMorsels > 0) {
    JsonObject morsels(6);
    morsels.add("Cheap", std::to_string(j.cheapMorsels));
    morsels.add("Optimized", std::to_string(j.optimisedMorsels));
    jit.add("Morsels", morsels.str());
  }
  return jit.str();
}

}  // namespace

std::vector<std::string> explain(const ExplainInput& input) {
  Explainer explainer(input);
  Shown tree = explainer.top();
  const ExplainOptions& o = input.options;
  bool summary = o.summary;
  std::vector<std::string> out;
  if (o.format == ExplainOptions::Format::Text) {
    textLines(tree, 0, false, o, out);
    if (!input.runsOn.empty()) out.push_back("Runs On: " + input.runsOn);
    if (summary) out.push_back("Planning Time: " + ms(input.planningMs) + " ms");
    if (summary && o.analyze && input.jit) jitText(*input.jit, out);
    if (summary && o.analyze) out.push_back("Compile Time: " + ms(input.compileMs) + " ms");
    if (summary && o.analyze) out.push_back("Execution Time: " + ms(input.executionMs) + " ms");
    return out;
  }
  JsonObject doc(2);
  doc.add("Plan", jsonPlan(tree, 4, o));
  if (!input.runsOn.empty()) doc.add("Runs On", jsonString(input.runsOn));
  if (summary) doc.add("Planning Time", ms(input.planningMs));
  if (summary && o.analyze && input.jit) doc.add("JIT", jitJson(*input.jit));
  if (summary && o.analyze) doc.add("Compile Time", ms(input.compileMs));
  if (summary && o.analyze) doc.add("Execution Time", ms(input.executionMs));
  out.push_back("[\n  " + doc.str() + "\n]");
  return out;
}

}  // namespace duet::plan
