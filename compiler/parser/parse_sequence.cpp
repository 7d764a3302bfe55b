// CREATE SEQUENCE, ALTER SEQUENCE, and the sequence options an identity column takes
// (gram.y's SeqOptList: options one after another, without commas).
#include <string>

#include "compiler/parser/parser_impl.h"
#include "engine/error.h"

namespace duet::sql {

namespace {
// Which options conflict when given twice: NO MINVALUE counts as MINVALUE, and so on.
SequenceOption::Kind optionFamily(SequenceOption::Kind k) {
  using K = SequenceOption::Kind;
  switch (k) {
    case K::NoMinValue: return K::MinValue;
    case K::NoMaxValue: return K::MaxValue;
    case K::NoCycle: return K::Cycle;
    default: return k;
  }
}
}  // namespace

int64_t Parser::parseSignedInt64() {
  bool negative = acceptOp("-");
  if (!negative) acceptOp("+");
  const Token& t = peek();
  if (t.kind != TokenKind::Integer) syntaxError();
  advance();
  // Digits beyond int64 are PostgreSQL's "value out of range for type bigint" (22003).
  std::string digits = t.str();
  bool fits = digits.size() < 19 ||
              (digits.size() == 19 && digits <= (negative ? "9223372036854775808" : "9223372036854775807"));
  if (!fits) errorAt("22003", "value \"" + digits + "\" is out of range for type bigint", t.offset);
  if (negative && digits == "9223372036854775808") return INT64_MIN;
  int64_t v = std::stoll(digits);
  return negative ? -v : v;
}

std::vector<SequenceOption> Parser::parseSequenceOptions(bool alter) {
  using K = SequenceOption::Kind;
  std::vector<SequenceOption> out;
  while (true) {
    SequenceOption o;
    o.location = peek().offset;
    if (acceptKw("as")) {
      o.kind = K::As;
      o.type = parseTypeName();
    } else if (acceptKw("increment")) {
      acceptKw("by");
      o.kind = K::Increment;
      o.value = parseSignedInt64();
    } else if (acceptKw("minvalue")) {
      o.kind = K::MinValue;
      o.value = parseSignedInt64();
    } else if (acceptKw("maxvalue")) {
      o.kind = K::MaxValue;
      o.value = parseSignedInt64();
    } else if (isKw("no") && (isKw("minvalue", 1) || isKw("maxvalue", 1) || isKw("cycle", 1))) {
      advance();
      o.kind = acceptKw("minvalue") ? K::NoMinValue : acceptKw("maxvalue") ? K::NoMaxValue : K::NoCycle;
      if (o.kind == K::NoCycle) advance();
    } else if (acceptKw("start")) {
      acceptKw("with");
      o.kind = K::Start;
      o.value = parseSignedInt64();
    } else if (alter && acceptKw("restart")) {
      o.kind = K::Restart;
      acceptKw("with");
      if (peek().kind == TokenKind::Integer || isOp("-") || isOp("+")) {
        o.value = parseSignedInt64();
        o.hasValue = true;
      }
    } else if (acceptKw("cache")) {
      o.kind = K::Cache;
      o.value = parseSignedInt64();
    } else if (acceptKw("cycle")) {
      o.kind = K::Cycle;
    } else if (isKw("owned") && isKw("by", 1)) {
      advance();
      advance();
      o.kind = K::OwnedBy;
      if (!acceptKw("none")) o.name = parseQualifiedName();
    } else if (isKw("sequence") && isKw("name", 1)) {
      advance();
      advance();
      o.kind = K::SequenceName;
      o.name = parseQualifiedName();
    } else {
      return out;
    }
    for (const SequenceOption& seen : out)
      if (optionFamily(seen.kind) == optionFamily(o.kind))
        errorAt(sqlstate::kSyntaxError, "conflicting or redundant options", o.location);
    out.push_back(std::move(o));
  }
}

StmtPtr Parser::parseCreateSequence(bool temporary) {
  expectKw("sequence");
  auto s = std::make_unique<CreateSequenceStmt>();
  s->temporary = temporary;
  s->ifNotExists = acceptIfNotExists();
  s->name = parseQualifiedName();
  s->options = parseSequenceOptions(false);
  return s;
}

StmtPtr Parser::parseAlterSequence() {
  expectKw("alter");
  expectKw("sequence");
  auto s = std::make_unique<AlterSequenceStmt>();
  if (isKw("if")) {
    advance();
    expectKw("exists");
    s->ifExists = true;
  }
  s->name = parseQualifiedName();
  if (acceptKw("rename")) {
    expectKw("to");
    s->newName = parseColId();
  } else if (acceptKw("owner")) {
    expectKw("to");
    s->owner = parseColId();
  } else {
    s->options = parseSequenceOptions(true);
    if (s->options.empty()) syntaxError();
  }
  return s;
}

}  // namespace duet::sql
