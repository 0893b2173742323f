# shellcheck shell=sh
# Lets go of the sensor, replaces it with udev slow to say so, then consumes again;
# prints the events, the journal's refusals and the restarts.
# Usage: replaced-while-not-read.sh RECORDING
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -e
recording=$1
journal_count() { daemon_journal | grep -c "$1" || true; }
read_buffered() { [ "$(journal_count '"state":"reading".*"read":"buffered"')" -ge 1 ]; }
let_go() { [ "$(journal_count '"state":"idle"')" -ge 2 ]; }
attached_buffered() { grep '"state":"attached"' /run/replaced.ndjson | grep -q '"read":"buffered"'; }
new_device() { i=$(stat -c %i /sys/bus/iio/devices/iio:device0 2>/dev/null) && [ "$i" != "$before" ]; }
plug_devices --display "$recording" --loop
orientd monitor > /dev/null 2>&1 & monitor=$!
wait_until 30 read_buffered || { echo "not read buffered:"; daemon_journal; exit 1; }
kill $monitor
wait_until 30 let_go || { echo "not let go:"; daemon_journal; exit 1; }
printf '%s\n' 'ACTION=="remove", SUBSYSTEM=="iio", KERNEL=="iio:device*", RUN+="/bin/sleep 6"' \
    'ACTION=="add", SUBSYSTEM=="iio", KERNEL=="iio:device*", RUN+="/bin/sleep 2"' \
    > /etc/udev/rules.d/59-orientd-test-slow.rules
udevadm control --reload
before=$(stat -c %i /sys/bus/iio/devices/iio:device0)
feeder unplug; sleep 1; feeder plug
wait_until 30 new_device || { echo "no new iio:device0:"; ls -l /sys/bus/iio/devices; exit 1; }
echo "new iio:device0, group $(stat -c %G /sys/bus/iio/devices/iio:device0/buffer/enable)"
orientd monitor > /run/replaced.ndjson 2>&1 & monitor=$!
wait_until 60 attached_buffered || true
kill $monitor
feeder quit
echo "== events"; cat /run/replaced.ndjson
echo "== journal"; daemon_journal | grep -Ei 'permission denied|EACCES|failed' || true
echo "== restarts $(restarts)"
