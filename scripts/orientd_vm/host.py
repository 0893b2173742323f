"""Failures with their exit status, progress on standard error, host commands and locks."""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator


# Exit statuses besides the guest command's own (documented in --help).
EXIT_TIMEOUT = 124  # as timeout(1)
EXIT_GUEST_GONE = 125  # the guest died or stopped answering: the command's status is unknown
EXIT_USAGE = 64
EXIT_UNAVAILABLE = 69  # a tool is missing


class VMError(Exception):
    """A failure with its message for the user and the exit status that goes with it."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


def say(message: str) -> None:
    print(f"vm: {message}", file=sys.stderr, flush=True)


def run_host(command: list[str], timeout: float, what: str, **kwargs: Any) -> subprocess.CompletedProcess:
    """Runs a host command; any failure is a VMError that names the step."""
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    try:
        return subprocess.run(command, timeout=timeout, check=True, **kwargs)
    except FileNotFoundError:
        raise VMError(f"{what}: {command[0]} is missing (scripts/install-dependencies --tests installs it)", EXIT_UNAVAILABLE)
    except subprocess.TimeoutExpired:
        raise VMError(f"{what}: no end after {timeout:.0f} s: {' '.join(command)}")
    except subprocess.CalledProcessError as error:
        output = b"".join(part for part in (error.stdout, error.stderr) if isinstance(part, bytes))
        detail = "\n" + output.decode(errors="replace")[-3000:] if output else ""
        raise VMError(f"{what} failed (exit {error.returncode}): {' '.join(command)}{detail}")


@contextlib.contextmanager
def locked(path: Path, timeout: float, waiting_for: str) -> Iterator[None]:
    """An exclusive flock on path: two scripts/vm never boot (or build) the same thing at once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as file:
        started = time.monotonic()
        told = False
        while True:
            try:
                fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                # Quiet for a moment: agent exchanges take milliseconds.
                if not told and time.monotonic() > started + 1:
                    file.seek(0)
                    say(f"waiting for another scripts/vm (pid {file.read().strip() or '?'}) to finish {waiting_for}")
                    told = True
                if time.monotonic() > started + timeout:
                    raise VMError(f"another scripts/vm is still {waiting_for} after {timeout:.0f} s ({path} is locked)")
                time.sleep(0.05)
        file.seek(0)
        file.truncate()
        file.write(str(os.getpid()))
        file.flush()
        yield
