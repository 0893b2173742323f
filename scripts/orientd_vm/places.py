"""Where scripts/vm keeps things, and how long it waits for them."""

from __future__ import annotations

import os
from pathlib import Path

# The checkout this package is in (scripts/orientd_vm/).
REPO = Path(__file__).resolve().parent.parent.parent
# The command itself: a guest's watcher (qemu.watch) runs it again.
COMMAND = REPO / "scripts/vm"
CACHE = Path(os.environ.get("ORIENTD_TEST_CACHE", "/var/cache/orientd-tests"))
RUN_DIR = Path(os.environ.get("ORIENTD_VM_DIR", "/run/orientd-vm")).absolute()
# The files laid over the root to make it a VM (scripts/vm-guest/README.md says why each).
OVERLAY = REPO / "scripts/vm-guest/root"
# The version of what build_image and configure_root (image.py) make of a root: raise it with any
# change to what they put in the image, and every cached image is built again (~10 s each).
IMAGE_RECIPE = 1
# The shell functions every guest script of scripts/vm shell and play is given.
HELPERS = REPO / "scripts/vm-guest/helpers.sh"
GUEST_SHARE = "/mnt/share"
SUSPENDED = "suspended"  # suspend() leaves it: the share hangs, and a second S3 fails until the next boot
# Which guest the running qemu is (Guest.key), written at its boot: a command that asks for
# another stops it first. Kept after the guest stops, naming whose console.log is there.
GUEST_RECORD = "guest"
GUEST_ENV = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root", "LANG=C.UTF-8"]
# A boot is given up once its console has printed nothing for BOOT_QUIET_SECONDS (a hung
# guest), or after BOOT_SECONDS in all. Not a bound on its speed: alone a guest boots in
# 40-45 s, but beside another guest and the arm64 build under qemu-user on two cores a
# boot went past 180 s while printing all along. A panic, the initramfs giving up and
# emergency mode end the wait at once (wait_until_booted).
BOOT_SECONDS = 900
BOOT_QUIET_SECONDS = 120
DPKG_SECONDS = 300
