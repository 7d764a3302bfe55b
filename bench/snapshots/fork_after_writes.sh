#!/usr/bin/env bash
# Fork time after steady writes, with and without joining split huge pages (issue 4,
# snapshot/huge_page_collapser.h), same run: two duetd side by side, one started with
# --collapse-huge-pages false, both loaded with TPC-C W warehouses. For each: fork time
# after the load; then TPC-C for S seconds while 2*S fresh snapshots are forced back to
# back from its start (the first writes after each fork split the huge pages they touch);
# then, after 3 s, fork time again.
# Usage: bench/snapshots/fork_after_writes.sh [WAREHOUSES [SECONDS]]   (Release build in build/)
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${1:-10}; S=${2:-10}
DATA=$(mktemp -d /tmp/duet-forkbench.XXXXXX)
cleanup() { pkill -f "duetd --port 5657[01]" || true; rm -rf "$DATA"; }
trap cleanup EXIT
PY=${PY:-.venv/bin/python}
build/bin/duetd --port 56570 --data-dir "$DATA/on" --redo-log false >/dev/null 2>&1 &
build/bin/duetd --port 56571 --data-dir "$DATA/off" --redo-log false --collapse-huge-pages false >/dev/null 2>&1 &
for port in 56570 56571; do for _ in $(seq 1 100); do pg_isready -q -h 127.0.0.1 -p $port && break; sleep 0.1; done; done
for port in 56570 56571; do
  psql -X -q -h 127.0.0.1 -p $port -U postgres -c "CREATE DATABASE tpcc"
  psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p $port -U postgres -d tpcc -f bench/tpcc/schema.sql -f bench/tpcc/procedures.sql
  build/bin/duet_tpcc_load --host 127.0.0.1 --port $port --dbname tpcc --warehouses "$W" --threads 2 >/dev/null
done
for port in 56570 56571; do
  label=$([ $port = 56570 ] && echo "collapse on " || echo "collapse off")
  echo "$label after the load:  $($PY bench/snapshots/fork_time.py $port tpcc 10)"
  build/bin/duet_tpcc_driver --host 127.0.0.1 --port $port --dbname tpcc --connections 2 --duration "$S" \
    --warmup 0 2>/dev/null | grep '^transactions' | sed "s/^/$label TPC-C with forks: /" &
  driver=$!
  $PY bench/snapshots/fork_time.py $port tpcc $(( S * 2 )) | sed "s/^/$label during TPC-C: /" &
  forks=$!
  wait $driver; wait $forks
  sleep 3
  echo "$label 3 s after:      $($PY bench/snapshots/fork_time.py $port tpcc 10)"
done
