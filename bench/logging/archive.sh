#!/usr/bin/env bash
# Archives and recovery, one run (docs/benchmarks.md, issue 5): TPC-C W warehouses loaded
# over the wire, then
#   - CHECKPOINT on the idle server: the archive's write time and size;
#   - TPC-C for S seconds, twice: without and with a CHECKPOINT S/3 seconds in (the cost of
#     an archive being written beside the transactions);
#   - SIGKILL and restart: recovery split into archive load and log replay, and the replay
#     rate, against the rate the same transactions ran live.
# Usage: bench/logging/archive.sh [WAREHOUSES [SECONDS [CONNECTIONS]]]   (Release build in build/)
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${1:-10}; S=${2:-10}; C=${3:-4}
PORT=56510
DATA=$(mktemp -d /tmp/duet-archivebench.XXXXXX)
cleanup() { pkill -9 -f "duetd --port $PORT" || true; rm -rf "$DATA"; }
trap cleanup EXIT
start() {
  # Archives only when asked: no timed or volume checkpoint in the middle of a measurement.
  build/bin/duetd --port $PORT --data-dir "$DATA" --max-wal-size 100000 --checkpoint-timeout 86400 \
    >>"$DATA/server.out" 2>&1 &
  for _ in $(seq 1 6000); do pg_isready -q -h 127.0.0.1 -p $PORT && return; sleep 0.1; done
  echo "duetd did not start" >&2; exit 1
}
sql() { psql -X -q -h 127.0.0.1 -p $PORT -U postgres -d tpcc "$@"; }
drive() {  # SECONDS
  build/bin/duet_tpcc_driver --host 127.0.0.1 --port $PORT --dbname tpcc --connections "$C" \
    --duration "$1" --warmup 1 2>/dev/null | grep '^transactions' | sed 's/transactions: //'
}
start
psql -X -q -h 127.0.0.1 -p $PORT -U postgres -c "CREATE DATABASE tpcc"
sql -v ON_ERROR_STOP=1 -f bench/tpcc/schema.sql -f bench/tpcc/procedures.sql
build/bin/duet_tpcc_load --host 127.0.0.1 --port $PORT --dbname tpcc --warehouses "$W" --threads 2 >/dev/null
echo "W=$W, $(nproc) CPUs, $C connections"
t0=$(date +%s.%N); sql -c "CHECKPOINT"; t1=$(date +%s.%N)
newest=$(ls "$DATA/archive" | sort | tail -1)
printf 'CHECKPOINT after the load: %.2f s, archive %s MiB\n' "$(echo "$t1 - $t0" | bc)" \
  "$(( $(stat -c %s "$DATA/archive/$newest") >> 20 ))"
echo "TPC-C alone:                 $(drive "$S")"
( sleep $(( S / 3 + 1 )); t0=$(date +%s.%N); sql -c "CHECKPOINT"; t1=$(date +%s.%N)
  printf 'CHECKPOINT during TPC-C: %.2f s\n' "$(echo "$t1 - $t0" | bc)" ) &
during=$!
echo "TPC-C with a CHECKPOINT:     $(drive "$S")"
wait $during
echo "TPC-C after the archive (log to replay): $(drive "$S")"
pkill -9 -f "duetd --port $PORT"; sleep 0.5
: >"$DATA/server.out"
t0=$(date +%s.%N); start; t1=$(date +%s.%N)
printf 'restart after SIGKILL: %.2f s until it accepted connections\n' "$(echo "$t1 - $t0" | bc)"
grep -E "loaded archive|replayed" "$DATA/server.out"
