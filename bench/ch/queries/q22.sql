-- CH-benCHmark Q22 (after TPC-H Q22): customers with an above-average balance and no orders,
-- per first letter of their state.
-- sort: 1
SELECT substring(c_state FROM 1 FOR 1) AS country, count(*) AS numcust, sum(c_balance) AS totacctbal
FROM customer
WHERE substring(c_phone FROM 1 FOR 1) IN ('1', '2', '3', '4', '5', '6', '7')
  AND c_balance > (
    SELECT avg(c_balance) FROM customer
    WHERE c_balance > 0.00
      AND substring(c_phone FROM 1 FOR 1) IN ('1', '2', '3', '4', '5', '6', '7'))
  AND NOT EXISTS (
    SELECT * FROM orders
    WHERE o_c_id = c_id AND o_w_id = c_w_id AND o_d_id = c_d_id
      AND o_entry_d BETWEEN timestamp '2007-01-02 00:00:00' AND timestamp '2030-01-01 00:00:00')
GROUP BY substring(c_state FROM 1 FOR 1)
ORDER BY substring(c_state FROM 1 FOR 1)
