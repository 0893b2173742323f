"""The guest's image: its cached Debian root made a VM's disk, kernel and initramfs."""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from . import guests
from .host import EXIT_UNAVAILABLE, VMError, locked, run_host, say
from .places import CACHE, GUEST_SHARE, IMAGE_RECIPE, OVERLAY, REPO


def base_root() -> Path:
    """The guest's cached Debian root with its packages (debootstrap, once, shared): the
    release and architecture go to scripts/test-root-common.sh as TEST_ROOT_DIST and
    TEST_ROOT_ARCH (an arm64 root's second stage runs through qemu-user-static's binfmt)."""
    if guests.GUEST.arch != "amd64" and not Path("/proc/sys/fs/binfmt_misc/qemu-aarch64").exists():
        raise VMError(
            f"bootstrapping the {guests.GUEST.name} root runs arm64 programs, and qemu-user-static's handler is not registered "
            "(/proc/sys/fs/binfmt_misc/qemu-aarch64): apt-get install qemu-user-static binfmt-support",
            EXIT_UNAVAILABLE,
        )
    script = f'set -euo pipefail; . "{REPO}/scripts/test-root-common.sh"; test_root_base {" ".join(guests.GUEST.packages)}'
    environment = dict(os.environ, TEST_ROOT_DIST=guests.GUEST.dist, TEST_ROOT_ARCH=guests.GUEST.arch)
    # debootstrap's own progress goes to its log; the root's directory is the last line.
    result = run_host(
        ["bash", "-c", script], 3600, f"bootstrapping the {guests.GUEST.name} root", stdout=subprocess.PIPE, env=environment
    )
    return Path(result.stdout.decode().strip().splitlines()[-1])


def overlay_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(OVERLAY.rglob("*")):
        relative = path.relative_to(OVERLAY).as_posix()
        if path.is_symlink():
            digest.update(f"link {relative} {os.readlink(path)}\n".encode())
        elif path.is_file():
            digest.update(f"file {relative} {path.stat().st_mode & 0o7777:o}\n".encode() + path.read_bytes())
        else:
            digest.update(f"dir {relative}\n".encode())
    return digest.hexdigest()


def configure_root(root: Path) -> None:
    """What makes a copy of the container root a VM root, beyond the overlay's files."""
    # The overlay, as files, owned by root whoever checked the repository out.
    for source in sorted(OVERLAY.rglob("*")):
        target = root / source.relative_to(OVERLAY)
        if source.is_dir() and not source.is_symlink():
            target.mkdir(parents=True, exist_ok=True)
            continue
        if target.is_symlink() or target.exists():
            target.unlink()
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            shutil.copyfile(source, target)
            target.chmod(source.stat().st_mode & 0o777)
        os.lchown(target, 0, 0)
    (root / GUEST_SHARE.lstrip("/")).mkdir(parents=True, exist_ok=True)
    # What the kernel needs before it has its root, in the initramfs: the virtio PCI bus
    # and disk, and ext4. Debian's MODULES=most has them; should a later Debian's not,
    # they are named in its module list and it is made again. One built into the kernel
    # (=y in its /boot/config-VERSION) is there without a module. (9p needs not be there:
    # the share is mounted from the root's fstab, with the root's own modules. A smaller
    # initramfs, MODULES=list, boots no faster: the root's udev loads the rest instead.)
    # An arm64 root's chroot runs through qemu-user-static: slower, the same.
    kernel, initrd = kernel_files(root)
    version = kernel.name.removeprefix("vmlinuz-")
    needed = {"virtio_pci": "CONFIG_VIRTIO_PCI", "virtio_blk": "CONFIG_VIRTIO_BLK", "ext4": "CONFIG_EXT4_FS"}
    config = root / f"boot/config-{version}"
    if not config.is_file():
        raise VMError(f"{config} is missing: the kernel's configuration says which drivers are built in")
    built_in = {line.partition("=")[0] for line in config.read_text(errors="replace").splitlines() if line.endswith("=y")}
    needed = {module: option for module, option in needed.items() if option not in built_in}

    def missing() -> list[str]:
        if not needed:
            return []
        listing = run_host(
            ["chroot", str(root), "lsinitramfs", f"/boot/{initrd.name}"], 600, "listing the initramfs", capture_output=True
        ).stdout.decode()
        present = {Path(line).name.split(".ko")[0] for line in listing.splitlines() if ".ko" in line}
        return [module for module in needed if module not in present]

    if lacking := missing():
        say(f"Debian's initramfs lacks {', '.join(lacking)}: adding them (update-initramfs)")
        with open(root / "etc/initramfs-tools/modules", "a") as modules:
            modules.write("".join(f"{module}\n" for module in lacking))
        run_host(["chroot", str(root), "update-initramfs", "-u", "-k", version], 1800, "update-initramfs", capture_output=True)
        if lacking := missing():
            raise VMError(f"the guest's initramfs still lacks {', '.join(lacking)} after update-initramfs")


def kernel_files(root: Path) -> tuple[Path, Path]:
    kernels = sorted(glob.glob(str(root / "boot/vmlinuz-*")))
    if not kernels:
        raise VMError(f"{root}/boot has no kernel: is {guests.GUEST.packages[0]} in the root?")
    kernel = Path(kernels[-1])
    initrd = root / f"boot/initrd.img-{kernel.name.removeprefix('vmlinuz-')}"
    if not initrd.exists():
        raise VMError(f"{initrd} is missing: the kernel package's initramfs was not made (initramfs-tools)")
    return kernel, initrd


def add_i2c_stub(root: Path, release: str) -> None:
    """Debian 13's arm64 kernel has no i2c-stub, the bus the I2C chips' real drivers bind
    to in the tests: the kernel's own, built for this kernel (scripts/lib/debian-roots.sh,
    i2c_stub_root), goes where modprobe finds it."""
    script = f'set -euo pipefail; . "{REPO}/scripts/lib/debian-roots.sh"; i2c_stub_root "$1"'
    try:
        result = run_host(
            ["bash", "-c", script, "i2c_stub_root", release], 1800, f"building i2c-stub for {release}", stdout=subprocess.PIPE
        )
    except VMError as error:
        # Debian's registry keeps the current kernel's headers and source only.
        raise VMError(
            f"{error}\nA guest root older than Debian's current {guests.GUEST.name} kernel has no headers left to build "
            f"against: remove {CACHE}/{guests.GUEST.dist}-{guests.GUEST.arch}-* to bootstrap it afresh",
            error.status,
        ) from error
    built = Path(result.stdout.decode().strip().splitlines()[-1]) / "usr/src/i2c-stub/i2c-stub.ko"
    updates = root / f"usr/lib/modules/{release}/updates"
    updates.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(built, updates / "i2c-stub.ko")
    # The root's own depmod, an arm64 program, through qemu-user-static's binfmt handler.
    run_host(["chroot", str(root), "depmod", "-a", release], 300, "indexing the modules (depmod)", capture_output=True)
    say(f"added i2c-stub for {release} (Debian's arm64 kernel has none)")


def image() -> Path:
    """The image directory (disk.img, vmlinuz, initrd.img), built first if it is not there."""
    root = base_root()
    complete = root / ".complete"
    # A new image when the root is rebuilt, the overlay changes or the recipe's version is raised.
    inputs = f"{root}\n{complete.stat().st_mtime_ns}\n{overlay_digest()}\nrecipe {IMAGE_RECIPE}"
    # The arm64 image adds a module of its own (add_i2c_stub).
    if guests.GUEST.arch == "arm64":
        inputs += "\ni2c-stub 1"
    # The root's path names its release and architecture; the directory does too, but for
    # Debian 12 amd64's, named as before.
    name = "vm-" if guests.GUEST.default else f"vm-{guests.GUEST.key}-"
    directory = CACHE / f"{name}{hashlib.sha256(inputs.encode()).hexdigest()[:12]}"
    if (directory / ".complete").exists():
        return directory
    with locked(CACHE / f"{directory.name}.lock", 1800, "building the guest image"):
        if (directory / ".complete").exists():
            return directory
        started = time.monotonic()
        say(f"building the {guests.GUEST.name} guest image from {root} (once; cached in {directory})")
        work = CACHE / f"{directory.name}.tmp"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        try:
            build_image(root, work)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)  # 2 GB of a half-made image
            raise
        shutil.rmtree(directory, ignore_errors=True)
        work.rename(directory)
        say(f"built the guest image in {time.monotonic() - started:.0f} s")
    return directory


def build_image(root: Path, work: Path) -> None:
    copy = work / "root"
    # A copy: the cached root is shared with check-deb and check-systemd-boot.
    run_host(["cp", "-a", "--reflink=auto", str(root), str(copy)], 900, "copying the root", capture_output=True)
    (copy / ".complete").unlink(missing_ok=True)
    configure_root(copy)
    kernel, initrd = kernel_files(copy)
    if guests.GUEST.arch == "arm64":
        add_i2c_stub(copy, kernel.name.removeprefix("vmlinuz-"))
    shutil.copyfile(kernel, work / "vmlinuz")
    shutil.copyfile(initrd, work / "initrd.img")
    used = int(run_host(["du", "-sm", str(copy)], 300, "measuring the root", capture_output=True).stdout.split()[0])
    size = used + 768
    say(f"making a {size} MiB disk of it ({used} MiB used; {kernel.name})")
    # mkfs.ext4 -d fills the file system from a directory: no loop device, no mount.
    run_host(
        ["mkfs.ext4", "-q", "-F", "-L", "orientd-guest", "-d", str(copy), str(work / "disk.img"), f"{size}M"],
        900,
        "making the guest's disk (mkfs.ext4 -d)",
        capture_output=True,
    )
    shutil.rmtree(copy)
    (work / "image.json").write_text(
        json.dumps({"root": str(root), "kernel": kernel.name, "disk-mib": size, "used-mib": used}, indent=1) + "\n"
    )
    (work / ".complete").touch()
