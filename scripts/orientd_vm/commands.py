"""Commands and shell scripts run in the guest, with time limits and their output."""

from __future__ import annotations

import base64
import contextlib
import re
import shlex
import sys
import time
from typing import Any

from .agent import AgentRefused, agent_call
from .console import why_qemu_ended, with_console
from .host import EXIT_GUEST_GONE, EXIT_TIMEOUT, VMError
from .places import GUEST_ENV, HELPERS
from .qemu import guest_pid, wait_for_exit


def guest_gone(doing: str) -> VMError:
    """What to say when the agent stopped answering: the guest died, or it hangs."""
    pid = guest_pid()
    # A kernel that panics takes qemu with it within moments (panic=-1, -no-reboot): wait
    # for that before calling the guest hung.
    if pid is None or wait_for_exit(pid, 3):
        return VMError(with_console(f"the guest died while {doing}: {why_qemu_ended()}"), EXIT_GUEST_GONE)
    return VMError(
        with_console(f"the guest agent stopped answering while {doing}: the guest hangs or is overloaded (scripts/vm stop)"),
        EXIT_GUEST_GONE,
    )


def guest_exec(
    argv: list[str], timeout: float, stdin: bytes | None = None, named: str | None = None
) -> tuple[int, bytes, bytes]:
    """Runs argv in the guest as root and waits for it: (exit status, stdout, stderr).

    The command runs in a session of its own (setsid), so that on the time limit it and
    everything it started can be killed: the agent itself cannot end what it started.
    NAMED is what messages call it (argv itself unless given).
    """
    named = named or shlex.join(argv)
    if guest_pid() is None:
        raise VMError("no guest runs (scripts/vm boot)", EXIT_GUEST_GONE)
    arguments: dict[str, Any] = {
        "path": "/usr/bin/setsid",
        "arg": ["--", *argv],
        "env": GUEST_ENV,
        "capture-output": True,
    }
    if stdin is not None:
        arguments["input-data"] = base64.b64encode(stdin).decode()
    deadline = time.monotonic() + timeout
    try:
        try:
            pid = agent_call("guest-exec", arguments)["pid"]
        except AgentRefused as refused:
            raise VMError(f"{named}: {refused}", 126)
        try:
            delay = 0.01
            while not (status := agent_call("guest-exec-status", {"pid": pid})).get("exited"):
                if time.monotonic() > deadline:
                    kill_in_guest(pid)
                    raise VMError(
                        f"no end after {timeout:g} s, killed in the guest: {named}{printed_before(pid)}", EXIT_TIMEOUT
                    )
                time.sleep(delay)
                delay = min(delay * 2, 0.2)
        except (KeyboardInterrupt, SystemExit):
            # Interrupted (^C, SIGTERM): the command is not left running in the guest.
            with contextlib.suppress(Exception):
                kill_in_guest(pid)
            raise
    except AgentRefused as refused:
        raise VMError(f"{named}: {refused}")
    except (OSError, VMError) as error:
        if isinstance(error, VMError) and error.status != 1:
            raise
        raise guest_gone(f"running {named}") from error
    out = base64.b64decode(status.get("out-data", ""))
    err = base64.b64decode(status.get("err-data", ""))
    # setsid's words for a command that is missing (127) or not executable (126).
    err = re.sub(rb"^setsid: failed to execute ", b"vm: the guest could not execute ", err)
    if status.get("out-truncated") or status.get("err-truncated"):
        err += b"\nvm: the guest agent cut the command's output at its 16 MiB limit\n"
    return status.get("exitcode", 128 + status.get("signal", 0)), out, err


def kill_in_guest(pid: int) -> None:
    """Kills a guest-exec command and all it started (its session: setsid made it the leader)."""
    agent_call("guest-exec", {"path": "/bin/kill", "arg": ["-KILL", "--", f"-{pid}"]}, timeout=5)


def printed_before(pid: int) -> str:
    """What a killed guest-exec command had printed, as the tail of a message: the agent
    hands the output over only once the command and every holder of its output ended,
    which a moment after the kill they have (else: nothing to show)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        status = agent_call("guest-exec-status", {"pid": pid})
        if status.get("exited"):
            printed = (base64.b64decode(status.get("out-data", "")) + base64.b64decode(status.get("err-data", ""))).decode(
                errors="replace"
            )
            return f"; what it printed before:\n{printed.rstrip()}" if printed.strip() else "; it printed nothing"
        time.sleep(0.2)
    return "; what it printed is lost: its output is still held open in the guest"


def script_name(script: str) -> str:
    """What messages call a shell script: its usage line (`# Usage: NAME.sh ...`) if it has
    one, else its first line; the whole text would push the reason out of sight."""
    usage = re.search(r"^# Usage: (.*)$", script, re.MULTILINE)
    first = usage.group(1) if usage else next((line for line in script.splitlines() if line.strip()), "")
    return f"the shell script {first[:100]!r}"


def guest_shell(script: str, timeout: float = 60) -> tuple[int, str]:
    """A shell script in the guest: (exit status, its stdout and stderr together)."""
    code, out, err = guest_exec(["sh", "-c", f"exec 2>&1\n{script}"], timeout)
    return code, (out + err).decode(errors="replace")


def with_helpers(script: str) -> str:
    """SCRIPT after scripts/vm-guest/helpers.sh's functions, as text: nothing is kept in
    the guest (a guest booted from another checkout gets this one's; the share may hang)."""
    try:
        helpers = HELPERS.read_text()
    except OSError as error:
        raise VMError(f"{HELPERS}: {error.strerror}", 66)
    return f"{helpers}\n{script}"


def passed_on(code: int, out: bytes, err: bytes) -> int:
    """A guest command's output as this command's own; its exit status."""
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
    sys.stderr.buffer.write(err)
    sys.stderr.flush()
    return code
