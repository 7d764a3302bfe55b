-- pgbench's built-in TPC-B-like transaction as one function: the same five statements.
CREATE FUNCTION tpcb(p_aid int, p_bid int, p_tid int, p_delta int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  balance int;
BEGIN
  UPDATE pgbench_accounts SET abalance = abalance + p_delta WHERE aid = p_aid;
  SELECT abalance INTO balance FROM pgbench_accounts WHERE aid = p_aid;
  UPDATE pgbench_tellers SET tbalance = tbalance + p_delta WHERE tid = p_tid;
  UPDATE pgbench_branches SET bbalance = bbalance + p_delta WHERE bid = p_bid;
  INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (p_tid, p_bid, p_aid, p_delta, CURRENT_TIMESTAMP);
  RETURN balance;
END $$;
