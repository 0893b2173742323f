# shellcheck shell=sh
# orientd calibrate --apply on a sensor mounted turned and flipped, then its undo;
# prints what changed at each step.
# Usage: calibrate-apply.sh UPRIGHT DRIVER-OPTIONS FLAT TURNED
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
upright=$1 driver_options=$2 flat=$3 turned=$4
plug_devices --display "$upright" $driver_options --loop
orientd monitor > /tmp/monitor.jsonl 2>/dev/null &
monitor=$!
wait_until 10 grep -q '"device":"landscape-left"' /tmp/monitor.jsonl || true
pid=$(main_pid)
echo "before: $(grep -o '"device":"[a-z-]*"' /tmp/monitor.jsonl | tail -1)"
orientd calibrate --upright "$upright" --flat "$flat" --turned "$turned" --apply --json > /tmp/calibrate.json 2>/tmp/calibrate.err
echo "status: $?"
# printf, not echo: dash's echo would turn the JSON's \n escapes into newlines.
printf 'json: %s\n' "$(cat /tmp/calibrate.json)"
echo "file: $(grep -v '^#' /etc/udev/hwdb.d/61-orientd-display.hwdb | tr '\n' '|')"
echo "udev: $(udevadm info -q property /sys/bus/iio/devices/iio:device0 | grep ACCEL_MOUNT_MATRIX)"
wait_until 10 grep -q '"device":"portrait"' /tmp/monitor.jsonl || true
echo "after: $(grep -o '"device":"[a-z-]*"' /tmp/monitor.jsonl | tail -1)"
echo "daemon: $pid $(main_pid) $(restarts)"
echo "list: $(orientd list --json | jq -c '.[0] | {mountMatrix, mountMatrixSource}')"
# The undo it printed, run as printed.
sh -c "$(sed -n 's/^To undo: //p' /tmp/calibrate.err)"
echo "undone: $(udevadm info -q property /sys/bus/iio/devices/iio:device0 | grep -c ACCEL_MOUNT_MATRIX)"
kill $monitor
feeder quit
cat /tmp/calibrate.err >&2
