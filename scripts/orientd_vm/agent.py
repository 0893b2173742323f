"""Talking to the guest: qemu-guest-agent inside it, and qemu itself (QMP)."""

from __future__ import annotations

import contextlib
import json
import random
import socket
import time
from pathlib import Path
from typing import Any

from .host import locked
from .places import RUN_DIR


class GuestAgent:
    """One connection to qemu-guest-agent on its virtio port: a command, then its reply.

    The agent answers one client at a time and never greets. It may still hold a reply
    meant for a client that gave up, and half a command from one that died: a 0xFF byte
    resets its parser, and a guest-sync with a fresh random id, read until its own answer,
    discards whatever came before.
    """

    def __init__(self, path: Path, timeout: float):
        self.deadline = time.monotonic() + timeout
        self.buffer = b""
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.settimeout(timeout)
            self.sock.connect(str(path))
            token = random.randrange(1, 2**31)
            self.sock.sendall(b"\xff")
            self.send("guest-sync-delimited", {"id": token})
            while self.receive().get("return") != token:
                pass
        except BaseException:
            self.sock.close()
            raise

    def __enter__(self) -> GuestAgent:
        return self

    def __exit__(self, *_: object) -> None:
        self.sock.close()

    def send(self, command: str, arguments: dict | None = None) -> None:
        message: dict[str, Any] = {"execute": command}
        if arguments is not None:
            message["arguments"] = arguments
        self.sock.sendall(json.dumps(message).encode() + b"\n")

    def receive(self) -> dict:
        while True:
            line, newline, rest = self.buffer.partition(b"\n")
            if newline:
                self.buffer = rest
                # 0xFF: the sentinel guest-sync-delimited puts before its reply.
                line = line.lstrip(b"\xff").strip()
                with contextlib.suppress(json.JSONDecodeError):
                    if line:
                        return json.loads(line)
                continue
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise socket.timeout("no reply from the guest agent")
            self.sock.settimeout(remaining)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the guest agent's socket closed")
            self.buffer += chunk

    def execute(self, command: str, arguments: dict | None = None) -> Any:
        self.send(command, arguments)
        reply = self.receive()
        if "error" in reply:
            raise AgentRefused(command, reply["error"].get("desc", str(reply["error"])))
        return reply.get("return")


class AgentRefused(Exception):
    def __init__(self, command: str, description: str):
        super().__init__(f"the guest agent refused {command}: {description}")
        self.description = description


def agent_call(command: str, arguments: dict | None = None, timeout: float = 20) -> Any:
    """One command to the agent over a connection of its own, so that a long `run` and a
    short one can share the agent (each holds it only for an exchange)."""
    with locked(RUN_DIR / "agent.lock", timeout, "talking to the guest agent"):
        with GuestAgent(RUN_DIR / "qga.sock", timeout) as qga:
            return qga.execute(command, arguments)


class QemuMonitor:
    """A connection to qemu itself (QMP), which greets, unlike the agent, and sends events
    (SUSPEND, WAKEUP ...) between replies: they are kept for `event`."""

    def __init__(self, timeout: float):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.settimeout(timeout)
            self.sock.connect(str(RUN_DIR / "qmp.sock"))
            self.buffer = b""
            self.events: list[dict] = []
            self.message()  # the greeting
            self.execute("qmp_capabilities")
        except BaseException:
            self.sock.close()
            raise

    def __enter__(self) -> QemuMonitor:
        return self

    def __exit__(self, *_: object) -> None:
        self.sock.close()

    def message(self) -> dict:
        """The next message; socket.timeout at the socket's timeout, with nothing lost."""
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("qemu closed its QMP socket")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def execute(self, command: str) -> dict:
        """The reply, {"return": ...} or {"error": ...}."""
        self.sock.sendall(json.dumps({"execute": command}).encode() + b"\n")
        while "event" in (reply := self.message()):
            self.events.append(reply)
        return reply

    def event(self, name: str, timeout: float) -> dict | None:
        """The next event called name (None after timeout)."""
        deadline = time.monotonic() + timeout
        while True:
            for index, event in enumerate(self.events):
                if event["event"] == name:
                    return self.events.pop(index)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.sock.settimeout(remaining)
            try:
                message = self.message()
            except socket.timeout:
                return None
            if "event" in message:
                self.events.append(message)


def qmp_quit(timeout: float) -> None:
    """Asks qemu itself to exit."""
    with contextlib.suppress(ConnectionError), QemuMonitor(timeout) as monitor:  # it may close before replying
        monitor.execute("quit")
