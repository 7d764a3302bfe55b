-- CH-benCHmark Q4 (after TPC-H Q4): orders with a line delivered, per line count.
-- sort: 1
SELECT o_ol_cnt, count(*) AS order_count
FROM orders
WHERE o_entry_d >= timestamp '2007-01-02 00:00:00'
  AND o_entry_d < timestamp '2030-01-01 00:00:00'
  AND EXISTS (
    SELECT * FROM order_line
    WHERE o_id = ol_o_id AND o_w_id = ol_w_id AND o_d_id = ol_d_id
      AND ol_delivery_d >= o_entry_d)
GROUP BY o_ol_cnt
ORDER BY o_ol_cnt
