#!/usr/bin/env bash
# The commit path at default settings (issue 22, part 4), same run: pgbench's TPC-B-like
# transaction at 1, 4 and 16 clients against duetd and a scratch PostgreSQL 15 with fsync
# on, each with synchronous_commit on and off, two ways: pgbench's built-in script (a
# BEGIN ... END block of five statements, a round trip each) and the same five statements
# as one function call (tpcb.sql, tpcb_call.sql). Prints one line per run and the ratios.
#
#   bench/commit_path/run.sh [SECONDS=20] [CLIENTS="1 4 16"] [SCALE=1]
#
# Needs build/bin/duetd. Both servers keep their data under /tmp (the same disk).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
DURATION=${1:-20}
CLIENTS=${2:-1 4 16}
SCALE=${3:-1}
[ -x build/bin/duetd ] || { echo "build/bin/duetd not found: build it first" >&2; exit 1; }

DUET_PID=""; DUET_DATA=""; PG_DIR=""
cleanup() {
  [ -n "$DUET_PID" ] && { kill "$DUET_PID" 2>/dev/null; wait "$DUET_PID" 2>/dev/null || true; }
  [ -n "$DUET_DATA" ] && rm -rf "$DUET_DATA" "$DUET_DATA.log"
  [ -n "$PG_DIR" ] && python3 tests/scratch_pg.py stop "$PG_DIR"
}
trap cleanup EXIT

DUET_PORT=$(free_port)
DUET_DATA=$(mktemp -d /tmp/duet-commit.XXXXXX)
build/bin/duetd --listen 127.0.0.1 --port "$DUET_PORT" --data-dir "$DUET_DATA" >"$DUET_DATA.log" 2>&1 &
DUET_PID=$!
wait_ready "$DUET_PORT" "$DUET_PID" || { echo "duetd did not start" >&2; exit 1; }
read -r PG_DIR PG_PORT < <(python3 tests/scratch_pg.py start --fsync)
[ "$(psql -X -At -h 127.0.0.1 -p "$PG_PORT" -U postgres -c 'SHOW fsync')" = on ] || { echo "PostgreSQL runs without fsync" >&2; exit 1; }

for port in "$DUET_PORT" "$PG_PORT"; do
  pgbench -h 127.0.0.1 -p "$port" -U postgres -i -s "$SCALE" -q postgres >/dev/null 2>&1
  psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -f bench/commit_path/tpcb.sql
done

# tps SYSTEM_PORT CLIENTS SYNC SCRIPT: pgbench's tps, connection time excluded.
tps() {
  local script=()
  [ "$4" = call ] && script=(-f bench/commit_path/tpcb_call.sql)
  PGOPTIONS="-c synchronous_commit=$3" pgbench -h 127.0.0.1 -p "$1" -U postgres -n -M prepared -c "$2" -j "$2" \
    -T "$DURATION" "${script[@]}" postgres 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | tail -1
}

printf '%-8s %-4s %-8s %12s %12s %8s\n' script sync clients duetdb postgres ratio
for script in block call; do
  for sync in on off; do
    for c in $CLIENTS; do
      duet=$(tps "$DUET_PORT" "$c" "$sync" "$script")
      pg=$(tps "$PG_PORT" "$c" "$sync" "$script")
      ratio=$(python3 -c "print(f'{${duet:-0} / ${pg:-1}:.2f}')" 2>/dev/null || echo "?")
      printf '%-8s %-4s %-8s %12s %12s %8s\n' "$script" "$sync" "$c" "${duet:-failed}" "${pg:-failed}" "$ratio"
    done
  done
done
