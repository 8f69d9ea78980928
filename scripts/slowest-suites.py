#!/usr/bin/env python3
"""The ten slowest test suites of a `swift test` run, so the suite's cost stays visible.

Reads the run's console output (a file, or standard input) and lists the suites with the
longest times as Swift Testing reports them ("Suite X passed after N seconds") and XCTest
("Test Suite 'X' passed ... in N (M) seconds"), with the whole run's time. Suites run in
parallel on the machine's cores, so a suite's time is its wall time from its start to its
end, waits for a core included: the list says where the wall time goes, not CPU time.
Exits 0 whatever it finds: a report, not a check.
"""
import re
import sys

SWIFT_TESTING = re.compile(r"Suite (\S+) (?:passed|failed) after ([0-9.]+) seconds")
SWIFT_TESTING_RUN = re.compile(r"Test run with (\d+) tests? in (\d+) suites? (passed|failed) after ([0-9.]+) seconds")
XCTEST = re.compile(r"Test Suite '([^']+)' (?:passed|failed) at .*")
XCTEST_TIME = re.compile(r"Executed (\d+) tests?, with .* in ([0-9.]+) \(([0-9.]+)\) seconds")


def main(text, top=10):
    suites = {}
    run = None
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = SWIFT_TESTING.search(line)
        if match:
            suites[match.group(1)] = max(suites.get(match.group(1), 0.0), float(match.group(2)))
            continue
        match = SWIFT_TESTING_RUN.search(line)
        if match:
            run = f"{match.group(1)} Swift Testing tests in {match.group(2)} suites {match.group(3)} after {float(match.group(4)):.1f} s"
            continue
        match = XCTEST.search(line)
        if match and index + 1 < len(lines):
            name = match.group(1)
            timing = XCTEST_TIME.search(lines[index + 1])
            if timing and not name.endswith(".xctest") and name not in ("All tests", "Selected tests"):
                suites[name] = max(suites.get(name, 0.0), float(timing.group(3)))
    if not suites:
        return
    print(f"Ten slowest suites (wall time, suites running in parallel){': ' + run if run else ''}:")
    for name, seconds in sorted(suites.items(), key=lambda item: -item[1])[:top]:
        print(f"  {seconds:7.1f} s  {name}")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        with open(sys.argv[1], encoding="utf-8", errors="replace") as handle:
            main(handle.read())
    else:
        main(sys.stdin.read())
