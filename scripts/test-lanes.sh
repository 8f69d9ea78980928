#!/bin/sh
# Usage: scripts/test-lanes.sh LOG   (make test runs it after `swift build --build-tests`)
#
# Runs the whole Swift suite in three processes at once, then the XCTest cases, and writes their
# output to LOG (lane after lane). Why lanes: Swift Testing runs a process's tests on a pool of
# as many threads as the machine has cores (2 here), and the CLI tests block a thread while they
# wait for a child process, a terminal, a browser, a scheduler or a live run in real time; one
# process then leaves a core idle for much of the run. Three processes keep both cores busy.
#   lane 1: the CLI suites that wait on the clock or on long children (LONG below)
#   lane 2: every other CLI suite (a CLI suite added later lands here)
#   lane 3: every suite of the other targets, then the XCTest cases
# Each lane is a whole Swift Testing run (its own closing line); the last line of this script is
# the total, `tests: N passed, M failed`. Exits 1 when any lane failed.
set -u
LOG=${1:-.build/test-results/swift-test.log}
BIN=.build/debug/TiltboxPackageTests.xctest
SWIFT=${SWIFT:-swift}
LONG='LiveTiltTests|LiveViewTests|SchedulerHarnessTests|BatchChildProcessTests|BatchSchedulerTests|TerminalConventionTests|KillPointTests|ResourceBoundTests|JSONCapTests|CompressedTraceTests'
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
mkdir -p "$(dirname "$LOG")"

lane() { # NAME ARGS...: one Swift Testing run; its status in DIR/NAME.status
    name=$1
    shift
    "$BIN" --testing-library swift-testing "$@" > "$DIR/$name.log" 2>&1
    echo $? > "$DIR/$name.status"
}

start=$(date +%s)
lane cli-long --filter "^CLITests\.($LONG)/" &
lane cli --filter '^CLITests\.' --skip "^CLITests\.($LONG)/" &
{
    lane library --skip '^CLITests\.'
    "$SWIFT" test --skip-build --disable-swift-testing > "$DIR/xctest.log" 2>&1
    echo $? > "$DIR/xctest.status"
} &
wait

status=0
passed=0
failed=0
: > "$LOG"
for name in cli-long cli library xctest; do
    # Without the colour codes a test binary writes when it guesses a terminal.
    sed 's/\x1b\[[0-9;]*m//g' "$DIR/$name.log" > "$DIR/$name.plain" && mv "$DIR/$name.plain" "$DIR/$name.log"
    cat "$DIR/$name.log" >> "$LOG"
    code=$(cat "$DIR/$name.status" 2>/dev/null || echo 1)
    [ "$code" = 0 ] || status=1
    if [ "$name" = xctest ]; then
        line=$(grep -E "Executed [0-9]+ tests?, with" "$DIR/$name.log" | tail -n 1)
        n=$(echo "$line" | sed -E 's/.*Executed ([0-9]+) tests?, with ([0-9]+) failures?.*/\1 \2/')
    else
        line=$(grep -E "Test run with [0-9]+ tests?" "$DIR/$name.log" | tail -n 1)
        total=$(echo "$line" | sed -E 's/.*Test run with ([0-9]+) tests?.*/\1/')
        bad=$(grep -E "✘ Test [^ ]+ (with [0-9]+ test cases )?failed after" "$DIR/$name.log" | wc -l)
        n="$total $bad"
    fi
    [ -n "$line" ] || { line="no closing line (exit $code)"; n="0 1"; status=1; }
    set -- $n
    passed=$((passed + ${1:-0} - ${2:-0}))
    failed=$((failed + ${2:-0}))
    printf '%-9s exit %s: %s\n' "$name" "$code" "$(echo "$line" | sed 's/^[^A-Za-z]*//')"
done
echo "lanes: $(($(date +%s) - start)) s wall for the whole suite (log: $LOG)"
grep -E "✘ (Test|Suite) .*(failed|issue)" "$LOG" | head -n 40
echo "tests: $passed passed, $failed failed"
exit $status
