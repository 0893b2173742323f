"""The guest's serial console: its end, and what it says about why qemu ended."""

from __future__ import annotations

import re

from .places import RUN_DIR

ESCAPES = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[A-Za-z])")


def console_tail(lines: int = 40) -> str:
    try:
        text = (RUN_DIR / "console.log").read_text(errors="replace")
    except OSError:
        return "(no console log)"
    # SeaBIOS and the getty clear the screen: escape sequences and CRs are noise in a log.
    text = ESCAPES.sub("", text).replace("\r", "")
    return "\n".join(text.rstrip("\n").splitlines()[-lines:])


def with_console(message: str) -> str:
    """The message, and the console's last 40 lines; from the panic on if the kernel panicked
    (its first line says why, and the stack trace after it would push that out)."""
    lines: list[str] = []
    previous, count = "", 0
    # The initramfs's root wait prints the same line each second: once, with a count.
    for line in console_tail(100000).splitlines():
        if line and line == previous:
            count += 1
            lines[-1] = f"{line}  [{count} times]"
        else:
            previous, count = line, 1
            lines.append(line)
    panic = next((i for i, line in enumerate(lines) if "Kernel panic" in line), None)
    excerpt, which = lines[-40:], "last 40 lines"
    if panic is not None and panic < len(lines) - 40:
        excerpt, which = lines[max(0, panic - 5) : panic + 35], "from the panic on"
    return f"{message}\n--- the guest's console, {which} ({RUN_DIR / 'console.log'}) ---\n" + "\n".join(excerpt) + "\n---"


def why_qemu_ended() -> str:
    console = console_tail(200)
    if "Gave up waiting for root file system device" in console or "ALERT!" in console:
        return "the initramfs found no root file system and gave up"
    if "Kernel panic" in console:
        return "the guest's kernel panicked"
    if "reboot: Power down" in console:
        return "the guest powered off"
    if "reboot: Restarting system" in console:
        return "the guest rebooted (-no-reboot ends qemu then)"
    return "qemu exited"
