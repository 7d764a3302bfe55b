#!/usr/bin/env bash
# Runs the libFuzzer protocol target (build-fuzz/bin/duet_protocol_fuzzer) on the committed
# seed corpus for a bounded time and prints its counts. The committed corpus is only read:
# new inputs go to a work folder. Exit status: 0 when nothing crashed, leaked or timed out.
#
# Usage: run_protocol_fuzzer.sh [--seconds N] [--seed S] [--out DIR] [--fork] [-- LIBFUZZER-FLAGS...]
#   --seconds N  how long (default 60)
#   --seed S     libFuzzer's -seed (default 1)
#   --out DIR    work corpus, artifacts (crash-*, timeout-*, leak-*) and the log (default: a temp dir)
#   --keep-corpus  keep DIR's work corpus from an earlier run (else it starts empty)
#   --fork       long runs: -fork=1 with -ignore_crashes/timeouts/ooms, so one finding does not
#                end the run; every artifact is kept in DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
SECONDS_RUN=60
SEED=1
OUT=""
FORK=0
KEEP=0
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) SECONDS_RUN=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --fork) FORK=1; shift ;;
    --keep-corpus) KEEP=1; shift ;;
    --) shift; break ;;
    *) echo "unknown argument $1"; exit 2 ;;
  esac
done
BIN=${DUET_PROTOCOL_FUZZER:-build-fuzz/bin/duet_protocol_fuzzer}
[ -x "$BIN" ] || { echo "$BIN is missing: see tests/fuzz/README.md (build-fuzz)"; exit 2; }
[ -n "$OUT" ] || OUT=$(mktemp -d /tmp/duet-protocol-fuzz.XXXXXX)
[ "$KEEP" = 1 ] || rm -rf "$OUT/corpus"
rm -rf "$OUT/artifacts"
mkdir -p "$OUT/corpus" "$OUT/artifacts"
LOG=$OUT/fuzzer.log

# Leaks: libFuzzer checks each input that allocated more than it freed; LLVM's JIT keeps
# per-process caches on purpose, reachable, so only real leaks are reported.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:detect_container_overflow=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
flags=(-seed="$SEED" -max_total_time="$SECONDS_RUN" -timeout=30 -rss_limit_mb=4096 -max_len=65536
       -dict=tests/fuzz/protocol.dict
       -artifact_prefix="$OUT/artifacts/" -print_final_stats=1)
if [ "$FORK" = 1 ]; then
  flags+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
echo "protocol fuzzer: $BIN, seed $SEED, $SECONDS_RUN s, output in $OUT"
"$BIN" "${flags[@]}" "$@" "$OUT/corpus" tests/fuzz/corpus/protocol >"$LOG" 2>&1
rc=$?

# Counts. Plain mode prints stat::number_of_executed_units at the end; fork mode prints
# "#N: cov: ... exec/s ..." lines whose N is the total so far.
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOG" | tail -1)
[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\):* .*/\1/p' "$LOG" | tail -1)
crashes=$(find "$OUT/artifacts" -name 'crash-*' | wc -l)
leaks=$(find "$OUT/artifacts" -name 'leak-*' | wc -l)
timeouts=$(find "$OUT/artifacts" -name 'timeout-*' | wc -l)
ooms=$(find "$OUT/artifacts" -name 'oom-*' | wc -l)
sanitizer=$(grep -cE "ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:" "$LOG")
corpus=$(find "$OUT/corpus" -type f | wc -l)
echo "protocol fuzzer: executions ${execs:-?}, new corpus inputs $corpus, crashes $crashes, leaks $leaks," \
     "timeouts (hangs) $timeouts, out-of-memory $ooms, sanitizer reports $sanitizer, libFuzzer exit $rc"
if [ "$rc" -ne 0 ] || [ $((crashes + leaks + timeouts + ooms)) -gt 0 ]; then
  grep -E -B2 -A40 "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|==ERROR" "$LOG" | head -120
  echo "protocol fuzzer: FAILED; reproduce with: $BIN ARTIFACT (artifacts in $OUT/artifacts)"
  exit 1
fi
exit 0
