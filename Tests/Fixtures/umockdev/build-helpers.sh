#!/bin/sh
# Build the C helpers of this folder into OUTDIR (default /tmp/umockdev-helpers).
# Needs: gcc pkg-config libudev-dev libiio-dev libumockdev-dev
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-/tmp/umockdev-helpers}
mkdir -p "$OUT"
cc -Wall -O1 -o "$OUT/udev-probe"     "$HERE/udev-probe.c"     $(pkg-config --cflags --libs libudev)
cc -Wall -O1 -o "$OUT/hotplug-test"   "$HERE/hotplug-test.c"   $(pkg-config --cflags --libs libudev umockdev-1.0) -lpthread
cc -Wall -O1 -o "$OUT/iio-decode"     "$HERE/iio-decode.c"     $(pkg-config --cflags --libs libiio)
cc -Wall -O1 -o "$OUT/iio-attr-probe" "$HERE/iio-attr-probe.c" $(pkg-config --cflags --libs libiio)
echo "built: $(ls "$OUT" | tr '\n' ' ')"
