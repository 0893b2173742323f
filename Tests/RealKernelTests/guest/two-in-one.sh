# shellcheck shell=sh
# A display and a base accelerometer: the mode from the hinge, then from a tablet-mode
# switch; prints the mode events of each.
# Usage: two-in-one.sh DISPLAY-RECORDING BASE-RECORDING
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
display=$1 base=$2
echo 'SUBSYSTEM=="iio", KERNELS=="0006:FEED:BA5E.*", ENV{ACCEL_LOCATION}="base"' \
    > /etc/udev/rules.d/59-orientd-test-base.rules
udevadm control --reload
start() {
    plug_devices "$@"
    orientd monitor >/dev/null 2>&1 &  # a consumer: without one nothing is read
    monitors="${monitors:-} $!"
}
start --display "$display" --base "$base"
await_mode '\["laptop","hinge",'
await_mode '\["tablet","hinge",'
echo "hinge: $(mode_events)"
orientd ctl status | jq -c '{base, "mode-source"}'
feeder quit; sleep 1
systemctl stop orientd
start --display "$display" --base "$base" --switch laptop
await_mode '\["laptop","switch",'
feeder tablet
await_mode '\["tablet","switch",'
feeder laptop
for _ in $(seq 100); do [ "$(mode_events | grep -o '"switch"' | wc -l)" -ge 3 ] && break; sleep 0.1; done
echo "switch: $(mode_events)"
feeder quit
kill $monitors 2>/dev/null; true  # the agent waits for every holder of the output to end
