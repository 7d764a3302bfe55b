-- pgbench's TPC-B-like transaction as one call of tpcb(): what a stored procedure user sends.
\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
SELECT tpcb(:aid, :bid, :tid, :delta);
