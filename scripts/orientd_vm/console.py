"""The guest's serial console: its end, and what it says about why qemu ended."""

from __future__ import annotations

import re

from .places import RUN_DIR

ESCAPES = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[A-Za-z])")
# How the kernel says it has broken: a panic, an oops (headed "int3: 0000 [#1]" by 6.1,
# "Oops: int3: 0000 [#1]" by 6.12), a BUG, a CPU stuck (soft lockup) or RCU stalled. Its
# first such line is the cause; what follows is often its consequence.
DISTRESS = re.compile(r"Kernel panic|Oops|BUG:|: [0-9a-f]{4} \[#\d+\]|soft lockup|rcu: INFO:|stalls? on CPU|general protection fault")


def console_tail(lines: int = 40) -> str:
    try:
        text = (RUN_DIR / "console.log").read_text(errors="replace")
    except OSError:
        return "(no console log)"
    # SeaBIOS and the getty clear the screen: escape sequences and CRs are noise in a log.
    text = ESCAPES.sub("", text).replace("\r", "")
    return "\n".join(text.rstrip("\n").splitlines()[-lines:])


def with_console(message: str) -> str:
    """The message, and the console's last 40 lines; from the kernel's first report of
    trouble on if it made one further back (its first line says why, and the stack traces
    and stall reports after it would push that out)."""
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
    broke = next((i for i, line in enumerate(lines) if DISTRESS.search(line)), None)
    excerpt, which = lines[-40:], "last 40 lines"
    if broke is not None and broke < len(lines) - 40:
        excerpt, which = lines[max(0, broke - 5) : broke + 35], "from the kernel's first report of trouble on"
    return f"{message}\n--- the guest's console, {which} ({RUN_DIR / 'console.log'}) ---\n" + "\n".join(excerpt) + "\n---"


def kernel_trouble() -> str | None:
    """The first line where the guest's kernel said it broke, if it did."""
    return next((line.strip() for line in console_tail(100000).splitlines() if DISTRESS.search(line)), None)


def why_qemu_ended() -> str:
    console = console_tail(200)
    if "Gave up waiting for root file system device" in console or "ALERT!" in console:
        return "the initramfs found no root file system and gave up"
    if "Kernel panic" in console:
        return f"the guest's kernel panicked ({kernel_trouble()})"
    if "reboot: Power down" in console:
        return "the guest powered off"
    if "reboot: Restarting system" in console:
        return "the guest rebooted (-no-reboot ends qemu then)"
    return "qemu exited"
