"""The command line: scripts/vm COMMAND ..., its help, and its exit statuses."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from pathlib import Path

from . import guests
from .commands import guest_exec, passed_on, script_name, with_helpers
from .console import console_tail
from .guests import GUESTS, chosen_guest
from .host import EXIT_GUEST_GONE, EXIT_TIMEOUT, EXIT_UNAVAILABLE, EXIT_USAGE, VMError, say
from .image import image
from .lifecycle import boot, ensure_booted, status, stop
from .places import BOOT_QUIET_SECONDS, BOOT_SECONDS, GUEST_RECORD, GUEST_SHARE, RUN_DIR
from .play import I2C_CHIPS, copy_in, play
from .qemu import watch_loop
from .suspend import suspend


def command_line() -> argparse.ArgumentParser:
    """scripts/vm's options and commands, with the help that teaches them."""
    parser = argparse.ArgumentParser(
        prog="scripts/vm",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="orientd on a real Linux kernel: Debian's own kernel under qemu (TCG), systemd and udevd\n"
        "as PID 1 and its helper, orientd installed from its .deb. For tests and bug reports.\n"
        "The guest: Debian 12 amd64 (the default), Debian 13 amd64 or Debian 13 arm64, chosen with\n"
        "--dist and --arch before the command; asking for another than the one that runs stops it first.",
        epilog=f"""examples:
  scripts/vm boot                              # about 30 s; the first time also builds the image
  scripts/vm --dist trixie --arch arm64 boot   # Debian 13 on qemu-system-aarch64's virt machine, about 50 s
  scripts/vm run -- systemctl status orientd
  scripts/vm run -- sh -c 'modprobe uhid && ls -l /dev/uhid'
  scripts/vm run --input conf -- sh -c 'cat > /etc/orientd.conf'
  scripts/vm shell -- 'reset_guest; daemon_journal | tail'   # with scripts/vm-guest/helpers.sh's functions
  scripts/vm copy-in ./tool                    # prints {GUEST_SHARE}/tool
  scripts/vm play Recordings/quick-flick-rotations.csv --poll
  scripts/vm suspend --seconds 10              # S3 through systemd, then qemu wakes it
  scripts/vm stop

guests: {", ".join(f"{guest.name} (--dist {guest.dist} --arch {guest.arch})" for guest in GUESTS[:2])},
        {GUESTS[2].name} (--dist {GUESTS[2].dist} --arch {GUESTS[2].arch}); each needs its .deb and feeder:
        make deb vm-tools [DIST=trixie ARCH=amd64|arm64]
state:  $ORIENTD_VM_DIR (default /run/orientd-vm): qemu.pid, {GUEST_RECORD} (which guest), console.log,
        qemu.log, qga.sock (the guest agent), qmp.sock (qemu), share/ (the guest's {GUEST_SHARE})
images: $ORIENTD_TEST_CACHE (default /var/cache/orientd-tests)/vm-[DIST-ARCH-]HASH, from the root
        that scripts/test-root-common.sh bootstraps, scripts/vm-guest/root and IMAGE_RECIPE
exit:   run, shell and play exit with the guest command's status; besides: {EXIT_TIMEOUT} the time limit
        (the command is killed in the guest), {EXIT_GUEST_GONE} the guest died or stopped answering,
        126 the command could not be started, {EXIT_USAGE} usage, {EXIT_UNAVAILABLE} a tool is missing,
        1 anything else (the message says what)""",
    )
    parser.add_argument(
        "--dist", metavar="DIST", help="the guest's Debian release: bookworm (12, the default) or trixie (13)"
    )
    parser.add_argument("--arch", metavar="ARCH", help="the guest's architecture: amd64 (the default) or arm64")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser(
        "image", help="build the guest's disk, kernel and initrd (once; cached); print their directory",
        description="Builds the guest image once and prints its directory: a copy of the guest's cached Debian root "
        "with scripts/vm-guest/root laid over it, as an ext4 disk, and the root's kernel and initramfs. "
        "A changed root, scripts/vm-guest/root or IMAGE_RECIPE (scripts/orientd_vm/places.py) makes a new one.",
    )  # fmt: skip
    boot_parser = commands.add_parser(
        "boot", help="boot the guest and install orientd's .deb in it (or say it runs)",
        description="Boots the guest from the clean image (writes go to a snapshot that qemu drops), waits until "
        "systemd is running, then installs orientd with dpkg -i. A guest that runs and answers is left as it is.",
    )  # fmt: skip
    boot_parser.add_argument("--fresh", action="store_true", help="stop a running guest first: a clean one")
    boot_parser.add_argument(
        "--deb", type=Path, metavar="FILE",
        help="the .deb to install (default: the newest in .build-package/deb, or make deb; for Debian 13 in "
        ".build-package-trixie-ARCH/deb, from make deb DIST=trixie ARCH=ARCH)",
    )  # fmt: skip
    boot_parser.add_argument("--no-install", action="store_true", help="boot without installing orientd")
    boot_parser.add_argument(
        "--timeout", type=float, default=BOOT_SECONDS, metavar="S", help=f"give up the boot after S seconds (default {BOOT_SECONDS}), or once the console has printed nothing for {BOOT_QUIET_SECONDS} s"
    )
    boot_parser.add_argument(
        "--append", action="append", default=[], metavar="ARGS", help="more kernel command line (a later word wins)"
    )
    boot_parser.add_argument(
        "--until-exit-of", type=int, metavar="PID", help="stop the guest when process PID ends (tests pass their own)"
    )
    run_parser = commands.add_parser(
        "run", help="run a command in the guest (booting it first if none runs)",
        usage="scripts/vm run [--timeout S] [--input FILE] -- COMMAND [ARG...]",
        description="Runs COMMAND as root in the guest with PATH=/usr/sbin:/usr/bin:/sbin:/bin, as an argument vector "
        "(no shell: write sh -c '...' for one). Its standard output and error are printed when it ends, and "
        "its exit status is this command's.",
    )  # fmt: skip
    run_parser.add_argument(
        "--timeout", type=float, default=120, metavar="S", help="seconds before the command is killed (exit 124; default 120)"
    )
    run_parser.add_argument("--input", type=Path, metavar="FILE", help="the command's standard input (- for this one's)")
    run_parser.add_argument("argv", nargs="*", metavar="COMMAND", help="the program and its arguments, after --")
    shell_parser = commands.add_parser(
        "shell", help="run a shell script in the guest, with the tests' shell functions",
        usage="scripts/vm shell [--timeout S] -- SCRIPT",
        description="Runs SCRIPT as root with sh in the guest (booting it first if none runs), after the functions "
        "of scripts/vm-guest/helpers.sh, as the real-kernel tests run theirs: fail, wait_until, daemon_journal, "
        "restarts, main_pid, plug_devices, reset_guest, play_setup (that file says what each does). Standard output "
        "and error are printed when it ends, and its exit status is this command's.",
    )  # fmt: skip
    shell_parser.add_argument(
        "--timeout", type=float, default=120, metavar="S", help="seconds before the script is killed (exit 124; default 120)"
    )
    shell_parser.add_argument("script", nargs="?", metavar="SCRIPT", help="the script, after --")
    copy_parser = commands.add_parser(
        "copy-in", help="copy a file into the guest through the share; print its path there",
        description=f"Copies HOST_FILE into the share and prints its path in the guest ({GUEST_SHARE} is "
        f"{RUN_DIR}/share here). Boots the guest first if none runs.",
    )  # fmt: skip
    copy_parser.add_argument("file", type=Path, metavar="HOST_FILE")
    copy_parser.add_argument(
        "guest_dir", nargs="?", default=GUEST_SHARE, metavar="GUEST_DIR", help=f"{GUEST_SHARE} (default) or a folder in it"
    )
    play_parser = commands.add_parser(
        "play", help="play a recording through the guest's kernel into the installed daemon",
        usage="scripts/vm play RECORDING [--poll|--buffered] [--matrix-via hwdb|config] [--driver NAME] [--no-sensitivity] [--fault KIND@START+SECONDS]... [--status-every S] [-- ORIENTD-OPTIONS...]",
        description="Sets the guest up as a user would for RECORDING (its natural orientation in /etc/orientd.conf, "
        "its mount matrix in a local hwdb entry or orientd.conf, ORIENTD-OPTIONS in a drop-in for the shipped unit), "
        "stops orientd, then runs the feeder ($ORIENTD_VM_TOOL, default .build-package/release/virtual-sensor, which "
        "make vm-tools builds; for Debian 13 .build-package-trixie-ARCH/release/virtual-sensor, from make vm-tools "
        "DIST=trixie ARCH=ARCH) in the guest: it plugs a HID sensor hub in over /dev/uhid (or, with --driver, an I2C "
        "chip on i2c-stub), udev starts orientd, and the recording plays at its pace. Standard output is every event "
        "orientd printed, with time on the recording's clock, as `orientd replay RECORDING` prints them; the "
        "feeder's summary goes to standard error.",
    )  # fmt: skip
    play_parser.add_argument("recording", type=Path, metavar="RECORDING", help="an orientd recording (CSV; Recordings/)")
    mode = play_parser.add_mutually_exclusive_group()
    for flag, what in [("poll", "poll in_accel_*_raw"), ("buffered", "read the buffer")]:
        mode.add_argument(
            f"--{flag}", dest="read_path", action="store_const", const=flag, help=f"the daemon is to {what} (passed on)"
        )
    play_parser.add_argument(
        "--matrix-via", choices=["hwdb", "config"], default="hwdb",
        help="how the recording's mount matrix reaches orientd: a local hwdb entry (default) or orientd.conf",
    )  # fmt: skip
    play_parser.add_argument(
        "--driver", choices=list(I2C_CHIPS), metavar="NAME",
        help="play through this I2C accelerometer on i2c-stub, read by the kernel's own driver, instead of a HID "
        f"sensor hub: {', '.join(I2C_CHIPS)}",
    )  # fmt: skip
    play_parser.add_argument(
        "--no-sensitivity", dest="sensitivity", action="store_false",
        help="the HID hub has no change sensitivity (no in_accel_hysteresis), as older hubs; by default it has one and "
        "honours it, as most 2-in-1s' hubs do",
    )  # fmt: skip
    play_parser.add_argument(
        "--fault", action="append", default=[], metavar="KIND@START+SECONDS", dest="faults",
        help="the HID hub misbehaves from START seconds into the recording for SECONDS (repeatable): quiet (no input "
        "reports, reads answered), zeros, garbage (±32767 counts), replug (gone, back as a new device), forget (loses "
        "its power, reporting and interval settings), hang (answers nothing: no reports, no requests), freeze (every "
        "reading the one due at START); with --driver: zeros, garbage, freeze, replug",
    )  # fmt: skip
    play_parser.add_argument(
        "--status-every", type=float, metavar="S",
        help="ask the daemon for its status every S seconds on the play's own connection; how long the answers took "
        "goes to standard error (a status-answers line)",
    )  # fmt: skip
    play_parser.add_argument("options", nargs="*", metavar="ORIENTD-OPTIONS", help="options for orientd run, after --")
    console_parser = commands.add_parser("console", help="print the end of the guest's console (kernel, systemd, getty)")
    console_parser.add_argument("-n", type=int, default=40, metavar="N", help="lines (default 40)")
    suspend_parser = commands.add_parser(
        "suspend", help="suspend the guest to RAM (S3, through systemd) and wake it (amd64 guests)",
        description="Suspends the guest as a laptop does (qemu-guest-agent's guest-suspend-ram: systemctl suspend, "
        "systemd-sleep, the kernel's S3 with every driver's suspend and resume), keeps it asleep, then wakes it with "
        "qemu's system_wakeup and waits until the guest agent answers again. Once per boot: the share does not "
        "survive it (the guest's 9p driver has no resume), so copy what the guest needs out of it first, and a "
        "second S3 does not sleep; copy-in, play and suspend refuse until scripts/vm boot --fresh.",
    )  # fmt: skip
    suspend_parser.add_argument(
        "--seconds", type=float, default=5, metavar="S", help="seconds to stay asleep (default 5)"
    )
    commands.add_parser(
        "stop", help="power off the guest that runs, whichever it is (agent, then qemu's quit, then kill)"
    )
    commands.add_parser(
        "status",
        help="say which guest runs, its pid and uptime (exit 3 if none, or with --dist/--arch if not that one)",
    )
    return parser


def main() -> int:
    parser = command_line()
    argv, rest = split_at_dashes(sys.argv[1:])
    if argv[:1] == ["_watch"]:  # watch()'s own process, not for users
        watch_loop(int(argv[1]), int(argv[2]), argv[3])
        return 0
    args = parser.parse_args(argv)
    if rest and args.command not in ("run", "shell", "play"):
        parser.error(f"{args.command} takes nothing after --")
    guests.GUEST = chosen_guest(args.dist, args.arch)
    explicit = args.dist is not None or args.arch is not None

    if args.command == "image":
        print(image())
    elif args.command == "boot":
        boot(args.fresh, args.deb, not args.no_install, args.timeout, args.append, args.until_exit_of)
    elif args.command == "run":
        command = args.argv + rest
        if not command:
            parser.error("run needs a command: scripts/vm run -- COMMAND ARGS...")
        stdin = None
        if args.input:
            try:
                stdin = sys.stdin.buffer.read() if str(args.input) == "-" else args.input.read_bytes()
            except OSError as error:
                raise VMError(f"--input: {error}", 66)
        ensure_booted()
        return passed_on(*guest_exec(command, args.timeout, stdin))
    elif args.command == "shell":
        words = ([args.script] if args.script else []) + rest
        if len(words) != 1:
            parser.error("shell takes one script: scripts/vm shell -- 'SCRIPT'")
        ensure_booted()
        return passed_on(*guest_exec(["sh", "-c", with_helpers(words[0])], args.timeout, named=script_name(words[0])))
    elif args.command == "copy-in":
        print(copy_in(args.file, args.guest_dir))
    elif args.command == "play":
        return play(
            args.recording, args.read_path, args.matrix_via, args.driver, args.faults, args.status_every, args.options + rest,
            args.sensitivity
        )
    elif args.command == "console":
        with contextlib.suppress(OSError):
            last = (RUN_DIR / GUEST_RECORD).read_text().strip()
            if explicit and last != guests.GUEST.key:
                say(f"this console is the last guest's here, {last}, not {guests.GUEST.key}'s")
        print(console_tail(args.n))
    elif args.command == "suspend":
        suspend(args.seconds)
    elif args.command == "stop":
        stop()
    elif args.command == "status":
        return status(explicit)
    return 0


def split_at_dashes(argv: list[str]) -> tuple[list[str], list[str]]:
    """scripts/vm's own arguments, and those after the first --: the guest's command or
    orientd's options, never ours (a second -- is theirs too)."""
    if "--" not in argv:
        return argv, []
    cut = argv.index("--")
    return argv[:cut], argv[cut + 1 :]


def run() -> None:
    """scripts/vm: main, with a VMError's message and status, and ^C or SIGTERM as an
    interruption."""
    # Killed by a test harness: unwind as for ^C (a half-booted guest is stopped, a
    # command in the guest killed).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        sys.exit(main())
    except VMError as error:
        say(str(error))
        sys.exit(error.status)
    except KeyboardInterrupt:
        sys.exit(130)
