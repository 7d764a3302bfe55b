-- TPC-C schema (TPC-C standard specification 5.11, clause 1.3) plus the three tables
-- CH-benCHmark adds for its analytic queries (SUPPLIER, NATION, REGION).
-- Loads unchanged into PostgreSQL 15 and into DuetDB: psql -f bench/tpcc/schema.sql.
--
-- Every identifier column is integer (the spec asks for at least 2*W, 20, 96,000 ... unique
-- values, which integer covers for any W), so that the procedures' integer parameters meet
-- the key columns with the same type and DuetDB can use its indexes for them. The spec's
-- numeric(n) counters (S_QUANTITY, S_YTD, C_PAYMENT_CNT, ...) are integer for the same
-- reason; money and rates keep numeric(p,s) with the spec's precision.

SET client_min_messages = warning;  -- no "does not exist, skipping" notices on a first load
-- DuetDB: these tables are read and written a row at a time, so they are row-stored.
-- PostgreSQL takes the dotted name as a custom setting and ignores it.
SET duet.default_storage = row;
DROP TABLE IF EXISTS warehouse, district, customer, history, new_order, orders, order_line,
  item, stock, supplier, nation, region;

CREATE TABLE warehouse (
  w_id       integer       NOT NULL,
  w_name     varchar(10)   NOT NULL,
  w_street_1 varchar(20)   NOT NULL,
  w_street_2 varchar(20)   NOT NULL,
  w_city     varchar(20)   NOT NULL,
  w_state    char(2)       NOT NULL,
  w_zip      char(9)       NOT NULL,
  w_tax      numeric(4,4)  NOT NULL,
  w_ytd      numeric(12,2) NOT NULL,
  PRIMARY KEY (w_id)
);

CREATE TABLE district (
  d_id        integer       NOT NULL,
  d_w_id      integer       NOT NULL,
  d_name      varchar(10)   NOT NULL,
  d_street_1  varchar(20)   NOT NULL,
  d_street_2  varchar(20)   NOT NULL,
  d_city      varchar(20)   NOT NULL,
  d_state     char(2)       NOT NULL,
  d_zip       char(9)       NOT NULL,
  d_tax       numeric(4,4)  NOT NULL,
  d_ytd       numeric(12,2) NOT NULL,
  d_next_o_id integer       NOT NULL,
  PRIMARY KEY (d_w_id, d_id)
);

CREATE TABLE customer (
  c_id           integer       NOT NULL,
  c_d_id         integer       NOT NULL,
  c_w_id         integer       NOT NULL,
  c_first        varchar(16)   NOT NULL,
  c_middle       char(2)       NOT NULL,
  c_last         varchar(16)   NOT NULL,
  c_street_1     varchar(20)   NOT NULL,
  c_street_2     varchar(20)   NOT NULL,
  c_city         varchar(20)   NOT NULL,
  c_state        char(2)       NOT NULL,
  c_zip          char(9)       NOT NULL,
  c_phone        char(16)      NOT NULL,
  c_since        timestamp     NOT NULL,
  c_credit       char(2)       NOT NULL,
  c_credit_lim   numeric(12,2) NOT NULL,
  c_discount     numeric(4,4)  NOT NULL,
  c_balance      numeric(12,2) NOT NULL,
  c_ytd_payment  numeric(12,2) NOT NULL,
  c_payment_cnt  integer       NOT NULL,
  c_delivery_cnt integer       NOT NULL,
  c_data         varchar(500)  NOT NULL,
  PRIMARY KEY (c_w_id, c_d_id, c_id)
);
-- Payment and Order-Status by last name (clauses 2.5.2.2 and 2.6.2.2): all customers of a
-- district with one last name, in C_FIRST order.
CREATE INDEX customer_by_name ON customer (c_w_id, c_d_id, c_last, c_first);

-- The spec gives HISTORY no primary key (clause 1.3: "Primary Key: none").
CREATE TABLE history (
  h_c_id   integer      NOT NULL,
  h_c_d_id integer      NOT NULL,
  h_c_w_id integer      NOT NULL,
  h_d_id   integer      NOT NULL,
  h_w_id   integer      NOT NULL,
  h_date   timestamp    NOT NULL,
  h_amount numeric(6,2) NOT NULL,
  h_data   varchar(24)  NOT NULL
);

CREATE TABLE new_order (
  no_o_id integer NOT NULL,
  no_d_id integer NOT NULL,
  no_w_id integer NOT NULL,
  PRIMARY KEY (no_w_id, no_d_id, no_o_id)
);

CREATE TABLE orders (
  o_id         integer   NOT NULL,
  o_d_id       integer   NOT NULL,
  o_w_id       integer   NOT NULL,
  o_c_id       integer   NOT NULL,
  o_entry_d    timestamp NOT NULL,
  o_carrier_id integer,            -- NULL until Delivery
  o_ol_cnt     integer   NOT NULL,
  o_all_local  integer   NOT NULL,
  PRIMARY KEY (o_w_id, o_d_id, o_id)
);
-- Order-Status (clause 2.6.2.2): the customer's most recent order.
CREATE INDEX orders_by_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);

CREATE TABLE order_line (
  ol_o_id        integer      NOT NULL,
  ol_d_id        integer      NOT NULL,
  ol_w_id        integer      NOT NULL,
  ol_number      integer      NOT NULL,
  ol_i_id        integer      NOT NULL,
  ol_supply_w_id integer      NOT NULL,
  ol_delivery_d  timestamp,            -- NULL until Delivery
  ol_quantity    integer      NOT NULL,
  ol_amount      numeric(6,2) NOT NULL,
  ol_dist_info   char(24)     NOT NULL,
  PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)
);

CREATE TABLE item (
  i_id    integer      NOT NULL,
  i_im_id integer      NOT NULL,
  i_name  varchar(24)  NOT NULL,
  i_price numeric(5,2) NOT NULL,
  i_data  varchar(50)  NOT NULL,
  PRIMARY KEY (i_id)
);

CREATE TABLE stock (
  s_i_id       integer     NOT NULL,
  s_w_id       integer     NOT NULL,
  s_quantity   integer     NOT NULL,
  s_dist_01    char(24)    NOT NULL,
  s_dist_02    char(24)    NOT NULL,
  s_dist_03    char(24)    NOT NULL,
  s_dist_04    char(24)    NOT NULL,
  s_dist_05    char(24)    NOT NULL,
  s_dist_06    char(24)    NOT NULL,
  s_dist_07    char(24)    NOT NULL,
  s_dist_08    char(24)    NOT NULL,
  s_dist_09    char(24)    NOT NULL,
  s_dist_10    char(24)    NOT NULL,
  s_ytd        integer     NOT NULL,
  s_order_cnt  integer     NOT NULL,
  s_remote_cnt integer     NOT NULL,
  s_data       varchar(50) NOT NULL,
  PRIMARY KEY (s_w_id, s_i_id)
);

-- CH-benCHmark: a stock row's supplier is mod(s_w_id * s_i_id, 10000) = su_suppkey, a
-- customer's nation is ascii(substr(c_state, 1, 1)) = n_nationkey (so the 62 nation keys are
-- the character codes of 0-9, A-Z, a-z).
CREATE TABLE supplier (
  su_suppkey   integer       NOT NULL,
  su_name      char(25)      NOT NULL,
  su_address   varchar(40)   NOT NULL,
  su_nationkey integer       NOT NULL,
  su_phone     char(15)      NOT NULL,
  su_acctbal   numeric(12,2) NOT NULL,
  su_comment   char(101)     NOT NULL,
  PRIMARY KEY (su_suppkey)
);

CREATE TABLE nation (
  n_nationkey integer   NOT NULL,
  n_name      char(25)  NOT NULL,
  n_regionkey integer   NOT NULL,
  n_comment   char(152) NOT NULL,
  PRIMARY KEY (n_nationkey)
);

CREATE TABLE region (
  r_regionkey integer   NOT NULL,
  r_name      char(55)  NOT NULL,
  r_comment   char(152) NOT NULL,
  PRIMARY KEY (r_regionkey)
);
