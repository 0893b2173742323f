"""Suspend to RAM and back, as a laptop lid does."""

from __future__ import annotations

import contextlib
import time

from . import guests
from .agent import AgentRefused, GuestAgent, QemuMonitor, agent_call
from .commands import guest_gone
from .console import with_console
from .host import EXIT_UNAVAILABLE, VMError, locked, say
from .lifecycle import ensure_booted
from .places import GUEST_SHARE, RUN_DIR, SUSPENDED


def suspend(seconds: float) -> None:
    """Suspends the guest to RAM the way a laptop's lid does (logind, systemd-sleep, the
    kernel's S3 with every driver's suspend and resume), keeps it asleep, then wakes it.

    Once per boot: the share does not come back (9pnet_virtio has no resume; a read from
    it hangs in D state), so copy-in and play refuse until the next boot and a guest
    command must not touch it; and a second S3 returns at once without sleeping. Under
    qemu the RTC alarm does not wake an S3 guest, nor anything an s2idle one (measured:
    rtcwake -m mem and -m freeze slept for good), so qemu's own wake-up (QMP
    system_wakeup, the power button's job) ends the sleep. A machine that qemu cannot wake
    so (it says in query-current-machine) is refused: the arm64 guest's virt machine has
    no S3 (measured: wakeup-suspend-support false, the guest's mem_sleep only s2idle,
    which nothing here would end), and is refused before a boot for nothing.
    """
    if guests.GUEST.arch == "arm64":
        raise VMError(no_suspend(), EXIT_UNAVAILABLE)
    ensure_booted()
    if (RUN_DIR / SUSPENDED).exists():
        raise VMError(
            "the guest has been suspended once since its boot, and a second S3 in one boot does not sleep here "
            "(measured: the guest returns at once and qemu 7.2 reports no SUSPEND): scripts/vm boot --fresh"
        )
    started = time.monotonic()
    try:
        with QemuMonitor(10) as monitor:
            if not monitor.execute("query-current-machine").get("return", {}).get("wakeup-suspend-support", True):
                raise VMError(no_suspend(), EXIT_UNAVAILABLE)
            # The agent never answers guest-suspend-ram: it runs `systemctl suspend` and
            # the guest goes to sleep.
            with locked(RUN_DIR / "agent.lock", 20, "talking to the guest agent"):
                with GuestAgent(RUN_DIR / "qga.sock", 20) as qga:
                    qga.send("guest-suspend-ram")
            if monitor.event("SUSPEND", 90) is None:
                raise VMError(with_console("the guest did not suspend within 90 s of guest-suspend-ram"))
            asleep = time.monotonic()
            say(f"the guest is suspended ({asleep - started:.1f} s after asking); waking it in {seconds:g} s")
            # It may wake on its own (measured once, at once: a wake-up source of qemu's
            # ACPI); the drivers have been through suspend and resume all the same.
            if monitor.event("WAKEUP", seconds) is not None:
                say(f"the guest woke on its own after {time.monotonic() - asleep:.1f} s")
            else:
                reply = monitor.execute("system_wakeup")
                if "error" in reply:
                    raise VMError(f"qemu did not wake the guest: {reply['error'].get('desc')}")
        woken = time.monotonic()
        deadline = woken + 60
        while True:
            with contextlib.suppress(OSError, VMError, AgentRefused):
                agent_call("guest-ping", timeout=2)
                break
            if time.monotonic() > deadline:
                raise guest_gone("waking from suspend (no answer within 60 s)")
        say(f"the guest is awake: it answers {time.monotonic() - woken:.1f} s after the wake-up")
        (RUN_DIR / SUSPENDED).touch()
        say(f"the share ({GUEST_SHARE}) is gone until the next boot: the guest's 9p driver has no resume")
    except OSError as error:
        raise guest_gone(f"suspending ({error})") from error


def no_suspend() -> str:
    return (
        f"{guests.GUEST.name}'s machine ({guests.GUEST.qemu}) has no suspend to RAM that qemu can wake from "
        "(query-current-machine: wakeup-suspend-support false; the guest's kernel has s2idle only): "
        "suspend works on the amd64 guests"
    )
