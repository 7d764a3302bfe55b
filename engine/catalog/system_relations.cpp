#include "engine/catalog/system_relations.h"

#include <cstring>
#include <stdexcept>

#include "engine/catalog/builtin_types.h"
#include "engine/catalog/system_rows.h"
#include "engine/types/array.h"

namespace duet {
namespace {

// clang-format off: one relation a line, its columns as PostgreSQL 15 lists them
const SystemRelation kRelations[] = {
    {"pg_namespace", 2615, "oid oid, nspname name, nspowner oid, nspacl aclitem[]", fillNamespaces},
    {"pg_class", 1259, "oid oid, relname name, relnamespace oid, reltype oid, reloftype oid, relowner oid, relam oid, "
        "relfilenode oid, reltablespace oid, relpages int4, reltuples float4, relallvisible int4, reltoastrelid oid, "
        "relhasindex bool, relisshared bool, relpersistence char, relkind char, relnatts int2, relchecks int2, "
        "relhasrules bool, relhastriggers bool, relhassubclass bool, relrowsecurity bool, relforcerowsecurity bool, "
        "relispopulated bool, relreplident char, relispartition bool, relrewrite oid, relfrozenxid xid, "
        "relminmxid xid, relacl aclitem[], reloptions text[], relpartbound pg_node_tree", fillClasses},
    {"pg_attribute", 1249, "attrelid oid, attname name, atttypid oid, attstattarget int4, attlen int2, attnum int2, "
        "attndims int4, attcacheoff int4, atttypmod int4, attbyval bool, attalign char, attstorage char, "
        "attcompression char, attnotnull bool, atthasdef bool, atthasmissing bool, attidentity char, "
        "attgenerated char, attisdropped bool, attislocal bool, attinhcount int4, attcollation oid, "
        "attacl aclitem[], attoptions text[], attfdwoptions text[], attmissingval anyarray", fillAttributes},
    {"pg_type", 1247, "oid oid, typname name, typnamespace oid, typowner oid, typlen int2, typbyval bool, "
        "typtype char, typcategory char, typispreferred bool, typisdefined bool, typdelim char, typrelid oid, "
        "typsubscript regproc, typelem oid, typarray oid, typinput regproc, typoutput regproc, "
        "typreceive regproc, typsend regproc, typmodin regproc, typmodout regproc, typanalyze regproc, "
        "typalign char, typstorage char, typnotnull bool, typbasetype oid, typtypmod int4, typndims int4, "
        "typcollation oid, typdefaultbin pg_node_tree, typdefault text, typacl aclitem[]", fillTypes},
    {"pg_database", 1262, "oid oid, datname name, datdba oid, encoding int4, datlocprovider char, "
        "datistemplate bool, datallowconn bool, datconnlimit int4, datfrozenxid xid, datminmxid xid, "
        "dattablespace oid, datcollate text, datctype text, daticulocale text, datcollversion text, "
        "datacl aclitem[]", fillDatabases},
    {"pg_authid", 1260, "oid oid, rolname name, rolsuper bool, rolinherit bool, rolcreaterole bool, "
        "rolcreatedb bool, rolcanlogin bool, rolreplication bool, rolbypassrls bool, rolconnlimit int4, "
        "rolpassword text, rolvaliduntil timestamptz", fillAuthIds},
    {"pg_roles", 12000, "rolname name, rolsuper bool, rolinherit bool, rolcreaterole bool, rolcreatedb bool, "
        "rolcanlogin bool, rolreplication bool, rolconnlimit int4, rolpassword text, rolvaliduntil timestamptz, "
        "rolbypassrls bool, rolconfig text[], oid oid", fillRoles, true},
    {"pg_user", 12014, "usename name, usesysid oid, usecreatedb bool, usesuper bool, userepl bool, "
        "usebypassrls bool, passwd text, valuntil timestamptz, useconfig text[]", fillUsers, true},
    {"pg_auth_members", 1261, "roleid oid, member oid, grantor oid, admin_option bool", fillAuthMembers},
    {"pg_index", 2610, "indexrelid oid, indrelid oid, indnatts int2, indnkeyatts int2, indisunique bool, "
        "indnullsnotdistinct bool, indisprimary bool, indisexclusion bool, indimmediate bool, "
        "indisclustered bool, indisvalid bool, indcheckxmin bool, indisready bool, indislive bool, "
        "indisreplident bool, indkey int2vector, indcollation oidvector, indclass oidvector, "
        "indoption int2vector, indexprs pg_node_tree, indpred pg_node_tree", fillIndexes},
    {"pg_constraint", 2606, "oid oid, conname name, connamespace oid, contype char, condeferrable bool, "
        "condeferred bool, convalidated bool, conrelid oid, contypid oid, conindid oid, conparentid oid, "
        "confrelid oid, confupdtype char, confdeltype char, confmatchtype char, conislocal bool, "
        "coninhcount int4, connoinherit bool, conkey int2[], confkey int2[], conpfeqop oid[], conppeqop oid[], "
        "conffeqop oid[], confdelsetcols int2[], conexclop oid[], conbin pg_node_tree", fillConstraints},
    {"pg_attrdef", 2604, "oid oid, adrelid oid, adnum int2, adbin pg_node_tree", fillAttributeDefaults},
    {"pg_proc", 1255, "oid oid, proname name, pronamespace oid, proowner oid, prolang oid, procost float4, "
        "prorows float4, provariadic oid, prosupport regproc, prokind char, prosecdef bool, proleakproof bool, "
        "proisstrict bool, proretset bool, provolatile char, proparallel char, pronargs int2, "
        "pronargdefaults int2, prorettype oid, proargtypes oidvector, proallargtypes oid[], proargmodes char[], "
        "proargnames text[], proargdefaults pg_node_tree, protrftypes oid[], prosrc text, probin text, "
        "prosqlbody pg_node_tree, proconfig text[], proacl aclitem[]", fillProcs},
    {"pg_am", 2601, "oid oid, amname name, amhandler regproc, amtype char", fillAccessMethods},
    {"pg_tablespace", 1213, "oid oid, spcname name, spcowner oid, spcacl aclitem[], spcoptions text[]",
        fillTablespaces},
    {"pg_collation", 3456, "oid oid, collname name, collnamespace oid, collowner oid, collprovider char, "
        "collisdeterministic bool, collencoding int4, collcollate text, collctype text, colliculocale text, "
        "collversion text", fillCollations},
    {"pg_extension", 3079, "oid oid, extname name, extowner oid, extnamespace oid, extrelocatable bool, "
        "extversion text, extconfig oid[], extcondition text[]", fillExtensions},
    {"pg_language", 2612, "oid oid, lanname name, lanowner oid, lanispl bool, lanpltrusted bool, "
        "lanplcallfoid oid, laninline oid, lanvalidator oid, lanacl aclitem[]", fillLanguages},
    {"pg_description", 2609, "objoid oid, classoid oid, objsubid int4, description text", fillDescriptions},
    {"pg_inherits", 2611, "inhrelid oid, inhparent oid, inhseqno int4, inhdetachpending bool", fillNothing},
    {"pg_enum", 3501, "oid oid, enumtypid oid, enumsortorder float4, enumlabel name", fillNothing},
    {"pg_range", 3541, "rngtypid oid, rngsubtype oid, rngmultitypid oid, rngcollation oid, rngsubopc oid, "
        "rngcanonical regproc, rngsubdiff regproc", fillNothing},
    {"pg_trigger", 2620, "oid oid, tgrelid oid, tgparentid oid, tgname name, tgfoid oid, tgtype int2, "
        "tgenabled char, tgisinternal bool, tgconstrrelid oid, tgconstrindid oid, tgconstraint oid, "
        "tgdeferrable bool, tginitdeferred bool, tgnargs int2, tgattr int2vector, tgargs bytea, "
        "tgqual pg_node_tree, tgoldtable name, tgnewtable name", fillNothing},
    {"pg_rewrite", 2618, "oid oid, rulename name, ev_class oid, ev_type char, ev_enabled char, is_instead bool, "
        "ev_qual pg_node_tree, ev_action pg_node_tree", fillNothing},
    {"pg_depend", 2608, "classid oid, objid oid, objsubid int4, refclassid oid, refobjid oid, refobjsubid int4, "
        "deptype char", fillDepends},
    {"pg_sequence", 2224, "seqrelid oid, seqtypid oid, seqstart int8, seqincrement int8, seqmax int8, "
        "seqmin int8, seqcache int8, seqcycle bool", fillSequences},
    {"pg_partitioned_table", 3350, "partrelid oid, partstrat char, partnatts int2, partdefid oid, "
        "partattrs int2vector, partclass oidvector, partcollation oidvector, partexprs pg_node_tree", fillNothing},
    {"pg_policy", 3256, "oid oid, polname name, polrelid oid, polcmd char, polpermissive bool, polroles oid[], "
        "polqual pg_node_tree, polwithcheck pg_node_tree", fillNothing},
    {"pg_statistic_ext", 3381, "oid oid, stxrelid oid, stxname name, stxnamespace oid, stxowner oid, "
        "stxstattarget int4, stxkeys int2vector, stxkind char[], stxexprs pg_node_tree", fillNothing},
    {"pg_publication", 6104, "oid oid, pubname name, pubowner oid, puballtables bool, pubinsert bool, "
        "pubupdate bool, pubdelete bool, pubtruncate bool, pubviaroot bool", fillNothing},
    {"pg_publication_namespace", 6237, "oid oid, pnpubid oid, pnnspid oid", fillNothing},
    {"pg_publication_rel", 6106, "oid oid, prpubid oid, prrelid oid, prqual pg_node_tree, prattrs int2vector",
        fillNothing},
    // Objects DuetDB does not have (operators, text search, foreign data, casts of its
    // own, ...): their catalogs exist, empty, for the tools that list them (pg_dump).
    {"pg_operator", 2617, "oid oid, oprname name, oprnamespace oid, oprowner oid, oprkind char, "
        "oprcanmerge bool, oprcanhash bool, oprleft oid, oprright oid, oprresult oid, oprcom oid, "
        "oprnegate oid, oprcode regproc, oprrest regproc, oprjoin regproc", fillNothing},
    {"pg_opclass", 2616, "oid oid, opcmethod oid, opcname name, opcnamespace oid, opcowner oid, opcfamily oid, "
        "opcintype oid, opcdefault bool, opckeytype oid", fillNothing},
    {"pg_opfamily", 2753, "oid oid, opfmethod oid, opfname name, opfnamespace oid, opfowner oid", fillNothing},
    {"pg_amop", 2602, "oid oid, amopfamily oid, amoplefttype oid, amoprighttype oid, amopstrategy int2, "
        "amoppurpose char, amopopr oid, amopmethod oid, amopsortfamily oid", fillNothing},
    {"pg_amproc", 2603, "oid oid, amprocfamily oid, amproclefttype oid, amprocrighttype oid, amprocnum int2, "
        "amproc regproc", fillNothing},
    {"pg_ts_parser", 3601, "oid oid, prsname name, prsnamespace oid, prsstart regproc, prstoken regproc, "
        "prsend regproc, prsheadline regproc, prslextype regproc", fillNothing},
    {"pg_ts_template", 3764, "oid oid, tmplname name, tmplnamespace oid, tmplinit regproc, tmpllexize regproc",
        fillNothing},
    {"pg_ts_dict", 3600, "oid oid, dictname name, dictnamespace oid, dictowner oid, dicttemplate oid, "
        "dictinitoption text", fillNothing},
    {"pg_ts_config", 3602, "oid oid, cfgname name, cfgnamespace oid, cfgowner oid, cfgparser oid", fillNothing},
    {"pg_foreign_data_wrapper", 2328, "oid oid, fdwname name, fdwowner oid, fdwhandler oid, fdwvalidator oid, "
        "fdwacl aclitem[], fdwoptions text[]", fillNothing},
    {"pg_foreign_server", 1417, "oid oid, srvname name, srvowner oid, srvfdw oid, srvtype text, srvversion text, "
        "srvacl aclitem[], srvoptions text[]", fillNothing},
    {"pg_foreign_table", 3118, "ftrelid oid, ftserver oid, ftoptions text[]", fillNothing},
    {"pg_user_mapping", 1418, "oid oid, umuser oid, umserver oid, umoptions text[]", fillNothing},
    {"pg_default_acl", 826, "oid oid, defaclrole oid, defaclnamespace oid, defaclobjtype char, "
        "defaclacl aclitem[]", fillNothing},
    {"pg_conversion", 2607, "oid oid, conname name, connamespace oid, conowner oid, conforencoding int4, "
        "contoencoding int4, conproc regproc, condefault bool", fillNothing},
    {"pg_cast", 2605, "oid oid, castsource oid, casttarget oid, castfunc oid, castcontext char, castmethod char",
        fillNothing},
    {"pg_transform", 3576, "oid oid, trftype oid, trflang oid, trffromsql regproc, trftosql regproc", fillNothing},
    {"pg_event_trigger", 3466, "oid oid, evtname name, evtevent name, evtowner oid, evtfoid oid, "
        "evtenabled char, evttags text[]", fillNothing},
    {"pg_subscription", 6100, "oid oid, subdbid oid, subskiplsn text, subname name, subowner oid, "
        "subenabled bool, subbinary bool, substream bool, subtwophasestate char, subdisableonerr bool, "
        "subconninfo text, subslotname name, subsynccommit text, subpublications text[]", fillNothing},
    {"pg_largeobject_metadata", 2995, "oid oid, lomowner oid, lomacl aclitem[]", fillNothing},
    {"pg_init_privs", 3394, "objoid oid, classoid oid, objsubid int4, privtype char, initprivs aclitem[]",
        fillInitPrivileges},
    {"pg_shdescription", 2396, "objoid oid, classoid oid, description text", fillNothing},
    {"pg_seclabel", 3596, "objoid oid, classoid oid, objsubid int4, provider text, label text", fillNothing},
    {"pg_shseclabel", 3592, "objoid oid, classoid oid, provider text, label text", fillNothing},
    {"pg_db_role_setting", 2964, "setdatabase oid, setrole oid, setconfig text[]", fillNothing},
    {"pg_seclabels", 12099, "objoid oid, classoid oid, objsubid int4, objtype text, objnamespace oid, "
        "objname text, provider text, label text", fillNothing, true},
    {"pg_matviews", 12038, "schemaname name, matviewname name, matviewowner name, tablespace name, "
        "hasindexes bool, ispopulated bool, definition text", fillNothing, true},
    {"pg_tables", 12033, "schemaname name, tablename name, tableowner name, tablespace name, hasindexes bool, "
        "hasrules bool, hastriggers bool, rowsecurity bool", fillTables, true},
    {"pg_views", 12028, "schemaname name, viewname name, viewowner name, definition text", fillViews, true},
    {"pg_indexes", 12043, "schemaname name, tablename name, indexname name, tablespace name, indexdef text",
        fillIndexViews, true},
    // information_schema (SQL standard views, PostgreSQL 15's columns; its domains are
    // their base types here: sql_identifier name, cardinal_number integer, character_data
    // and yes_or_no varchar).
    {"schemata", 13340, "catalog_name sql_identifier, schema_name sql_identifier, schema_owner sql_identifier, "
        "default_character_set_catalog sql_identifier, default_character_set_schema sql_identifier, "
        "default_character_set_name sql_identifier, sql_path character_data", fillSchemata, true,
        "information_schema"},
    {"tables", 13344, "table_catalog sql_identifier, table_schema sql_identifier, table_name sql_identifier, "
        "table_type character_data, self_referencing_column_name sql_identifier, "
        "reference_generation character_data, user_defined_type_catalog sql_identifier, "
        "user_defined_type_schema sql_identifier, user_defined_type_name sql_identifier, "
        "is_insertable_into yes_or_no, is_typed yes_or_no, commit_action character_data", fillInfoTables, true,
        "information_schema"},
    {"columns", 13348, "table_catalog sql_identifier, table_schema sql_identifier, table_name sql_identifier, "
        "column_name sql_identifier, ordinal_position cardinal_number, column_default character_data, "
        "is_nullable yes_or_no, data_type character_data, character_maximum_length cardinal_number, "
        "character_octet_length cardinal_number, numeric_precision cardinal_number, "
        "numeric_precision_radix cardinal_number, numeric_scale cardinal_number, "
        "datetime_precision cardinal_number, interval_type character_data, interval_precision cardinal_number, "
        "character_set_catalog sql_identifier, character_set_schema sql_identifier, "
        "character_set_name sql_identifier, collation_catalog sql_identifier, collation_schema sql_identifier, "
        "collation_name sql_identifier, domain_catalog sql_identifier, domain_schema sql_identifier, "
        "domain_name sql_identifier, udt_catalog sql_identifier, udt_schema sql_identifier, "
        "udt_name sql_identifier, scope_catalog sql_identifier, scope_schema sql_identifier, "
        "scope_name sql_identifier, maximum_cardinality cardinal_number, dtd_identifier sql_identifier, "
        "is_self_referencing yes_or_no, is_identity yes_or_no, identity_generation character_data, "
        "identity_start character_data, identity_increment character_data, identity_maximum character_data, "
        "identity_minimum character_data, identity_cycle yes_or_no, is_generated character_data, "
        "generation_expression character_data, is_updatable yes_or_no", fillInfoColumns, true,
        "information_schema"},
    {"views", 13352, "table_catalog sql_identifier, table_schema sql_identifier, table_name sql_identifier, "
        "view_definition character_data, check_option character_data, is_updatable yes_or_no, "
        "is_insertable_into yes_or_no, is_trigger_updatable yes_or_no, is_trigger_deletable yes_or_no, "
        "is_trigger_insertable_into yes_or_no", fillInfoViews, true, "information_schema"},
    {"table_constraints", 13356, "constraint_catalog sql_identifier, constraint_schema sql_identifier, "
        "constraint_name sql_identifier, table_catalog sql_identifier, table_schema sql_identifier, "
        "table_name sql_identifier, constraint_type character_data, is_deferrable yes_or_no, "
        "initially_deferred yes_or_no, enforced yes_or_no, nulls_distinct yes_or_no", fillTableConstraints, true,
        "information_schema"},
    {"key_column_usage", 13360, "constraint_catalog sql_identifier, constraint_schema sql_identifier, "
        "constraint_name sql_identifier, table_catalog sql_identifier, table_schema sql_identifier, "
        "table_name sql_identifier, column_name sql_identifier, ordinal_position cardinal_number, "
        "position_in_unique_constraint cardinal_number", fillKeyColumnUsage, true, "information_schema"},
    {"constraint_column_usage", 13364, "table_catalog sql_identifier, table_schema sql_identifier, "
        "table_name sql_identifier, column_name sql_identifier, constraint_catalog sql_identifier, "
        "constraint_schema sql_identifier, constraint_name sql_identifier", fillConstraintColumnUsage, true,
        "information_schema"},
    {"check_constraints", 13368, "constraint_catalog sql_identifier, constraint_schema sql_identifier, "
        "constraint_name sql_identifier, check_clause character_data", fillCheckConstraints, true,
        "information_schema"},
    {"referential_constraints", 13372, "constraint_catalog sql_identifier, constraint_schema sql_identifier, "
        "constraint_name sql_identifier, unique_constraint_catalog sql_identifier, "
        "unique_constraint_schema sql_identifier, unique_constraint_name sql_identifier, "
        "match_option character_data, update_rule character_data, delete_rule character_data",
        fillReferentialConstraints,
        true, "information_schema"},
    {"sequences", 13376, "sequence_catalog sql_identifier, sequence_schema sql_identifier, "
        "sequence_name sql_identifier, data_type character_data, numeric_precision cardinal_number, "
        "numeric_precision_radix cardinal_number, numeric_scale cardinal_number, start_value character_data, "
        "minimum_value character_data, maximum_value character_data, increment character_data, "
        "cycle_option yes_or_no", fillInfoSequences, true, "information_schema"},
    {"routines", 13380, "specific_catalog sql_identifier, specific_schema sql_identifier, "
        "specific_name sql_identifier, routine_catalog sql_identifier, routine_schema sql_identifier, "
        "routine_name sql_identifier, routine_type character_data, module_catalog sql_identifier, "
        "module_schema sql_identifier, module_name sql_identifier, udt_catalog sql_identifier, "
        "udt_schema sql_identifier, udt_name sql_identifier, data_type character_data, "
        "character_maximum_length cardinal_number, character_octet_length cardinal_number, "
        "character_set_catalog sql_identifier, character_set_schema sql_identifier, "
        "character_set_name sql_identifier, collation_catalog sql_identifier, collation_schema sql_identifier, "
        "collation_name sql_identifier, numeric_precision cardinal_number, numeric_precision_radix cardinal_number, "
        "numeric_scale cardinal_number, datetime_precision cardinal_number, interval_type character_data, "
        "interval_precision cardinal_number, type_udt_catalog sql_identifier, type_udt_schema sql_identifier, "
        "type_udt_name sql_identifier, scope_catalog sql_identifier, scope_schema sql_identifier, "
        "scope_name sql_identifier, maximum_cardinality cardinal_number, dtd_identifier sql_identifier, "
        "routine_body character_data, routine_definition character_data, external_name character_data, "
        "external_language character_data, parameter_style character_data, is_deterministic yes_or_no, "
        "sql_data_access character_data, is_null_call yes_or_no, sql_path character_data, "
        "schema_level_routine yes_or_no, max_dynamic_result_sets cardinal_number, "
        "is_user_defined_cast yes_or_no, is_implicitly_invocable yes_or_no, security_type character_data, "
        "to_sql_specific_catalog sql_identifier, to_sql_specific_schema sql_identifier, "
        "to_sql_specific_name sql_identifier, as_locator yes_or_no, created time_stamp, last_altered time_stamp, "
        "new_savepoint_level yes_or_no, is_udt_dependent yes_or_no, result_cast_from_data_type character_data, "
        "result_cast_as_locator yes_or_no, result_cast_char_max_length cardinal_number, "
        "result_cast_char_octet_length cardinal_number, result_cast_char_set_catalog sql_identifier, "
        "result_cast_char_set_schema sql_identifier, result_cast_char_set_name sql_identifier, "
        "result_cast_collation_catalog sql_identifier, result_cast_collation_schema sql_identifier, "
        "result_cast_collation_name sql_identifier, result_cast_numeric_precision cardinal_number, "
        "result_cast_numeric_precision_radix cardinal_number, result_cast_numeric_scale cardinal_number, "
        "result_cast_datetime_precision cardinal_number, result_cast_interval_type character_data, "
        "result_cast_interval_precision cardinal_number, result_cast_type_udt_catalog sql_identifier, "
        "result_cast_type_udt_schema sql_identifier, result_cast_type_udt_name sql_identifier, "
        "result_cast_scope_catalog sql_identifier, result_cast_scope_schema sql_identifier, "
        "result_cast_scope_name sql_identifier, result_cast_maximum_cardinality cardinal_number, "
        "result_cast_dtd_identifier sql_identifier", fillRoutines, true, "information_schema"},
    {"parameters", 13384, "specific_catalog sql_identifier, specific_schema sql_identifier, "
        "specific_name sql_identifier, ordinal_position cardinal_number, parameter_mode character_data, "
        "is_result yes_or_no, as_locator yes_or_no, parameter_name sql_identifier, data_type character_data, "
        "character_maximum_length cardinal_number, character_octet_length cardinal_number, "
        "character_set_catalog sql_identifier, character_set_schema sql_identifier, "
        "character_set_name sql_identifier, collation_catalog sql_identifier, collation_schema sql_identifier, "
        "collation_name sql_identifier, numeric_precision cardinal_number, numeric_precision_radix cardinal_number, "
        "numeric_scale cardinal_number, datetime_precision cardinal_number, interval_type character_data, "
        "interval_precision cardinal_number, udt_catalog sql_identifier, udt_schema sql_identifier, "
        "udt_name sql_identifier, scope_catalog sql_identifier, scope_schema sql_identifier, "
        "scope_name sql_identifier, maximum_cardinality cardinal_number, dtd_identifier sql_identifier, "
        "parameter_default character_data", fillParameters, true, "information_schema"},
    // Live relations: the session fills them (session/live_system_rows.cpp).
    {"pg_sequences", 12048, "schemaname name, sequencename name, sequenceowner name, data_type regtype, "
        "start_value int8, min_value int8, max_value int8, increment_by int8, cycle bool, cache_size int8, "
        "last_value int8", nullptr, true},  // last_value moves with every nextval
    {"pg_stat_activity", 12222, "datid oid, datname name, pid int4, leader_pid int4, usesysid oid, usename name, "
        "application_name text, client_addr text, client_hostname text, client_port int4, "
        "backend_start timestamptz, xact_start timestamptz, query_start timestamptz, state_change timestamptz, "
        "wait_event_type text, wait_event text, state text, backend_xid xid, backend_xmin xid, query_id int8, "
        "query text, backend_type text", nullptr, true},
    {"pg_stat_database", 12266, "datid oid, datname name, numbackends int4, xact_commit int8, xact_rollback int8, "
        "blks_read int8, blks_hit int8, tup_returned int8, tup_fetched int8, tup_inserted int8, tup_updated int8, "
        "tup_deleted int8, conflicts int8, temp_files int8, temp_bytes int8, deadlocks int8, "
        "checksum_failures int8, checksum_last_failure timestamptz, blk_read_time float8, "
        "blk_write_time float8, session_time float8, active_time float8, idle_in_transaction_time float8, "
        "sessions int8, sessions_abandoned int8, sessions_fatal int8, sessions_killed int8, "
        "stats_reset timestamptz", nullptr, true},
    {"pg_stat_user_tables", 12161, "relid oid, schemaname name, relname name, seq_scan int8, seq_tup_read int8, "
        "idx_scan int8, idx_tup_fetch int8, n_tup_ins int8, n_tup_upd int8, n_tup_del int8, n_tup_hot_upd int8, "
        "n_live_tup int8, n_dead_tup int8, n_mod_since_analyze int8, n_ins_since_vacuum int8, "
        "last_vacuum timestamptz, last_autovacuum timestamptz, last_analyze timestamptz, "
        "last_autoanalyze timestamptz, vacuum_count int8, autovacuum_count int8, analyze_count int8, "
        "autoanalyze_count int8", nullptr, true},
    {"pg_stats", 12179, "schemaname name, tablename name, attname name, inherited bool, null_frac float4, "
        "avg_width int4, n_distinct float4, most_common_vals anyarray, most_common_freqs float4[], "
        "histogram_bounds anyarray, correlation float4, most_common_elems anyarray, "
        "most_common_elem_freqs float4[], elem_count_histogram float4[]", nullptr, true},
    {"pg_settings", 12104, "name text, setting text, unit text, category text, short_desc text, extra_desc text, "
        "context text, vartype text, source text, min_val text, max_val text, enumvals text[], boot_val text, "
        "reset_val text, sourcefile text, sourceline int4, pending_restart bool", nullptr, true},
    {"pg_locks", 12310, "locktype text, database oid, relation oid, page int4, tuple int2, virtualxid text, "
        "transactionid xid, classid oid, objid oid, objsubid int2, virtualtransaction text, pid int4, mode text, "
        "granted bool, fastpath bool, waitstart timestamptz", nullptr, true},
    {"duet_snapshots", 12900, "pid int4, forked_at timestamptz, age_seconds float8, fork_ms float8, "
        "commits int8, queries int4, memory_bytes int8, ending bool", nullptr},
};
// clang-format on

SqlType columnType(std::string_view name) {
  static const std::pair<std::string_view, SqlType> kTypes[] = {
      {"oid", SqlType::of(TypeAlias::Oid)},
      {"name", SqlType::of(TypeAlias::Name)},
      {"char", SqlType::of(TypeAlias::InternalChar)},
      {"regproc", SqlType::of(TypeAlias::RegProc)},
      {"regtype", SqlType::of(TypeAlias::RegType)},
      {"bool", {TypeId::Bool, -1}},
      {"int2", {TypeId::Int2, -1}},
      {"int4", {TypeId::Int4, -1}},
      {"int8", {TypeId::Int8, -1}},
      {"xid", {TypeId::Int8, -1}},
      {"float4", {TypeId::Float4, -1}},
      {"float8", {TypeId::Float8, -1}},
      {"text", {TypeId::Text, -1}},
      {"bytea", {TypeId::Bytea, -1}},
      {"pg_node_tree", {TypeId::Text, -1}},
      {"anyarray", {TypeId::Text, -1}},
      {"timestamptz", {TypeId::TimestampTz, -1}},
      {"time_stamp", {TypeId::TimestampTz, -1}},
      {"sql_identifier", SqlType::of(TypeAlias::Name)},
      {"cardinal_number", {TypeId::Int4, -1}},
      {"character_data", {TypeId::Varchar, -1}},
      {"yes_or_no", SqlType::varchar(3)},
      {"text[]", SqlType::arrayOf({TypeId::Text, -1})},
      {"aclitem[]", SqlType::arrayOf({TypeId::Text, -1})},
      {"char[]", SqlType::arrayOf({TypeId::Text, -1})},
      {"int2[]", SqlType::arrayOf({TypeId::Int2, -1})},
      {"float4[]", SqlType::arrayOf({TypeId::Float4, -1})},
      {"int2vector", SqlType::of(TypeAlias::Int2Vector)},
      {"oid[]", SqlType::arrayOf(SqlType::of(TypeAlias::Oid))},
      {"oidvector", SqlType::of(TypeAlias::OidVector)},
  };
  for (const auto& [n, t] : kTypes)
    if (n == name) return t;
  throw std::logic_error("system relation column type " + std::string(name));
}

}  // namespace

std::span<const SystemRelation> systemRelations() { return kRelations; }

const SystemRelation* findSystemRelation(std::string_view schema, std::string_view name) {
  for (const SystemRelation& r : kRelations)
    if (r.schema == schema && r.name == name) return &r;
  return nullptr;
}

std::vector<ColumnDef> systemColumns(const SystemRelation& relation) {
  std::vector<ColumnDef> out;
  std::string_view rest = relation.columns;
  while (!rest.empty()) {
    size_t comma = rest.find(", ");
    std::string_view column = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 2);
    size_t space = column.find(' ');
    ColumnDef c;
    c.name = std::string(column.substr(0, space));
    c.type = columnType(column.substr(space + 1));
    out.push_back(std::move(c));
  }
  return out;
}

void writeSystemRows(Table& table, const std::vector<SystemRow>& rows) {
  UndoLog undo;
  table.truncate(undo);
  const TupleLayout& layout = table.layout();
  std::vector<__int128> storage((layout.size + 15) / 16);
  auto* tuple = reinterpret_cast<uint8_t*>(storage.data());
  Arena arena;
  for (const SystemRow& row : rows) {
    std::fill(storage.begin(), storage.end(), 0);
    for (size_t c = 0; c < layout.types.size(); ++c) {
      SqlType type = layout.types[c];
      uint8_t* field = tuple + layout.offsets[c];
      const SystemValue& v = c < row.size() ? row[c] : SystemValue{};
      if (std::holds_alternative<std::monostate>(v)) {
        tuple[layout.nullOffset(static_cast<uint32_t>(c))] = 1;
        continue;
      }
      auto put = [&](auto value) { std::memcpy(field, &value, sizeof value); };
      if (const bool* b = std::get_if<bool>(&v)) {
        put(static_cast<uint8_t>(*b));
      } else if (const int64_t* i = std::get_if<int64_t>(&v)) {
        switch (type.id) {
          case TypeId::Int2: put(static_cast<int16_t>(*i)); break;
          case TypeId::Int4: put(static_cast<int32_t>(*i)); break;
          default: put(*i); break;  // int8, oids, timestamps
        }
      } else if (const double* d = std::get_if<double>(&v)) {
        if (type.id == TypeId::Float4)
          put(static_cast<float>(*d));
        else
          put(*d);
      } else if (const std::string* s = std::get_if<std::string>(&v)) {
        put(static_cast<const VarString*>(arena.makeString(*s)));
      } else if (const auto* ints = std::get_if<std::vector<int64_t>>(&v)) {
        ArrayBuilder builder(type.element);
        for (int64_t x : *ints) {
          if (type.element == TypeId::Int2) {
            auto narrow = static_cast<int16_t>(x);
            builder.append(&narrow);
          } else {
            builder.append(&x);
          }
        }
        put(builder.finish(arena));
      } else {
        ArrayBuilder builder(TypeId::Text);
        for (const std::string& x : std::get<std::vector<std::string>>(v)) {
          const VarString* s = arena.makeString(x);
          builder.append(&s);
        }
        put(builder.finish(arena));
      }
    }
    table.insert(tuple, undo);
  }
  undo.commit();
}

}  // namespace duet
