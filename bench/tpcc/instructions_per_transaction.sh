#!/usr/bin/env bash
# Instructions per TPC-C transaction of one type, in process, with callgrind:
#
#   bench/tpcc/instructions_per_transaction.sh MIX [TOP]
#
# MIX is duet_tpcc_inprocess's --mix (1/0/0/0/0: New-Order only, 0/1/0/0/0: Payment only).
# Runs the in-process driver twice under callgrind, collecting only inside each call
# (SessionTerminal::run), for 40 and 100 seconds of valgrind time. The difference of the
# two totals divided by the difference of their call counts is the cost of one transaction
# without the one-time compilation of the procedures, which both runs contain. Prints that
# and the TOP (default 25) functions by instructions per transaction. Takes ~5 minutes.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,11s/^# \{0,1\}//p' "$0" >&2; exit 2; }
MIX=$1 TOP=${2:-25}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=$(mktemp -d /tmp/duet-callgrind.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
cp "$ROOT/build/bin/duet_tpcc_inprocess" "$OUT/inprocess"  # a rebuild meanwhile can't disturb it
for seconds in 40 100; do
  valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.$seconds" \
    --toggle-collect='*SessionTerminal::run*' \
    "$OUT/inprocess" --sql-dir "$HERE" --warehouses 1 --duration "$seconds" --warmup 0 --mix "$MIX" \
    >"$OUT/log.$seconds" 2>&1
done
python3 - "$OUT/cg.40" "$OUT/cg.100" "$TOP" <<'PY'
import re, subprocess, sys

def calls(path):
    # calls= lines under a cfn= naming SessionTerminal::run count its invocations.
    names, current, n = {}, "", 0
    for line in open(path):
        m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
        if m and m.group(2):
            names[m.group(1)] = m.group(2)
        if line.startswith("cfn="):
            current = names.get(re.match(r"cfn=\((\d+)\)", line).group(1), "")
        if line.startswith("calls=") and "SessionTerminal::run" in current:
            n += int(line.split("=")[1].split()[0])
    return n

def per_function(path):
    out = subprocess.run(["callgrind_annotate", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    costs = {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(.*)", line)
        if m and m.group(2).strip():
            name = re.sub(r"\(.*", "", m.group(2).strip())
            costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs

short, long_, top = sys.argv[1], sys.argv[2], int(sys.argv[3])
n = calls(long_) - calls(short)
if n == 0:
    sys.exit("both runs made the same number of calls: nothing to divide by")
a, b = per_function(short), per_function(long_)
rows = sorted(((b.get(k, 0) - a.get(k, 0)) / n, k) for k in set(a) | set(b))
rows.reverse()
print(f"transactions compared: {abs(n)}")
for cost, name in rows[:top]:
    print(f"{cost:10.0f}  {name[:110]}")
PY
