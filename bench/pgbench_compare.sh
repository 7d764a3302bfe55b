#!/usr/bin/env bash
# Same pgbench run against duetd and against a scratch PostgreSQL 15 (fsync=off), printing
# both tps figures and their ratio (numbers for docs/benchmarks.md and its dated history).
# Usage: bench/pgbench_compare.sh [SECONDS=30] [CLIENTS=4] [SCALE=1] [EXTRA pgbench args, e.g. -S]
# Needs build/bin/duetd (scripts/run.sh or scripts/test.sh builds it).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
DURATION=${1:-30}
CLIENTS=${2:-4}
SCALE=${3:-1}
EXTRA=${4:-}
[ -x build/bin/duetd ] || { echo "build/bin/duetd not found: build it first" >&2; exit 1; }

DUET_PID=""; DUET_DATA=""; PG_DIR=""
cleanup() {
  [ -n "$DUET_PID" ] && { kill "$DUET_PID" 2>/dev/null; wait "$DUET_PID" 2>/dev/null || true; }
  [ -n "$DUET_DATA" ] && rm -rf "$DUET_DATA" "$DUET_DATA.log"
  [ -n "$PG_DIR" ] && python3 tests/scratch_pg.py stop "$PG_DIR"
}
trap cleanup EXIT

# run_pgbench PORT: initialises and runs the benchmark, prints the tps (excluding connection time).
run_pgbench() {
  pgbench -h 127.0.0.1 -p "$1" -U postgres -i -s "$SCALE" -q postgres >/dev/null 2>&1
  pgbench -h 127.0.0.1 -p "$1" -U postgres -n -M prepared -c "$CLIENTS" -j "$CLIENTS" -T "$DURATION" $EXTRA postgres 2>/dev/null \
    | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | tail -1
}

DUET_PORT=$(free_port)
DUET_DATA=$(mktemp -d /tmp/duet-bench.XXXXXX)
build/bin/duetd --listen 127.0.0.1 --port "$DUET_PORT" --data-dir "$DUET_DATA" >"$DUET_DATA.log" 2>&1 &
DUET_PID=$!
wait_ready "$DUET_PORT" "$DUET_PID" || { echo "duetd did not start" >&2; exit 1; }
duet_tps=$(run_pgbench "$DUET_PORT")
kill "$DUET_PID"; wait "$DUET_PID" 2>/dev/null || true; DUET_PID=""

read -r PG_DIR PG_PORT < <(python3 tests/scratch_pg.py start)
pg_tps=$(run_pgbench "$PG_PORT")

echo "pgbench -M prepared -c $CLIENTS -T $DURATION $EXTRA, scale $SCALE"
echo "duetd:         ${duet_tps:-failed} tps"
echo "PostgreSQL 15: ${pg_tps:-failed} tps (fsync=off)"
if [ -n "$duet_tps" ] && [ -n "$pg_tps" ]; then
  python3 -c "print(f'ratio duetd/PostgreSQL: {$duet_tps / $pg_tps:.2f}x')"
fi
