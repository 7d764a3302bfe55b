-- CH-benCHmark Q13 (after TPC-H Q13): how many customers have how many orders with a carrier
-- above 8.
-- sort: 2 desc, 1 desc
SELECT c_count, count(*) AS custdist
FROM (
  SELECT c_id, count(o_id)
  FROM customer LEFT OUTER JOIN orders
    ON c_w_id = o_w_id AND c_d_id = o_d_id AND c_id = o_c_id AND o_carrier_id > 8
  GROUP BY c_id
) AS c_orders (c_id, c_count)
GROUP BY c_count
ORDER BY custdist DESC, c_count DESC
