-- Payment terminal inputs (TPC-C 5.11, clause 2.5.1), then one call of payment().
-- Variables from run_pgbench.sh (-D): warehouses, c_for_c_id, c_for_c_last (NURand's C).
\set w_id :client_id % :warehouses + 1
\set d_id random(1, 10)
-- 15% of the payments are for a customer of another warehouse, when there is one.
\set remote :warehouses > 1 AND random(1, 100) > 85
\set c_w_id CASE WHEN :remote THEN (:w_id + random(1, greatest(:warehouses - 1, 1)) - 1) % :warehouses + 1 ELSE :w_id END
\set c_d_id CASE WHEN :remote THEN random(1, 10) ELSE :d_id END
-- 60% by last name: the number NURand(255, 0, 999), which payment() spells as C_LAST;
-- otherwise by C_ID = NURand(1023, 1, 3000).
\set by_name random(1, 100) <= 60
\set c_last ((random(0, 255) | random(0, 999)) + :c_for_c_last) % 1000
\set c_id ((random(0, 1023) | random(1, 3000)) + :c_for_c_id) % 3000 + 1
-- H_AMOUNT in [1.00, 5000.00]; pgbench prints the double with 15 significant digits, which
-- gives back the two decimals exactly.
\set h_amount random(100, 500000) / 100.0
SELECT payment(:w_id, :d_id, :c_w_id, :c_d_id, :c_id, :by_name, :c_last, :h_amount);
