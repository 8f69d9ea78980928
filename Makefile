# Tiltbox: two commands do all set-up on a fresh Debian machine.
#   make run    installs what is missing, builds, runs the default scenario
#   make test   installs what is missing, builds, runs the whole test suite, then `tiltbox test Scenarios/`
#               with this CPU's maths and with glibc's non-FMA maths (scripts/scenario-intent.sh)
#   make flake-hunt FLAKE_RUNS=N   the timing-sensitive suites N times idle and N times under stress-ng
#   make install PREFIX=/usr/local   release build, then the binary and its bash, zsh and fish completions
#   make docs   the DocC documentation of the library (Sources/Tiltbox/Tiltbox.docc), warnings as errors
#   make bench  release build of tiltbox-bench, then Tiltbox against the raw C engine, the
#               number writer and the performance targets (BENCH_PAIRS=3 make bench for a shorter run)

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_INSTALL = $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends
CHIPMUNK_HEADER := /usr/include/chipmunk/chipmunk.h
FMT_HEADER := /usr/include/fmt/format.h
ZSTD_HEADER := /usr/include/zstd.h
RELEASE_BIN := .build/release/tiltbox
# `make install BIN=path` installs that binary instead of building the release one.
BIN := $(RELEASE_BIN)
PREFIX ?= /usr/local
DESTDIR ?=

FUZZ_SECONDS ?= 60
# Every target has a seed folder Fuzz/corpus/<target> (a tilt format's target is named by
# TiltFormat.fuzzTargetName), so the folders name the targets.
FUZZ_TARGETS ?= $(sort $(notdir $(wildcard Fuzz/corpus/*)))
FUZZ_DICT := $(CURDIR)/Fuzz/extreme-numbers.dict
SOAK_MINUTES ?= 60
LSAN_SUPPRESSIONS := $(CURDIR)/Fuzz/lsan.supp
# Under AddressSanitizer, Swift's own crash backtracer trips ASan itself and then hangs
# for minutes on a trap: let libFuzzer and ASan report instead.
NO_SWIFT_BACKTRACE := SWIFT_BACKTRACE=enable=no

.PHONY: all deps test-deps build run lint format test flake-hunt docs install bench bench-batch clean fuzz sanitize leakcheck soak

all: build

# Debian's libchipmunk-dev (Chipmunk 7.0.3) ships no pkg-config file: look for its header.
# libfmt-dev (header-only use) gives the trace writer its shortest round-trip digits.
# libzstd-dev compresses and reads `.zst` traces (zstd's streaming API).
deps:
	@missing=""; \
	[ -f $(CHIPMUNK_HEADER) ] || missing="$$missing libchipmunk-dev"; \
	[ -f $(FMT_HEADER) ] || missing="$$missing libfmt-dev"; \
	[ -f $(ZSTD_HEADER) ] || missing="$$missing libzstd-dev"; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing with apt"; \
		$(SUDO) apt-get update -qq && $(APT_INSTALL) $$missing; \
	fi
	@test -x "$(SWIFT)" || { echo "make: no Swift toolchain found (looked for 'swift' on PATH and /opt/swift)"; exit 1; }

# What the test suite needs beyond the build: tmux for terminal tests, Chromium (headless)
# for the HTML player tests, python3 to decode their screenshots, pymunk 7.3.1 (pip) for the
# tests that compare Tiltbox with the same scenes built in pymunk, bit for bit, and the
# schedulers batch runs are sharded over: GNU parallel, and Slurm (slurmctld, slurmd, sbatch…)
# with munge for the single-node cluster the tests start. The Slurm daemons live in /usr/sbin.
# The zstd command line tool checks that `.zst` traces decompress to the plain trace.
# jsonschema (pip, Draft 2020-12) checks docs/schema/*.schema.json in SchemaTests.
test-deps: deps
	@missing=""; \
	command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
	command -v parallel >/dev/null 2>&1 || missing="$$missing parallel"; \
	command -v zstd >/dev/null 2>&1 || missing="$$missing zstd"; \
	for tool in slurmctld slurmd sbatch squeue sinfo; do \
		PATH="$$PATH:/usr/sbin:/sbin" command -v $$tool >/dev/null 2>&1 || { missing="$$missing slurm-wlm"; break; }; \
	done; \
	PATH="$$PATH:/usr/sbin:/sbin" command -v munged >/dev/null 2>&1 || missing="$$missing munge"; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing with apt"; \
		$(SUDO) apt-get update -qq && $(APT_INSTALL) $$missing; \
	fi
	@python3 -c "import sys, pymunk; sys.exit(pymunk.version != '7.3.1')" 2>/dev/null || { \
		python3 -m pip --version >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(APT_INSTALL) python3-pip; }; \
		echo "make: installing pymunk 7.3.1 with pip"; \
		python3 -m pip install --user --break-system-packages pymunk==7.3.1 \
			|| python3 -m pip install --user pymunk==7.3.1; \
	}
	@python3 -c "import sys, jsonschema.validators as v; sys.exit(not hasattr(v, 'Draft202012Validator'))" 2>/dev/null || { \
		python3 -m pip --version >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(APT_INSTALL) python3-pip; }; \
		echo "make: installing jsonschema with pip"; \
		python3 -m pip install --user --break-system-packages 'jsonschema>=4.18,<5' \
			|| python3 -m pip install --user 'jsonschema>=4.18,<5'; \
	}

build: deps
	$(SWIFT) build -c release --product tiltbox

run: build
	$(RELEASE_BIN)

# House style you can run: swift-format (shipped with the toolchain as `swift format`) with the
# project's .swift-format, and the library's layers (scripts/check-layers.py: no folder of
# Sources/Tiltbox uses a type declared in a folder above it). `make format` rewrites in place.
FORMAT_PATHS := Package.swift Sources Tests Fuzz/Package.swift Fuzz/Sources
lint: deps
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)
	python3 scripts/check-layers.py

format: deps
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

# The project's own targets build with warnings as errors (Package.swift), so a warning in
# Sources/ or Tests/ fails here. The suite runs in three processes at once (scripts/test-lanes.sh:
# one Swift Testing process leaves a core idle while its tests wait on children, terminals, browsers
# and schedulers); its output is kept in .build/test-results/swift-test.log, and after it, pass or
# fail, the ten slowest suites are printed, so the suite's cost stays visible. Aim: the suite within
# 4 minutes and `make test` on a fresh clone (system packages installed) within 7, idle, on 2 cores.
TEST_LOG := .build/test-results/swift-test.log
test: test-deps lint
	$(SWIFT) build --build-tests
	@SWIFT=$(SWIFT) scripts/test-lanes.sh $(TEST_LOG); status=$$?; \
		python3 scripts/slowest-suites.py $(TEST_LOG); \
		exit $$status
	scripts/scenario-intent.sh .build/debug/tiltbox
	$(MAKE) docs

# The timing-sensitive suites (those that start, signal, kill or wait on a process, a
# terminal, a browser, a scheduler or a live tilt source) FLAKE_RUNS times on an idle machine, then FLAKE_RUNS
# times with both cores kept busy by stress-ng; prints how many runs passed.
FLAKE_RUNS ?= 5
flake-hunt: test-deps
	@command -v stress-ng >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(APT_INSTALL) stress-ng; }
	$(SWIFT) build --build-tests
	scripts/flake-hunt.sh $(FLAKE_RUNS)

# swift-docc-plugin builds the catalog and the symbol graph of the Tiltbox target; any DocC
# warning (an unresolved symbol link, a missing article) fails the build. The archive lands in
# .build/plugins/Swift-DocC/outputs/Tiltbox.doccarchive. That includes a public function whose
# comment documents some of its parameters but not all of them.
docs: deps
	$(SWIFT) package --disable-sandbox generate-documentation --target Tiltbox --warnings-as-errors

# The binary in $(PREFIX)/bin and its completion scripts where bash-completion, zsh and fish
# look for them under $(PREFIX)/share. The scripts are generated by the binary itself.
install: $(if $(filter $(RELEASE_BIN),$(BIN)),build)
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
		"$(DESTDIR)$(PREFIX)/share/zsh/site-functions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 755 "$(BIN)" "$(DESTDIR)$(PREFIX)/bin/tiltbox"
	"$(BIN)" --generate-completion-script bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/tiltbox"
	"$(BIN)" --generate-completion-script zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tiltbox"
	"$(BIN)" --generate-completion-script fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tiltbox.fish"

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
VALGRIND = valgrind --suppressions=scripts/valgrind.supp --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1
leakcheck: deps
	@command -v valgrind >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(APT_INSTALL) valgrind; }
	$(VALGRIND_BUILD) --product tiltbox
	$(VALGRIND_BUILD) --product tiltbox-leakcheck
	@mkdir -p .build-valgrind
	$(VALGRIND) .build-valgrind/debug/tiltbox run Scenarios/rocking.json --duration 2 \
		--trace .build-valgrind/leakcheck.jsonl --view none
	$(VALGRIND) .build-valgrind/debug/tiltbox run Scenarios/emitter.json --duration 7 \
		--trace .build-valgrind/emitter.jsonl --view none
	$(VALGRIND) .build-valgrind/debug/tiltbox run Scenarios/goal-sensor.json --duration 3 \
		--trace .build-valgrind/goal-sensor.jsonl --view none
	$(VALGRIND) .build-valgrind/debug/tiltbox run Scenarios/conveyor-drop.json --duration 7 \
		--trace .build-valgrind/conveyor-drop.jsonl --view none
	$(VALGRIND) .build-valgrind/debug/tiltbox-leakcheck 1000

# One simulated hour of the 100-crate pile rocked by a looping keyframe tilt, headless:
# memory must stay flat and every state finite.
soak: deps
	$(SWIFT) build -c release --product tiltbox-soak
	.build/release/tiltbox-soak --root . --minutes $(SOAK_MINUTES)

# Interleaved C/Tiltbox timing, the number writer (ns, and instructions under callgrind on
# a copy without debug information: valgrind 3.19 cannot read the toolchain's DWARF) and
# the targets met; BENCH_SIZES, BENCH_PAIRS, BENCH_STEPS, BENCH_HASH shorten or extend it.
# Then the scenes (a 20-box stack, a 50-link pivot chain, Newton's cradle, a 30-base pyramid,
# the 100- and 1000-crate piles): `tiltbox run`'s session, sinks and metrics beside the raw C
# loop on Debian's Chipmunk and pymunk's step loop, interleaved (BENCH_ROUNDS rounds), with
# callgrind's per-step figures of the real `tiltbox run` beside the times (scripts/step-cost.py).
BENCH_ROUNDS ?= 5
bench: deps
	@command -v valgrind >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(APT_INSTALL) valgrind; }
	@command -v objcopy >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(APT_INSTALL) binutils; }
	@python3 -c "import sys, pymunk; sys.exit(pymunk.version != '7.3.1')" 2>/dev/null || { \
		python3 -m pip --version >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(APT_INSTALL) python3-pip; }; \
		echo "make: installing pymunk 7.3.1 with pip"; \
		python3 -m pip install --user --break-system-packages pymunk==7.3.1 \
			|| python3 -m pip install --user pymunk==7.3.1; \
	}
	$(SWIFT) build -c release --product tiltbox-bench
	$(SWIFT) build -c release --product tiltbox
	objcopy --strip-debug .build/release/tiltbox-bench .build/release/tiltbox-bench-stripped
	objcopy --strip-debug .build/release/tiltbox .build/release/tiltbox-stripped
	.build/release/tiltbox-bench --callgrind .build/release/tiltbox-bench-stripped
	.build/release/tiltbox-bench --only scenes --pairs $(BENCH_ROUNDS) --steps 600 \
		--callgrind .build/release/tiltbox-bench-stripped --step-cost scripts/step-cost.py \
		--tiltbox .build/release/tiltbox-stripped

# Spawns and removals against the same bodies present from the start: 10 000 balls spawned by
# a timeline, each removed 100 steps later, against 100 balls present throughout, ns per step
# (EMITTER_BENCH_ARGS, e.g. "--pairs 3", shortens it). `make bench` runs it first.
.PHONY: bench-emitter
bench: bench-emitter
bench-emitter: deps
	$(SWIFT) build -c release --product tiltbox-emitter-bench
	.build/release/tiltbox-emitter-bench $(EMITTER_BENCH_ARGS)

# Throughput of `tiltbox batch` with --jobs 1 and 2 (16 jobs) and the per-job cost of its child processes.
bench-batch: deps
	$(SWIFT) build -c release --product tiltbox
	scripts/bench-batch.sh $(RELEASE_BIN)

clean:
	rm -rf .build .build-fuzz .build-asan .build-valgrind
