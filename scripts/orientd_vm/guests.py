"""Which guests there are, and the one this command is about (GUEST, set by the command line)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .host import EXIT_USAGE, VMError
from .places import REPO

RELEASES = {"bookworm": "12", "trixie": "13"}


@dataclass(frozen=True)
class Guest:
    """A guest scripts/vm boots: a Debian release (dist) on an architecture, each with its
    own cached root and image, its own kernel, and its own .deb and feeder from this checkout.

    Debian 12 amd64 is the machine's own build (.build-package, `make deb`); the others
    are built in Debian roots by scripts/build-dist into .build-package-DIST-ARCH
    (`make deb DIST=... ARCH=...`). Debian 12 arm64 has no .deb, so no guest.
    """

    dist: str
    arch: str

    @property
    def key(self) -> str:
        return f"{self.dist}-{self.arch}"

    @property
    def name(self) -> str:
        return f"Debian {RELEASES.get(self.dist, self.dist)} {self.arch}"

    @property
    def default(self) -> bool:
        return self == DEFAULT_GUEST

    @property
    def packages(self) -> list[str]:
        """scripts/test-root-common.sh's extra packages for the guest's root (Debian 12
        amd64's list in its order of old, so that its cached root is found again): the
        kernel (with its initramfs), the real udevd, the agent that runs commands, and
        iio-sensor-proxy, strace, jq and tmux for the tests."""
        return [f"linux-image-{self.arch}", "udev", "kmod", "qemu-guest-agent", "iio-sensor-proxy", "strace", "jq", "tmux"]

    @property
    def package_dir(self) -> Path:
        return REPO / (".build-package" if self.default else f".build-package-{self.dist}-{self.arch}")

    def make(self, *targets: str) -> str:
        """The make command that builds targets for this guest, as a user types it."""
        return " ".join(["make", *targets] + ([] if self.default else [f"DIST={self.dist}", f"ARCH={self.arch}"]))

    @property
    def qemu(self) -> str:
        return "qemu-system-x86_64" if self.arch == "amd64" else "qemu-system-aarch64"

    @property
    def qemu_package(self) -> str:
        return "qemu-system-x86" if self.arch == "amd64" else "qemu-system-arm"

    @property
    def cores(self) -> str:
        """The guest's virtual cores: one for amd64. Under qemu's multi-threaded TCG an x86
        kernel that patches its own code (a static key switched, as at "sched_clock:
        Marking stable" or a cgroup's BPF program attached) can leave a core running the
        int3 it patched through, and oops; with one core no other runs the site. arm64
        patches an instruction in one aligned write, and keeps two."""
        return "1" if self.arch == "amd64" else "2"

    @property
    def kernel_args(self) -> list[str]:
        """The kernel's command line: the same on each guest but for the console's name and
        what is x86's alone."""
        args = [
            "root=/dev/vda",
            "rw",
            # The PC's first serial port; the virt machine's PL011 UART.
            "console=ttyS0" if self.arch == "amd64" else "console=ttyAMA0",
            # A kernel panic, or the initramfs giving up, reboots at once; qemu's -no-reboot
            # turns that into qemu exiting, which scripts/vm notices at once: no hung guest
            # to time out.
            "panic=-1",
            # An oops leaves the kernel holding what it held (a lock, a half-patched
            # instruction): a guest that went on would hang or mislead. It panics instead,
            # and ends at once with the oops on its console.
            "oops=panic",
            # No rootdelay=: Debian's initramfs sleeps that long on every boot. A missing
            # root disk is given up on after 30 s.
        ]
        if self.arch == "amd64":
            # Under emulation the kernel finds the TSCs "unsynchronized" and reads the HPET,
            # an emulated device, for every clock_gettime; qemu's TSC is one monotonic clock
            # for all cores, and trusting it halves the boot (38 s to systemd running, 19 s).
            # arm64 has no TSC: it reads its architected timer.
            args.append("tsc=reliable")
        return args


DEFAULT_GUEST = Guest("bookworm", "amd64")
# What can be booted: Debian 12 arm64 is not, as no orientd .deb is built for it
# (scripts/build-dist: the only Swift runtime for arm64 here needs glibc 2.38, Debian 12 has 2.36).
GUESTS = [DEFAULT_GUEST, Guest("trixie", "amd64"), Guest("trixie", "arm64")]
# The guest the command line asked for (main sets it; the default without options).
GUEST = DEFAULT_GUEST


def chosen_guest(dist: str | None, arch: str | None) -> Guest:
    """The guest --dist and --arch name (each defaults to Debian 12 amd64's); one that is
    not in GUESTS is a usage error naming those that are."""
    guest = Guest(DEFAULT_GUEST.dist if dist is None else dist, DEFAULT_GUEST.arch if arch is None else arch)
    if guest in GUESTS:
        return guest
    accepted = ", ".join(f"--dist {g.dist} --arch {g.arch}" + (" (the default)" if g.default else "") for g in GUESTS)
    if guest.dist in RELEASES and guest.arch in ("amd64", "arm64"):
        why = f"{guest.name} is not a guest here: no orientd .deb is built for it"
    else:
        why = f"no guest --dist {guest.dist} --arch {guest.arch}"
    raise VMError(f"{why}; accepted: {accepted}", EXIT_USAGE)
