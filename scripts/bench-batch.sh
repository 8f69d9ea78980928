#!/bin/sh
# Throughput of `tiltbox batch` with --jobs 1 and --jobs 2 on a 16-job batch, and the
# per-job overhead of the child process against running the same scenario directly.
#   scripts/bench-batch.sh [TILTBOX]     (default .build/release/tiltbox; `make bench-batch` builds it)
# Each job runs Scenarios/pile-100.json for BENCH_DURATION simulated seconds (default 2).
set -eu
BIN=$(cd "$(dirname "${1:-.build/release/tiltbox}")" && pwd)/$(basename "${1:-.build/release/tiltbox}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DURATION=${BENCH_DURATION:-2}
JOBS=16
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp "$ROOT/Scenarios/pile-100.json" "$WORK/pile.json"
{
    printf '{"format": "tiltbox-batch/1", "jobs": [\n'
    i=0
    while [ $i -lt $JOBS ]; do
        [ $i -gt 0 ] && printf ',\n'
        printf '  {"name": "pile-%d", "run": "pile.json", "duration": %s}' $i "$DURATION"
        i=$((i + 1))
    done
    printf '\n]}\n'
} > "$WORK/m.json"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { print b - a }'; }
calc() { awk "BEGIN { print $1 }"; }

start=$(now); i=0
while [ $i -lt $JOBS ]; do
    "$BIN" run "$WORK/pile.json" --duration "$DURATION" --view none --quiet --summary-json "$WORK/direct.json" >/dev/null
    i=$((i + 1))
done
direct=$(elapsed "$start" "$(now)")

start=$(now); "$BIN" batch "$WORK/m.json" --jobs 1 --json "$WORK/j1.json" >/dev/null; jobs1=$(elapsed "$start" "$(now)")
start=$(now); "$BIN" batch "$WORK/m.json" --jobs 2 --json "$WORK/j2.json" >/dev/null; jobs2=$(elapsed "$start" "$(now)")

printf '16 jobs of pile-100.json for %s s each\n' "$DURATION"
printf '  direct runs, one after another: %.2f s (%.3f s per run)\n' "$direct" "$(calc "$direct / $JOBS")"
printf '  batch --jobs 1: %.2f s (%.2f jobs/s); overhead per job against the direct run: %.1f ms\n' \
    "$jobs1" "$(calc "$JOBS / $jobs1")" "$(calc "($jobs1 - $direct) * 1000 / $JOBS")"
printf '  batch --jobs 2: %.2f s (%.2f jobs/s): %.2fx the throughput of --jobs 1\n' \
    "$jobs2" "$(calc "$JOBS / $jobs2")" "$(calc "$jobs1 / $jobs2")"
