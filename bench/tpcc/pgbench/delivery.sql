-- Delivery terminal inputs (TPC-C 5.11, clause 2.7.1), then one call of delivery().
-- Variables from run_pgbench.sh (-D): warehouses.
\set w_id :client_id % :warehouses + 1
\set o_carrier_id random(1, 10)
SELECT delivery(:w_id, :o_carrier_id);
