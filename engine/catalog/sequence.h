// Sequences (CREATE SEQUENCE, SERIAL and identity columns): their parameters, checked as
// PostgreSQL's init_params checks them, and their state, which nextval and setval move
// outside any transaction (a rollback gives no value back, as in PostgreSQL).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "engine/types/type_id.h"

namespace duet {

struct Schema;

// What a CREATE or ALTER SEQUENCE (or an identity column's option list) says; what it
// leaves out keeps its default (CREATE) or its current value (ALTER).
struct SequenceOptions {
  // (Every member has an initializer, so designated initializers may name any few.)
  std::optional<TypeId> type = {};  // AS smallint | integer | bigint (other types: 22023)
  std::optional<int64_t> increment = {}, start = {}, cache = {};
  std::optional<int64_t> minValue = {}, maxValue = {};
  bool noMinValue = false, noMaxValue = false;  // NO MINVALUE / NO MAXVALUE: the type's bound
  std::optional<bool> cycle = {};
  bool restart = false;  // RESTART [WITH restartWith]
  std::optional<int64_t> restartWith = {};
};

struct SequenceInfo {
  uint32_t oid = 0;
  std::string name;
  Schema* schema = nullptr;
  TypeId type = TypeId::Int8;
  int64_t start = 1, increment = 1, minValue = 1, maxValue = INT64_MAX, cache = 1;
  bool cycle = false;
  // The state nextval moves: the value it handed out last, or (not yet called) the one
  // it hands out next.
  int64_t lastValue = 1;
  bool isCalled = false;
  // OWNED BY table.column (SERIAL's and identity's sequences): dropped with the table or
  // column; 0 when owned by nothing. `identity`: the sequence of an identity column.
  uint32_t ownerTable = 0;
  std::string ownerColumn;
  bool identity = false;

  // CREATE (creating) or ALTER SEQUENCE's parameters, with PostgreSQL's checks and errors
  // (22023); nothing changes when one fails.
  void apply(const SequenceOptions& options, bool creating);
  // nextval: the next value, or 2200H when the sequence is exhausted and does not cycle.
  int64_t next();
  // setval(value, isCalled): 22003 when the value is outside the bounds.
  void set(int64_t value, bool called);
};

// "smallint", "integer", "bigint": a sequence's type as format_type names it.
const char* sequenceTypeName(TypeId type);

}  // namespace duet
