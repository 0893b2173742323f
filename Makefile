# orientd: build, run, test, benchmark.
# `make demo` and `make test` are README's quick start; each installs what it needs.

SWIFT_DIR := $(firstword $(wildcard /opt/swift/usr/bin))
export PATH := $(if $(SWIFT_DIR),$(SWIFT_DIR):,)$(PATH)

SWIFT ?= swift
RECORDING ?= Recordings/turned-to-landscape-while-walking.csv

.PHONY: all demo test build release benchmark benchmark-subscribers recordings dependencies clean help

all: build

help:
	@echo "make demo        read the accelerometer, or without one replay a bundled recording (JSON events on stdout)"
	@echo "make test        build with warnings as errors and run every test"
	@echo "make benchmark   print classifier and replay costs (see Benchmarks/)"
	@echo "make benchmark-subscribers  print the delay from a sample to the 256th socket subscriber"
	@echo "make recordings  regenerate Recordings/*.csv from Recordings/scenarios/"
	@echo "make release     build .build/release/orientd"

dependencies:
	@scripts/install-dependencies

build: dependencies
	$(SWIFT) build

# Build output goes to stderr, so `make demo | jq .` sees only events.
release: dependencies
	@$(SWIFT) build -c release >&2

# The main job: the live sensor when there is one, else the bundled recording.
demo: release
	@if .build/release/orientd list --json 2>/dev/null | jq -e 'any(.[]; .chosen)' >/dev/null; then \
		echo "make demo: reading the accelerometer (Ctrl-C stops)" >&2; .build/release/orientd run; \
	else \
		echo "make demo: no accelerometer here; replaying $(RECORDING)" >&2; .build/release/orientd replay $(RECORDING); \
	fi

# umockdev-wrapper preloads umockdev, so the live-sensor tests can give the real libudev
# and libiio a fake sysfs and /dev; without it they are skipped, loudly.
test: dependencies
	umockdev-wrapper $(SWIFT) test -Xswiftc -warnings-as-errors

benchmark: release
	scripts/benchmark

benchmark-subscribers: dependencies
	cd Benchmarks && $(SWIFT) run -c release SubscriberLatency 1000

recordings: release
	scripts/regenerate-recordings

clean:
	rm -rf .build Benchmarks/.build
