#include "compiler/codegen/runtime_names.h"

namespace duet::codegen {

std::string rtTypeName(TypeId t) {
  switch (t) {
    case TypeId::Bool: return "bool";
    case TypeId::Int2: return "int2";
    case TypeId::Int4: return "int4";
    case TypeId::Int8: return "int8";
    case TypeId::Float4: return "float4";
    case TypeId::Float8: return "float8";
    case TypeId::Numeric: return "numeric";
    case TypeId::Char: return "bpchar";
    case TypeId::Varchar: return "varchar";
    case TypeId::Date: return "date";
    case TypeId::Timestamp: return "timestamp";
    case TypeId::TimestampTz: return "timestamptz";
    case TypeId::Interval: return "interval";
    case TypeId::Bytea: return "bytea";
    case TypeId::Uuid: return "uuid";
    case TypeId::Json: return "json";
    case TypeId::Jsonb: return "jsonb";
    default: return "text";
  }
}

std::string rtCompare(TypeId t) {
  if (t == TypeId::Array) return "duet_rt_array_cmp";
  if (t == TypeId::Char) return "duet_rt_bpchar_cmp";
  if (t == TypeId::Jsonb) return "duet_rt_jsonb_cmp";
  if (isByteStringType(t)) return "duet_rt_text_cmp";  // bytea: memcmp order, as text's (json has no ordering)
  return "duet_rt_" + rtTypeName(t) + "_cmp";
}

std::string rtArith(plan::Op op, TypeId t) {
  const char* name = "add";
  switch (op) {
    case plan::Op::Add: name = "add"; break;
    case plan::Op::Sub: name = "sub"; break;
    case plan::Op::Mul: name = "mul"; break;
    case plan::Op::Div: name = "div"; break;
    case plan::Op::Mod: name = "mod"; break;
    case plan::Op::Pow: name = "pow"; break;
    case plan::Op::Neg: name = "neg"; break;
    default: break;
  }
  return "duet_rt_" + rtTypeName(t) + "_" + name;
}

std::string rtCast(TypeId from, TypeId to) { return "duet_rt_cast_" + rtTypeName(from) + "_to_" + rtTypeName(to); }

}  // namespace duet::codegen
