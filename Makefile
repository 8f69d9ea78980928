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

.PHONY: all deps test-deps build run test bench clean

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

# What the test suite needs beyond the build: tmux for terminal tests.
test-deps: deps
	@missing=""; \
	command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
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

# Interleaved C/Tiltbox timing; BENCH_SIZES, BENCH_PAIRS, BENCH_STEPS, BENCH_HASH shorten or extend it.
bench: deps
	$(SWIFT) build -c release --product tiltbox-bench
	.build/release/tiltbox-bench

clean:
	rm -rf .build
