#!/bin/sh
# Build the C helpers of this folder into OUTDIR (default /tmp/umockdev-helpers).
# Needs: gcc pkg-config libudev-dev libiio-dev libumockdev-dev
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-/tmp/umockdev-helpers}
mkdir -p "$OUT"
# pkg-config's flags are words to split: none of them holds a blank.
udev=$(pkg-config --cflags --libs libudev)
umockdev=$(pkg-config --cflags --libs libudev umockdev-1.0)
iio=$(pkg-config --cflags --libs libiio)
# shellcheck disable=SC2086
{
    cc -Wall -O1 -o "$OUT/udev-probe"     "$HERE/udev-probe.c"     $udev
    cc -Wall -O1 -o "$OUT/hotplug-test"   "$HERE/hotplug-test.c"   $umockdev -lpthread
    cc -Wall -O1 -o "$OUT/iio-decode"     "$HERE/iio-decode.c"     $iio
    cc -Wall -O1 -o "$OUT/iio-attr-probe" "$HERE/iio-attr-probe.c" $iio
}
echo "built: $(ls "$OUT" | tr '\n' ' ')"
