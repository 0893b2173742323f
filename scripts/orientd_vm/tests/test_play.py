"""What a play sets up in the guest, from a recording's header."""

import tempfile
import unittest
from pathlib import Path

from orientd_vm.host import VMError
from orientd_vm.play import HWDB_MATCH, recording_duration, recording_header, setup_files, systemd_quote


class SetupFilesTests(unittest.TestCase):
    header = {"natural": "landscape", "mount-matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1"}

    def test_by_default_the_matrix_goes_in_a_local_hwdb_entry_of_the_hid_hub(self) -> None:
        files = setup_files(self.header, "hwdb", None, None, [])
        self.assertEqual(files["play-orientd.conf"], "natural = landscape\n")
        self.assertEqual(files["play.hwdb"], f"{HWDB_MATCH}\n ACCEL_MOUNT_MATRIX=0, 1, 0; -1, 0, 0; 0, 0, 1\n")
        self.assertEqual(files["play-dropin.conf"], "", "no options: the shipped unit as it is")

    def test_an_i2c_chip_is_matched_by_its_own_modalias(self) -> None:
        files = setup_files(self.header, "hwdb", "bma250e", None, [])
        self.assertTrue(files["play.hwdb"].startswith("sensor:modalias:i2c:bma250e:*\n"))

    def test_matrix_via_config_puts_it_in_orientd_conf(self) -> None:
        files = setup_files(self.header, "config", None, None, [])
        self.assertEqual(files["play-orientd.conf"], "natural = landscape\nmount-matrix = 0, 1, 0; -1, 0, 0; 0, 0, 1\n")
        self.assertEqual(files["play.hwdb"], "")

    def test_options_and_poll_go_in_a_drop_in_that_replaces_execstart(self) -> None:
        files = setup_files({}, "hwdb", None, "poll", ["--lock", "portrait primary"])
        self.assertEqual(
            files["play-dropin.conf"],
            '[Service]\nExecStart=\nExecStart=/usr/bin/orientd run --wait --lock "portrait primary" --poll\n',
        )
        self.assertEqual(files["play-orientd.conf"], "")
        buffered = setup_files({}, "hwdb", None, "buffered", [])
        self.assertEqual(buffered["play-dropin.conf"], "", "buffered is the daemon's own choice: nothing to pass")


class SystemdQuoteTests(unittest.TestCase):
    def test_plain_words_stay_bare_and_others_are_quoted_with_escapes(self) -> None:
        self.assertEqual(systemd_quote("--rate=50"), "--rate=50")
        self.assertEqual(systemd_quote("a b"), '"a b"')
        self.assertEqual(systemd_quote('say "hi" \\ there'), '"say \\"hi\\" \\\\ there"')
        self.assertEqual(systemd_quote(""), '""')


class RecordingTests(unittest.TestCase):
    def write(self, text: str) -> Path:
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        path = Path(directory.name) / "rec.csv"
        path.write_text(text)
        return path

    def test_the_header_is_the_comment_lines_before_the_first_sample_keys_in_lower_case(self) -> None:
        path = self.write("# Natural: landscape\n#mount-matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1\n\ntime,x,y,z\n0,0,9.8,0\n# late: no\n")
        self.assertEqual(recording_header(path), {"natural": "landscape", "mount-matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1"})

    def test_the_duration_is_the_last_samples_time(self) -> None:
        path = self.write("time,x,y,z\n0,0,9.8,0\n12.5,0,9.8,0\n# end\n\n")
        self.assertEqual(recording_duration(path), 12.5)

    def test_a_last_line_without_a_time_is_a_data_error_naming_the_file(self) -> None:
        path = self.write("time,x,y,z\n0,0,9.8,0\nbroken,0,0,0\n")
        with self.assertRaises(VMError) as caught:
            recording_duration(path)
        self.assertEqual(caught.exception.status, 65)
        self.assertIn(f"{path}: its last line does not start with a time in seconds: 'broken,0,0,0'", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
