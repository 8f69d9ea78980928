#!/bin/sh
# Usage: scripts/scenario-intent.sh TILTBOX   (make test runs it)
# Runs `tiltbox test Scenarios/` twice: with the C library's maths as this CPU picks them, and with
# glibc's non-FMA maths (GLIBC_TUNABLES hides AVX2, FMA and AVX512F from glibc, which then takes the
# plain sin, cos, exp ... variants). Both runs must pass; the scenarios whose bit-for-bit digests
# differ between the two are listed (expectations are what holds across them, not the digests).
set -u
BIN=${1:-.build/debug/tiltbox}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
status=0
echo "tiltbox test Scenarios/ (this CPU's maths)"
"$BIN" test Scenarios/ --json "$OUT/native.json" || status=1
echo "tiltbox test Scenarios/ (GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F: glibc's non-FMA maths)"
GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F "$BIN" test Scenarios/ --json "$OUT/no-fma.json" || status=1
python3 - "$OUT/native.json" "$OUT/no-fma.json" <<'PY' || status=1
import json, sys
native, plain = ({job["name"]: job["digest"] for job in json.load(open(p))["jobs"]} for p in sys.argv[1:3])
differ = [name for name in native if native[name] != plain.get(name)]
print("digests that differ under non-FMA maths: " + (", ".join(differ) if differ else "none"))
PY
exit $status
