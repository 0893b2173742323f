"""Which guest a command is about, and how each boots."""

import unittest

from orientd_vm.guests import DEFAULT_GUEST, GUESTS, Guest, chosen_guest
from orientd_vm.host import EXIT_USAGE, VMError


class ChosenGuestTests(unittest.TestCase):
    def test_no_option_is_debian_12_amd64(self) -> None:
        self.assertEqual(chosen_guest(None, None), Guest("bookworm", "amd64"))
        self.assertTrue(chosen_guest(None, None).default)

    def test_either_option_alone_keeps_the_others_default(self) -> None:
        self.assertEqual(chosen_guest("trixie", None), Guest("trixie", "amd64"))
        self.assertEqual(chosen_guest("trixie", "arm64"), Guest("trixie", "arm64"))

    def test_a_debian_without_a_package_is_refused_with_the_reason_and_the_choices(self) -> None:
        with self.assertRaises(VMError) as caught:
            chosen_guest(None, "arm64")
        self.assertEqual(caught.exception.status, EXIT_USAGE)
        message = str(caught.exception)
        self.assertIn("Debian 12 arm64 is not a guest here: no orientd .deb is built for it", message)
        for guest in GUESTS:
            self.assertIn(f"--dist {guest.dist} --arch {guest.arch}", message)

    def test_an_unknown_release_is_named(self) -> None:
        with self.assertRaises(VMError) as caught:
            chosen_guest("sid", None)
        self.assertIn("no guest --dist sid --arch amd64", str(caught.exception))


class GuestTests(unittest.TestCase):
    def test_each_guest_has_its_own_package_directory_and_make_command(self) -> None:
        self.assertEqual(DEFAULT_GUEST.package_dir.name, ".build-package")
        self.assertEqual(DEFAULT_GUEST.make("deb"), "make deb")
        arm = Guest("trixie", "arm64")
        self.assertEqual(arm.package_dir.name, ".build-package-trixie-arm64")
        self.assertEqual(arm.make("deb", "vm-tools"), "make deb vm-tools DIST=trixie ARCH=arm64")
        self.assertEqual(arm.name, "Debian 13 arm64")

    def test_the_kernel_line_names_each_machines_console_and_trusts_the_tsc_on_x86_only(self) -> None:
        amd = DEFAULT_GUEST.kernel_args
        arm = Guest("trixie", "arm64").kernel_args
        self.assertIn("console=ttyS0", amd)
        self.assertIn("console=ttyAMA0", arm)
        self.assertIn("tsc=reliable", amd)
        self.assertNotIn("tsc=reliable", arm)
        for args in (amd, arm):
            self.assertIn("panic=-1", args, "a panic ends qemu at once (-no-reboot), no hung guest")
            self.assertIn("oops=panic", args, "an oops ends the guest too, before it hangs on what the oops left held")
            self.assertEqual(args[0], "root=/dev/vda")


if __name__ == "__main__":
    unittest.main()
