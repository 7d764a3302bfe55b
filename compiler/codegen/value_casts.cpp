// Casts between SQL types: the conversions with one obvious IR form (integer widths, integer
// to float or numeric) inline, typmods and everything else through the runtime casts
// (PostgreSQL's rules).
#include "compiler/codegen/runtime_names.h"
#include "compiler/codegen/sql_value.h"

namespace duet::codegen {

SqlValue ValueBuilder::cast(const SqlValue& v, SqlType to, bool explicitCast) {
  SqlType from = v.type;
  // int2vector and oidvector read and print their own text (type_aliases.h).
  if (isVectorAlias(to.alias) && isStringType(from.id))
    return strict({v}, to, [&] {
      return call("duet_rt_vector_in", ptrTy_, {v.v, b_.getInt32(static_cast<int>(to.alias)), typeContext()});
    });
  if (isVectorAlias(from.alias) && isStringType(to.id)) {
    SqlValue text = strict({v}, {TypeId::Text, -1}, [&] {
      return call("duet_rt_vector_out", ptrTy_, {v.v, b_.getInt32(static_cast<int>(from.alias)), typeContext()});
    });
    return cast(text, to, explicitCast);
  }
  if (from.isArray() || to.isArray()) return castArray(v, to, explicitCast);
  // A composite value's I/O conversions: record_out, then the string type's rules; record_in.
  if (from.id == TypeId::Record && isStringType(to.id)) {
    SqlValue text =
        strict({v}, {TypeId::Text, -1}, [&] { return call("duet_rt_record_out", ptrTy_, {v.v, typeContext()}); });
    return cast(text, to, explicitCast);
  }
  if (isStringType(from.id) && to.id == TypeId::Record) {
    return strict({v}, to,
                  [&] { return call("duet_rt_record_in", ptrTy_, {v.v, b_.getInt32(to.typmod), typeContext()}); });
  }
  if (from.alias != to.alias) {
    // The alias types' own input and output (engine/types/type_aliases.h): a string read
    // into an oid or a reg* type, a reg* value printed as its name, a string made a name or
    // a "char". Between an alias and anything else of its representation the value stays.
    auto aliasArg = [&](TypeAlias a) { return b_.getInt32(static_cast<int>(a)); };
    if (isOidAlias(to.alias) && isStringType(from.id))
      return strict({v}, to,
                    [&] { return call("duet_rt_oid_in", sqlType(to.id), {v.v, aliasArg(to.alias), typeContext()}); });
    if (isRegAlias(from.alias) && isStringType(to.id)) {
      SqlValue name = strict({v}, {TypeId::Text, -1}, [&] {
        return call("duet_rt_reg_out", ptrTy_, {v.v, aliasArg(from.alias), typeContext()});
      });
      return cast(name, to, explicitCast);
    }
    if ((to.alias == TypeAlias::Name || to.alias == TypeAlias::InternalChar) && isStringType(from.id)) {
      SqlValue text = from.id == TypeId::Text ? v : cast(v, {TypeId::Text, -1}, explicitCast);
      return strict({text}, to, [&] { return call("duet_rt_name_coerce", ptrTy_, {text.v, aliasArg(to.alias)}); });
    }
  }
  if (from.id == to.id) {
    bool needsTypmod =
        to.typmod >= 0 && from.typmod != to.typmod &&
        (to.id == TypeId::Varchar || to.id == TypeId::Char || to.id == TypeId::Numeric || to.id == TypeId::Interval);
    // varchar(n) into varchar(m >= n) always fits and is never padded.
    if (to.id == TypeId::Varchar && from.typmod >= 0 && from.typmod <= to.typmod) needsTypmod = false;
    if (!needsTypmod) return {v.v, v.null, to};
    return strict({v}, to, [&]() -> llvm::Value* {
      if (to.id == TypeId::Numeric)
        return call("duet_rt_numeric_apply_typmod", sqlType(to.id), {v.v, b_.getInt32(to.typmod)});
      if (to.id == TypeId::Interval)
        return call("duet_rt_interval_apply_typmod", sqlType(to.id), {v.v, b_.getInt32(to.typmod)});
      return call(
          "duet_rt_string_coerce", ptrTy_,
          {v.v, b_.getInt32(static_cast<int>(to.id)), b_.getInt32(to.typmod), b_.getInt8(explicitCast ? 1 : 0)});
    });
  }
  return strict({v}, to, [&]() -> llvm::Value* {
    TypeId f = from.id, t = to.id;
    if (isIntegerType(f) && isIntegerType(t)) {
      unsigned fb = v.v->getType()->getIntegerBitWidth(), tb = sqlType(t)->getIntegerBitWidth();
      if (tb > fb) return b_.CreateSExt(v.v, sqlType(t));
      llvm::Value* narrowed = b_.CreateTrunc(v.v, sqlType(t));
      ifThen(b_.CreateICmpNE(b_.CreateSExt(narrowed, v.v->getType()), v.v), [&] { raiseIntegerOverflow(t); });
      return narrowed;
    }
    if (isIntegerType(f) && (t == TypeId::Float4 || t == TypeId::Float8)) return b_.CreateSIToFP(v.v, sqlType(t));
    if (isIntegerType(f) && t == TypeId::Numeric) {
      // An integer is its own mantissa at scale 0 (NumericRep); only a typmod needs the runtime.
      llvm::Value* n = b_.CreateShl(b_.CreateSExt(v.v, sqlType(t)), 8);
      if (to.typmod < 0) return n;
      return call("duet_rt_numeric_apply_typmod", sqlType(t), {n, b_.getInt32(to.typmod)});
    }
    if (f == TypeId::Float4 && t == TypeId::Float8) return b_.CreateFPExt(v.v, sqlType(t));
    if (f == TypeId::Date && t == TypeId::Timestamp) return call("duet_rt_date_to_timestamp", sqlType(t), {v.v});
    if (f == TypeId::Timestamp && t == TypeId::Date) return call("duet_rt_timestamp_to_date", sqlType(t), {v.v});
    // Same representation, no limit; but char(n) loses its padding (the runtime cast's rtrim1).
    if (isStringType(f) && f != TypeId::Char && t == TypeId::Text) return v.v;
    // Everything else: the runtime cast (PostgreSQL's rules, typmod applied there).
    llvm::Value* in = f == TypeId::Bool ? b_.CreateZExt(v.v, b_.getInt8Ty()) : v.v;
    llvm::Type* ret = t == TypeId::Bool ? b_.getInt8Ty() : sqlType(t);
    llvm::Value* r =
        call(rtCast(f, t), ret, {in, b_.getInt32(to.typmod), b_.getInt8(explicitCast ? 1 : 0), typeContext()});
    return t == TypeId::Bool ? b_.CreateICmpNE(r, b_.getInt8(0)) : r;
  });
}

// Casts to, from and between array types (the binder allows only these: arrays of castable
// elements, and the I/O conversions with the string types).
SqlValue ValueBuilder::castArray(const SqlValue& v, SqlType to, bool explicitCast) {
  SqlType from = v.type;
  if (from.isArray() && to.isArray()) {
    bool typmodApplies = to.typmod >= 0 && to.typmod != from.typmod &&
                         (to.element == TypeId::Varchar || to.element == TypeId::Char || to.element == TypeId::Numeric);
    if (from.element == to.element && !typmodApplies) return {v.v, v.null, to};
    return strict({v}, to, [&] {
      return call("duet_rt_array_cast", ptrTy_,
                  {v.v, b_.getInt32(static_cast<int>(to.element)), b_.getInt32(to.typmod),
                   b_.getInt8(explicitCast ? 1 : 0), typeContext()});
    });
  }
  if (from.isArray()) {  // array_out, then the string type's length rules
    return strict({v}, to, [&]() -> llvm::Value* {
      llvm::Value* text = call("duet_rt_array_out", ptrTy_, {v.v, typeContext()});
      if (to.id == TypeId::Text) return text;
      return call(
          "duet_rt_string_coerce", ptrTy_,
          {text, b_.getInt32(static_cast<int>(to.id)), b_.getInt32(to.typmod), b_.getInt8(explicitCast ? 1 : 0)});
    });
  }
  return strict({v}, to, [&] {  // array_in from a string
    return call("duet_rt_array_in", ptrTy_,
                {v.v, b_.getInt32(static_cast<int>(to.element)), b_.getInt32(to.typmod),
                 b_.getInt8(explicitCast ? 1 : 0), typeContext()});
  });
}

}  // namespace duet::codegen
