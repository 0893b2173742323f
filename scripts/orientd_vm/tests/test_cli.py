"""scripts/vm's command line: what is its own, and what is the guest's."""

import contextlib
import io
import unittest
from pathlib import Path

from orientd_vm.cli import command_line, split_at_dashes
from orientd_vm.commands import script_name


class CommandLineTests(unittest.TestCase):
    def test_everything_after_the_first_dashes_is_the_guests(self) -> None:
        self.assertEqual(split_at_dashes(["run", "--timeout", "5"]), (["run", "--timeout", "5"], []))
        self.assertEqual(split_at_dashes(["run", "--", "ls", "--", "-l"]), (["run"], ["ls", "--", "-l"]))

    def test_play_takes_its_read_path_driver_and_faults(self) -> None:
        args = command_line().parse_args(
            ["--dist", "trixie", "play", "r.csv", "--poll", "--driver", "bma250e", "--fault", "quiet@3+6", "--fault", "zeros@9+1"]
        )
        self.assertEqual((args.dist, args.command, args.recording), ("trixie", "play", Path("r.csv")))
        self.assertEqual((args.read_path, args.driver, args.faults), ("poll", "bma250e", ["quiet@3+6", "zeros@9+1"]))
        self.assertTrue(args.sensitivity)
        self.assertEqual(args.matrix_via, "hwdb")

    def test_a_chip_it_cannot_model_and_both_read_paths_are_usage_errors(self) -> None:
        for argv in (["play", "r.csv", "--driver", "adxl345"], ["play", "r.csv", "--poll", "--buffered"]):
            with self.subTest(argv=argv), contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as caught:
                command_line().parse_args(argv)
            self.assertEqual(caught.exception.code, 2)

    def test_a_script_is_named_by_its_usage_line_or_its_first(self) -> None:
        self.assertEqual(script_name("\n# Usage: two-in-one.sh BASE\nset -e\n"), "the shell script 'two-in-one.sh BASE'")
        self.assertEqual(script_name("\n\nreset_guest; daemon_journal\n"), "the shell script 'reset_guest; daemon_journal'")


if __name__ == "__main__":
    unittest.main()
