# Tiltbox: two commands do all set-up on a fresh Debian machine.
#   make run    installs what is missing, builds, runs the default scenario
#   make test   installs what is missing, builds, runs the whole test suite
#   make bench  release build of tiltbox-bench, then Tiltbox against the raw C engine
#               (BENCH_SIZES=100,1000 BENCH_PAIRS=3 make bench for a shorter run)

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_INSTALL = $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends
CHIPMUNK_HEADER := /usr/include/chipmunk/chipmunk.h
FMT_HEADER := /usr/include/fmt/format.h
BIN := .build/release/tiltbox

FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= scenario tilt-csv phyphox sensor-logger keyframes zip trace frames numbers run-tilt run-scenario
FUZZ_DICT := $(CURDIR)/Fuzz/extreme-numbers.dict
SOAK_MINUTES ?= 60
LSAN_SUPPRESSIONS := $(CURDIR)/Fuzz/lsan.supp
# Under AddressSanitizer, Swift's own crash backtracer trips ASan itself and then hangs
# for minutes on a trap: let libFuzzer and ASan report instead.
NO_SWIFT_BACKTRACE := SWIFT_BACKTRACE=enable=no

.PHONY: all deps test-deps build run test bench clean fuzz sanitize leakcheck soak

all: build

# Debian's libchipmunk-dev (Chipmunk 7.0.3) ships no pkg-config file: look for its header.
# libfmt-dev (header-only use) gives the trace writer its shortest round-trip digits.
deps:
	@missing=""; \
	[ -f $(CHIPMUNK_HEADER) ] || missing="$$missing libchipmunk-dev"; \
	[ -f $(FMT_HEADER) ] || missing="$$missing libfmt-dev"; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing with apt"; \
		$(SUDO) apt-get update -qq && $(APT_INSTALL) $$missing; \
	fi
	@test -x "$(SWIFT)" || { echo "make: no Swift toolchain found (looked for 'swift' on PATH and /opt/swift)"; exit 1; }

# What the test suite needs beyond the build: tmux for terminal tests, Chromium (headless)
# for the HTML player tests, python3 to decode their screenshots.
test-deps: deps
	@missing=""; \
	command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing with apt"; \
		$(SUDO) apt-get update -qq && $(APT_INSTALL) $$missing; \
	fi

build: deps
	$(SWIFT) build -c release --product tiltbox

run: build
	$(BIN)

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

# Fuzz every parser with libFuzzer + AddressSanitizer for FUZZ_SECONDS each, from the
# committed seeds in Fuzz/corpus/<target>. run-tilt and run-scenario go past parsing:
# they build the world and step it with the tilt input applied. Every target gets the
# dictionary of extreme numbers (Fuzz/extreme-numbers.dict); the text targets also a
# mutator that swaps a number for one of them. FUZZ_TARGETS="run-tilt" picks targets.
# A crash leaves its input in .build-fuzz/crashes/ and fails the target: commit that
# input to Fuzz/regressions/<target>/ (the test suite replays it) and fix the bug.
fuzz: deps
	cd Fuzz && $(SWIFT) build --sanitize fuzzer --sanitize address --scratch-path ../.build-fuzz
	@mkdir -p .build-fuzz/crashes
	@set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p .build-fuzz/work/$$t; \
		echo "make: fuzzing $$t for $(FUZZ_SECONDS) s"; \
		$(NO_SWIFT_BACKTRACE) LSAN_OPTIONS=suppressions=$(LSAN_SUPPRESSIONS):print_suppressions=0 TILTBOX_FUZZ_TARGET=$$t \
			.build-fuzz/debug/TiltboxFuzz -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 \
			-print_final_stats=1 -dict=$(FUZZ_DICT) -artifact_prefix=.build-fuzz/crashes/$$t- \
			.build-fuzz/work/$$t Fuzz/corpus/$$t Fuzz/regressions/$$t 2>&1 \
			| grep -E "^(#[0-9]+ *DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" || true; \
		if ls .build-fuzz/crashes/$$t-* >/dev/null 2>&1; then echo "make: $$t crashed: see .build-fuzz/crashes/"; exit 1; fi; \
	done

# The whole test suite under AddressSanitizer (its own build folder), the Swift Testing
# suite with LeakSanitizer on (it also covers every `tiltbox` the CLI tests start: they are
# ASan builds too). The two XCTest lifetime cases run with leak detection off: XCTest's own
# harness leaves its run objects unfreed at exit. Their 1 000-world loop is the one
# `make leakcheck` checks under valgrind.
SANITIZE_LSAN = LSAN_OPTIONS=suppressions=$(LSAN_SUPPRESSIONS):print_suppressions=0
sanitize: test-deps
	$(NO_SWIFT_BACKTRACE) $(SANITIZE_LSAN) $(SWIFT) test --sanitize address --scratch-path .build-asan --disable-xctest
	$(NO_SWIFT_BACKTRACE) ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize address --scratch-path .build-asan --disable-swift-testing

# valgrind memcheck: a short traced run of a tilted scenario and 1 000 worlds created and
# dropped. Any definitely-lost block fails. Debian's valgrind 3.19 cannot read the DWARF 5
# debug info Swift 6 emits by default, so these builds (their own folder) ask for DWARF 4.
VALGRIND_BUILD = $(SWIFT) build --scratch-path .build-valgrind -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4 -Xcxx -gdwarf-4
VALGRIND = valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1
leakcheck: deps
	@command -v valgrind >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(APT_INSTALL) valgrind; }
	$(VALGRIND_BUILD) --product tiltbox
	$(VALGRIND_BUILD) --product tiltbox-leakcheck
	@mkdir -p .build-valgrind
	$(VALGRIND) .build-valgrind/debug/tiltbox run Scenarios/rocking.json --duration 2 \
		--trace .build-valgrind/leakcheck.jsonl --view none
	$(VALGRIND) .build-valgrind/debug/tiltbox-leakcheck 1000

# One simulated hour of the 100-crate pile rocked by a looping keyframe tilt, headless:
# memory must stay flat and every state finite.
soak: deps
	$(SWIFT) build -c release --product tiltbox-soak
	.build/release/tiltbox-soak --root . --minutes $(SOAK_MINUTES)

# Interleaved C/Tiltbox timing; BENCH_SIZES, BENCH_PAIRS, BENCH_STEPS, BENCH_HASH shorten or extend it.
bench: deps
	$(SWIFT) build -c release --product tiltbox-bench
	.build/release/tiltbox-bench

clean:
	rm -rf .build .build-fuzz .build-asan .build-valgrind
