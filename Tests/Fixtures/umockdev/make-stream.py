#!/usr/bin/env python3
"""Generate a long umockdev script of IIO scans: a steady stream for benchmarks.

Usage: make-stream.py SECONDS [RATE_HZ] > FILE.script       (default 100 Hz)
       make-stream.py SECONDS [RATE_HZ] --expect             (the decoded samples, for checking)

Layout s12le-ts, as buffered-accel.umockdev / buffered-accel-100hz.umockdev declare it:
x, y, z le:s12/16>>4 at index 0..2, in_timestamp le:s64/64>>0 at index 3 (16-byte scans).
One "r DELAY data" line per scan, DELAY = 1000 / RATE ms (umockdev waits that long after the
previous line: the device produces RATE scans a second; the first waits one interval too).
The device is held upright (0, -1024, 0) with +-3 counts of noise, turned to landscape
(-1024, 0, 0) for the middle third of the run and back: a tablet on a stand, turned twice.
Timestamps: 1700000000 s + i / RATE (nanoseconds).

Escaping (see make-scans.py and docs/umockdev.md): bytes < 0x20 as '^' + chr(b + 64), '^' as "^`".
A data block cannot start with 0x20 (umockdev drops the blank before the data), so a sample
whose first byte would be 0x20 (x & 0xF == 2) gets x + 1 instead: every scan keeps its own
line and its own delay, and nothing shifts.
"""
import random
import struct
import sys

T0 = 1700000000 * 10**9


def samples(seconds, rate):
    rng = random.Random(42)  # deterministic noise
    count = int(round(seconds * rate))
    for i in range(count):
        third = 3 * i // max(count, 1)
        gx, gy = (-1024, 0) if third == 1 else (0, -1024)
        x = gx + rng.randint(-3, 3)
        y = gy + rng.randint(-3, 3)
        z = rng.randint(-3, 3)
        if x & 0xF == 2:
            x += 1
        yield i, x, y, z, T0 + int(round(i * 1e9 / rate))


def scan(x, y, z, ts):
    return struct.pack("<hhhxxq", x << 4, y << 4, z << 4, ts)


def escape(data):
    out = bytearray()
    for b in data:
        if b == 0x5E:
            out += b"^`"
        elif b < 32:
            out += bytes([0x5E, b + 64])
        else:
            out.append(b)
    return bytes(out)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        raise SystemExit(__doc__)
    seconds = float(args[0])
    rate = float(args[1]) if len(args) > 1 else 100.0
    delay = int(round(1000 / rate))
    if "--expect" in sys.argv:
        for i, x, y, z, ts in samples(seconds, rate):
            print(f"{i} x={x} y={y} z={z} ts={ts}")
        return
    out = sys.stdout.buffer
    for i, x, y, z, ts in samples(seconds, rate):
        data = escape(scan(x, y, z, ts))
        assert data[:1] != b" ", "a scan starts with 0x20"
        out.write(b"r %d " % delay + data + b"\n")


main()
