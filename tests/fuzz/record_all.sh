#!/usr/bin/env bash
# Records the protocol fuzzer's seed corpus from real clients (tests/fuzz/README.md): every
# client suite and seed_clients.py run through record_corpus.py's proxy against a running
# server, one raw file per connection, then libFuzzer's -merge=1 keeps the inputs that add
# coverage into tests/fuzz/corpus/protocol/ (needs build-fuzz/bin/duet_protocol_fuzzer;
# without it the raw files are copied as they are).
# Usage: record_all.sh HOST PORT   (a fresh duetd: the client suites create their tables)
set -uo pipefail
cd "$(dirname "$0")/../.."
HOST=${1:?usage: record_all.sh HOST PORT}
PORT=${2:?usage: record_all.sh HOST PORT}
PY=${PY:-$PWD/.venv/bin/python}
RAW=$(mktemp -d /tmp/duet-corpus-raw.XXXXXX)
REC=(python3 tests/fuzz/record_corpus.py --upstream-host "$HOST" --upstream-port "$PORT" --out "$RAW")

PQXX=build/bin/duet_pqxx_client
if [ ! -x "$PQXX" ]; then
  PQXX=$RAW.pqxx
  g++ -std=c++20 -O1 -o "$PQXX" tests/clients/pqxx_client.cpp $(pkg-config --cflags --libs libpqxx)
fi
"${REC[@]}" --prefix psql -- bash tests/clients/psql_test.sh 127.0.0.1 '{port}'
"${REC[@]}" --prefix psycopg -- "$PY" tests/clients/psycopg_test.py 127.0.0.1 '{port}'
"${REC[@]}" --prefix pqxx -- "$PQXX" 127.0.0.1 '{port}'
"${REC[@]}" --prefix pgbench -- bash tests/clients/pgbench_test.sh 127.0.0.1 '{port}' 2
"${REC[@]}" --prefix jdbc -- bash tests/clients/jdbc_test.sh 127.0.0.1 '{port}'
"${REC[@]}" --prefix seed -- "$PY" tests/fuzz/seed_clients.py 127.0.0.1 '{port}'
"${REC[@]}" --prefix abuse -- "$PY" tests/protocol/abuse.py 127.0.0.1 '{port}'
echo "raw: $(ls "$RAW" | wc -l) files, $(du -sh "$RAW" | cut -f1) in $RAW"

mkdir -p tests/fuzz/corpus/protocol
if [ -x build-fuzz/bin/duet_protocol_fuzzer ]; then
  build-fuzz/bin/duet_protocol_fuzzer -merge=1 -timeout=60 -rss_limit_mb=4096 -max_len=65536 \
    tests/fuzz/corpus/protocol "$RAW" 2>&1 | grep -E "MERGE-OUTER: [0-9]+ new files"
else
  cp "$RAW"/* tests/fuzz/corpus/protocol/
fi
echo "corpus: $(ls tests/fuzz/corpus/protocol | wc -l) files, $(du -sh tests/fuzz/corpus/protocol | cut -f1)"
