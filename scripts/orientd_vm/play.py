"""Files into the guest, and a recording played through its kernel into the installed daemon."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from . import guests
from .commands import guest_exec, guest_shell, passed_on, with_helpers
from .host import EXIT_UNAVAILABLE, EXIT_USAGE, VMError, run_host, say
from .lifecycle import ensure_booted
from .places import GUEST_SHARE, REPO, RUN_DIR, SUSPENDED


def copy_in(file: Path, guest_dir: str) -> str:
    """Copies a host file into the share (booting a guest first if none runs); returns its
    path in the guest."""
    guest = Path(guest_dir)
    if ".." in guest.parts or not (guest == Path(GUEST_SHARE) or Path(GUEST_SHARE) in guest.parents):
        raise VMError(f"{guest_dir}: files go in through the share, {GUEST_SHARE} or a folder in it", EXIT_USAGE)
    if not file.is_file():
        raise VMError(f"{file}: no such file", 66)
    ensure_booted()  # a boot empties the share
    if (RUN_DIR / SUSPENDED).exists():
        raise VMError(
            "the share does not survive a suspend (the guest's 9p driver has no resume: reads from it hang), "
            "so nothing can go in: scripts/vm boot --fresh"
        )
    host_dir = RUN_DIR / "share" / guest.relative_to(GUEST_SHARE)
    host_dir.mkdir(parents=True, exist_ok=True)
    # copy2 keeps the mode: a tool copied in stays executable.
    shutil.copy2(file, host_dir / file.name)
    return str(guest / file.name)


def recording_duration(path: Path) -> float:
    last = ""
    with open(path, errors="replace") as file:
        for line in file:
            if line.strip() and not line.startswith("#"):
                last = line
    try:
        return float(last.split(",")[0])
    except ValueError:
        raise VMError(f"{path}: its last line does not start with a time in seconds: {last.strip()!r}", 65)


def recording_header(path: Path) -> dict[str, str]:
    """The `# key: value` lines before a recording's first sample, keys in lower case."""
    header: dict[str, str] = {}
    with open(path, errors="replace") as file:
        for line in file:
            line = line.strip()
            if not line.startswith("#"):
                if line:
                    break
                continue
            key, colon, value = line[1:].partition(":")
            if colon:
                header[key.strip().lower()] = value.strip()
    return header


def tool() -> Path:
    """The guest's feeder, virtual-sensor, from the guest's package directory
    ($ORIENTD_VM_TOOL overrides), and an ELF for the guest's architecture. Debian 12
    amd64's is built here (make vm-tools) if it is not there; another guest's is built in
    Debian roots (scripts/build-dist, minutes): its command is named instead."""
    path = Path(os.environ.get("ORIENTD_VM_TOOL", guests.GUEST.package_dir / "release/virtual-sensor"))
    command = guests.GUEST.make("vm-tools")
    if not path.is_file() and "ORIENTD_VM_TOOL" not in os.environ and guests.GUEST.default:
        say("no virtual-sensor yet: make vm-tools (its output follows)")
        run_host(["make", "-C", str(REPO), "--no-print-directory", "vm-tools"], 3600, "make vm-tools", stdout=sys.stderr)
    if not path.is_file():
        raise VMError(f"{path} is missing: build it with `{command}` (or set ORIENTD_VM_TOOL)", EXIT_UNAVAILABLE)
    # e_machine, at byte 18 of the ELF header: what the guest's kernel would refuse to run.
    machines = {"amd64": b"\x3e\x00", "arm64": b"\xb7\x00"}
    with open(path, "rb") as file:
        header = file.read(20)
    if header[:4] != b"\x7fELF" or header[18:20] != machines[guests.GUEST.arch]:
        raise VMError(
            f"{path} is not an {guests.GUEST.arch} program, as {guests.GUEST.name} needs: `{command}` builds its feeder", EXIT_UNAVAILABLE
        )
    return path


# The virtual hub's accelerometer as systemd's 60-sensor.rules looks it up in the hwdb:
# the modalias of its platform device (a real machine's entries add its DMI after it).
HWDB_MATCH = "sensor:modalias:platform:HID-SENSOR-200073:*"
# The I2C chips `play --driver` puts on i2c-stub, by i2c name: virtual-sensor's StubChip
# models them (and loads i2c-stub with their addresses).
I2C_CHIPS = ["kxcjk1013", "bma250e", "bmc150_accel", "mxc4005", "lis3dh", "mpu6050"]


def hwdb_match(driver: str | None) -> str:
    """The hwdb key a local entry matches the played sensor by: an I2C device's modalias
    is i2c:NAME (its parent on the i2c bus, as 60-sensor.rules looks it up)."""
    return f"sensor:modalias:i2c:{driver}:*" if driver else HWDB_MATCH


def systemd_quote(word: str) -> str:
    """A word for ExecStart=: double quotes, with \\ and " escaped, when it needs them."""
    if word and all(c.isalnum() or c in "-_.,:/=+@" for c in word):
        return word
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def setup_files(header: dict[str, str], matrix_via: str, driver: str | None, read_path: str | None, options: list[str]) -> dict[str, str]:
    """The files the guest's play_setup installs (scripts/vm-guest/helpers.sh), by name in
    the share: orientd.conf with the recording's natural orientation (and its mount matrix
    with --matrix-via config), a local hwdb entry with the mount matrix (by default), and a
    drop-in for the shipped unit with orientd's options. Each is empty when it has nothing
    to say."""
    config, hwdb = [], ""
    if "natural" in header:
        config.append(f"natural = {header['natural']}")
    if "mount-matrix" in header:
        if matrix_via == "hwdb":
            hwdb = f"{hwdb_match(driver)}\n ACCEL_MOUNT_MATRIX={header['mount-matrix']}\n"
        else:
            config.append(f"mount-matrix = {header['mount-matrix']}")
    flags = list(options) + (["--poll"] if read_path == "poll" else [])
    dropin = ""
    if flags:
        dropin = "[Service]\nExecStart=\nExecStart=/usr/bin/orientd run --wait " + " ".join(map(systemd_quote, flags)) + "\n"
    return {
        "play-orientd.conf": "".join(f"{line}\n" for line in config),
        "play.hwdb": hwdb,
        "play-dropin.conf": dropin,
    }


def play(
    recording: Path,
    read_path: str | None,
    matrix_via: str,
    driver: str | None,
    faults: list[str],
    status_every: float | None,
    options: list[str],
    sensitivity: bool = True,
) -> int:
    if not recording.is_file():
        raise VMError(f"{recording}: no such recording", 66)
    duration = recording_duration(recording)
    feeder = tool()
    ensure_booted()
    share = RUN_DIR / "share"
    guest_recording = copy_in(recording, GUEST_SHARE)
    shutil.copy2(feeder, share / "virtual-sensor")
    # Set up the way a user would: the mount matrix by a local hwdb entry (or orientd.conf),
    # the natural orientation in orientd.conf, options in a drop-in for the shipped unit;
    # the daemon itself is started by udev when the feeder plugs the sensor in.
    for name, text in setup_files(recording_header(recording), matrix_via, driver, read_path, options).items():
        (share / name).write_text(text)
    setup = with_helpers(f"set -e\nplay_setup {GUEST_SHARE}")
    code, output = guest_shell(setup, timeout=120)
    if code != 0:
        raise VMError(f"setting the guest up for the play failed (exit {code}):\n{output}")
    through = f"the kernel's {driver} driver on i2c-stub" if driver else "the kernel's HID sensor drivers"
    say(f"playing {recording.name} ({duration:g} s) through {through}")
    argv = [f"{GUEST_SHARE}/virtual-sensor", "play", guest_recording] + ([f"--{read_path}"] if read_path else [])
    argv += ["--driver", driver] if driver else []
    argv += ["--status-every", f"{status_every:g}"] if status_every else []
    argv += [word for fault in faults for word in ("--fault", fault)]
    argv += [] if sensitivity else ["--no-sensitivity"]
    code = passed_on(*guest_exec(argv, timeout=duration + 90))
    if code != 0:
        _, journal = guest_shell("journalctl -u orientd -b --no-pager | tail -20")
        say(f"the play failed (exit {code}); the daemon's journal:\n{journal}")
    return code
