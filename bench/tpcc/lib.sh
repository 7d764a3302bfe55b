# Shell helpers of the bench/tpcc scripts (source it).

# tpcc_python ROOT: prints a Python with psycopg for check.py: $PYTHON when set, else the
# repository's .venv, made as scripts/test.sh makes it when it is missing.
tpcc_python() {
  if [ -n "${PYTHON:-}" ]; then
    echo "$PYTHON"
    return
  fi
  if ! "$1/.venv/bin/python" -c 'import psycopg' 2>/dev/null; then
    (cd "$1" && source scripts/lib.sh && ensure_venv) >&2
  fi
  echo "$1/.venv/bin/python"
}

# start_duetd_and_postgres ROOT PORT [DUETD FLAGS...]: starts ROOT/build/bin/duetd on PORT
# with a scratch data directory, and a scratch PostgreSQL 15 (tests/scratch_pg.py) with
# synchronous_commit = off; a trap stops both at exit. Waits for duetd. Sets DUET_PID,
# DUET_DATA (its log is DUET_DATA.log), PG_SCRATCH and PG_PORT.
start_duetd_and_postgres() {
  local root=$1 port=$2
  shift 2
  DUET_DATA=$(mktemp -d /tmp/duet-bench.XXXXXX)
  "$root/build/bin/duetd" --port "$port" --data-dir "$DUET_DATA" "$@" >"$DUET_DATA.log" 2>&1 &
  DUET_PID=$!
  read -r PG_SCRATCH PG_PORT < <(python3 "$root/tests/scratch_pg.py" start)
  STOP_PG="$root/tests/scratch_pg.py"
  trap 'kill $DUET_PID 2>/dev/null; wait $DUET_PID 2>/dev/null; rm -rf "$DUET_DATA" "$DUET_DATA.log"; python3 "$STOP_PG" stop "$PG_SCRATCH"' EXIT
  psql -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres \
    -c "ALTER SYSTEM SET synchronous_commit = off" -c "SELECT pg_reload_conf()" >/dev/null
  for _ in $(seq 1 100); do pg_isready -q -h 127.0.0.1 -p "$port" && break; sleep 0.1; done
}

# load_tpcc ROOT PORT WAREHOUSES: a tpcc database with bench/tpcc's schema and procedures,
# loaded with that many warehouses.
load_tpcc() {
  psql -X -q -h 127.0.0.1 -p "$2" -U postgres -c "CREATE DATABASE tpcc"
  psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$2" -U postgres -d tpcc \
    -f "$1/bench/tpcc/schema.sql" -f "$1/bench/tpcc/procedures.sql"
  "$1/build/bin/duet_tpcc_load" --host 127.0.0.1 --port "$2" --dbname tpcc --warehouses "$3" --threads 2 >/dev/null 2>&1
}
