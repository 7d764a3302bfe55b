-- Stock-Level terminal inputs (TPC-C 5.11, clause 2.8.1), then one call of stock_level().
-- Variables from run_pgbench.sh (-D): warehouses. A terminal has a fixed home warehouse
-- and district (clause 2.8.1.1); clients of one warehouse take its districts in turn.
\set w_id :client_id % :warehouses + 1
\set d_id :client_id / :warehouses % 10 + 1
\set threshold random(10, 20)
SELECT stock_level(:w_id, :d_id, :threshold);
