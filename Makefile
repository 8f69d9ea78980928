# Tiltbox: two commands do all set-up on a fresh Debian machine.
#   make run    installs what is missing, builds, runs the default scenario
#   make test   installs what is missing, builds, runs the whole test suite

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_INSTALL = $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends
CHIPMUNK_HEADER := /usr/include/chipmunk/chipmunk.h
BIN := .build/release/tiltbox

.PHONY: all deps test-deps build run test clean

all: build

# Debian's libchipmunk-dev (Chipmunk 7.0.3) ships no pkg-config file: look for its header.
deps:
	@if [ ! -f $(CHIPMUNK_HEADER) ]; then \
		echo "make: installing libchipmunk-dev (Chipmunk 7.0.3) with apt"; \
		$(SUDO) apt-get update -qq && $(APT_INSTALL) libchipmunk-dev; \
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

clean:
	rm -rf .build
