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
