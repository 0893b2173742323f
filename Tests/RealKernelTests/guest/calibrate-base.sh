# shellcheck shell=sh
# shellcheck disable=SC2010  # sysfs's and hwdb.d's names are plain: ls | grep reads them right
# orientd calibrate --base on a 2-in-1's base accelerometer.
# Usage: calibrate-base.sh UPRIGHT FLAT TURNED
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
upright=$1 flat=$2 turned=$3
echo 'SUBSYSTEM=="iio", KERNELS=="0006:FEED:BA5E.*", ENV{ACCEL_LOCATION}="base"' \
    > /etc/udev/rules.d/59-orientd-test-base.rules
udevadm control --reload
plug_devices --display "$upright" --base "$upright" --loop
for _ in $(seq 100); do [ "$(ls /sys/bus/iio/devices | grep -c iio:device)" = 2 ] && break; sleep 0.1; done
udevadm settle
orientd calibrate --base --upright "$upright" --flat "$flat" --turned "$turned" --json > /tmp/base.json
echo "status: $?"
printf 'json: %s\n' "$(cat /tmp/base.json)"
orientd calibrate --base --upright "$upright" --flat "$flat" --turned "$turned" --apply > /dev/null 2> /tmp/apply.err
echo "apply: $?"
echo "error: $(cat /tmp/apply.err)"
echo "written: $(ls /etc/udev/hwdb.d | grep -c orientd)"
echo "base: $(orientd list --json | jq -r '.[] | select(.location == "base") | .device')"
echo "display: $(orientd list --json | jq -r '.[] | select(.chosen) | .device')"
feeder quit
