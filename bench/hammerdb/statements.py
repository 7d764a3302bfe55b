"""The SQL HammerDB's PostgreSQL TPROC-C sends, other than the routines (routines.py).

Source: src/postgresql/pgoltp.tcl of TPC-Council/HammerDB at
5725747c03e7b44545b27b32988d9a4e5a56705d. Every text here is HammerDB's, as its Tcl
interpreter hands it to Pgtcl: Tcl's backslash escapes resolved (\\" is ", \\$ is $), and
where HammerDB substitutes Tcl variables the text keeps them as Tcl writes them ($user,
[ lindex $d_add 0 ]), filled by fill() with the values the Python code computes.
verify_statements.py checks that each text occurs in a copy of pgoltp.tcl.
"""
import re

# ConnectToPostgres: the first statement of every HammerDB connection.
CLIENT_MIN_MESSAGES = "set CLIENT_MIN_MESSAGES TO 'ERROR'"

# CreateUserDatabase, run as the superuser in its default database.
ROLE_EXISTS = "SELECT 1 FROM pg_roles WHERE rolname = '$user'"
CREATE_USER = "CREATE USER \"$user\" PASSWORD '$password'"
GRANT_USER = "GRANT \"$user\" to \"$superuser\""
ALTER_USER = "ALTER USER \"$user\" PASSWORD '$password'"
DATABASE_EXISTS = "SELECT 1 FROM pg_database WHERE datname = '$db'"
CREATE_DATABASE = "CREATE DATABASE \"$db\" OWNER \"$user\""
PUBLIC_TABLES = "SELECT 1 FROM pg_tables WHERE schemaname = 'public'"
IS_DB_OWNER = ("WITH RECURSIVE cte AS (SELECT oid, 0 AS steps, true AS inherit_option FROM pg_roles WHERE  "
               "rolname = '$user' UNION ALL SELECT m.roleid, c.steps + 1, c.inherit_option AND c.inherit_option "
               "FROM   cte c JOIN pg_auth_members m ON m.member = c.oid ) SELECT count(*) > 0 AS is_owner FROM cte, "
               "pg_database db WHERE cte.oid=db.datdba and db.datname = '$db'")
ALTER_DATABASE_OWNER_UNQUOTED = "ALTER DATABASE $db OWNER TO $user"
ALTER_DATABASE_OWNER = "ALTER DATABASE \"$db\" OWNER TO \"$user\""
COMMIT = "commit"
BEGIN = "begin"

# CreateTables, the PostgreSQL (not Oracle-compatible, not Citus) branch with pg_partition
# false (HammerDB partitions ORDER_LINE only from 200 warehouses on).
CREATE_TABLES = [
    "CREATE TABLE CUSTOMER (C_SINCE TIMESTAMP WITH TIME ZONE NOT NULL, C_ID INTEGER NOT NULL, C_W_ID INTEGER NOT NULL, "
    "C_D_ID SMALLINT NOT NULL, C_PAYMENT_CNT SMALLINT NOT NULL, C_DELIVERY_CNT SMALLINT NOT NULL, C_FIRST CHARACTER "
    "VARYING(16) NOT NULL, C_MIDDLE CHARACTER(2) NOT NULL, C_LAST CHARACTER VARYING(16) NOT NULL, C_STREET_1 CHARACTER "
    "VARYING(20) NOT NULL, C_STREET_2 CHARACTER VARYING(20) NOT NULL, C_CITY CHARACTER VARYING(20) NOT NULL, C_STATE "
    "CHARACTER(2) NOT NULL, C_ZIP CHARACTER(9) NOT NULL, C_PHONE CHARACTER(16) NOT NULL, C_CREDIT CHARACTER(2) NOT "
    "NULL, C_CREDIT_LIM NUMERIC(12,2) NOT NULL, C_DISCOUNT NUMERIC(4,4) NOT NULL, C_BALANCE NUMERIC(12,2) NOT NULL, "
    "C_YTD_PAYMENT NUMERIC(12,2) NOT NULL, C_DATA CHARACTER VARYING(500) NOT NULL, CONSTRAINT CUSTOMER_I1 PRIMARY KEY "
    "(C_W_ID, C_D_ID, C_ID))",
    "CREATE TABLE DISTRICT (D_W_ID INTEGER NOT NULL, D_NEXT_O_ID INTEGER NOT NULL, D_ID SMALLINT NOT NULL, D_YTD "
    "NUMERIC(12,2) NOT NULL, D_TAX NUMERIC(4,4) NOT NULL, D_NAME CHARACTER VARYING(10) NOT NULL, D_STREET_1 CHARACTER "
    "VARYING(20) NOT NULL, D_STREET_2 CHARACTER VARYING(20) NOT NULL, D_CITY CHARACTER VARYING(20) NOT NULL, D_STATE "
    "CHARACTER(2) NOT NULL, D_ZIP CHARACTER(9) NOT NULL, CONSTRAINT DISTRICT_I1 PRIMARY KEY (D_W_ID, D_ID))",
    "CREATE TABLE HISTORY (H_DATE TIMESTAMP WITH TIME ZONE NOT NULL, H_C_ID INTEGER, H_C_W_ID INTEGER NOT NULL, H_W_ID "
    "INTEGER NOT NULL, H_C_D_ID SMALLINT NOT NULL, H_D_ID SMALLINT NOT NULL, H_AMOUNT NUMERIC(6,2) NOT NULL, H_DATA "
    "CHARACTER VARYING(24) NOT NULL)",
    "CREATE TABLE ITEM (I_ID INTEGER NOT NULL, I_IM_ID INTEGER NOT NULL, I_NAME CHARACTER VARYING(24) NOT NULL, "
    "I_PRICE NUMERIC(5,2) NOT NULL, I_DATA CHARACTER VARYING(50) NOT NULL, CONSTRAINT ITEM_I1 PRIMARY KEY (I_ID))",
    "CREATE TABLE WAREHOUSE (W_ID INTEGER NOT NULL, W_NAME CHARACTER VARYING(10) NOT NULL, W_STREET_1 CHARACTER "
    "VARYING(20) NOT NULL, W_STREET_2 CHARACTER VARYING(20) NOT NULL, W_CITY CHARACTER VARYING(20) NOT NULL, W_STATE "
    "CHARACTER(2) NOT NULL, W_ZIP CHARACTER(9) NOT NULL, W_TAX NUMERIC(4,4) NOT NULL, W_YTD NUMERIC(16,2) NOT NULL, "
    "CONSTRAINT WAREHOUSE_I1 PRIMARY KEY (W_ID))",
    "CREATE TABLE STOCK (S_I_ID INTEGER NOT NULL, S_W_ID INTEGER NOT NULL, S_YTD INTEGER NOT NULL, S_QUANTITY SMALLINT "
    "NOT NULL, S_ORDER_CNT SMALLINT NOT NULL, S_REMOTE_CNT SMALLINT NOT NULL, S_DIST_01 CHARACTER(24) NOT NULL, "
    "S_DIST_02 CHARACTER(24) NOT NULL, S_DIST_03 CHARACTER(24) NOT NULL, S_DIST_04 CHARACTER(24) NOT NULL, S_DIST_05 "
    "CHARACTER(24) NOT NULL, S_DIST_06 CHARACTER(24) NOT NULL, S_DIST_07 CHARACTER(24) NOT NULL, S_DIST_08 "
    "CHARACTER(24) NOT NULL, S_DIST_09 CHARACTER(24) NOT NULL, S_DIST_10 CHARACTER(24) NOT NULL, S_DATA CHARACTER "
    "VARYING(50) NOT NULL, CONSTRAINT STOCK_I1 PRIMARY KEY (S_I_ID, S_W_ID))",
    "CREATE TABLE NEW_ORDER (NO_W_ID INTEGER NOT NULL, NO_O_ID INTEGER NOT NULL, NO_D_ID SMALLINT NOT NULL, CONSTRAINT "
    "NEW_ORDER_I1 PRIMARY KEY (NO_W_ID, NO_D_ID, NO_O_ID))",
    "CREATE TABLE ORDERS (O_ENTRY_D TIMESTAMP WITH TIME ZONE NOT NULL, O_ID INTEGER NOT NULL, O_W_ID INTEGER NOT NULL, "
    "O_C_ID INTEGER NOT NULL, O_D_ID SMALLINT NOT NULL, O_CARRIER_ID SMALLINT, O_OL_CNT SMALLINT NOT NULL, O_ALL_LOCAL "
    "SMALLINT NOT NULL, CONSTRAINT ORDERS_I1 PRIMARY KEY (O_W_ID, O_D_ID, O_ID))",
    "CREATE TABLE ORDER_LINE (OL_DELIVERY_D TIMESTAMP WITH TIME ZONE, OL_O_ID INTEGER NOT NULL, OL_W_ID INTEGER NOT "
    "NULL, OL_I_ID INTEGER NOT NULL, OL_SUPPLY_W_ID INTEGER NOT NULL, OL_D_ID SMALLINT NOT NULL, OL_NUMBER SMALLINT "
    "NOT NULL, OL_QUANTITY SMALLINT NOT NULL, OL_AMOUNT NUMERIC(6,2), OL_DIST_INFO CHARACTER(24), CONSTRAINT "
    "ORDER_LINE_I1 PRIMARY KEY (OL_W_ID, OL_D_ID, OL_O_ID, OL_NUMBER))",
]

# The loaders (LoadItems, Stock, District, LoadWare, Customer, Orders).
COPY_ITEM = "COPY item (i_id, i_im_id, i_name, i_price, i_data) FROM STDIN WITH (FORMAT CSV)"
COPY_STOCK = ("COPY stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, "
              "s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_data, s_ytd, s_order_cnt, s_remote_cnt) "
              "FROM STDIN WITH (FORMAT CSV)")
COPY_CUSTOMER = ("COPY customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, "
                 "c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_data, "
                 "c_ytd_payment, c_payment_cnt, c_delivery_cnt) FROM STDIN WITH (FORMAT CSV)")
COPY_HISTORY = ("COPY history (h_c_id, h_c_d_id, h_c_w_id, h_w_id, h_d_id, h_date, h_amount, h_data) "
                "FROM STDIN WITH (FORMAT CSV)")
COPY_ORDERS = ("COPY orders (o_id, o_c_id, o_d_id, o_w_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) "
               "FROM STDIN WITH (FORMAT CSV)")
COPY_NEW_ORDER = "COPY new_order (no_o_id, no_d_id, no_w_id) FROM STDIN WITH (FORMAT CSV)"
COPY_ORDER_LINE = ("COPY order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, "
                   "ol_amount, ol_dist_info, ol_delivery_d) FROM STDIN WITH (FORMAT CSV)")
INSERT_DISTRICT = ("insert into district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, "
                   "d_tax, d_ytd, d_next_o_id) values ('$d_id', '$d_w_id', '$d_name', '[ lindex $d_add 0 ]', "
                   "'[ lindex $d_add 1 ]', '[ lindex $d_add 2 ]', '[ lindex $d_add 3 ]', '[ lindex $d_add 4 ]', "
                   "'$d_tax', '$d_ytd', '$d_next_o_id')")
INSERT_WAREHOUSE = ("insert into warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, "
                    "w_ytd) values ('$w_id', '$w_name', '[ lindex $add 0 ]', '[ lindex $add 1 ]', "
                    "'[ lindex $add 2 ]' , '[ lindex $add 3 ]', '[ lindex $add 4 ]', '$w_tax', '$w_ytd')")
# The line Pgtcl recognises as the end of COPY data (it then ends the COPY).
COPY_END_LINE = "\\.\n"

# CreateIndexes and GatherStatistics.
CREATE_INDEXES = [
    "CREATE UNIQUE INDEX CUSTOMER_I2 ON CUSTOMER USING BTREE (C_W_ID, C_D_ID, C_LAST, C_FIRST, C_ID)",
    "CREATE UNIQUE INDEX ORDERS_I2 ON ORDERS USING BTREE (O_W_ID, O_D_ID, O_C_ID, O_ID)",
]
ANALYZE = "ANALYZE"

# The driver scripts: detect_pg_tpcc_routine_mode, fn_prep_statement, the virtual users'
# first reads and the five transactions of the pg_storedprocs true variant (CALL, one
# PQexec each); the pg_storedprocs false variant runs the PREPAREd names with PQexecPrepared.
ROUTINE_MODE = """
            SELECT p.prokind, count(*) AS cnt
            FROM pg_proc p
            JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'public'
              AND p.proname IN ('neword','payment','delivery','ostat','slev')
            GROUP BY p.prokind
        """
PREPARE = {
    "neword": "prepare neword (INTEGER, INTEGER, INTEGER, INTEGER, INTEGER) as select neword($1,$2,$3,$4,$5,0)",
    "payment": "prepare payment (INTEGER, INTEGER, INTEGER, INTEGER, INTEGER, INTEGER, NUMERIC, VARCHAR) AS select "
               "payment($1,$2,$3,$4,$5,$6,$7,'$8','0',0)",
    "ostat": "prepare ostat (INTEGER, INTEGER, INTEGER, INTEGER, VARCHAR) AS select * from ostat($1,$2,$3,$4,'$5') as "
             "(ol_i_id INTEGER,  ol_supply_w_id INTEGER, ol_quantity SMALLINT, ol_amount NUMERIC, ol_delivery_d "
             "TIMESTAMP WITH TIME ZONE,  out_os_c_id INTEGER, out_os_c_last CHARACTER VARYING, os_c_first CHARACTER "
             "VARYING, os_c_middle CHARACTER VARYING, os_c_balance NUMERIC, os_o_id INTEGER, os_entdate TIMESTAMP, "
             "os_o_carrier_id INTEGER)",
    "delivery": "prepare delivery (INTEGER, INTEGER) AS select delivery($1,$2)",
    "slev": "prepare slev (INTEGER, INTEGER, INTEGER) AS select slev($1,$2,$3)",
}
MAX_W_ID = "select max(w_id) from warehouse"
MAX_D_ID = "select max(d_id) from district"
CALL_NEWORD = ("call neword($no_w_id,$w_id_input,$no_d_id,$no_c_id,$ol_cnt,0.0,'','',0.0,0.0,0,"
               "TO_TIMESTAMP('$date','YYYYMMDDHH24MISS')::timestamp without time zone)")
CALL_PAYMENT = ("call payment($p_w_id,$p_d_id,$p_c_w_id,$p_c_d_id,$byname,$p_h_amount,'0','$name',$p_c_id,'','','',"
                "'','','','','','','','','','','','','','','',TO_TIMESTAMP('$h_date','YYYYMMDDHH24MISS')::timestamp "
                "without time zone,0.0,0.0,0.0,'',TO_TIMESTAMP('$h_date','YYYYMMDDHH24MISS')::timestamp without time "
                "zone)")
CALL_OSTAT = ("call ostat($w_id,$d_id,$c_id,$byname,'$name','','',0.0,0,TO_TIMESTAMP('$date','YYYYMMDDHH24MISS')"
              "::timestamp without time zone,0,'')")
CALL_DELIVERY = ("call delivery($w_id,$carrier_id,TO_TIMESTAMP('$date','YYYYMMDDHH24MISS')::timestamp without "
                 "time zone)")
CALL_SLEV = "call slev($w_id,$stock_level_d_id,$threshold,0)"

# The timed script's monitor (virtual user 1): CheckDBVersion, the transaction and new-order
# counts before and after the timed period, and the optional checkpoint and vacuum.
SERVER_VERSION = "select current_setting('server_version')"
TRANSACTION_COUNT = "select sum(xact_commit + xact_rollback) from pg_stat_database"
NEW_ORDER_COUNT = "select sum(d_next_o_id) from district"
CHECKPOINT = "checkpoint"
VACUUM = "vacuum"

# check_tpcc, run as the superuser.
CHECK_DATABASE = "SELECT 1 FROM pg_database WHERE datname = '$dbase'"
CHECK_TABLE_EXISTS = "SELECT EXISTS (SELECT FROM pg_tables WHERE schemaname = 'public' AND tablename = '$table')"
CHECK_TABLE_INDEXES = "select tablename,indexname from pg_indexes where tablename = '$table'"
CHECK_ROW_COUNT = "select count(*) as row_count from $table"
CHECK_ROUTINE_EXISTS = ("SELECT EXISTS ( SELECT * FROM pg_catalog.pg_proc JOIN pg_namespace ON "
                        "pg_catalog.pg_proc.pronamespace = pg_namespace.oid WHERE proname = '$sp' AND "
                        "pg_namespace.nspname = 'public')")
CREATE_TEMP_W = "create temporary table temp_w (t_w_id smallint null)"
INSERT_TEMP_W = "insert into temp_w values ($i)"
CONSISTENCY = [
    "select d_w_id, (w_ytd - sum(d_ytd)) diff from warehouse, district where d_w_id=w_id group by d_w_id, w_ytd "
    "having (w_ytd - sum(d_ytd)) != 0",
    "select * from (select d_w_id, d_id, max(o_id) AS ORDER_MAX, (d_next_o_id - 1) AS ORDER_NEXT from district, "
    "orders where d_w_id = o_w_id and d_id = o_d_id and d_w_id in (select t_w_id from temp_w) group by d_w_id, d_id, "
    "(d_next_o_id - 1)) dt where dt.ORDER_NEXT != dt.ORDER_MAX",
    "select * from (select count(*) as nocount, (max(no_o_id) - min(no_o_id) + 1) as total from new_order group by "
    "no_w_id, no_d_id) dt where nocount != total",
    "select * from (select o_w_id, o_d_id, sum(o_ol_cnt) as ol_sum from orders, temp_w where o_w_id = t_w_id group "
    "by o_w_id, o_d_id) consist1, (select ol_w_id, ol_d_id, count(*) as ol_count from order_line, temp_w where "
    "ol_w_id = t_w_id group by ol_w_id, ol_d_id) consist2 where o_w_id = ol_w_id and o_d_id = ol_d_id and ol_sum != "
    "ol_count",
]
DROP_TEMP_W = "drop table temp_w"

# drop_schema, run as the superuser.
DROP_DATABASE = "drop database $dbase"
DROP_ROLE = "drop role $user"

_TCL_SUBSTITUTION = re.compile(r"\[ lindex \$(\w+) (\d+) \]|\$(\w+)")


def fill(template, **values):
    """The statement Tcl makes of template: $name becomes str(values[name]) and
    [ lindex $name i ] becomes str(values[name][i]). Values are never quoted or escaped,
    as in HammerDB (its generated strings hold only letters and digits)."""
    def substitute(match):
        if match.group(1):
            return str(values[match.group(1)][int(match.group(2))])
        return str(values[match.group(3)])
    return _TCL_SUBSTITUTION.sub(substitute, template)
