-- CH-benCHmark Q15 (after TPC-H Q15): the supplier with the most revenue. The benchmark's view
-- revenue0 is a WITH query here, so that the query is one statement.
-- sort: 1
WITH revenue0 (supplier_no, total_revenue) AS (
  SELECT mod(s_w_id * s_i_id, 10000), sum(ol_amount)
  FROM order_line, stock
  WHERE ol_i_id = s_i_id AND ol_supply_w_id = s_w_id
    AND ol_delivery_d >= timestamp '2007-01-02 00:00:00'
  GROUP BY mod(s_w_id * s_i_id, 10000))
SELECT su_suppkey, su_name, su_address, su_phone, total_revenue
FROM supplier, revenue0
WHERE su_suppkey = supplier_no
  AND total_revenue = (SELECT max(total_revenue) FROM revenue0)
ORDER BY su_suppkey
