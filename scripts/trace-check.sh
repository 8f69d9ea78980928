#!/usr/bin/env bash
# Do two tiltbox binaries write the same traces? The check behind "every shipped trace is
# byte-identical" in docs/reliability.md and docs/performance.md.
#
# usage: scripts/trace-check.sh OLD-TILTBOX NEW-TILTBOX [SCENARIO-DIR]
#
# For every scenario of SCENARIO-DIR (default Scenarios/) that both binaries load, a full trace
# and a hash trace (--hashes), each binary in turn; then the built-in default scenario and two
# tilt-driven runs (book.json under tilt/rock.json and tilt/book-landscape.csv). A scenario's
# `expect` is taken out first (expectations never change a trace, and an older binary may not
# read them), so the copies are what both binaries run. Prints the scenarios the older binary
# refuses (keys it does not know), then either "N traces identical" (exit 0) or the traces
# that differ (exit 1). Exit 2 for bad usage.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: scripts/trace-check.sh OLD-TILTBOX NEW-TILTBOX [SCENARIO-DIR]" >&2
    exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
scenarios=$(realpath "${3:-Scenarios}")
for binary in "$old" "$new"; do
    [ -x "$binary" ] || { echo "trace-check: $binary is not an executable" >&2; exit 2; }
done
[ -d "$scenarios" ] || { echo "trace-check: $scenarios is not a folder" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in" "$work/old" "$work/new"
cp -r "$scenarios/." "$work/in/"
for file in "$work"/in/*.json; do
    python3 - "$file" <<'PY'
import json, sys
path = sys.argv[1]
with open(path) as f:
    scenario = json.load(f)
if isinstance(scenario, dict) and scenario.pop("expect", None) is not None:
    with open(path, "w") as f:
        json.dump(scenario, f, indent=1)
PY
done

cd "$work/in"
run() { # run SIDE NAME ARGS...: one trace of one binary
    local side=$1 name=$2
    shift 2
    local binary=$old
    [ "$side" = new ] && binary=$new
    "$binary" run "$@" --trace "$work/$side/$name.jsonl" --quiet --view none >/dev/null 2>&1 || true
}
for file in *.json; do
    name=${file%.json}
    if ! "$old" validate "$file" >/dev/null 2>&1; then
        echo "trace-check: the older binary refuses $name (left out)"
        continue
    fi
    for side in old new; do
        run "$side" "$name" "$file"
        run "$side" "$name.hashes" "$file" --hashes
    done
done
for side in old new; do
    run "$side" default
    if [ -f book.json ] && [ -d tilt ]; then
        run "$side" book-rock book.json --tilt tilt/rock.json
        run "$side" book-landscape book.json --tilt tilt/book-landscape.csv
    fi
done

(cd "$work/old" && sha256sum -- *) > "$work/old.sums"
(cd "$work/new" && sha256sum -- *) > "$work/new.sums"
if diff "$work/old.sums" "$work/new.sums" >/dev/null; then
    echo "trace-check: $(wc -l < "$work/old.sums") traces identical"
    exit 0
fi
echo "trace-check: traces that differ (or that one binary did not write):"
diff "$work/old.sums" "$work/new.sums" | sed -n 's/^[<>] [0-9a-f]*  /  /p' | sort -u
exit 1
