// json and jsonb as SQL values: their input and output functions (text and binary), the
// casts PostgreSQL has between them and from jsonb to the scalar types, and any SQL value
// as JSON (to_json, to_jsonb).
#pragma once
#include <string>
#include <string_view>

#include "engine/types/type_context.h"
#include "engine/types/type_id.h"
#include "engine/types/value.h"

namespace duet {

// json_in: the text itself, once validated (json.h's errors); jsonb_in: its binary tree.
const VarString* jsonIn(std::string_view text, Arena& arena);
const VarString* jsonbIn(std::string_view text, Arena& arena);
// jsonb_send: version byte 1, then the text; jsonb_recv reads that back (version 1 only).
void jsonbSend(const VarString* jsonb, std::string& out);
const VarString* jsonbRecv(std::string_view data, Arena& arena);

// json::jsonb and jsonb::json (assignment casts in PostgreSQL).
const VarString* jsonToJsonb(const VarString* json, Arena& arena);
const VarString* jsonbToJson(const VarString* jsonb, Arena& arena);
// jsonb to boolean, smallint, integer, bigint, real, double precision or numeric (explicit
// casts): only from a top-level scalar of the right kind, else 22023 "cannot cast jsonb
// string to type integer". `out` receives the target's physical representation.
void castJsonbToScalar(const VarString* jsonb, SqlType to, void* out);

// datum_to_json: `value` of `type` as JSON text appended to `out`. Numbers and booleans as
// they print (NaN and Infinity quoted), dates and timestamps in ISO 8601 ("2020-01-01T10:00:00"),
// json as it is, jsonb as it prints, arrays element by element ([1,2]), anything else as
// a string of its output text.
void appendValueJson(SqlType type, const void* value, std::string& out, const TypeContext& ctx);

}  // namespace duet
