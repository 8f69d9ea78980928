#!/usr/bin/env bash
# Runs the timing-sensitive test suites (those that start, signal, kill or wait on a process,
# a terminal under tmux, headless Chromium, GNU parallel, a Slurm cluster, or a real-time run
# fed live by a stand-in phone or a pipe) RUNS times on
# the machine as it is, then RUNS times with every core kept busy by stress-ng, and prints
# how many runs passed each way. Exit 0 only when every run passed.
#
#   scripts/flake-hunt.sh [RUNS]        (make flake-hunt FLAKE_RUNS=N builds first)
#
# The tests must already be built (`swift build --build-tests`). FLAKE_FILTER overrides the
# suites (a `swift test --filter` regular expression); FLAKE_MODES picks the passes ("idle",
# "loaded" or both, the default). Each run's output is kept in .build/flake-hunt/MODE-N.log.
set -u
cd "$(dirname "$0")/.."
runs=${1:-5}
swift=${SWIFT:-swift}
filter=${FLAKE_FILTER:-'KillPointTests|InterruptTests|LiveViewTests|TerminalConventionTests|OddInputTests|BatchTests|CompressedTraceTests|HTMLPlayerBrowserTests|ShapeRenderingTests|SchedulerHarnessTests|BatchSchedulerTests|HostileInputTests|StuckStepSignalTests|BatchChildProcessTests|LiveTiltTests|PictureSignalTests|WorldTeardownTests|HeapLayoutDeterminismTests'}
logs=.build/flake-hunt
mkdir -p "$logs"
command -v stress-ng >/dev/null 2>&1 || { echo "flake-hunt: stress-ng is needed for the loaded runs (make flake-hunt installs it)" >&2; exit 2; }

failures=0
hunt() {
    local mode=$1 passed=0 i started seconds verdict
    for i in $(seq 1 "$runs"); do
        started=$(date +%s)
        if "$swift" test --skip-build --filter "$filter" >"$logs/$mode-$i.log" 2>&1; then
            passed=$((passed + 1)); verdict=passed
        else
            failures=$((failures + 1)); verdict="FAILED (see $logs/$mode-$i.log)"
        fi
        seconds=$(( $(date +%s) - started ))
        echo "flake-hunt: $mode run $i of $runs $verdict in ${seconds} s, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    done
    echo "flake-hunt: $mode: $passed of $runs runs passed"
}

modes=${FLAKE_MODES:-idle loaded}
case " $modes " in *" idle "*) hunt idle ;; esac
case " $modes " in *" loaded "*)
    stress-ng --cpu "$(nproc)" --quiet &
    load=$!
    trap 'kill "$load" 2>/dev/null; wait "$load" 2>/dev/null' EXIT
    sleep 2   # let the load average see the load before the first loaded run
    hunt loaded ;;
esac
[ "$failures" -eq 0 ]
