#!/usr/bin/env bash
# The long fuzzing run (tests/fuzz/README.md): the protocol fuzzer and the SQL fuzzer, one
# after the other, each for SECONDS (default 3600), and then their counts. Builds what is
# missing (build/ and build-asan/ duetd, build-fuzz/). Findings stay in OUT (default
# /tmp/duet-fuzz-long.<date>): protocol/artifacts/ (libFuzzer crash-*, timeout-*, leak-*
# files) and sql/ (crash-*, hang-*, sanitizer-* cases, summary.txt). Known-open reproducers
# (tests/fuzz/known_open.txt) stay skipped; DUET_FUZZ_KNOWN_OPEN=/dev/null runs them too.
# Usage: long_run.sh [SECONDS] [SEED] [OUT]
set -uo pipefail
cd "$(dirname "$0")/../.."
SECONDS_EACH=${1:-3600}
SEED=${2:-$(date +%s)}
OUT=${3:-/tmp/duet-fuzz-long.$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
PY=${PY:-$PWD/.venv/bin/python}
JOBS=${DUET_BUILD_JOBS:+-j $DUET_BUILD_JOBS}

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build $JOBS --target duetd || exit 1
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DDUET_SANITIZE=ON >/dev/null &&
  cmake --build build-asan $JOBS --target duetd || exit 1
cmake -S . -B build-fuzz -G Ninja -DDUET_FUZZ=ON -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null &&
  cmake --build build-fuzz $JOBS --target duet_protocol_fuzzer || exit 1

known=()
[ -n "${DUET_FUZZ_KNOWN_OPEN+x}" ] && known=(--known-open "$DUET_FUZZ_KNOWN_OPEN")
echo "=== protocol fuzzer: $SECONDS_EACH s, seed $SEED"
bash tests/fuzz/run_protocol_fuzzer.sh --seconds "$SECONDS_EACH" --seed "$SEED" --out "$OUT/protocol" --fork \
  | tee "$OUT/protocol.txt"
echo "=== SQL fuzzer: $SECONDS_EACH s, seed $SEED, ASan duetd"
"$PY" tests/fuzz/sql_fuzzer.py --duetd build-asan/bin/duetd --seed "$SEED" --seconds "$SECONDS_EACH" \
  --out "$OUT/sql" --progress 500 "${known[@]}" | tee "$OUT/sql.txt" | grep -v "^sql_fuzzer: [0-9]* cases"

echo
echo "=== long run, seed $SEED, $SECONDS_EACH s each, results in $OUT"
grep "^protocol fuzzer: executions" "$OUT/protocol.txt"
grep "^sql_fuzzer: seed" "$OUT/sql.txt"
