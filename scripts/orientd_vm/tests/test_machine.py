"""qemu's command line for each guest, the image's key, and the locks."""

import contextlib
import io
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from orientd_vm import guests, image, qemu
from orientd_vm.guests import Guest
from orientd_vm.host import VMError, locked


class QemuCommandTests(unittest.TestCase):
    def command(self, guest: Guest) -> list[str]:
        with mock.patch.object(guests, "GUEST", guest):
            return qemu.qemu_command(Path("/images/x"), ["quiet"])

    def option(self, command: list[str], name: str) -> str:
        return command[command.index(name) + 1]

    def test_amd64_is_a_pc_with_one_core_and_arm64_the_virt_machine_with_two(self) -> None:
        amd = self.command(Guest("bookworm", "amd64"))
        arm = self.command(Guest("trixie", "arm64"))
        self.assertEqual((amd[0], self.option(amd, "-machine")), ("qemu-system-x86_64", "q35"))
        self.assertEqual((arm[0], self.option(arm, "-machine"), self.option(arm, "-cpu")), ("qemu-system-aarch64", "virt", "cortex-a57"))
        # One x86 core: no other core runs the int3 of a site its kernel patches (Guest.cores).
        self.assertEqual((self.option(amd, "-smp"), self.option(arm, "-smp")), ("1", "2"))
        for command in (amd, arm):
            self.assertEqual(self.option(command, "-accel"), "tcg,thread=multi")
            self.assertIn("-no-reboot", command)
            self.assertEqual(self.option(command, "-kernel"), "/images/x/vmlinuz")
            self.assertTrue(self.option(command, "-append").endswith(" quiet"), "the extra words last: a later word wins")
            self.assertIn("snapshot=on", next(arg for arg in command if "disk.img" in arg), "every boot from the clean image")

    def test_the_arm64_disk_is_the_virtio_pci_one_its_initramfs_has_a_driver_for(self) -> None:
        self.assertIn("virtio-blk-pci,drive=disk", self.command(Guest("trixie", "arm64")))


class ImageKeyTests(unittest.TestCase):
    def test_the_overlays_digest_follows_its_files_contents_and_modes(self) -> None:
        with tempfile.TemporaryDirectory() as name:
            overlay = Path(name)
            (overlay / "etc").mkdir()
            unit = overlay / "etc/a.conf"
            unit.write_text("one\n")
            unit.chmod(0o644)
            with mock.patch.object(image, "OVERLAY", overlay):
                first = image.overlay_digest()
                self.assertEqual(image.overlay_digest(), first)
                unit.chmod(0o755)
                moded = image.overlay_digest()
                unit.write_text("two\n")
                changed = image.overlay_digest()
        self.assertEqual(len({first, moded, changed}), 3)


class LockTests(unittest.TestCase):
    def test_a_second_holder_waits_then_gives_up_naming_the_lock_and_the_holder(self) -> None:
        with tempfile.TemporaryDirectory() as name:
            path = Path(name) / "boot.lock"
            with locked(path, 1, "booting the guest"):
                told = io.StringIO()
                with contextlib.redirect_stderr(told), self.assertRaises(VMError) as caught:
                    with locked(path, 1.5, "booting the guest"):
                        self.fail("the lock was held")
            self.assertIn(f"another scripts/vm is still booting the guest after 2 s ({path} is locked)", str(caught.exception))
            self.assertIn("waiting for another scripts/vm (pid", told.getvalue())
            with locked(path, 1, "booting the guest"):
                pass  # free again once its holder is done


if __name__ == "__main__":
    unittest.main()
