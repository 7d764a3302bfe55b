#include "compiler/functions/builtin_functions.h"

#include <unordered_map>

#include "compiler/runtime/array_functions.h"
#include "compiler/runtime/catalog_functions.h"
#include "compiler/runtime/query_runtime.h"
#include "compiler/runtime/sequence_functions.h"
#include "compiler/runtime/set_functions.h"
#include "compiler/runtime/transaction_functions.h"
#include "engine/types/runtime.h"

namespace duet {
namespace {

// The runtime function a row calls: its name, for generated code, and its address, for the JIT.
#define DUET_FN(fn) #fn, reinterpret_cast<void*>(&fn)

using enum TypeId;
constexpr Volatility kImmutable = Volatility::Immutable;
constexpr Volatility kStable = Volatility::Stable;
constexpr Volatility kVolatile = Volatility::Volatile;

// clang-format off: one function a line
const std::vector<BuiltinFunction> kCoreFunctions = {
    // name                  arguments          result        volatility  strict  runtime function
    // Date/time: the transaction's start, the statement's start, the clock (replayable).
    {"now",                   {},                TimestampTz, kStable,    true, DUET_FN(duet_q_now)},
    {"transaction_timestamp", {},                TimestampTz, kStable,    true, DUET_FN(duet_q_now)},
    {"current_timestamp",     {},                TimestampTz, kStable,    true, DUET_FN(duet_q_now)},
    {"statement_timestamp",   {},                TimestampTz, kStable,    true, DUET_FN(duet_q_statement_timestamp)},
    {"clock_timestamp",       {},                TimestampTz, kVolatile,  true, DUET_FN(duet_q_clock_timestamp)},
    // Random numbers from the session's generator (its state is what a replay restores).
    {"random",                {},                Float8,      kVolatile,  true, DUET_FN(duet_q_random)},
    {"setseed",               {Float8},          Text,        kVolatile,  true, DUET_FN(duet_q_setseed)},
    // Settings.
    {"current_setting",       {Text},            Text,        kStable,    true, DUET_FN(duet_q_current_setting)},
    // The catalog (catalog_functions.h): what psql, pg_dump and the drivers ask.
    {"current_database",      {},                Text,        kStable,    true, DUET_FN(duet_q_current_database)},
    {"current_schema",        {},                Text,        kStable,    true, DUET_FN(duet_q_current_schema), Unknown, 0, true},
    {"current_schemas",       {Bool},            Array,       kStable,    true, DUET_FN(duet_q_current_schemas), Text},
    {"format_type",           {Int8, Int4},      Text,        kStable,    true, DUET_FN(duet_q_format_type)},
    {"format_type",           {Int8},            Text,        kStable,    true, DUET_FN(duet_q_format_type_plain)},
    {"pg_get_userbyid",       {Int8},            Text,        kStable,    true, DUET_FN(duet_q_pg_get_userbyid)},
    {"pg_get_indexdef",       {Int8},            Text,        kStable,    true, DUET_FN(duet_q_pg_get_indexdef), Unknown, 0, true},
    {"pg_get_indexdef",       {Int8, Int4, Bool}, Text,       kStable,    true, DUET_FN(duet_q_pg_get_indexdef_column), Unknown, 0, true},
    {"pg_get_constraintdef",  {Int8},            Text,        kStable,    true, DUET_FN(duet_q_pg_get_constraintdef), Unknown, 0, true},
    {"pg_get_constraintdef",  {Int8, Bool},      Text,        kStable,    true, DUET_FN(duet_q_pg_get_constraintdef_pretty), Unknown, 0, true},
    {"pg_get_viewdef",        {Int8},            Text,        kStable,    true, DUET_FN(duet_q_pg_get_viewdef), Unknown, 0, true},
    {"pg_get_expr",           {Text, Int8},      Text,        kStable,    true, DUET_FN(duet_q_pg_get_expr)},
    {"pg_get_expr",           {Text, Int8, Bool}, Text,       kStable,    true, DUET_FN(duet_q_pg_get_expr_pretty)},
    {"pg_table_is_visible",   {Int8},            Bool,        kStable,    true, DUET_FN(duet_q_pg_table_is_visible)},
    {"pg_type_is_visible",    {Int8},            Bool,        kStable,    true, DUET_FN(duet_q_pg_type_is_visible)},
    {"pg_function_is_visible", {Int8},           Bool,        kStable,    true, DUET_FN(duet_q_pg_function_is_visible)},
    {"pg_collation_is_visible", {Int8},          Bool,        kStable,    true, DUET_FN(duet_q_pg_collation_is_visible)},
    {"obj_description",       {Int8, Text},      Text,        kStable,    true, DUET_FN(duet_q_obj_description), Unknown, 0, true},
    {"shobj_description",     {Int8, Text},      Text,        kStable,    true, DUET_FN(duet_q_no_description), Unknown, 0, true},
    {"col_description",       {Int8, Int4},      Text,        kStable,    true, DUET_FN(duet_q_col_description), Unknown, 0, true},
    {"pg_encoding_to_char",   {Int4},            Text,        kStable,    true, DUET_FN(duet_q_pg_encoding_to_char)},
    {"pg_get_function_result", {Int8},           Text,        kStable,    true, DUET_FN(duet_q_pg_get_function_result), Unknown, 0, true},
    {"pg_get_function_arguments", {Int8},        Text,        kStable,    true, DUET_FN(duet_q_pg_get_function_arguments), Unknown, 0, true},
    {"pg_get_function_identity_arguments", {Int8}, Text,      kStable,    true, DUET_FN(duet_q_pg_get_function_identity_arguments), Unknown, 0, true},
    {"pg_get_functiondef",    {Int8},            Text,        kStable,    true, DUET_FN(duet_q_pg_get_functiondef), Unknown, 0, true},
    {"pg_relation_is_publishable", {Int8},       Bool,        kStable,    true, DUET_FN(duet_q_pg_relation_is_publishable)},
    {"pg_get_statisticsobjdef_columns", {Int8},  Text,        kStable,    true, DUET_FN(duet_q_pg_get_statisticsobjdef_columns), Unknown, 0, true},
    {"pg_backend_pid",        {},                Int4,        kStable,    true, DUET_FN(duet_q_pg_backend_pid)},
    {"pg_is_in_recovery",     {},                Bool,        kVolatile,  true, DUET_FN(duet_q_pg_is_in_recovery)},
    {"acldefault",            {Text, Int8},      Array,       kStable,    true, DUET_FN(duet_q_acldefault), Text},
    {"pg_get_triggerdef",     {Int8},            Text,        kStable,    true, DUET_FN(duet_q_no_definition), Unknown, 0, true},
    {"pg_get_triggerdef",     {Int8, Bool},      Text,        kStable,    true, DUET_FN(duet_q_no_definition_pretty), Unknown, 0, true},
    {"pg_get_ruledef",        {Int8},            Text,        kStable,    true, DUET_FN(duet_q_no_definition), Unknown, 0, true},
    {"pg_get_ruledef",        {Int8, Bool},      Text,        kStable,    true, DUET_FN(duet_q_no_definition_pretty), Unknown, 0, true},
    {"pg_get_partkeydef",     {Int8},            Text,        kStable,    true, DUET_FN(duet_q_no_definition), Unknown, 0, true},
    {"pg_get_statisticsobjdef", {Int8},          Text,        kStable,    true, DUET_FN(duet_q_no_definition), Unknown, 0, true},
    {"pg_get_function_sqlbody", {Int8},          Text,        kStable,    true, DUET_FN(duet_q_no_definition), Unknown, 0, true},
    {"pg_get_serial_sequence", {Text, Text},     Text,        kStable,    true, DUET_FN(duet_q_pg_get_serial_sequence), Unknown, 0, true},
    {"pg_database_size",      {Text},            Int8,        kStable,    true, DUET_FN(duet_q_database_size)},
    {"pg_size_pretty",        {Int8},            Text,        kImmutable, true, DUET_FN(duet_q_pg_size_pretty)},
    {"pg_postmaster_start_time", {},             TimestampTz, kStable,    true, DUET_FN(duet_q_pg_postmaster_start_time)},
    // Arrays (array_functions.h).
    {"array_remove",          {Array, Unknown},  Array,       kImmutable, true, DUET_FN(duet_q_array_remove),
                              Unknown, 0, false, false, false, {}, 0, true, false, Unknown, {}, true},
    {"array_to_string",       {Array, Text},     Text,        kStable,    true, DUET_FN(duet_q_array_to_string), Unknown, 0, false, false, true},
    {"array_to_string",       {Array, Text, Text}, Text,      kStable,    true, DUET_FN(duet_q_array_to_string_nulls), Unknown, 0, false, false, true},
    {"set_config",            {Text, Text, Bool}, Text,       kVolatile,  true, DUET_FN(duet_q_set_config)},
    // Sequences (sequence_functions.h), by regclass or by name.
    {"nextval",               {Int8},            Int8,        kVolatile,  true, DUET_FN(duet_q_nextval)},
    {"nextval",               {Text},            Int8,        kVolatile,  true, DUET_FN(duet_q_nextval_name)},
    {"currval",               {Int8},            Int8,        kVolatile,  true, DUET_FN(duet_q_currval)},
    {"currval",               {Text},            Int8,        kVolatile,  true, DUET_FN(duet_q_currval_name)},
    {"setval",                {Int8, Int8},      Int8,        kVolatile,  true, DUET_FN(duet_q_setval)},
    {"setval",                {Text, Int8},      Int8,        kVolatile,  true, DUET_FN(duet_q_setval_name)},
    {"setval",                {Int8, Int8, Bool}, Int8,       kVolatile,  true, DUET_FN(duet_q_setval_called)},
    {"setval",                {Text, Int8, Bool}, Int8,       kVolatile,  true, DUET_FN(duet_q_setval_called_name)},
    {"lastval",               {},                Int8,        kVolatile,  true, DUET_FN(duet_q_lastval)},
    // What SELECT ... FROM a sequence reads (session_state.cpp reads a sequence as a query of these).
    {"duet_sequence_value",   {Int8},            Int8,        kStable,    true, DUET_FN(duet_q_sequence_value)},
    {"duet_sequence_is_called", {Int8},          Bool,        kStable,    true, DUET_FN(duet_q_sequence_is_called)},
    // LISTEN / NOTIFY (PostgreSQL's result is void, which prints as '').
    {"pg_notify",             {Text, Text},      Text,        kVolatile,  true, DUET_FN(duet_q_pg_notify)},
    // Advisory locks (transaction_functions.h; void results are '').
    {"pg_advisory_lock",      {Int8},            Text,        kVolatile,  true, DUET_FN(duet_q_advisory_lock)},
    {"pg_advisory_lock",      {Int4, Int4},      Text,        kVolatile,  true, DUET_FN(duet_q_advisory_lock_pair)},
    {"pg_try_advisory_lock",  {Int8},            Bool,        kVolatile,  true, DUET_FN(duet_q_try_advisory_lock)},
    {"pg_try_advisory_lock",  {Int4, Int4},      Bool,        kVolatile,  true, DUET_FN(duet_q_try_advisory_lock_pair)},
    {"pg_advisory_lock_shared", {Int8},            Text,        kVolatile,  true, DUET_FN(duet_q_advisory_lock_shared)},
    {"pg_advisory_lock_shared", {Int4, Int4},      Text,        kVolatile,  true, DUET_FN(duet_q_advisory_lock_shared_pair)},
    {"pg_try_advisory_lock_shared", {Int8},            Bool,        kVolatile,  true, DUET_FN(duet_q_try_advisory_lock_shared)},
    {"pg_try_advisory_lock_shared", {Int4, Int4},      Bool,        kVolatile,  true, DUET_FN(duet_q_try_advisory_lock_shared_pair)},
    {"pg_advisory_xact_lock", {Int8},            Text,        kVolatile,  true, DUET_FN(duet_q_advisory_xact_lock)},
    {"pg_advisory_xact_lock", {Int4, Int4},      Text,        kVolatile,  true, DUET_FN(duet_q_advisory_xact_lock_pair)},
    {"pg_try_advisory_xact_lock", {Int8},            Bool,        kVolatile,  true, DUET_FN(duet_q_try_advisory_xact_lock)},
    {"pg_try_advisory_xact_lock", {Int4, Int4},      Bool,        kVolatile,  true, DUET_FN(duet_q_try_advisory_xact_lock_pair)},
    {"pg_advisory_xact_lock_shared", {Int8},            Text,        kVolatile,  true, DUET_FN(duet_q_advisory_xact_lock_shared)},
    {"pg_advisory_xact_lock_shared", {Int4, Int4},      Text,        kVolatile,  true, DUET_FN(duet_q_advisory_xact_lock_shared_pair)},
    {"pg_try_advisory_xact_lock_shared", {Int8},            Bool,        kVolatile,  true, DUET_FN(duet_q_try_advisory_xact_lock_shared)},
    {"pg_try_advisory_xact_lock_shared", {Int4, Int4},      Bool,        kVolatile,  true, DUET_FN(duet_q_try_advisory_xact_lock_shared_pair)},
    {"pg_advisory_unlock",    {Int8},            Bool,        kVolatile,  true, DUET_FN(duet_q_advisory_unlock)},
    {"pg_advisory_unlock",    {Int4, Int4},      Bool,        kVolatile,  true, DUET_FN(duet_q_advisory_unlock_pair)},
    {"pg_advisory_unlock_shared", {Int8},            Bool,        kVolatile,  true, DUET_FN(duet_q_advisory_unlock_shared)},
    {"pg_advisory_unlock_shared", {Int4, Int4},      Bool,        kVolatile,  true, DUET_FN(duet_q_advisory_unlock_shared_pair)},
    {"pg_advisory_unlock_all", {},                Text,        kVolatile,  true, DUET_FN(duet_q_advisory_unlock_all)},
    {"txid_current",          {},                Int8,        kStable,    true, DUET_FN(duet_q_txid_current)},
    // Strings.
    {"length",                {Text},            Int4,        kImmutable, true, DUET_FN(duet_rt_text_length)},
    {"char_length",           {Text},            Int4,        kImmutable, true, DUET_FN(duet_rt_text_length)},
    {"character_length",      {Text},            Int4,        kImmutable, true, DUET_FN(duet_rt_text_length)},
    {"lower",                 {Text},            Text,        kImmutable, true, DUET_FN(duet_rt_text_lower)},
    {"upper",                 {Text},            Text,        kImmutable, true, DUET_FN(duet_rt_text_upper)},
    {"substr",                {Text, Int4},      Text,        kImmutable, true, DUET_FN(duet_rt_text_substr_from)},
    {"substr",                {Text, Int4, Int4}, Text,       kImmutable, true, DUET_FN(duet_rt_text_substr)},
    {"substring",             {Text, Int4},      Text,        kImmutable, true, DUET_FN(duet_rt_text_substr_from)},
    {"substring",             {Text, Int4, Int4}, Text,       kImmutable, true, DUET_FN(duet_rt_text_substr)},
    // substring(s FROM pattern [FOR escape]): a regular expression, or a SIMILAR TO pattern
    // with its escape; NULL without a match.
    {"substring",             {Text, Text},      Text,        kImmutable, true, DUET_FN(duet_rt_text_substring_regex), Unknown, 0, true},
    {"substring",             {Text, Text, Text}, Text,       kImmutable, true, DUET_FN(duet_rt_text_substring_similar), Unknown, 0, true},
    // POSITION(a IN b) is parsed as position(b, a), as strpos(b, a).
    {"strpos",                {Text, Text},      Int4,        kImmutable, true, DUET_FN(duet_rt_text_position)},
    {"position",              {Text, Text},      Int4,        kImmutable, true, DUET_FN(duet_rt_text_position)},
    {"split_part",            {Text, Text, Int4}, Text,       kImmutable, true, DUET_FN(duet_rt_text_split_part)},
    {"replace",               {Text, Text, Text}, Text,       kImmutable, true, DUET_FN(duet_rt_text_replace)},
    {"translate",             {Text, Text, Text}, Text,       kImmutable, true, DUET_FN(duet_rt_text_translate)},
    {"lpad",                  {Text, Int4},      Text,        kImmutable, true, DUET_FN(duet_rt_text_lpad_space)},
    {"lpad",                  {Text, Int4, Text}, Text,       kImmutable, true, DUET_FN(duet_rt_text_lpad)},
    {"rpad",                  {Text, Int4},      Text,        kImmutable, true, DUET_FN(duet_rt_text_rpad_space)},
    {"rpad",                  {Text, Int4, Text}, Text,       kImmutable, true, DUET_FN(duet_rt_text_rpad)},
    {"left",                  {Text, Int4},      Text,        kImmutable, true, DUET_FN(duet_rt_text_left)},
    {"right",                 {Text, Int4},      Text,        kImmutable, true, DUET_FN(duet_rt_text_right)},
    {"repeat",                {Text, Int4},      Text,        kImmutable, true, DUET_FN(duet_rt_text_repeat)},
    {"reverse",               {Text},            Text,        kImmutable, true, DUET_FN(duet_rt_text_reverse)},
    {"initcap",               {Text},            Text,        kImmutable, true, DUET_FN(duet_rt_text_initcap)},
    {"ascii",                 {Text},            Int4,        kImmutable, true, DUET_FN(duet_rt_text_ascii)},
    {"chr",                   {Int4},            Text,        kImmutable, true, DUET_FN(duet_rt_text_chr)},
    {"starts_with",           {Text, Text},      Bool,        kImmutable, true, DUET_FN(duet_rt_text_starts_with)},
    // OVERLAY(s PLACING r FROM n [FOR m]) is parsed as overlay(s, r, n [, m]).
    {"overlay",               {Text, Text, Int4, Int4}, Text, kImmutable, true, DUET_FN(duet_rt_text_overlay)},
    {"overlay",               {Text, Text, Int4}, Text,       kImmutable, true, DUET_FN(duet_rt_text_overlay_no_count)},
    // TRIM([BOTH|LEADING|TRAILING] [chars] FROM s) is parsed as btrim/ltrim/rtrim(s [, chars]).
    {"btrim",                 {Text},            Text,        kImmutable, true, DUET_FN(duet_rt_text_btrim_space)},
    {"btrim",                 {Text, Text},      Text,        kImmutable, true, DUET_FN(duet_rt_text_btrim)},
    {"ltrim",                 {Text},            Text,        kImmutable, true, DUET_FN(duet_rt_text_ltrim_space)},
    {"ltrim",                 {Text, Text},      Text,        kImmutable, true, DUET_FN(duet_rt_text_ltrim)},
    {"rtrim",                 {Text},            Text,        kImmutable, true, DUET_FN(duet_rt_text_rtrim_space)},
    {"rtrim",                 {Text, Text},      Text,        kImmutable, true, DUET_FN(duet_rt_text_rtrim)},
    // Strings over "any" arguments (anyArgs: their output texts in one text[], NULLs kept):
    // concat and concat_ws skip NULLs, format prints them as its specifiers say,
    // quote_nullable spells them NULL, quote_literal returns NULL for them.
    {"concat",                {},                Text,        kStable,    true, DUET_FN(duet_rt_text_concat_values), Unknown, kVariadicAny},
    {"concat_ws",             {Text},            Text,        kStable,    true, DUET_FN(duet_rt_text_concat_ws), Unknown, kVariadicAny},
    {"format",                {Text},            Text,        kStable,    true, DUET_FN(duet_rt_text_format_no_args)},
    {.name = "format", .args = {Text}, .result = Text, .volatility = kStable, .strict = true, .symbol = "duet_rt_text_format",
     .address = reinterpret_cast<void*>(&duet_rt_text_format), .anyArgs = kVariadicAny, .variadicNullIsEmpty = true},
    {"quote_literal",         {},                Text,        kStable,    true, DUET_FN(duet_rt_text_quote_literal), Unknown, 1, true},
    {"quote_nullable",        {},                Text,        kStable,    true, DUET_FN(duet_rt_text_quote_nullable), Unknown, 1},
    {"quote_ident",           {Text},            Text,        kImmutable, true, DUET_FN(duet_rt_text_quote_ident)},
    {"num_nulls",             {},                Int4,        kImmutable, true, DUET_FN(duet_rt_num_nulls), Unknown, kVariadicAny},
    {"num_nonnulls",          {},                Int4,        kImmutable, true, DUET_FN(duet_rt_num_nonnulls), Unknown, kVariadicAny},
    {"md5",                   {Text},            Text,        kImmutable, true, DUET_FN(duet_rt_text_md5)},
    {"octet_length",          {Text},            Int4,        kImmutable, true, DUET_FN(duet_rt_text_octet_length)},
    {"bit_length",            {Text},            Int4,        kImmutable, true, DUET_FN(duet_rt_text_bit_length)},
    // bytea (engine/types/bytea.h): the text functions where they count, hash or search bytes.
    {"length",                {Bytea},           Int4,        kImmutable, true, DUET_FN(duet_rt_bytea_length)},
    {"octet_length",          {Bytea},           Int4,        kImmutable, true, DUET_FN(duet_rt_text_octet_length)},
    {"bit_length",            {Bytea},           Int4,        kImmutable, true, DUET_FN(duet_rt_text_bit_length)},
    {"md5",                   {Bytea},           Text,        kImmutable, true, DUET_FN(duet_rt_text_md5)},
    {"sha224",                {Bytea},           Bytea,       kImmutable, true, DUET_FN(duet_rt_bytea_sha224)},
    {"sha256",                {Bytea},           Bytea,       kImmutable, true, DUET_FN(duet_rt_bytea_sha256)},
    {"sha384",                {Bytea},           Bytea,       kImmutable, true, DUET_FN(duet_rt_bytea_sha384)},
    {"sha512",                {Bytea},           Bytea,       kImmutable, true, DUET_FN(duet_rt_bytea_sha512)},
    {"encode",                {Bytea, Text},     Text,        kImmutable, true, DUET_FN(duet_rt_bytea_encode)},
    {"decode",                {Text, Text},      Bytea,       kImmutable, true, DUET_FN(duet_rt_bytea_decode)},
    {"substr",                {Bytea, Int4},     Bytea,       kImmutable, true, DUET_FN(duet_rt_bytea_substr_from)},
    {"substr",                {Bytea, Int4, Int4}, Bytea,     kImmutable, true, DUET_FN(duet_rt_bytea_substr)},
    {"substring",             {Bytea, Int4},     Bytea,       kImmutable, true, DUET_FN(duet_rt_bytea_substr_from)},
    {"substring",             {Bytea, Int4, Int4}, Bytea,     kImmutable, true, DUET_FN(duet_rt_bytea_substr)},
    {"position",              {Bytea, Bytea},    Int4,        kImmutable, true, DUET_FN(duet_rt_bytea_position)},
    {"get_byte",              {Bytea, Int4},     Int4,        kImmutable, true, DUET_FN(duet_rt_bytea_get_byte)},
    {"set_byte",              {Bytea, Int4, Int4}, Bytea,     kImmutable, true, DUET_FN(duet_rt_bytea_set_byte)},
    {"convert_to",            {Text, Text},      Bytea,       kStable,    true, DUET_FN(duet_rt_convert_to)},
    {"convert_from",          {Bytea, Text},     Text,        kStable,    true, DUET_FN(duet_rt_convert_from)},
    // uuid: a version 4 uuid from the session's generator, as random() (replayable).
    {"gen_random_uuid",       {},                Uuid,        kVolatile,  true, DUET_FN(duet_q_gen_random_uuid)},
    {"to_hex",                {Int4},            Text,        kImmutable, true, DUET_FN(duet_rt_int4_to_hex)},
    {"to_hex",                {Int8},            Text,        kImmutable, true, DUET_FN(duet_rt_int8_to_hex)},
    // Regular expressions (engine/types/regex.h), a row per argument list; regexp_match
    // is NULL without a match. The operators (~, SIMILAR TO) are the binder's.
    {"regexp_match",          {Text, Text},      Array,       kImmutable, true, DUET_FN(duet_rt_regexp_match), Text, 0, true},
    {"regexp_match",          {Text, Text, Text}, Array,      kImmutable, true, DUET_FN(duet_rt_regexp_match_flags), Text, 0, true},
    {"regexp_replace",        {Text, Text, Text}, Text,       kImmutable, true, DUET_FN(duet_rt_regexp_replace)},
    {"regexp_replace",        {Text, Text, Text, Text}, Text, kImmutable, true, DUET_FN(duet_rt_regexp_replace_flags)},
    {"regexp_replace",        {Text, Text, Text, Int4}, Text, kImmutable, true, DUET_FN(duet_rt_regexp_replace_start)},
    {"regexp_replace",        {Text, Text, Text, Int4, Int4}, Text, kImmutable, true, DUET_FN(duet_rt_regexp_replace_start_n)},
    {"regexp_replace",        {Text, Text, Text, Int4, Int4, Text}, Text, kImmutable, true, DUET_FN(duet_rt_regexp_replace_start_n_flags)},
    {"regexp_split_to_array", {Text, Text},      Array,       kImmutable, true, DUET_FN(duet_rt_regexp_split_to_array), Text},
    {"regexp_split_to_array", {Text, Text, Text}, Array,      kImmutable, true, DUET_FN(duet_rt_regexp_split_to_array_flags), Text},
    // The set-returning ones (returnsSet): in FROM or a select list.
    {"regexp_matches",        {Text, Text},      Array,       kImmutable, true, DUET_FN(duet_q_regexp_matches), Text, 0, false, true},
    {"regexp_matches",        {Text, Text, Text}, Array,      kImmutable, true, DUET_FN(duet_q_regexp_matches_flags), Text, 0, false, true},
    {"regexp_split_to_table", {Text, Text},      Text,        kImmutable, true, DUET_FN(duet_q_regexp_split_to_table), Unknown, 0, false, true},
    {"regexp_split_to_table", {Text, Text, Text}, Text,       kImmutable, true, DUET_FN(duet_q_regexp_split_to_table_flags), Unknown, 0, false, true},
    {"regexp_count",          {Text, Text},      Int4,        kImmutable, true, DUET_FN(duet_rt_regexp_count)},
    {"regexp_count",          {Text, Text, Int4}, Int4,       kImmutable, true, DUET_FN(duet_rt_regexp_count_start)},
    {"regexp_count",          {Text, Text, Int4, Text}, Int4, kImmutable, true, DUET_FN(duet_rt_regexp_count_start_flags)},
    {"regexp_like",           {Text, Text},      Bool,        kImmutable, true, DUET_FN(duet_rt_regexp_like)},
    {"regexp_like",           {Text, Text, Text}, Bool,       kImmutable, true, DUET_FN(duet_rt_regexp_like_flags)},
    // regexp_instr(s, pattern [, start [, n [, endoption [, flags [, subexpr]]]]]).
    {"regexp_instr",          {Text, Text},      Int4,        kImmutable, true, DUET_FN(duet_rt_regexp_instr)},
    {"regexp_instr",          {Text, Text, Int4}, Int4,       kImmutable, true, DUET_FN(duet_rt_regexp_instr_start)},
    {"regexp_instr",          {Text, Text, Int4, Int4}, Int4, kImmutable, true, DUET_FN(duet_rt_regexp_instr_start_n)},
    {"regexp_instr",          {Text, Text, Int4, Int4, Int4}, Int4, kImmutable, true, DUET_FN(duet_rt_regexp_instr_start_n_end)},
    {"regexp_instr",          {Text, Text, Int4, Int4, Int4, Text}, Int4, kImmutable, true, DUET_FN(duet_rt_regexp_instr_start_n_end_flags)},
    {"regexp_instr",          {Text, Text, Int4, Int4, Int4, Text, Int4}, Int4, kImmutable, true, DUET_FN(duet_rt_regexp_instr_start_n_end_flags_sub)},
    // regexp_substr(s, pattern [, start [, n [, flags [, subexpr]]]]): NULL without such a match.
    {"regexp_substr",         {Text, Text},      Text,        kImmutable, true, DUET_FN(duet_rt_regexp_substr), Unknown, 0, true},
    {"regexp_substr",         {Text, Text, Int4}, Text,       kImmutable, true, DUET_FN(duet_rt_regexp_substr_start), Unknown, 0, true},
    {"regexp_substr",         {Text, Text, Int4, Int4}, Text, kImmutable, true, DUET_FN(duet_rt_regexp_substr_start_n), Unknown, 0, true},
    {"regexp_substr",         {Text, Text, Int4, Int4, Text}, Text, kImmutable, true, DUET_FN(duet_rt_regexp_substr_start_n_flags), Unknown, 0, true},
    {"regexp_substr",         {Text, Text, Int4, Int4, Text, Int4}, Text, kImmutable, true, DUET_FN(duet_rt_regexp_substr_start_n_flags_sub), Unknown, 0, true},
    // Series and array elements, set-returning too (compiler/runtime/set_functions.h).
    {"pg_partition_ancestors", {Int8},           Int8,        kStable,    true, DUET_FN(duet_q_pg_partition_ancestors), Unknown, 0, false, true},
    {"generate_series",       {Int4, Int4},      Int4,        kImmutable, true, DUET_FN(duet_q_generate_series_int4), Unknown, 0, false, true},
    {"generate_series",       {Int4, Int4, Int4}, Int4,       kImmutable, true, DUET_FN(duet_q_generate_series_int4_step), Unknown, 0, false, true},
    {"generate_series",       {Int8, Int8},      Int8,        kImmutable, true, DUET_FN(duet_q_generate_series_int8), Unknown, 0, false, true},
    {"generate_series",       {Int8, Int8, Int8}, Int8,       kImmutable, true, DUET_FN(duet_q_generate_series_int8_step), Unknown, 0, false, true},
    {"generate_series",       {Numeric, Numeric}, Numeric,    kImmutable, true, DUET_FN(duet_q_generate_series_numeric), Unknown, 0, false, true},
    {"generate_series",       {Numeric, Numeric, Numeric}, Numeric, kImmutable, true, DUET_FN(duet_q_generate_series_numeric_step), Unknown, 0, false, true},
    {"generate_series",       {Timestamp, Timestamp, Interval}, Timestamp, kImmutable, true, DUET_FN(duet_q_generate_series_timestamp), Unknown, 0, false, true},
    {"generate_series",       {TimestampTz, TimestampTz, Interval}, TimestampTz, kStable, true, DUET_FN(duet_q_generate_series_timestamptz), Unknown, 0, false, true},
    // pg_get_keywords(): a record (word, catcode, barelabel, catdesc, baredesc) per keyword
    // (pgjdbc's getSQLKeywords); catcode is text here, "char" in PostgreSQL.
    {"pg_get_keywords",       {},                Record,      kStable,    true, DUET_FN(duet_q_pg_get_keywords), Unknown, 0, false, true, false, {}, 0, false, false, Unknown, {{"word", Text}, {"catcode", Text}, {"barelabel", Bool}, {"catdesc", Text}, {"baredesc", Text}}},
    // generate_subscripts(anyarray, dim [, reverse]): the subscripts of dimension dim
    // (1 to the length; DuetDB's arrays have the one dimension, and int2vector and
    // oidvector count from 1 like its other arrays, where PostgreSQL's count from 0).
    {"generate_subscripts",   {Array, Int4},     Int4,        kImmutable, true, DUET_FN(duet_q_generate_subscripts), Unknown, 0, false, true, true},
    {"generate_subscripts",   {Array, Int4, Bool}, Int4,      kImmutable, true, DUET_FN(duet_q_generate_subscripts_reverse), Unknown, 0, false, true, true},
    // generate_subscripts of an int2vector or oidvector (the binder's choice): from 0.
    {"duet_vector_subscripts", {Array, Int4},    Int4,        kImmutable, true, DUET_FN(duet_q_vector_subscripts), Unknown, 0, false, true, true},
    {"duet_vector_subscripts", {Array, Int4, Bool}, Int4,     kImmutable, true, DUET_FN(duet_q_vector_subscripts_reverse), Unknown, 0, false, true, true},
    // unnest(anyarray): a row per element, of the array's element type.
    {"unnest",                {Array},           Unknown,     kImmutable, true, DUET_FN(duet_q_unnest), Unknown, 0, false, true, true},
    // unnest(a, b, ...) in FROM: the binder packs the arrays into a record (Binder::unnestZip).
    {"duet_unnest_zip",       {Record},          Record,      kImmutable, true, DUET_FN(duet_q_unnest_zip), Unknown, 0, false, true},
    // information_schema._pg_expandarray(anyarray): a record (x, n) per element, x the
    // element and n its position (pgjdbc's key and index metadata read indkey with it).
    {"information_schema._pg_expandarray", {Array}, Record, kImmutable, true, DUET_FN(duet_q_pg_expandarray), Unknown, 0, false, true, true, {}, 0, false, false, Unknown, {{"x", Unknown}, {"n", Int4}}},
    // Numbers.
    {"round",                 {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_round)},
    {"round",                 {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_round_integral)},
    {"round",                 {Numeric, Int4},   Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_round)},
    {"trunc",                 {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_trunc)},
    {"trunc",                 {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_trunc_integral)},
    {"trunc",                 {Numeric, Int4},   Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_trunc)},
    {"mod",                   {Int2, Int2},      Int2,        kImmutable, true, DUET_FN(duet_rt_int2_mod)},
    {"mod",                   {Int4, Int4},      Int4,        kImmutable, true, DUET_FN(duet_rt_int4_mod)},
    {"mod",                   {Int8, Int8},      Int8,        kImmutable, true, DUET_FN(duet_rt_int8_mod)},
    {"mod",                   {Numeric, Numeric}, Numeric,    kImmutable, true, DUET_FN(duet_rt_numeric_mod)},
    {"div",                   {Numeric, Numeric}, Numeric,    kImmutable, true, DUET_FN(duet_rt_numeric_div_trunc)},
    {"floor",                 {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_floor)},
    {"floor",                 {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_floor)},
    {"ceil",                  {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_ceil)},
    {"ceil",                  {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_ceil)},
    {"ceiling",               {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_ceil)},
    {"ceiling",               {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_ceil)},
    {"sign",                  {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_sign)},
    {"sign",                  {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_sign)},
    {"power",                 {Float8, Float8},  Float8,      kImmutable, true, DUET_FN(duet_rt_float8_pow)},
    {"power",                 {Numeric, Numeric}, Numeric,    kImmutable, true, DUET_FN(duet_rt_numeric_pow)},
    {"pow",                   {Float8, Float8},  Float8,      kImmutable, true, DUET_FN(duet_rt_float8_pow)},
    {"pow",                   {Numeric, Numeric}, Numeric,    kImmutable, true, DUET_FN(duet_rt_numeric_pow)},
    {"sqrt",                  {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_sqrt)},
    {"cbrt",                  {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_cbrt)},
    {"exp",                   {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_exp)},
    {"ln",                    {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_ln)},
    {"log",                   {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_log10)},
    {"log10",                 {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_log10)},
    // sqrt(numeric) with PostgreSQL's result scale; the numeric rows of exp, ln and log raise
    // 0A000 (not implemented): without them a numeric argument would go to the double
    // precision row, unlike in PostgreSQL.
    {"sqrt",                  {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_sqrt)},
    {"exp",                   {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_exp)},
    {"ln",                    {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_ln)},
    {"log",                   {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_log)},
    {"log10",                 {Numeric},         Numeric,     kImmutable, true, DUET_FN(duet_rt_numeric_log10)},
    {"log",                   {Numeric, Numeric}, Numeric,    kImmutable, true, DUET_FN(duet_rt_numeric_log_base)},
    {"width_bucket",          {Float8, Float8, Float8, Int4}, Int4, kImmutable, true, DUET_FN(duet_rt_float8_width_bucket)},
    {"width_bucket",          {Numeric, Numeric, Numeric, Int4}, Int4, kImmutable, true, DUET_FN(duet_rt_numeric_width_bucket)},
    {"width_bucket",          {Unknown, Array},  Int4,        kImmutable, true, DUET_FN(duet_rt_width_bucket_array),
                              Unknown, 0, false, false, false, {}, 0, true},
    // array_position(anycompatiblearray, anycompatible [, start]); 0 for none, which the
    // binder turns into NULL.
    {"array_position",        {Array, Unknown},  Int4,        kImmutable, true, DUET_FN(duet_rt_array_position),
                              Unknown, 0, false, false, false, {}, 0, true},
    {"array_position",        {Array, Unknown, Int4}, Int4,   kImmutable, true, DUET_FN(duet_rt_array_position_from),
                              Unknown, 0, false, false, false, {}, 0, true},
    {"pi",                    {},                Float8,      kImmutable, true, DUET_FN(duet_rt_pi)},
    {"degrees",               {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_degrees)},
    {"radians",               {Float8},          Float8,      kImmutable, true, DUET_FN(duet_rt_float8_radians)},
    // Date/time fields and arithmetic (engine/types/datetime_functions.h); the timestamptz
    // forms read the session's time zone, age(x) the transaction's current_date.
    {"extract",               {Text, Date},      Numeric,     kImmutable, true, DUET_FN(duet_rt_extract_date)},
    {"extract",               {Text, Timestamp}, Numeric,     kImmutable, true, DUET_FN(duet_rt_extract_timestamp)},
    {"extract",               {Text, TimestampTz}, Numeric,   kStable,    true, DUET_FN(duet_q_extract_timestamptz)},
    {"extract",               {Text, Interval},  Numeric,     kImmutable, true, DUET_FN(duet_rt_extract_interval)},
    {"date_part",             {Text, Date},      Float8,      kImmutable, true, DUET_FN(duet_rt_date_part_date)},
    {"date_part",             {Text, Timestamp}, Float8,      kImmutable, true, DUET_FN(duet_rt_date_part_timestamp)},
    {"date_part",             {Text, TimestampTz}, Float8,    kStable,    true, DUET_FN(duet_q_date_part_timestamptz)},
    {"date_part",             {Text, Interval},  Float8,      kImmutable, true, DUET_FN(duet_rt_date_part_interval)},
    {"date_trunc",            {Text, Timestamp}, Timestamp,   kImmutable, true, DUET_FN(duet_rt_date_trunc_timestamp)},
    {"date_trunc",            {Text, TimestampTz}, TimestampTz, kStable,  true, DUET_FN(duet_q_date_trunc_timestamptz)},
    {"date_trunc",            {Text, Interval},  Interval,    kImmutable, true, DUET_FN(duet_rt_date_trunc_interval)},
    {"age",                   {Timestamp, Timestamp}, Interval, kImmutable, true, DUET_FN(duet_rt_timestamp_age)},
    {"age",                   {TimestampTz, TimestampTz}, Interval, kStable, true, DUET_FN(duet_q_timestamptz_age)},
    {"age",                   {Timestamp},       Interval,    kStable,    true, DUET_FN(duet_q_age_timestamp)},
    {"age",                   {TimestampTz},     Interval,    kStable,    true, DUET_FN(duet_q_age_timestamptz)},
    // date_bin(stride, source, origin): the same arithmetic for both types, in UTC.
    {"date_bin",              {Interval, Timestamp, Timestamp}, Timestamp, kImmutable, true, DUET_FN(duet_rt_date_bin)},
    {"date_bin",              {Interval, TimestampTz, TimestampTz}, TimestampTz, kImmutable, true, DUET_FN(duet_rt_date_bin)},
    {"isfinite",              {Date},            Bool,        kImmutable, true, DUET_FN(duet_rt_date_isfinite)},
    {"isfinite",              {Timestamp},       Bool,        kImmutable, true, DUET_FN(duet_rt_timestamp_isfinite)},
    {"isfinite",              {TimestampTz},     Bool,        kImmutable, true, DUET_FN(duet_rt_timestamp_isfinite)},
    {"isfinite",              {Interval},        Bool,        kImmutable, true, DUET_FN(duet_rt_interval_isfinite)},
    // x AT TIME ZONE zone is timezone(zone, x) (the parser's rewrite, as gram.y's).
    {"timezone",              {Text, TimestampTz}, Timestamp, kImmutable, true, DUET_FN(duet_rt_timezone_timestamptz)},
    {"timezone",              {Text, Timestamp}, TimestampTz, kImmutable, true, DUET_FN(duet_rt_timezone_timestamp)},
    {"timezone",              {Interval, TimestampTz}, Timestamp, kImmutable, true, DUET_FN(duet_rt_timezone_interval_timestamptz)},
    {"timezone",              {Interval, Timestamp}, TimestampTz, kImmutable, true, DUET_FN(duet_rt_timezone_interval_timestamp)},
    {"make_date",             {Int4, Int4, Int4}, Date,       kImmutable, true, DUET_FN(duet_rt_make_date)},
    {"make_timestamptz",      {Int4, Int4, Int4, Int4, Int4, Float8}, TimestampTz, kStable, true, DUET_FN(duet_q_make_timestamptz)},
    {"make_timestamptz",      {Int4, Int4, Int4, Int4, Int4, Float8, Text}, TimestampTz, kStable, true, DUET_FN(duet_rt_make_timestamptz_at)},
    // make_interval(years => .., months, weeks, days, hours, mins, secs): every parameter
    // defaults to zero and may be given by name.
    {"make_interval",         {Int4, Int4, Int4, Int4, Int4, Int4, Float8}, Interval, kImmutable, true, DUET_FN(duet_rt_make_interval),
                              Unknown, 0, false, false, false, {"years", "months", "weeks", "days", "hours", "mins", "secs"}, 7},
    {"make_timestamp",        {Int4, Int4, Int4, Int4, Int4, Float8}, Timestamp, kImmutable, true, DUET_FN(duet_rt_make_timestamp)},
    // to_char and its inverses (engine/types/formatting.h): stable, as in PostgreSQL (the
    // TM modifier reads the locale). to_char is NULL for an empty template and for an
    // infinite timestamp.
    {"to_char",               {Timestamp, Text}, Text,        kStable,    true, DUET_FN(duet_rt_to_char_timestamp), Unknown, 0, true},
    {"to_char",               {TimestampTz, Text}, Text,      kStable,    true, DUET_FN(duet_q_to_char_timestamptz), Unknown, 0, true},
    {"to_char",               {Interval, Text},  Text,        kStable,    true, DUET_FN(duet_rt_to_char_interval), Unknown, 0, true},
    {"to_char",               {Numeric, Text},   Text,        kStable,    true, DUET_FN(duet_rt_to_char_numeric), Unknown, 0, true},
    {"to_char",               {Int4, Text},      Text,        kStable,    true, DUET_FN(duet_rt_to_char_int4), Unknown, 0, true},
    {"to_char",               {Int8, Text},      Text,        kStable,    true, DUET_FN(duet_rt_to_char_int8), Unknown, 0, true},
    {"to_char",               {Float8, Text},    Text,        kStable,    true, DUET_FN(duet_rt_to_char_float8), Unknown, 0, true},
    {"to_date",               {Text, Text},      Date,        kStable,    true, DUET_FN(duet_rt_to_date)},
    {"to_timestamp",          {Text, Text},      TimestampTz, kStable,    true, DUET_FN(duet_q_to_timestamp)},
    {"to_timestamp",          {Float8},          TimestampTz, kImmutable, true, DUET_FN(duet_rt_to_timestamp_epoch)},
    {"to_number",             {Text, Text},      Numeric,     kStable,    true, DUET_FN(duet_rt_to_number)},
    {"justify_days",          {Interval},        Interval,    kImmutable, true, DUET_FN(duet_rt_justify_days)},
    {"justify_hours",         {Interval},        Interval,    kImmutable, true, DUET_FN(duet_rt_justify_hours)},
    {"justify_interval",      {Interval},        Interval,    kImmutable, true, DUET_FN(duet_rt_justify_interval)},
};
// clang-format on

#undef DUET_FN

const std::vector<BuiltinFunction> kBuiltinFunctions = [] {
  std::vector<BuiltinFunction> rows = kCoreFunctions;
  for (BuiltinFunction& f : jsonBuiltinFunctions()) rows.push_back(std::move(f));
  return rows;
}();

}  // namespace

std::span<const BuiltinFunction> builtinFunctions() { return kBuiltinFunctions; }

std::vector<const BuiltinFunction*> builtinFunctionsNamed(std::string_view name) {
  static const auto byName = [] {
    std::unordered_multimap<std::string_view, const BuiltinFunction*> m;
    for (const BuiltinFunction& f : kBuiltinFunctions) m.emplace(f.name, &f);
    return m;
  }();
  std::vector<const BuiltinFunction*> out;
  auto [begin, end] = byName.equal_range(name);
  for (auto it = begin; it != end; ++it) out.push_back(it->second);
  return out;
}

const BuiltinFunction* builtinFunctionBySymbol(std::string_view symbol) {
  static const auto bySymbol = [] {
    std::unordered_map<std::string_view, const BuiltinFunction*> m;
    for (const BuiltinFunction& f : kBuiltinFunctions) m.emplace(f.symbol, &f);
    return m;
  }();
  auto it = bySymbol.find(symbol);
  return it == bySymbol.end() ? nullptr : it->second;
}

}  // namespace duet
