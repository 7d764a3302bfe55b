-- Order-Status terminal inputs (TPC-C 5.11, clause 2.6.1), then one call of order_status().
-- Variables from run_pgbench.sh (-D): warehouses, c_for_c_id, c_for_c_last (NURand's C).
\set w_id :client_id % :warehouses + 1
\set d_id random(1, 10)
-- 60% by last name (the number behind it, NURand(255, 0, 999)), else by C_ID.
\set by_name random(1, 100) <= 60
\set c_last ((random(0, 255) | random(0, 999)) + :c_for_c_last) % 1000
\set c_id ((random(0, 1023) | random(1, 3000)) + :c_for_c_id) % 3000 + 1
SELECT * FROM order_status(:w_id, :d_id, :c_id, :by_name, :c_last);
