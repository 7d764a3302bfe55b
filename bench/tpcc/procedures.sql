-- The five TPC-C transactions (specification 5.11, clause 2) as PL/pgSQL functions, one file
-- that loads unchanged into PostgreSQL 15 and, once it compiles PL/pgSQL, into DuetDB:
--   psql -f bench/tpcc/procedures.sql
--
-- The terminal's inputs (clauses 2.4.1, 2.5.1, 2.6.1, 2.7.1, 2.8.1: NURand customers and
-- items, the 1% unused item, remote warehouses, payment by last name ...) are drawn by the
-- driver, as the spec has the terminal do; the functions do the database work of the
-- transaction profiles. Two consequences of that split:
--   * New-Order takes its item lines as three arrays (item, supply warehouse, quantity) and
--     uses their first p_ol_cnt entries, so that a driver such as pgbench, which has no
--     variable-length lists, can always pass 15.
--   * A customer chosen by last name arrives as the number behind the name (0..999, drawn
--     with NURand(255, 0, 999)), and customer_by_last_name() spells it (clause 4.3.2.3):
--     pgbench cannot build strings.
-- The spec's display outputs that a driver does not need are read, as the profiles ask,
-- but not returned; each function returns what tests and drivers check.
--
-- Only the PL/pgSQL that DuetDB is to compile (issue 3, part 1) is used: typed variables,
-- SELECT/UPDATE/DELETE ... INTO, FOUND, IF, integer FOR, CONTINUE WHEN, RETURN QUERY,
-- array parameters, and an EXCEPTION clause. No dynamic SQL, cursors or temporary tables.

-- The middle customer of a district with a given last name (clauses 2.5.2.2 and 2.6.2.2):
-- of the n customers with that C_LAST, sorted by C_FIRST, the one at position n/2 rounded
-- up. Every name exists in every district (the load gives customers 1..1000 the names
-- 0..999), so n >= 1.
CREATE OR REPLACE FUNCTION customer_by_last_name(p_w_id integer, p_d_id integer, p_c_last integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  syllables CONSTANT varchar[] := ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES',
                                        'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'];
  v_c_last varchar(16);
  v_count integer;
  v_c_id integer;
BEGIN
  v_c_last := syllables[p_c_last / 100 + 1] || syllables[p_c_last / 10 % 10 + 1]
              || syllables[p_c_last % 10 + 1];
  SELECT count(*) INTO v_count
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = v_c_last;
  -- Position ceil(n/2), counted from 1, is offset (n - 1) / 2.
  SELECT c_id INTO v_c_id
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = v_c_last
    ORDER BY c_first LIMIT 1 OFFSET (v_count - 1) / 2;
  RETURN v_c_id;
END
$$;

-- New-Order (clause 2.4.2). Returns the order's total amount, or NULL when the order was
-- rolled back: an unused item number (the driver puts one last in 1% of the orders) makes
-- the item lookup raise no_data_found (SQLSTATE P0002), and this block's EXCEPTION clause
-- undoes everything the function did (the district's D_NEXT_O_ID, the order, its lines and
-- the stock updates), as clause 2.4.2.3 asks. The error is caught here rather than passed
-- to the client because pgbench ends a client at the first error; the caller's
-- transaction stays usable and commits nothing of this order.
CREATE OR REPLACE FUNCTION new_order(p_w_id integer, p_d_id integer, p_c_id integer,
                                     p_ol_cnt integer, p_i_ids integer[],
                                     p_supply_w_ids integer[], p_quantities integer[])
RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
  v_w_tax numeric(4,4);
  v_d_tax numeric(4,4);
  v_o_id integer;
  v_c_discount numeric(4,4);
  v_c_last varchar(16);
  v_c_credit char(2);
  v_all_local integer := 1;
  v_i_price numeric(5,2);
  v_i_name varchar(24);
  v_i_data varchar(50);
  v_s_data varchar(50);
  v_dist_info char(24);
  v_ol_amount numeric(6,2);
  v_total numeric(12,2) := 0;
BEGIN
  FOR i IN 1 .. p_ol_cnt LOOP
    IF p_supply_w_ids[i] <> p_w_id THEN
      v_all_local := 0;
    END IF;
  END LOOP;

  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
  -- Taking the order number and incrementing D_NEXT_O_ID in one statement keeps concurrent
  -- New-Orders of a district apart (the row stays locked until commit in PostgreSQL).
  UPDATE district SET d_next_o_id = d_next_o_id + 1
    WHERE d_w_id = p_w_id AND d_id = p_d_id
    RETURNING d_tax, d_next_o_id - 1 INTO v_d_tax, v_o_id;
  SELECT c_discount, c_last, c_credit INTO v_c_discount, v_c_last, v_c_credit
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;

  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
    VALUES (v_o_id, p_d_id, p_w_id, p_c_id, now(), NULL, p_ol_cnt, v_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d_id, p_w_id);

  FOR i IN 1 .. p_ol_cnt LOOP
    SELECT i_price, i_name, i_data INTO STRICT v_i_price, v_i_name, v_i_data
      FROM item WHERE i_id = p_i_ids[i];
    -- Clause 2.4.2.2: take the quantity, and restock by 91 when fewer than 10 would remain.
    UPDATE stock
      SET s_quantity = CASE WHEN s_quantity >= p_quantities[i] + 10 THEN s_quantity - p_quantities[i]
                            ELSE s_quantity - p_quantities[i] + 91 END,
          s_ytd = s_ytd + p_quantities[i],
          s_order_cnt = s_order_cnt + 1,
          s_remote_cnt = s_remote_cnt + CASE WHEN p_supply_w_ids[i] = p_w_id THEN 0 ELSE 1 END
      WHERE s_w_id = p_supply_w_ids[i] AND s_i_id = p_i_ids[i]
      RETURNING s_data,
                CASE p_d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
                            WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
                            WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09
                            ELSE s_dist_10 END
      INTO v_s_data, v_dist_info;
    v_ol_amount := p_quantities[i] * v_i_price;
    v_total := v_total + v_ol_amount;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id,
                            ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
      VALUES (v_o_id, p_d_id, p_w_id, i, p_i_ids[i], p_supply_w_ids[i],
              NULL, p_quantities[i], v_ol_amount, v_dist_info);
  END LOOP;
  RETURN round(v_total * (1 - v_c_discount) * (1 + v_w_tax + v_d_tax), 2);
EXCEPTION
  WHEN no_data_found THEN
    RETURN NULL;
END
$$;

-- Payment (clause 2.5.2). The customer is p_c_id, or when p_by_name the middle customer
-- with last name number p_c_last. Returns the paying customer's C_ID.
CREATE OR REPLACE FUNCTION payment(p_w_id integer, p_d_id integer, p_c_w_id integer,
                                   p_c_d_id integer, p_c_id integer, p_by_name boolean,
                                   p_c_last integer, p_h_amount numeric)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_w_name varchar(10);
  v_d_name varchar(10);
  v_c_id integer := p_c_id;
  v_c_credit char(2);
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + p_h_amount WHERE w_id = p_w_id
    RETURNING w_name INTO v_w_name;
  UPDATE district SET d_ytd = d_ytd + p_h_amount WHERE d_w_id = p_w_id AND d_id = p_d_id
    RETURNING d_name INTO v_d_name;
  IF p_by_name THEN
    v_c_id := customer_by_last_name(p_c_w_id, p_c_d_id, p_c_last);
  END IF;
  UPDATE customer
    SET c_balance = c_balance - p_h_amount,
        c_ytd_payment = c_ytd_payment + p_h_amount,
        c_payment_cnt = c_payment_cnt + 1
    WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id
    RETURNING c_credit INTO v_c_credit;
  -- Clause 2.5.2.2: a customer with bad credit gets the payment's keys and amount put in
  -- front of C_DATA, which keeps its first 500 characters (an explicit cast to varchar(500)
  -- truncates).
  IF v_c_credit = 'BC' THEN
    UPDATE customer
      SET c_data = (v_c_id::text || ' ' || p_c_d_id::text || ' ' || p_c_w_id::text || ' '
                    || p_d_id::text || ' ' || p_w_id::text || ' ' || p_h_amount::text
                    || ' | ' || c_data)::varchar(500)
      WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
  END IF;
  -- H_DATA: W_NAME and D_NAME separated by 4 spaces.
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, now(), p_h_amount,
            v_w_name || '    ' || v_d_name);
  RETURN v_c_id;
END
$$;

-- Order-Status (clause 2.6.2): the customer's balance and most recent order, one row per
-- line of that order. Called as SELECT * FROM order_status(...). The output columns have
-- names of their own: as variables they would clash with the tables' column names.
CREATE OR REPLACE FUNCTION order_status(p_w_id integer, p_d_id integer, p_c_id integer,
                                        p_by_name boolean, p_c_last integer)
RETURNS TABLE (customer_id integer, balance numeric, order_id integer, carrier_id integer,
               item_id integer, supply_w_id integer, quantity integer, amount numeric,
               delivery_d timestamp)
LANGUAGE plpgsql AS $$
DECLARE
  v_c_id integer := p_c_id;
  v_c_balance numeric(12,2);
  v_c_first varchar(16);
  v_c_middle char(2);
  v_c_last varchar(16);
  v_o_id integer;
  v_o_entry_d timestamp;
  v_o_carrier_id integer;
BEGIN
  IF p_by_name THEN
    v_c_id := customer_by_last_name(p_w_id, p_d_id, p_c_last);
  END IF;
  SELECT c_balance, c_first, c_middle, c_last INTO v_c_balance, v_c_first, v_c_middle, v_c_last
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = v_c_id;
  SELECT o_id, o_entry_d, o_carrier_id INTO v_o_id, v_o_entry_d, v_o_carrier_id
    FROM orders WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = v_c_id
    ORDER BY o_id DESC LIMIT 1;
  RETURN QUERY
    SELECT v_c_id, v_c_balance, v_o_id, v_o_carrier_id,
           ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
      FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = v_o_id
      ORDER BY ol_number;
END
$$;

-- Delivery (clause 2.7.4), run directly rather than queued: for each district of the
-- warehouse, deliver its oldest undelivered order. Returns how many districts had one.
CREATE OR REPLACE FUNCTION delivery(p_w_id integer, p_o_carrier_id integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_o_id integer;
  v_c_id integer;
  v_amount numeric(12,2);
  v_delivered integer := 0;
BEGIN
  FOR v_d_id IN 1 .. 10 LOOP
    SELECT min(no_o_id) INTO v_o_id FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d_id;
    -- Clause 2.7.4.2: a district without undelivered orders is skipped.
    CONTINUE WHEN v_o_id IS NULL;
    DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d_id AND no_o_id = v_o_id;
    -- In PostgreSQL a concurrent Delivery may have taken this order since the SELECT (it
    -- waits for that one to commit and then finds the row gone): skip the district too.
    CONTINUE WHEN NOT FOUND;
    UPDATE orders SET o_carrier_id = p_o_carrier_id
      WHERE o_w_id = p_w_id AND o_d_id = v_d_id AND o_id = v_o_id
      RETURNING o_c_id INTO v_c_id;
    UPDATE order_line SET ol_delivery_d = now()
      WHERE ol_w_id = p_w_id AND ol_d_id = v_d_id AND ol_o_id = v_o_id;
    SELECT sum(ol_amount) INTO v_amount
      FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = v_d_id AND ol_o_id = v_o_id;
    UPDATE customer SET c_balance = c_balance + v_amount, c_delivery_cnt = c_delivery_cnt + 1
      WHERE c_w_id = p_w_id AND c_d_id = v_d_id AND c_id = v_c_id;
    v_delivered := v_delivered + 1;
  END LOOP;
  RETURN v_delivered;
END
$$;

-- Stock-Level (clause 2.8.2): how many distinct items of the district's last 20 orders
-- have fewer than p_threshold units in stock at the warehouse.
CREATE OR REPLACE FUNCTION stock_level(p_w_id integer, p_d_id integer, p_threshold integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_next_o_id integer;
  v_low_stock integer;
BEGIN
  SELECT d_next_o_id INTO v_next_o_id FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT count(DISTINCT s_i_id) INTO v_low_stock
    FROM order_line JOIN stock ON s_w_id = p_w_id AND s_i_id = ol_i_id
    WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id
      AND ol_o_id >= v_next_o_id - 20 AND ol_o_id < v_next_o_id
      AND s_quantity < p_threshold;
  RETURN v_low_stock;
END
$$;
