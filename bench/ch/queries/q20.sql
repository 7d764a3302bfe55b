-- CH-benCHmark Q20 (after TPC-H Q20): German suppliers of items with excess stock.
-- sort: 1
SELECT su_name, su_address
FROM supplier, nation
WHERE su_suppkey IN (
    SELECT mod(s_i_id * s_w_id, 10000)
    FROM stock, order_line
    WHERE s_i_id IN (SELECT i_id FROM item WHERE i_data LIKE 'co%')
      AND ol_i_id = s_i_id
      AND ol_delivery_d > timestamp '2010-05-23 12:00:00'
    GROUP BY s_i_id, s_w_id, s_quantity
    HAVING 2 * s_quantity > sum(ol_quantity))
  AND su_nationkey = n_nationkey
  AND n_name = 'Germany'
ORDER BY su_name
