"""What the guest's console tells when a boot or a command fails."""

import tempfile
import unittest
from pathlib import Path
from unittest import mock

from orientd_vm import console


class ConsoleTests(unittest.TestCase):
    def setUp(self) -> None:
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        self.run_dir = Path(directory.name)
        patcher = mock.patch.object(console, "RUN_DIR", self.run_dir)
        patcher.start()
        self.addCleanup(patcher.stop)

    def write(self, text: str) -> None:
        (self.run_dir / "console.log").write_text(text)

    def test_escape_sequences_and_carriage_returns_are_taken_out(self) -> None:
        self.write("\x1b[2J\x1b[1;1Hbooting\r\nlogin: \x1bc\n")
        self.assertEqual(console.console_tail(), "booting\nlogin: ")

    def test_a_line_repeated_is_said_once_with_its_count(self) -> None:
        self.write("start\n" + "Waiting for root\n" * 30 + "ALERT! /dev/vda does not exist\n")
        text = console.with_console("no boot")
        self.assertIn("Waiting for root  [30 times]", text)
        self.assertEqual(text.count("Waiting for root"), 1)
        self.assertIn("last 40 lines", text)

    def test_a_panic_far_back_is_shown_from_its_line_not_the_stack_after_it(self) -> None:
        self.write("".join(f"early {i}\n" for i in range(10)) + "Kernel panic - not syncing: VFS\n"
                   + "".join(f"trace {i}\n" for i in range(100)))  # fmt: skip
        text = console.with_console("no boot")
        self.assertIn("from the kernel's first report of trouble on", text)
        self.assertIn("Kernel panic - not syncing: VFS", text)
        self.assertIn("early 9", text, "five lines before it, for context")

    def test_the_kernels_first_report_of_trouble_is_named_not_the_stalls_after_it(self) -> None:
        stalls = "".join(f"[ {i}.0] rcu: INFO: rcu_preempt self-detected stall on CPU\n" for i in range(30, 900, 63))
        for header in ["int3: 0000 [#1] PREEMPT SMP NOPTI", "Oops: int3: 0000 [#1] PREEMPT SMP NOPTI"]:  # 6.1's, 6.12's
            self.write(f"[ 0.1] calibrate_delay_direct() failed to get a good estimate for loops_per_jiffy.\n"
                       f"[ 1.0] sched_clock: Marking stable\n[ 1.1] {header}\n[ 1.2] CPU: 1 PID: 1 Comm: swapper/0\n{stalls}")  # fmt: skip
            self.assertEqual(console.kernel_trouble(), f"[ 1.1] {header}")
        self.write("[ 5.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [(udev-worker):120]\n" + stalls)
        self.assertEqual(console.kernel_trouble(), "[ 5.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [(udev-worker):120]")

    def test_a_console_with_no_trouble_names_none(self) -> None:
        # Words near the patterns that a sound boot prints.
        self.write("[ 0.1] calibrate_delay_direct() failed to get a good estimate for loops_per_jiffy.\n"
                   "[21.2] 9pnet: Installing 9P2000 support\n[30.0] Reached target multi-user.target\n")  # fmt: skip
        self.assertIsNone(console.kernel_trouble())

    def test_why_qemu_ended_is_read_from_the_console(self) -> None:
        for printed, why in [
            ("Gave up waiting for root file system device", "the initramfs found no root file system and gave up"),
            ("Kernel panic - not syncing: Fatal exception", "the guest's kernel panicked (Kernel panic - not syncing: Fatal exception)"),
            ("reboot: Power down", "the guest powered off"),
            ("reboot: Restarting system", "the guest rebooted (-no-reboot ends qemu then)"),
            ("nothing of note", "qemu exited"),
        ]:
            self.write(printed + "\n")
            self.assertEqual(console.why_qemu_ended(), why)

    def test_no_console_is_said_so(self) -> None:
        self.assertEqual(console.console_tail(), "(no console log)")


if __name__ == "__main__":
    unittest.main()
