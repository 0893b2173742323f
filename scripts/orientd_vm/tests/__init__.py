"""Tests of what scripts/vm decides without a guest: python3 -m unittest discover -s
scripts/orientd_vm/tests -t scripts (HarnessTests runs them in README's fast tier)."""
