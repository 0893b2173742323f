"""The qemu process: its command line, whether it runs and which guest it is, its end."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from . import guests
from .guests import DEFAULT_GUEST, Guest
from .host import EXIT_USAGE, VMError
from .places import COMMAND, GUEST_RECORD, RUN_DIR, SUSPENDED


def qemu_command(directory: Path, append: list[str]) -> list[str]:
    """qemu for the guest: a PC (q35) for amd64, the virt machine for arm64, each with its
    disk, the share and the agent's port on virtio PCI, and its serial console to a file.
    The devices in the same order on both, so each has the same PCI slot from boot to boot.

    The virt machine takes the kernel (an arm64 Image) directly, with no firmware, and
    describes itself in a device tree. Its devices are named: -drive if=virtio and -virtfs
    would pick virtio-mmio or PCI by the machine, and the disk must be the PCI one the
    initramfs has a driver for (virtio_pci, checked by configure_root)."""
    share = RUN_DIR / "share"
    image = directory / "disk.img"
    if guests.GUEST.arch == "arm64":
        # cortex-a57 rather than max: max adds pointer authentication, which TCG emulates
        # slowly.
        program, machine = "qemu-system-aarch64", ["-machine", "virt", "-cpu", "cortex-a57"]
        # snapshot=on: writes go to a temporary copy; every boot starts from the clean image.
        storage = ["-drive", f"file={image},if=none,id=disk,format=raw,snapshot=on", "-device", "virtio-blk-pci,drive=disk"]
        files = ["-fsdev", f"local,path={share},security_model=none,id=share", "-device", "virtio-9p-pci,fsdev=share,mount_tag=share"]
        serial = "virtio-serial-pci"
    else:
        program, machine = "qemu-system-x86_64", ["-machine", "q35"]
        storage = ["-drive", f"file={image},if=virtio,format=raw,snapshot=on"]
        files = ["-virtfs", f"local,path={share},mount_tag=share,security_model=none,id=share"]
        serial = "virtio-serial"
    return [
        program,
        # /dev/kvm is there but a KVM guest hangs after "Probing EDD" (nested
        # virtualisation): software emulation, a host thread for each virtual core.
        "-accel", "tcg,thread=multi",
        *machine,
        "-m", "1024",
        "-smp", guests.GUEST.cores,
        "-nographic",
        # No default CD-ROM, floppy, VGA or network card: less for the kernel to probe.
        "-nodefaults",
        "-no-reboot",
        "-kernel", str(directory / "vmlinuz"),
        "-initrd", str(directory / "initrd.img"),
        "-append", " ".join(guests.GUEST.kernel_args + append),
        *storage,
        "-nic", "none",
        *files,
        "-device", serial,
        "-chardev", f"socket,path={RUN_DIR / 'qga.sock'},server=on,wait=off,id=qga",
        "-device", "virtserialport,chardev=qga,name=org.qemu.guest_agent.0",
        "-qmp", f"unix:{RUN_DIR / 'qmp.sock'},server=on,wait=off",
        "-serial", f"file:{RUN_DIR / 'console.log'}",
        "-monitor", "none",
    ]  # fmt: skip


def alive(pid: int) -> bool:
    """Whether pid runs (a zombie, such as a qemu this process started and saw die, does not)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def guest_pid() -> int | None:
    """The pid of this run directory's qemu, if one runs (a recycled pid is not taken for it)."""
    try:
        pid = int((RUN_DIR / "qemu.pid").read_text())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return None
    if b"qemu-system" not in cmdline or str(RUN_DIR / "qga.sock").encode() not in cmdline or not alive(pid):
        return None
    return pid


def uptime() -> float:
    return time.time() - (RUN_DIR / "qemu.pid").stat().st_mtime


def running_guest() -> Guest | None:
    """Which guest runs (None if none does), by the record its boot left in the state
    directory. A qemu with no record was booted by a scripts/vm older than the choice,
    which booted Debian 12 amd64 only."""
    if guest_pid() is None:
        return None
    with contextlib.suppress(OSError, ValueError):
        dist, arch = (RUN_DIR / GUEST_RECORD).read_text().strip().split("-", 1)
        return Guest(dist, arch)
    return DEFAULT_GUEST


def watch(qemu: int, parent: int) -> None:
    """Starts a process that ends the guest when process `parent` ends (a test run's guest
    never outlives it). Detached and with no descriptor of ours, so that a caller reading
    this command's output to its end is not kept waiting by it."""
    stat = Path(f"/proc/{parent}/stat")
    if not stat.exists():
        raise VMError(f"--until-exit-of {parent}: no such process", EXIT_USAGE)
    started = stat.read_text().rpartition(")")[2].split()[19]
    subprocess.Popen(
        [sys.executable, str(COMMAND), "_watch", str(qemu), str(parent), started],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip


def watch_loop(qemu: int, parent: int, parent_started: str) -> None:
    def parent_alive() -> bool:
        try:
            return Path(f"/proc/{parent}/stat").read_text().rpartition(")")[2].split()[19] == parent_started
        except OSError:
            return False

    while alive(qemu) and parent_alive():
        time.sleep(1)
    if alive(qemu) and guest_pid() == qemu:
        # The disk is a snapshot: nothing to save, so no shutdown to wait for.
        kill_qemu(qemu)
        forget_guest()


def kill_qemu(pid: int) -> None:
    for sig, seconds in [(signal.SIGTERM, 5), (signal.SIGKILL, 5)]:
        with contextlib.suppress(OSError):
            os.kill(pid, sig)
        if wait_for_exit(pid, seconds):
            return


def wait_for_exit(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.1)
    return not alive(pid)


def forget_guest() -> None:
    """The running guest's state goes; its console, log and share stay for a look."""
    for name in ["qga.sock", "qmp.sock", "qemu.pid", "installed", SUSPENDED]:
        (RUN_DIR / name).unlink(missing_ok=True)
