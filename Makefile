# orientd: build, run, test, benchmark.
# README's quick start is scripts/demo and scripts/test; make demo and make test run them.

SWIFT_DIR := $(firstword $(wildcard /opt/swift/usr/bin))
export PATH := $(if $(SWIFT_DIR),$(SWIFT_DIR):,)$(PATH)

SWIFT ?= swift
# bash for pipefail: a build that fails must fail make, filtered or not.
SHELL := /bin/bash
PREFIX ?= /usr/local
DESTDIR ?=
SYSCONFDIR ?= /etc
BINDIR = $(PREFIX)/bin
LIBDIR = $(PREFIX)/lib
DATADIR = $(PREFIX)/share
# systemd and udev look under /usr/lib and /usr/local/lib alike.
UNITDIR = $(LIBDIR)/systemd/system
UDEVRULESDIR = $(LIBDIR)/udev/rules.d
SYSUSERSDIR = $(LIBDIR)/sysusers.d
HOOKSDIR = $(LIBDIR)/orientd/hooks
MANDIR = $(DATADIR)/man
HOOKS = orientd-rotate-x11 orientd-rotate-sway orientd-rotate-wlroots orientd-rotate-hyprland orientd-rotate-niri orientd-rotate-gnome orientd-rotate-kde orientd-suggest-notify
# The packaged binary: the Swift runtime linked in and not position-independent, which
# keeps its resident size lowest (docs/classifier.md, "Live cost"); its relocations made
# read-only after loading (RELRO), as Debian's toolchain does by default and Debian 13's
# lintian asks. Its symbols not exported: the static runtime's link arguments add
# -export-dynamic, 0.5 MB of dynamic symbol table in a binary held to 16 MB
# (docs/development.md, "Size") that nothing looks up: no plugin, no dlsym, no backtracer.
# Its directory: .build-package for this machine's own (Debian 12 amd64), and
# .build-package-DIST-ARCH for the others, which scripts/build-dist builds in Debian roots.
PACKAGE_DIR ?= .build-package
# Each function in a section of its own, the ones `orientd run` runs laid out first, in
# the order scripts/link-order recorded: the kernel maps code 64 KiB around
# each page first touched, so the binary's resident pages fell from 7.5 MiB to 4.6.
# GNU gold (this machine's Debian 12 build) orders sections, by the names the list gives
# and a pattern for LLVM's private functions, which have no symbol; lld (Debian 13's
# builds, PACKAGE_LINKER=lld) orders by symbol and reads the list itself.
LINK_ORDER = scripts/lib/link-order
PACKAGE_LINKER ?= gold
ifeq ($(PACKAGE_LINKER),lld)
LINK_ORDER_FLAGS = -Xlinker --symbol-ordering-file=$(abspath $(LINK_ORDER)) -Xlinker --no-warn-symbol-ordering
else
LINK_ORDER_FLAGS = -Xlinker --section-ordering-file=$(abspath $(PACKAGE_DIR))/link-order.sections
endif
PACKAGE_FLAGS = -c release --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie -Xlinker -z -Xlinker relro \
	-Xlinker --no-export-dynamic -Xswiftc -Xfrontend -Xswiftc -function-sections $(LINK_ORDER_FLAGS) \
	--scratch-path $(PACKAGE_DIR)
PACKAGED_BINARY = $(PACKAGE_DIR)/release/orientd
# PREBUILT=yes: $(PACKAGED_BINARY) was built before, elsewhere (scripts/build-dist's cross
# build, then packaged in a Debian root without Swift): package and man use it as it is.
PREBUILT ?=
# Where make man's plugin builds (for this machine): the package's own directory, or for
# a cross build that of this machine's build for the same release.
PLUGIN_DIR ?= $(PACKAGE_DIR)
# make deb's target: the Debian release and architecture (scripts/build-dist for all but
# this machine's own).
DIST ?= bookworm
ARCH ?= amd64
OWN_BUILD = $(filter bookworm-amd64,$(DIST)-$(ARCH))
RECORDING ?= Recordings/turned-to-landscape-while-walking.csv
# Generated, never kept in git: scripts/generate-man says from what.
MAN_BUILD = $(PACKAGE_DIR)/man
DEB_DIR = $(PACKAGE_DIR)/deb

.PHONY: all demo test test-all build release benchmark benchmark-size benchmark-instructions benchmark-live benchmark-kernel benchmark-subscribers fuzz recordings dependencies clean help \
	package package-flags install uninstall check-systemd soak format man deb check-deb vm-tools

all: build

help:
	@echo "make demo        read the accelerometer, or without one replay a bundled recording (JSON events on stdout)"
	@echo "make test        build with warnings as errors and run the fast tier of the tests"
	@echo "make test-all    every tier, the real counterparts too (as CI: scripts/test --all)"
	@echo "make benchmark   print classifier and replay costs (see Benchmarks/)"
	@echo "make benchmark-instructions  instructions a sample of replay --fast and of the polled read loop (callgrind), against their budgets"
	@echo "make benchmark-size  the .deb, its installed binary and libraries against their targets, and where the bytes go"
	@echo "make benchmark-subscribers  print the delay from a sample to the 256th socket subscriber"
	@echo "make benchmark-live  the running daemon's CPU, memory and system calls next to iio-sensor-proxy (umockdev)"
	@echo "make benchmark-kernel  wake-ups, CPU and memory still and moving, next to iio-sensor-proxy (real kernel, qemu)"
	@echo "make fuzz        run each libFuzzer target on the parsers for FUZZ_SECONDS (default 60; see Fuzz/)"
	@echo "make soak        an hour of a 1 kHz sensor in 30 s, with subscribers, hooks, hot-plugs: memory and events"
	@echo "make recordings  regenerate Recordings/*.csv from Recordings/scenarios/"
	@echo "make release     build .build/release/orientd"
	@echo "make install     install binary, unit, udev rule, sysusers, hooks, completions, man pages (PREFIX=$(PREFIX) DESTDIR=)"
	@echo "make uninstall   remove what make install installed"
	@echo "make man         write orientd.8, orientd.conf.5 and the hooks' pages into $(MAN_BUILD) (from the command definitions)"
	@echo "make deb         build $(DEB_DIR)/orientd_VERSION-1_ARCH.deb with dpkg-buildpackage (see debian/)"
	@echo "make deb DIST=trixie [ARCH=arm64]  the same for Debian 13, amd64 or arm64, built in Debian roots (root only)"
	@echo "make check-deb   build the .deb, lintian it, install/upgrade/remove/purge it in a booted Debian 12 root (DIST=, ARCH= as for deb)"
	@echo "make check-systemd  verify the unit, score its exposure, test the udev rule (private namespace)"
	@echo "make format      rewrite the Swift sources as .swift-format says (CI lints them)"

dependencies:
ifneq ($(PREBUILT),yes)
	@scripts/install-dependencies
endif

build: dependencies
	$(SWIFT) build

# Build output goes to stderr, so `make demo | jq .` sees only events.
release: dependencies
	@$(SWIFT) build -c release >&2

# README's quick start is scripts/demo and scripts/test (stock Debian 12 has no make);
# these are the same for those who type make.
demo:
	@RECORDING=$(RECORDING) scripts/demo

test:
	@scripts/test

test-all:
	@scripts/test --all

# The replay is timed on the package's binary: the speed target is for what ships.
benchmark: package
	ORIENTD=$(CURDIR)/$(PACKAGED_BINARY) scripts/benchmark

benchmark-instructions: package
	scripts/benchmark-instructions $(CURDIR)/$(PACKAGED_BINARY)
	scripts/benchmark-instructions --live $(CURDIR)/$(PACKAGED_BINARY)

# make deb's package of this machine's own (Debian 12); scripts/benchmark-size DEB measures
# any other, such as Debian 13 arm64's.
benchmark-size: deb
	scripts/benchmark-size

benchmark-live: package
	ORIENTD=$(CURDIR)/.build-package/release/orientd scripts/benchmark-live

benchmark-kernel: deb vm-tools
	scripts/benchmark-kernel

benchmark-subscribers: dependencies
	cd Benchmarks && $(SWIFT) run -c release SubscriberLatency 1000

fuzz: dependencies
	scripts/fuzz

soak: dependencies
	cd Benchmarks && $(SWIFT) run -c release Soak 3600

recordings: release
	scripts/regenerate-recordings

# Linking the static runtime makes GNU ld warn that "the use of `mktemp' is dangerous":
# the call is in Swift's own libFoundationEssentials.a (Data+Writing), which the static
# link pulls in whole; orientd never makes a temporary file name. The line is taken out of
# the build's output so that a warning that is left means something.
ifeq ($(PREBUILT),yes)
package: dependencies
	@[ -x $(PACKAGED_BINARY) ] || { echo "PREBUILT=yes, but $(PACKAGED_BINARY) is not there" >&2; exit 1; }
else
package: dependencies $(PACKAGE_DIR)/link-order.sections
	@set -o pipefail; $(SWIFT) build $(PACKAGE_FLAGS) 2>&1 | { grep -v "the use of \`mktemp' is dangerous" || true; } >&2
endif

# gold's form of the list: section names, and LLVM's private functions (no symbol to
# name them by, 15 KiB in all) after the named ones. A new list relinks the binary.
$(PACKAGE_DIR)/link-order.sections: $(LINK_ORDER)
	@mkdir -p $(PACKAGE_DIR)
	@{ sed '/^#/d; /^$$/d; s/^/.text./' $<; echo '.text..L*'; } > $@
	@rm -f $(PACKAGE_DIR)/*-linux-gnu/release/orientd

# For scripts/build-dist, which builds the same binary in Debian roots.
package-flags:
	@echo $(PACKAGE_FLAGS)

man: package
	scripts/generate-man $(PACKAGED_BINARY) $(MAN_BUILD) $(PLUGIN_DIR)

install: package man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(SYSUSERSDIR) \
		$(DESTDIR)$(HOOKSDIR) $(DESTDIR)$(DATADIR)/doc/orientd $(DESTDIR)$(DATADIR)/doc/orientd/docs $(DESTDIR)$(DATADIR)/orientd \
		$(DESTDIR)$(DATADIR)/bash-completion/completions $(DESTDIR)$(DATADIR)/zsh/site-functions \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(PACKAGED_BINARY) $(DESTDIR)$(BINDIR)/orientd
	sed 's|/usr/bin/orientd|$(BINDIR)/orientd|' systemd/orientd.service > $(DESTDIR)$(UNITDIR)/orientd.service
	chmod 644 $(DESTDIR)$(UNITDIR)/orientd.service
	install -m 644 systemd/60-orientd.rules $(DESTDIR)$(UDEVRULESDIR)/60-orientd.rules
	install -d $(DESTDIR)$(SYSCONFDIR)
	@# An edited configuration is never overwritten.
	[ -e $(DESTDIR)$(SYSCONFDIR)/orientd.conf ] || install -m 644 systemd/orientd.conf $(DESTDIR)$(SYSCONFDIR)/orientd.conf
	install -m 644 systemd/orientd.sysusers $(DESTDIR)$(SYSUSERSDIR)/orientd.conf
	install -m 644 hooks/orientd-rotate-common.sh hooks/orientd-plasma-mobile-rotation.qml $(DESTDIR)$(HOOKSDIR)/
	for h in $(HOOKS); do install -m 755 hooks/$$h $(DESTDIR)$(HOOKSDIR)/ && ln -sf $(HOOKSDIR)/$$h $(DESTDIR)$(BINDIR)/$$h; done
	install -m 644 README.md $(DESTDIR)$(DATADIR)/doc/orientd/README.md
	install -m 644 docs/*.md $(DESTDIR)$(DATADIR)/doc/orientd/docs/
	@# Data, not documentation: minimal systems drop /usr/share/doc, and programs validate with it.
	install -m 644 docs/events.schema.json $(DESTDIR)$(DATADIR)/orientd/events.schema.json
	install -m 644 hooks/README.md $(DESTDIR)$(DATADIR)/doc/orientd/hooks.md
	install -m 644 $(MAN_BUILD)/orientd.8 $(DESTDIR)$(MANDIR)/man8/orientd.8
	install -m 644 $(MAN_BUILD)/orientd.conf.5 $(DESTDIR)$(MANDIR)/man5/orientd.conf.5
	for h in $(HOOKS); do install -m 644 $(MAN_BUILD)/$$h.1 $(DESTDIR)$(MANDIR)/man1/$$h.1; done
	$(DESTDIR)$(BINDIR)/orientd --generate-completion-script bash > $(DESTDIR)$(DATADIR)/bash-completion/completions/orientd
	@# bash sources a completion: the generator's #! line would only mislead.
	sed -i '1{/^#!/d}' $(DESTDIR)$(DATADIR)/bash-completion/completions/orientd
	$(DESTDIR)$(BINDIR)/orientd --generate-completion-script zsh > $(DESTDIR)$(DATADIR)/zsh/site-functions/_orientd
	$(DESTDIR)$(BINDIR)/orientd --generate-completion-script fish > $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/orientd.fish
	@if [ -z "$(DESTDIR)" ]; then \
		echo "installed; to start it now and whenever an accelerometer appears:" >&2; \
		echo "  systemd-sysusers && udevadm control --reload && udevadm trigger -s iio && systemctl daemon-reload && systemctl start orientd" >&2; \
	fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/orientd $(DESTDIR)$(UNITDIR)/orientd.service $(DESTDIR)$(UDEVRULESDIR)/60-orientd.rules \
		$(DESTDIR)$(SYSUSERSDIR)/orientd.conf \
		$(DESTDIR)$(DATADIR)/bash-completion/completions/orientd $(DESTDIR)$(DATADIR)/zsh/site-functions/_orientd \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/orientd.fish \
		$(DESTDIR)$(MANDIR)/man8/orientd.8 $(DESTDIR)$(MANDIR)/man5/orientd.conf.5
	for h in $(HOOKS); do rm -f $(DESTDIR)$(BINDIR)/$$h $(DESTDIR)$(MANDIR)/man1/$$h.1; done
	@# The configuration goes only if nobody edited it.
	if cmp -s systemd/orientd.conf $(DESTDIR)$(SYSCONFDIR)/orientd.conf; then rm -f $(DESTDIR)$(SYSCONFDIR)/orientd.conf; \
	elif [ -e $(DESTDIR)$(SYSCONFDIR)/orientd.conf ]; then echo "kept $(DESTDIR)$(SYSCONFDIR)/orientd.conf (edited)" >&2; fi
	rm -rf $(DESTDIR)$(HOOKSDIR) $(DESTDIR)$(DATADIR)/doc/orientd $(DESTDIR)$(DATADIR)/orientd
	-rmdir $(DESTDIR)$(LIBDIR)/orientd 2>/dev/null

check-systemd: release
	scripts/check-systemd

# The version comes from the packaged binary (scripts/build-deb writes debian/changelog).
# The guest's test tool for scripts/vm (not shipped): static, as the package's binary, so
# it runs in the guest with nothing but glibc, and built beside it in .build-package.
ifneq ($(OWN_BUILD),)
vm-tools: dependencies
	@$(SWIFT) build $(PACKAGE_FLAGS) --product virtual-sensor >&2
else
vm-tools:
	scripts/build-dist $(DIST) $(ARCH) --product virtual-sensor
endif

ifneq ($(OWN_BUILD),)
deb: package
	@scripts/install-dependencies --deb
	scripts/build-deb $(PACKAGED_BINARY) $(DEB_DIR)
else
deb:
	scripts/build-dist $(DIST) $(ARCH) deb
endif

check-deb:
	scripts/check-deb --dist $(DIST) --arch $(ARCH)

# Rewrites the Swift sources as .swift-format says (CI checks it with swift format lint).
SWIFT_SOURCES = Sources Tests Package.swift Benchmarks/Benchmarks Benchmarks/Package.swift Fuzz/Sources Fuzz/Package.swift Examples
format:
	$(SWIFT) format format --in-place --recursive --parallel $(SWIFT_SOURCES)

clean:
	rm -rf .build .build-package Benchmarks/.build Fuzz/.build
