#!/usr/bin/env bash
# Fork time under steady writes, by how split huge pages are joined back (issue 4,
# snapshot/huge_page_collapser.h), same run: one duetd per setting below, side by side,
# each loaded with TPC-C W warehouses. For each: fork time after the load; then TPC-C for S
# seconds while a fresh snapshot is forced every second (the first writes after each fork
# split the huge pages they touch, and a snapshot is always alive, as under a steady
# analytic stream), with the private memory the live snapshots held; then, after 3 s with
# no snapshot forced, fork time again.
# Settings: --collapse-while-alive 88, 25, 0 (the default: join only once no snapshot is
# alive), and --collapse-huge-pages false.
# Usage: bench/snapshots/fork_after_writes.sh [WAREHOUSES [SECONDS]]   (Release build in build/)
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${1:-10}; S=${2:-15}
LABELS=("while alive 88%" "while alive 25%" "none alive only" "off            ")
FLAGS=("--collapse-while-alive 88" "--collapse-while-alive 25" "" "--collapse-huge-pages false")
DATA=$(mktemp -d /tmp/duet-forkbench.XXXXXX)
cleanup() { pkill -f "duetd --port 5657[0-9]" || true; rm -rf "$DATA"; }
trap cleanup EXIT
PY=${PY:-.venv/bin/python}
source bench/tpcc/lib.sh
for i in "${!FLAGS[@]}"; do
  # shellcheck disable=SC2086 # FLAGS[i] is a list of words
  build/bin/duetd --port $((56570 + i)) --data-dir "$DATA/$i" --redo-log false ${FLAGS[$i]} >/dev/null 2>&1 &
done
for i in "${!FLAGS[@]}"; do
  port=$((56570 + i))
  for _ in $(seq 1 100); do pg_isready -q -h 127.0.0.1 -p $port && break; sleep 0.1; done
  load_tpcc "$PWD" $port "$W"
done
echo "W=$W, $(nproc) cores, commit $(git log --format=%h -1)"
for i in "${!FLAGS[@]}"; do
  port=$((56570 + i)); label=${LABELS[$i]}
  echo "$label after the load:      $($PY bench/snapshots/fork_time.py $port tpcc 10)"
  build/bin/duet_tpcc_driver --host 127.0.0.1 --port $port --dbname tpcc --connections 2 --duration "$S" \
    --warmup 0 2>/dev/null | grep '^transactions' | sed "s/^/$label TPC-C, a fork a second: /" &
  driver=$!
  $PY bench/snapshots/fork_time.py $port tpcc $(( S - 1 )) 1 | sed "s/^/$label during TPC-C:     /" &
  forks=$!
  wait $driver; wait $forks
  sleep 3
  echo "$label 3 s after:          $($PY bench/snapshots/fork_time.py $port tpcc 10)"
done
