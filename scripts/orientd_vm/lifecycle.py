"""A guest's life: boot (and orientd's .deb installed), status and stop."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import guests
from .agent import AgentRefused, GuestAgent, agent_call, qmp_quit
from .commands import guest_shell
from .console import kernel_trouble, why_qemu_ended, with_console
from .host import EXIT_GUEST_GONE, EXIT_UNAVAILABLE, EXIT_USAGE, VMError, locked, run_host, say
from .image import image
from .places import BOOT_QUIET_SECONDS, BOOT_SECONDS, DPKG_SECONDS, GUEST_RECORD, GUEST_SHARE, REPO, RUN_DIR, SUSPENDED
from .qemu import alive, forget_guest, guest_pid, kill_qemu, qemu_command, running_guest, uptime, wait_for_exit, watch


def newest_deb() -> Path:
    """The newest .deb for the guest in its package directory. Debian 12 amd64's is made
    here with make deb if there is none; another guest's is built in Debian roots
    (scripts/build-dist, minutes, and it may be building now): its command is named instead."""
    pattern = guests.GUEST.package_dir.relative_to(REPO) / f"deb/orientd_*_{guests.GUEST.arch}.deb"

    def found() -> list[str]:
        return sorted(glob.glob(str(REPO / pattern)), key=os.path.getmtime)

    if not found() and guests.GUEST.default:
        say(f"no {pattern} yet: make deb (its output follows)")
        run_host(["make", "-C", str(REPO), "--no-print-directory", "deb"], 3600, "make deb", stdout=sys.stderr)
    if not found():
        made = "make deb made" if guests.GUEST.default else "there is"
        raise VMError(
            f"{made} no {pattern}: `{guests.GUEST.make('deb')}` builds {guests.GUEST.name}'s (or give --deb FILE)", EXIT_UNAVAILABLE
        )
    return Path(found()[-1])


def boot(fresh: bool, deb: Path | None, install_deb: bool, timeout: float, append: list[str], until_exit_of: int | None) -> None:
    """Boots the guest asked for, unless it runs and answers already. Another guest that
    runs in this state directory is stopped first: one guest at a time, and the one asked
    for is what every command gets."""
    with locked(RUN_DIR / "boot.lock", 3600, "booting the guest"):
        pid = guest_pid()
        running = running_guest()
        if pid is not None and running != guests.GUEST:
            say(f"{running.name if running else 'a guest'} runs (pid {pid}), {guests.GUEST.name} is asked for: stopping it first")
            stop_locked()
            pid = None
        if pid is not None and not fresh:
            try:
                agent_call("guest-ping", timeout=10)
            except (OSError, VMError, AgentRefused):
                raise VMError(
                    with_console(f"a guest runs (pid {pid}) but its agent does not answer: scripts/vm boot --fresh"),
                    EXIT_GUEST_GONE,
                )
            say(f"{guests.GUEST.name} runs already (pid {pid}, up {uptime():.0f} s); --fresh boots a new one")
            if until_exit_of:
                watch(pid, until_exit_of)
            return
        if pid is not None:
            stop_locked()
        boot_locked(deb, install_deb, timeout, append, until_exit_of)


def boot_locked(deb: Path | None, install_deb: bool, timeout: float, append: list[str], until_exit_of: int | None) -> None:
    if shutil.which(guests.GUEST.qemu) is None:
        raise VMError(
            f"{guests.GUEST.qemu} is missing: apt-get install {guests.GUEST.qemu_package}"
            + (" (scripts/install-dependencies --tests)" if guests.GUEST.arch == "amd64" else ""),
            EXIT_UNAVAILABLE,
        )
    if len(str(RUN_DIR / "qga.sock")) > 100:
        raise VMError(f"ORIENTD_VM_DIR is too long for a unix socket's path: {RUN_DIR}", EXIT_USAGE)
    directory = image()
    # Before qemu starts: make deb and a TCG guest on two cores would starve each other.
    if install_deb:
        deb = (deb or newest_deb()).resolve()
        if not deb.is_file():
            raise VMError(f"{deb}: no such .deb", 66)
    RUN_DIR.mkdir(parents=True, exist_ok=True)
    share = RUN_DIR / "share"
    shutil.rmtree(share, ignore_errors=True)
    share.mkdir()
    for name in ["qga.sock", "qmp.sock", "qemu.pid", "console.log", "qemu.log", "installed"]:
        (RUN_DIR / name).unlink(missing_ok=True)
    (RUN_DIR / GUEST_RECORD).write_text(f"{guests.GUEST.key}\n")
    say(f"booting {guests.GUEST.name}'s kernel under {guests.GUEST.qemu} (TCG; state in {RUN_DIR})")
    started = time.monotonic()
    with open(RUN_DIR / "qemu.log", "wb") as log:
        # A session of its own: the guest outlives this command and a ^C in its terminal.
        process = subprocess.Popen(
            qemu_command(directory, append),
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    (RUN_DIR / "qemu.pid").write_text(f"{process.pid}\n")
    try:
        state = wait_until_booted(process, started, timeout)
    except BaseException:
        # A boot that failed or was interrupted leaves no guest behind; its console stays.
        kill_qemu(process.pid)
        forget_guest()
        raise
    if until_exit_of:
        watch(process.pid, until_exit_of)
    say(f"booted: systemd {state} after {time.monotonic() - started:.1f} s")
    if state == "degraded":
        _, failed = guest_shell("systemctl --failed --no-legend --plain")
        say(f"units that failed in the guest: {' '.join(line.split()[0] for line in failed.splitlines() if line.strip())}")
    if install_deb and deb is not None:
        install(deb)


def console_size() -> int:
    try:
        return (RUN_DIR / "console.log").stat().st_size
    except OSError:
        return 0


def wait_until_booted(process: subprocess.Popen, started: float, timeout: float) -> str:
    """Waits until the agent answers and systemd has started everything; its state. Gives
    up after `timeout`, or once the console has been quiet for BOOT_QUIET_SECONDS."""
    answered: float | None = None
    state = ""
    printed, printed_at = 0, started
    while True:
        now = time.monotonic()
        elapsed = now - started
        if (size := console_size()) != printed:
            printed, printed_at = size, now
        if process.poll() is not None:
            qemu_log = (RUN_DIR / "qemu.log").read_text(errors="replace").strip()
            raise VMError(
                with_console(
                    f"{why_qemu_ended()} after {elapsed:.1f} s of boot (qemu's exit status {process.returncode})"
                    + (f"\nqemu said: {qemu_log[-2000:]}" if qemu_log else "")
                )
            )
        quiet = now - printed_at
        if elapsed > timeout or quiet > BOOT_QUIET_SECONDS:
            waiting = f"systemd still '{state or 'starting'}'{jobs_waited_for()}" if answered is not None else "the guest agent never answered"
            why = f"within {timeout:g} s" if elapsed > timeout else f"its console quiet for {quiet:.0f} s, {elapsed:.0f} s in"
            said = f"; its kernel said first: {trouble}" if (trouble := kernel_trouble()) else ""
            raise VMError(with_console(f"the guest did not boot ({why}): {waiting}{said}"))
        try:
            if answered is None:
                # Short: what is sent before the agent opens its port is lost, not queued.
                agent_call("guest-ping", timeout=0.5)
                answered = elapsed
                say(f"the guest agent answers ({answered:.1f} s)")
            # Ends when systemd has finished starting what it starts; asked again every
            # 10 s, so that the console's quiet is checked in between.
            _, output = guest_shell("systemctl is-system-running --wait", timeout=10)
            state = output.strip()
        except (OSError, VMError, AgentRefused):
            pass
        if state in ("running", "degraded"):
            return state
        if state in ("maintenance", "stopping", "offline"):
            raise VMError(with_console(f"systemd in the guest is '{state}' instead of running (emergency mode?)"))
        time.sleep(0.2)


def jobs_waited_for() -> str:
    """The jobs systemd has yet to finish in the guest, for a boot that never ended."""
    with contextlib.suppress(OSError, VMError, AgentRefused):
        _, output = guest_shell("systemctl list-jobs --no-legend --plain", timeout=10)
        jobs = [" ".join(line.split()[1:4]) for line in output.splitlines() if line.strip()]
        return f", its jobs: {'; '.join(jobs)}" if jobs else ", with no job left"
    return ""


def install(deb: Path) -> None:
    """Installs orientd the way a user does; its postinst meets the guest's real udevd."""
    started = time.monotonic()
    shutil.copyfile(deb, RUN_DIR / "share" / deb.name)
    code, output = guest_shell(f"dpkg -i {GUEST_SHARE}/{deb.name}", timeout=DPKG_SECONDS)
    if code != 0:
        raise VMError(f"dpkg -i {deb.name} failed in the guest (exit {code}); the guest still runs:\n{output}")
    (RUN_DIR / "installed").write_text(f"{deb}\n")
    say(f"installed {deb.name} ({time.monotonic() - started:.1f} s)")


def ensure_booted() -> None:
    """The guest asked for, booted if none runs; another that runs is stopped first (boot)."""
    if guest_pid() is None:
        say(f"no guest runs: booting {guests.GUEST.name}")
    elif running_guest() == guests.GUEST:
        return
    boot(fresh=False, deb=None, install_deb=True, timeout=BOOT_SECONDS, append=[], until_exit_of=None)


def stop() -> None:
    with locked(RUN_DIR / "boot.lock", 600, "booting the guest"):
        stop_locked()


def stop_locked() -> None:
    """Powers off the guest that runs here, whichever it is (one per state directory)."""
    pid = guest_pid()
    if pid is None:
        say("no guest runs")
        forget_guest()
        return
    which = running_guest() or guests.GUEST
    started = time.monotonic()
    how = "killed"
    # A clean power-off first (the agent does not answer it), then qemu's own quit, then kill.
    # Not after a suspend: the power-off waits on unmounting the share, which hangs since
    # (measured: "Job mnt-share.mount/stop running" until the 30 s here ran out). The disk
    # is a snapshot that qemu drops: quitting loses nothing.
    asked = False
    suspended = (RUN_DIR / SUSPENDED).exists()
    if not suspended:
        with contextlib.suppress(OSError, VMError):
            with locked(RUN_DIR / "agent.lock", 5, "talking to the guest agent"), GuestAgent(RUN_DIR / "qga.sock", 5) as qga:
                qga.send("guest-shutdown", {"mode": "powerdown"})
                asked = True
    if asked and wait_for_exit(pid, 30):
        how = "powered off"
    else:
        if suspended:
            say("the guest's share hangs since its suspend, and so would its power-off: quitting qemu")
        else:
            say(f"{'the guest did not power off within 30 s' if asked else 'the guest agent does not answer'}: quitting qemu")
        with contextlib.suppress(OSError):
            qmp_quit(5)
        if wait_for_exit(pid, 10):
            how = "quit by qemu"
        else:
            say("qemu did not quit within 10 s: killing it")
            kill_qemu(pid)
            if alive(pid):
                raise VMError(f"qemu (pid {pid}) survives SIGKILL")
    forget_guest()
    say(f"{which.name} is off ({how}, {time.monotonic() - started:.1f} s)")


def status(explicit: bool) -> int:
    """Says which guest runs. With --dist or --arch given, it is about that guest: another
    that runs is named, with the exit status of none running (3)."""
    pid = guest_pid()
    running = running_guest()
    if pid is None or running is None:
        print("not running" + (" (the last guest's end: scripts/vm console)" if (RUN_DIR / "console.log").exists() else ""))
        return 3
    if explicit and running != guests.GUEST:
        print(f"not running: {running.name} runs here instead (pid {pid}, up {uptime():.0f} s)")
        return 3
    try:
        agent_call("guest-ping", timeout=5)
        answers = "the agent answers"
    except (OSError, VMError, AgentRefused):
        answers = "the agent does not answer"
    installed = RUN_DIR / "installed"
    deb = f"{Path(installed.read_text().strip()).name} installed" if installed.exists() else "orientd not installed"
    print(f"running: {running.name}, pid {pid}, up {uptime():.0f} s, {answers}, {deb}")
    return 0
