"""HammerDB's schema build (do_tpcc in pgoltp.tcl), on one connection: CreateUserDatabase,
CreateTables, the loaders (LoadItems, LoadWare with Stock and District, LoadCust with
Customer, LoadOrd with Orders), CreateIndexes, CreateStoredProcs and GatherStatistics, with
HammerDB's statements, data and error handling. HammerDB splits the warehouses over several
threads when pg_num_vu > 1; this loads them all on one, with the same statements.
"""
import time
from dataclasses import dataclass

import routines
import statements as sql
from pgtcl import HammerDBError, connect
from tpcc_random import TclRandom, last_name

MAXITEMS = 100000
CUST_PER_DIST = 3000
DIST_PER_WARE = 10
ORD_PER_DIST = 3000

@dataclass
class Target:
    """Where HammerDB connects: its pg_host, pg_port, ... settings (HammerDB's defaults)."""

    host: str = "localhost"
    port: int = 5432
    sslmode: str = "prefer"
    superuser: str = "postgres"
    superuser_password: str = "postgres"
    default_db: str = "postgres"
    user: str = "tpcc"
    password: str = "tpcc"
    db: str = "tpcc"
    # libpq startup options for every connection (not HammerDB's: how the comparison sets
    # synchronous_commit on both servers).
    options: str = ""

    def connect_superuser(self, dbname=None):
        return connect(self.host, self.port, self.sslmode, self.superuser, self.superuser_password,
                       dbname or self.default_db, self.options)

    def connect_user(self):
        return connect(self.host, self.port, self.sslmode, self.user, self.password, self.db, self.options)


def require(result, *statuses):
    """HammerDB's `if {[pg_result $result -status] ni {...}} { error ... }`."""
    if not result.ok(*statuses):
        raise HammerDBError(result.error or result.status)
    return result


def iso_timestamp():
    """getisotimestamp: clock format [clock seconds] -format %Y-%m-%dT%H:%M:%S%z."""
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def create_user_database(lda, target):
    """CreateUserDatabase: the statements it queues, run in order, each required to answer
    PGRES_COMMAND_OK (HammerDB stops the build at the first that does not)."""
    print(f"CREATING DATABASE {target.db} under OWNER {target.user}")
    names = dict(user=target.user, password=target.password, superuser=target.superuser, db=target.db)
    queued = {}  # HammerDB's sql($stmnt_count) slots, which its code overwrites in places
    count = 1
    if not lda.exec(sql.fill(sql.ROLE_EXISTS, **names)).rows:
        queued[count] = sql.CREATE_USER
        count += 1
        queued[count] = sql.GRANT_USER
    else:
        print(f"Using existing User {target.user} for Schema build")
        queued[count] = sql.ALTER_USER
    if not lda.exec(sql.fill(sql.DATABASE_EXISTS, **names)).rows:
        count += 1
        queued[count] = sql.CREATE_DATABASE
    else:
        count = queue_existing_database(target, names, queued, count)
    for slot in range(1, count + 1):
        result = lda.exec(sql.fill(queued[slot], **names))
        if not result.ok("PGRES_COMMAND_OK"):
            raise HammerDBError(result.error)


def queue_existing_database(target, names, queued, count):
    """CreateUserDatabase's path for a database that exists: it must be empty; its owner is
    changed (HammerDB's code writes its ALTER DATABASE into the last slot, replacing what
    was there when the user already owns the database; kept as it is)."""
    existing_db = target.connect_superuser(target.db)
    try:
        if existing_db.exec(sql.PUBLIC_TABLES).rows:
            print(f"Database with tables {target.db} exists")
            raise HammerDBError(f"Database {target.db} exists but is not empty, specify a new or empty database name")
        print(f"Using existing empty Database {target.db} for Schema build")
        is_db_owner = existing_db.exec(sql.fill(sql.IS_DB_OWNER, **names))
        if not is_db_owner.ok("PGRES_TUPLES_OK"):
            print(f"is_db_owner_query returned {is_db_owner.status}")
            raise HammerDBError(is_db_owner.error)
        if is_db_owner.rows == [("f",)]:
            count += 1
            queued[count] = sql.ALTER_DATABASE_OWNER_UNQUOTED
        print(f"Using existing empty Database {target.db} for Schema build")
        queued[count] = sql.ALTER_DATABASE_OWNER
        return count
    finally:
        existing_db.close()


def create_tables(lda):
    print("CREATING TPCC TABLES")
    for statement in sql.CREATE_TABLES:
        require(lda.exec(statement), "PGRES_TUPLES_OK", "PGRES_COMMAND_OK")


def copy(lda, statement, pieces):
    """One of the loaders' COPYs, which must end PGRES_COMMAND_OK."""
    require(lda.copy_in(statement, pieces), "PGRES_COMMAND_OK")


def original_positions(rnd):
    """LoadItems' and Stock's orig(): MAXITEMS/10 positions drawn from 0..MAXITEMS (with
    repeats) whose data gets "original"."""
    return {rnd.random_number(0, MAXITEMS) for _ in range(MAXITEMS // 10)}


def with_original(rnd, data):
    """`string replace $data $first [expr {$first + 8}] "original"`: nine characters from a
    random place become the eight of "original"."""
    first = rnd.random_number(0, len(data) - 8)
    return data[:first] + "original" + data[first + 9:]


def load_items(lda, rnd):
    """LoadItems: one COPY in a transaction, a `puts` (so a CopyData message) per row."""
    print("Loading Item")
    lda.exec(sql.BEGIN)
    original = original_positions(rnd)
    rows = []
    for i_id in range(1, MAXITEMS + 1):
        i_im_id = rnd.random_number(1, 10000)
        i_name = rnd.alpha_string(14, 24)
        i_price = "%4.2f" % (rnd.random_number(100, 10000) / 100.0)
        i_data = rnd.alpha_string(26, 50)
        if i_id in original:
            i_data = with_original(rnd, i_data)
        rows.append(f"{i_id},{i_im_id},{i_name},{i_price},{i_data}\n")
    copy(lda, sql.COPY_ITEM, rows)
    lda.exec(sql.COMMIT)
    print("Item done")


def stock_pieces(rnd, w_id):
    """Stock's CSV, one `puts -nonewline` per 1000 rows."""
    original = original_positions(rnd)
    rows = []
    for s_i_id in range(1, MAXITEMS + 1):
        s_quantity = rnd.random_number(10, 100)
        dists = ",".join(rnd.alpha_string(24, 24) for _ in range(10))
        s_data = rnd.alpha_string(26, 50)
        if s_i_id in original:
            s_data = with_original(rnd, s_data)
        rows.append(f"{s_i_id},{w_id},{s_quantity},{dists},{s_data},0,0,0\n")
        if s_i_id % 1000 == 0:
            yield "".join(rows)
            rows = []


def load_stock(lda, rnd, w_id):
    print(f"Loading Stock Wid={w_id}")
    copy(lda, sql.COPY_STOCK, stock_pieces(rnd, w_id))
    lda.exec(sql.COMMIT)
    print("Stock done")


def tax(rnd):
    """d_tax and w_tax: RandomNumber 10 20 / 100 as %.2f without its leading 0 (".15")."""
    return ("%.2f" % (rnd.random_number(10, 20) / 100.0))[1:]


def load_districts(lda, rnd, w_id):
    print("Loading District")
    for d_id in range(1, DIST_PER_WARE + 1):
        d_name = rnd.alpha_string(6, 10)
        d_add = rnd.address()
        statement = sql.fill(sql.INSERT_DISTRICT, d_id=d_id, d_w_id=w_id, d_name=d_name, d_add=d_add,
                             d_tax=tax(rnd), d_ytd="30000.0", d_next_o_id=3001)
        require(lda.exec(statement), "PGRES_COMMAND_OK")
    lda.exec(sql.COMMIT)
    print("District done")


def load_warehouses(lda, rnd, count_ware):
    """LoadWare: per warehouse its row, its stock and its districts."""
    print("Loading Warehouse")
    for w_id in range(1, count_ware + 1):
        w_name = rnd.alpha_string(6, 10)
        add = rnd.address()
        statement = sql.fill(sql.INSERT_WAREHOUSE, w_id=w_id, w_name=w_name, add=add, w_tax=tax(rnd),
                             w_ytd="300000.00")
        require(lda.exec(statement), "PGRES_COMMAND_OK")
        load_stock(lda, rnd, w_id)
        load_districts(lda, rnd, w_id)
        lda.exec(sql.COMMIT)


def load_customers(lda, rnd, w_id, d_id):
    """Customer: per 1000 customers a COPY of their rows and one of their history rows,
    then commit."""
    print(f"Loading Customer for DID={d_id} WID={w_id}")
    customers, history = [], []
    for c_id in range(1, CUST_PER_DIST + 1):
        c_first = rnd.alpha_string(8, 16)
        c_last = last_name(c_id - 1 if c_id <= 1000 else rnd.nurand(255, 0, 999, 123))
        street_1, street_2, city, state, zip_code = rnd.address()
        c_phone = rnd.number_string()
        c_credit = "GC" if rnd.random_number(0, 1) == 1 else "BC"
        c_discount = repr(rnd.random_number(0, 50) / 100.0)  # Tcl writes doubles as repr() does
        c_data = rnd.alpha_string(300, 500)
        customers.append(f"{c_id},{d_id},{w_id},{c_first},OE,{c_last},{street_1},{street_2},{city},{state},"
                         f"{zip_code},{c_phone},{iso_timestamp()},{c_credit},50000,{c_discount},-10.0,{c_data},"
                         f"10.0,1,0\n")
        h_data = rnd.alpha_string(12, 24)
        history.append(f"{c_id},{d_id},{w_id},{w_id},{d_id},{iso_timestamp()},10.0,{h_data}\n")
        if c_id % 1000 == 0:
            copy(lda, sql.COPY_CUSTOMER, ["".join(customers)])
            copy(lda, sql.COPY_HISTORY, ["".join(history)])
            lda.exec(sql.COMMIT)
            customers, history = [], []
    print("Customer Done")


def order_customers(rnd):
    """Orders' o_c_id per o_id. HammerDB means a random permutation of the customers, but
    its swap writes `set $cust($r) $t` (a variable named by the value), never cust($r): so
    o_c_id(i) is cust(r) for r drawn from i..3000, which is still r, and customers repeat.
    Kept as HammerDB loads it."""
    cust = list(range(ORD_PER_DIST + 1))
    for i in range(1, ORD_PER_DIST + 1):
        cust[i] = cust[rnd.random_number(i, ORD_PER_DIST)]
    return cust


def load_orders(lda, rnd, w_id, d_id):
    """Orders: per 100 orders a COPY of the orders, of the new orders (orders above 2100 are
    undelivered) and of their lines, then commit."""
    print(f"Loading Orders for D={d_id} W={w_id}")
    cust = order_customers(rnd)
    orders, new_orders, lines = [], [], []
    for o_id in range(1, ORD_PER_DIST + 1):
        o_carrier_id = rnd.random_number(1, 10)
        o_ol_cnt = rnd.random_number(5, 15)
        undelivered = o_id > 2100
        carrier = "" if undelivered else o_carrier_id
        orders.append(f"{o_id},{cust[o_id]},{d_id},{w_id},{iso_timestamp()},{carrier},{o_ol_cnt},1\n")
        if undelivered:
            new_orders.append(f"{o_id},{d_id},{w_id}\n")
        for ol in range(1, o_ol_cnt + 1):
            ol_i_id = rnd.random_number(1, MAXITEMS)
            ol_dist_info = rnd.alpha_string(24, 24)
            if undelivered:
                lines.append(f"{o_id},{d_id},{w_id},{ol},{ol_i_id},{w_id},5,0.0,{ol_dist_info},\n")
            else:
                ol_amount = repr(rnd.random_number(10, 10000) / 100.0)
                lines.append(f"{o_id},{d_id},{w_id},{ol},{ol_i_id},{w_id},5,{ol_amount},{ol_dist_info},"
                             f"{iso_timestamp()}\n")
        if o_id % 100 == 0:
            copy(lda, sql.COPY_ORDERS, ["".join(orders)])
            if undelivered:
                copy(lda, sql.COPY_NEW_ORDER, ["".join(new_orders)])
            copy(lda, sql.COPY_ORDER_LINE, ["".join(lines)])
            lda.exec(sql.COMMIT)
            orders, new_orders, lines = [], [], []
    lda.exec(sql.COMMIT)
    print("Orders Done")


def create_indexes(lda):
    print("CREATING TPCC INDEXES")
    for statement in sql.CREATE_INDEXES:
        require(lda.exec(statement), "PGRES_COMMAND_OK")


def create_stored_procs(lda, storedprocs):
    print("CREATING TPCC STORED PROCEDURES" if storedprocs else "CREATING TPCC FUNCTIONS")
    for statement in routines.PROCEDURES if storedprocs else routines.FUNCTIONS:
        require(lda.exec(statement), "PGRES_TUPLES_OK", "PGRES_COMMAND_OK")


def gather_statistics(lda):
    print("GATHERING SCHEMA STATISTICS")
    require(lda.exec(sql.ANALYZE), "PGRES_COMMAND_OK")


def build(target, warehouses, storedprocs, seed=None):
    """do_tpcc, single-threaded."""
    rnd = TclRandom(seed)
    print(f"CREATING {target.user.upper()} SCHEMA")
    lda = target.connect_superuser()
    try:
        create_user_database(lda, target)
        lda.exec(sql.COMMIT)
    finally:
        lda.close()
    lda = target.connect_user()
    try:
        create_tables(lda)
        lda.exec(sql.COMMIT)
        load_items(lda, rnd)
        print(f"Start:{time.ctime()}")
        load_warehouses(lda, rnd, warehouses)
        for w_id in range(1, warehouses + 1):
            for d_id in range(1, DIST_PER_WARE + 1):
                load_customers(lda, rnd, w_id, d_id)
        lda.exec(sql.COMMIT)
        for w_id in range(1, warehouses + 1):
            for d_id in range(1, DIST_PER_WARE + 1):
                load_orders(lda, rnd, w_id, d_id)
        lda.exec(sql.COMMIT)
        print(f"End:{time.ctime()}")
        lda.exec(sql.COMMIT)
        create_indexes(lda)
        create_stored_procs(lda, storedprocs)
        gather_statistics(lda)
        print(f"{target.user.upper()} SCHEMA COMPLETE")
    finally:
        lda.close()
