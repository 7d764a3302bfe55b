// Functions and procedures as the catalog keeps them (PostgreSQL's pg_proc): signature,
// return type, language and body text. Compiling and calling them is the compiler's job;
// the catalog only stores, finds, replaces and drops them.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/types/polymorphic.h"
#include "engine/types/type_id.h"

namespace duet {

struct Schema;

// A type in a signature. PostgreSQL keeps no type modifiers there (varchar(10) is varchar).
// Composite: a named composite type, CREATE TYPE ... AS or a table's row type (every table
// has one, named like the table), kept by schema and name and looked up at each call; a
// parameter's or a function's result. DROP TYPE and DROP TABLE refuse while a routine uses
// it. Polymorphic: anyelement and its kin, which each call resolves from its arguments.
struct RoutineType {
  enum class Kind : uint8_t { Scalar, Void, Record, Composite, Polymorphic };
  Kind kind = Kind::Scalar;
  TypeId scalar = TypeId::Unknown;                   // Kind::Scalar
  TypeAlias alias = TypeAlias::None;                 // of `scalar`: refcursor, name, oid, ... (a type of its own)
  bool array = false;                                // a one-dimensional array of `scalar`
  std::string tableSchema, table;                    // Kind::Composite: the type's schema and name
  duet::Polymorphic poly = duet::Polymorphic::None;  // Kind::Polymorphic
  bool operator==(const RoutineType&) const = default;
  // Kind::Scalar's type: the scalar (the array's element), or the array.
  SqlType element() const { return {scalar, -1, TypeId::Unknown, alias}; }
  SqlType sqlType() const { return array ? SqlType::arrayOf(element()) : element(); }
  static RoutineType of(Kind k) {
    RoutineType t;
    t.kind = k;
    return t;
  }
};

// format_type's name: "integer", "character varying", "integer[]", "void", "record", the
// table's name.
std::string routineTypeName(const RoutineType& t);

enum class RoutineParamMode : uint8_t { In, Out, InOut, Variadic, Table };

struct RoutineParamInfo {
  std::string name;  // empty when unnamed
  RoutineParamMode mode = RoutineParamMode::In;
  RoutineType type;
  std::string defaultSql;  // DEFAULT expression as SQL text; empty when none
  bool isInput() const {
    return mode == RoutineParamMode::In || mode == RoutineParamMode::InOut || mode == RoutineParamMode::Variadic;
  }
  bool isOutput() const { return !isInput() || mode == RoutineParamMode::InOut; }
  bool operator==(const RoutineParamInfo&) const = default;
};

enum class RoutineKind : uint8_t { Function, Procedure };
enum class RoutineLanguage : uint8_t { PlPgSql, Sql };
enum class Volatility : uint8_t { Immutable, Stable, Volatile };

struct RoutineInfo {
  uint32_t oid = 0;
  std::string name;
  Schema* schema = nullptr;
  RoutineKind kind = RoutineKind::Function;
  std::vector<RoutineParamInfo> params;  // all of them, in order, RETURNS TABLE columns last
  // Functions: the declared (or OUT-derived) result; procedures: void, or record when they
  // have output parameters (as PostgreSQL records them).
  RoutineType returnType;
  bool returnsSet = false;
  RoutineLanguage language = RoutineLanguage::PlPgSql;
  std::string body;  // the AS text, decoded
  Volatility volatility = Volatility::Volatile;
  bool strict = false;
  bool securityDefiner = false;
  // SET clauses (pg_proc.proconfig): settings the routine runs with, by name (as
  // SettingDef spells it, or a custom "a.b"), their values as SET takes them.
  std::vector<std::pair<std::string, std::string>> config;

  // The argument types that identify the routine among overloads: the input arguments,
  // and for procedures the OUT arguments too (PostgreSQL 14 and later).
  std::vector<RoutineType> identityTypes() const;
  // As error messages name it (func_signature_string): name(integer, text).
  std::string signature() const;
  // As object descriptions (DETAIL, NOTICE, HINT) and regprocedure name it
  // (format_procedure): name(integer,text), no space after the commas.
  std::string objectSignature() const;
  int defaultCount() const;
};

// The routine's identity types as PostgreSQL lists them in messages: "integer, text", or
// with `separator` "," as format_procedure does.
std::string routineTypeList(const std::vector<RoutineType>& types, const char* separator = ", ");

}  // namespace duet
