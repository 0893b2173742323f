#!/bin/bash
# Check again the facts docs/umockdev.md gives: polled and buffered fixtures through
# libiio, hot-plug through libudev, and what libiio makes of broken attributes.
# Needs: umockdev libumockdev-dev libiio-dev libiio-utils libudev-dev pkg-config gcc python3
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$(mktemp -d /tmp/umockdev-verify.XXXXXX)
trap 'rm -rf "$BIN"' EXIT
cd "$HERE" || exit 1
"$HERE/build-helpers.sh" "$BIN" >/dev/null || exit 1
run() { echo "\$ $*"; "$@" 2>&1; echo "[rc=$?]"; }
hex() { od -An -tx1 -v -w"$1" "$2"; }

echo "### polled-accel"
run umockdev-run -d polled-accel.umockdev -- iio_info
run umockdev-run -d polled-accel.umockdev -- iio_attr -c bmc150_accel accel_x raw
run umockdev-run -d polled-accel.umockdev -- iio_attr -c iio:device0 accel_y scale
run umockdev-run -d polled-accel.umockdev -- "$BIN/udev-probe"
echo "--- run-time change (write through /sys path, then into \$UMOCKDEV_DIR directly)"
run umockdev-run -d polled-accel.umockdev -- sh -c "
  $BIN/udev-probe 5 | grep ^read &
  sleep 0.3; echo 500 > /sys/bus/iio/devices/iio:device0/in_accel_x_raw
  sleep 0.4; printf '777\n' > \"\$UMOCKDEV_DIR/sys/devices/platform/bmc150-accel.0/iio:device0/in_accel_x_raw\"
  wait; iio_attr -c bmc150_accel accel_x raw"

echo "### buffered-accel (le:s12/16>>4 x3 + le:s64 timestamp, 16-byte scans)"
run ./make-scans.py s12le-ts 8 --expect
run umockdev-run -d buffered-accel.umockdev -s /dev/iio:device0=buffered-accel.script -- sh -c "iio_readdev -u local: -b 4 -s 8 iio:device0 > $BIN/a.bin"
hex 16 "$BIN/a.bin"
run umockdev-run -d buffered-accel.umockdev -s /dev/iio:device0=buffered-accel.script -- "$BIN/iio-decode" bmc150_accel 4 3
echo "--- second layout: buffered-accel-be16 (be:s16/16>>0 x3, no timestamp, 6-byte scans)"
run ./make-scans.py s16be 8 --expect
run umockdev-run -d buffered-accel-be16.umockdev -s /dev/iio:device0=buffered-accel-be16.script -- sh -c "iio_readdev -u local: -b 4 -s 8 mxc4005 > $BIN/b.bin"
hex 6 "$BIN/b.bin"
echo "--- data runs out: 12 samples asked, 8 scripted (pty: ETIMEDOUT after the context timeout)"
run umockdev-run -d buffered-accel.umockdev -s /dev/iio:device0=buffered-accel.script -- sh -c "S=\$(date +%s%3N); iio_readdev -u local: -b 4 -s 12 iio:device0 > $BIN/c.bin; echo readdev-rc=\$? after \$(( \$(date +%s%3N) - S )) ms; wc -c < $BIN/c.bin"
echo "--- same data as a plain file node (N: iio:device0=HEX): EOF -> EIO at once"
sed "s/^N: iio:device0\$/N: iio:device0=$(./make-scans.py s12le-ts 8 --hex)/" buffered-accel.umockdev > "$BIN/hex.umockdev"
run umockdev-run -d "$BIN/hex.umockdev" -- sh -c "S=\$(date +%s%3N); iio_readdev -u local: -b 4 -s 12 iio:device0 > $BIN/d.bin; echo readdev-rc=\$? after \$(( \$(date +%s%3N) - S )) ms; cmp $BIN/d.bin $BIN/a.bin && echo same-128-bytes"

echo "### hot-plug (libudev monitor sees remove then add)"
for m in thread fork exec; do run timeout 10 umockdev-wrapper "$BIN/hotplug-test" $m polled-accel.umockdev; done

echo "### broken attributes"
run umockdev-run -d broken-accel.umockdev -- "$BIN/iio-attr-probe"
