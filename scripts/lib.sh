# Helpers shared by scripts/test.sh, scripts/run.sh and bench/pgbench_compare.sh (sourced).

# Prints a TCP port that is free right now on 127.0.0.1.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_ready PORT PID: waits up to 60 s until a server on 127.0.0.1:PORT accepts connections;
# fails early if process PID has exited.
wait_ready() {
  local port=$1 pid=$2 i
  for i in $(seq 1 120); do
    kill -0 "$pid" 2>/dev/null || return 1
    pg_isready -q -h 127.0.0.1 -p "$port" -t 1 && return 0
    sleep 0.5
  done
  return 1
}

# Adds the analytic benchmarks' data generator and reference system (bench/analytics) to .venv.
ensure_analytics_venv() {
  .venv/bin/python -c 'import duckdb' 2>/dev/null && [ -x .venv/bin/tpchgen-cli ] && return 0
  .venv/bin/pip install -q duckdb tpchgen-cli
}

# Creates .venv with psycopg 3, psycopg2, asyncpg, SQLAlchemy and pandas from PyPI unless they are already there.
ensure_venv() {
  if ! .venv/bin/python -c 'import psycopg' 2>/dev/null; then
    python3 -m venv .venv
    .venv/bin/pip install -q --upgrade pip
    .venv/bin/pip install -q 'psycopg[binary]'
  fi
  .venv/bin/python -c 'import psycopg2' 2>/dev/null || .venv/bin/pip install -q psycopg2-binary
  .venv/bin/python -c 'import asyncpg' 2>/dev/null || .venv/bin/pip install -q asyncpg
  .venv/bin/python -c 'import sqlalchemy' 2>/dev/null || .venv/bin/pip install -q 'sqlalchemy>=2'
  .venv/bin/python -c 'import pandas' 2>/dev/null || .venv/bin/pip install -q pandas
}
