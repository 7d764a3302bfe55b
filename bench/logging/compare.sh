#!/usr/bin/env bash
# Redo log cost, same run (docs/benchmarks.md, issue 5): TPC-C over the wire against duetd
# with its log (group commit, then synchronous_commit = off), duetd --redo-log false, and a
# scratch PostgreSQL 15 with fsync on (synchronous_commit on, then off); log bytes per run;
# then duetd's restart on its data directory (recovery time).
# Usage: [CONNECTIONS="1 4 16"] bench/logging/compare.sh [WAREHOUSES [SECONDS]]   (Release build in build/)
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${1:-10}; S=${2:-6}
DATA=$(mktemp -d /tmp/duet-logbench.XXXXXX)
read -r SCRATCH PG_PORT < <(python3 tests/scratch_pg.py start --fsync)
cleanup() { pkill -f "duetd --port 5650[01]" || true; python3 tests/scratch_pg.py stop "$SCRATCH"; rm -rf "$DATA"; }
trap cleanup EXIT
build/bin/duetd --port 56500 --data-dir "$DATA/log-on" >/dev/null 2>&1 &
build/bin/duetd --port 56501 --data-dir "$DATA/log-off" --redo-log false >/dev/null 2>&1 &
for port in 56500 56501; do for _ in $(seq 1 100); do pg_isready -q -h 127.0.0.1 -p $port && break; sleep 0.1; done; done
for port in 56500 56501 "$PG_PORT"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U postgres -c "CREATE DATABASE tpcc"
  psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d tpcc -f bench/tpcc/schema.sql -f bench/tpcc/procedures.sql
  build/bin/duet_tpcc_load --host 127.0.0.1 --port "$port" --dbname tpcc --warehouses "$W" --threads 2 >/dev/null
done
echo "log after the load: $(du -sm "$DATA/log-on/log" | cut -f1) MiB"
run() {  # LABEL PORT CONNECTIONS PGOPTIONS
  printf '%-24s %2s connections: ' "$1" "$3"
  PGOPTIONS="$4" build/bin/duet_tpcc_driver --host 127.0.0.1 --port "$2" --dbname tpcc --connections "$3" \
    --duration "$S" --warmup 1 2>/dev/null | grep '^transactions' | sed 's/transactions: //'
}
for c in ${CONNECTIONS:-1 4 16}; do
  before=$(du -sb "$DATA/log-on/log" | cut -f1)
  run "duetdb group commit" 56500 "$c" ""
  echo "  log bytes in that run: $(( $(du -sb "$DATA/log-on/log" | cut -f1) - before ))"
  run "duetdb asynchronous" 56500 "$c" "-c synchronous_commit=off"
  run "duetdb no log" 56501 "$c" ""
  run "postgres sync on" "$PG_PORT" "$c" ""
  run "postgres sync off" "$PG_PORT" "$c" "-c synchronous_commit=off"
done
pkill -TERM -f "duetd --port 56500"; sleep 2
build/bin/duetd --port 56500 --data-dir "$DATA/log-on" &
for _ in $(seq 1 3000); do pg_isready -q -h 127.0.0.1 -p 56500 && break; sleep 0.1; done
