#!/usr/bin/env bash
# Builds DuetDB (Release) and runs duetd in the foreground on 127.0.0.1:5432 with its data
# in ./duet-data, after creating a small demo table on first start. Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build

PORT=5432
mkdir -p duet-data
build/bin/duetd --data-dir ./duet-data --listen 127.0.0.1 --port "$PORT" &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID"' INT TERM
if ! wait_ready "$PORT" "$SERVER_PID"; then
  echo "duetd did not start accepting connections on port $PORT" >&2
  kill "$SERVER_PID" 2>/dev/null || true
  exit 1
fi

psql_demo() { psql -X -q -A -t -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }
psql_demo -c 'CREATE TABLE IF NOT EXISTS demo (id integer PRIMARY KEY, name text NOT NULL, price numeric(8,2))'
if [ "$(psql_demo -c 'SELECT count(*) FROM demo')" = "0" ]; then
  psql_demo -c "INSERT INTO demo VALUES (1, 'apple', 0.50), (2, 'banana', 0.25), (3, 'cherry', 4.75), (4, 'durian', 12.00)"
fi

cat <<MSG
duetd is running (pid $SERVER_PID), data in ./duet-data. Connect with:
  psql -h 127.0.0.1 -p $PORT -U postgres -d postgres -c 'SELECT * FROM demo ORDER BY id'
Press Ctrl-C to stop it.
MSG
wait "$SERVER_PID"
