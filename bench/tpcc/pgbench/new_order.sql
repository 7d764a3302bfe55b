-- New-Order terminal inputs (TPC-C 5.11, clause 2.4.1), then one call of new_order().
-- Variables from run_pgbench.sh (-D): warehouses, c_for_c_id, c_for_ol_i_id (NURand's C).
-- The client is the terminal: its home warehouse is fixed (clause 2.4.1.1).
\set w_id :client_id % :warehouses + 1
\set d_id random(1, 10)
\set c_id ((random(0, 1023) | random(1, 3000)) + :c_for_c_id) % 3000 + 1
\set ol_cnt random(5, 15)
-- rbk = 1 (1%): the last item line gets 100001, an unused item number, and the order rolls back.
\set rbk random(1, 100)
-- A supplying warehouse other than the home one, when there is one (with W = 1 it is the home).
\set other_w (:w_id + random(1, greatest(:warehouses - 1, 1)) - 1) % :warehouses + 1
-- Line k: item NURand(8191, 1, 100000); supplied by other_w for 1% of the lines; quantity 1..10.
-- new_order() uses the first ol_cnt lines.
\set i1 ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1
\set s1 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q1 random(1, 10)
\set i2 ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1
\set s2 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q2 random(1, 10)
\set i3 ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1
\set s3 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q3 random(1, 10)
\set i4 ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1
\set s4 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q4 random(1, 10)
\set i5 CASE WHEN :rbk = 1 AND :ol_cnt = 5 THEN 100001 ELSE ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1 END
\set s5 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q5 random(1, 10)
\set i6 CASE WHEN :rbk = 1 AND :ol_cnt = 6 THEN 100001 ELSE ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1 END
\set s6 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q6 random(1, 10)
\set i7 CASE WHEN :rbk = 1 AND :ol_cnt = 7 THEN 100001 ELSE ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1 END
\set s7 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q7 random(1, 10)
\set i8 CASE WHEN :rbk = 1 AND :ol_cnt = 8 THEN 100001 ELSE ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1 END
\set s8 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q8 random(1, 10)
\set i9 CASE WHEN :rbk = 1 AND :ol_cnt = 9 THEN 100001 ELSE ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1 END
\set s9 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q9 random(1, 10)
\set i10 CASE WHEN :rbk = 1 AND :ol_cnt = 10 THEN 100001 ELSE ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1 END
\set s10 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q10 random(1, 10)
\set i11 CASE WHEN :rbk = 1 AND :ol_cnt = 11 THEN 100001 ELSE ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1 END
\set s11 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q11 random(1, 10)
\set i12 CASE WHEN :rbk = 1 AND :ol_cnt = 12 THEN 100001 ELSE ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1 END
\set s12 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q12 random(1, 10)
\set i13 CASE WHEN :rbk = 1 AND :ol_cnt = 13 THEN 100001 ELSE ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1 END
\set s13 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q13 random(1, 10)
\set i14 CASE WHEN :rbk = 1 AND :ol_cnt = 14 THEN 100001 ELSE ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1 END
\set s14 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q14 random(1, 10)
\set i15 CASE WHEN :rbk = 1 AND :ol_cnt = 15 THEN 100001 ELSE ((random(0, 8191) | random(1, 100000)) + :c_for_ol_i_id) % 100000 + 1 END
\set s15 CASE WHEN random(1, 100) = 1 THEN :other_w ELSE :w_id END
\set q15 random(1, 10)
SELECT new_order(:w_id, :d_id, :c_id, :ol_cnt,
                 ARRAY[:i1, :i2, :i3, :i4, :i5, :i6, :i7, :i8, :i9, :i10, :i11, :i12, :i13, :i14, :i15]::integer[],
                 ARRAY[:s1, :s2, :s3, :s4, :s5, :s6, :s7, :s8, :s9, :s10, :s11, :s12, :s13, :s14, :s15]::integer[],
                 ARRAY[:q1, :q2, :q3, :q4, :q5, :q6, :q7, :q8, :q9, :q10, :q11, :q12, :q13, :q14, :q15]::integer[]);
