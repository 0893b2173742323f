# shellcheck shell=sh
# Reads, reloads the unit, and replugs the sensor with udev slow to set it up, so that
# anything the sandbox refuses shows in the journal.
# Usage: sandbox-exercise.sh RECORDING
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -e
recording=$1
# Each step on stderr, with the guest's uptime: a run cut at its time limit shows where.
step() { echo "sandbox-exercise at $(uptime_now) s: $*" >&2; }
step "plug the sensor"
plug_devices --display "$recording" --loop
orientd monitor > /run/monitor.ndjson 2>&1 &  # a consumer: without one nothing is read
monitor=$!
step "reload"
systemctl reload orientd
sleep 1
# udev slow to take the sensor away, and slow in the RUN programs of the new
# one (before orientd's rule's chgrp, and after udev's database already says
# it is set up): it comes back, as iio:device1, before udev is done with
# iio:device0. The daemon, woken by the new trigger or by the reader's
# failure, must not open the sensor before udev announces it, or its buffer
# and rate are refused (EACCES; seen twice in CI).
printf '%s\n' 'ACTION=="remove", SUBSYSTEM=="iio", KERNEL=="iio:device*", RUN+="/bin/sleep 3"' \
    'ACTION=="add", SUBSYSTEM=="iio", KERNEL=="iio:device*", RUN+="/bin/sleep 2"' \
    > /etc/udev/rules.d/59-orientd-test-slow.rules
udevadm control --reload
step "unplug and plug, udev slow"
feeder unplug; sleep 1; feeder plug
attached_twice() { [ "$(grep -c '"state":"attached"' /run/monitor.ndjson)" -ge 2 ]; }
wait_until 30 attached_twice || true
step "attached again"
grep '"state":"attached"' /run/monitor.ndjson | tail -1 | grep -q '"read":"buffered"' \
    || { echo "not read through its buffer after the slow plug:"; cat /run/monitor.ndjson; exit 1; }
orientd ctl status >/dev/null
step "quit"
feeder quit
kill $monitor  # the guest agent waits for every holder of the output to end
systemctl is-active orientd
