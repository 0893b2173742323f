# shellcheck shell=sh
# An I2C chip paced by an hrtimer trigger: the trigger set up for the buffer.
# Usage: i2c-hrtimer-trigger.sh
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -eu
modprobe iio-trig-hrtimer
mkdir -p /sys/kernel/config/iio/triggers/hrtimer/orientd-test
udevadm settle
for t in /sys/bus/iio/devices/trigger*; do [ "$(cat $t/name)" = orientd-test ] && trigger=$t; done
echo 50 > $trigger/sampling_frequency
stat -c '%G %A' $trigger/sampling_frequency
echo 'ACTION=="add", SUBSYSTEM=="iio", ATTR{name}=="lis3dh", ATTR{trigger/current_trigger}="orientd-test"' \
    > /etc/udev/rules.d/59-orientd-test-trigger.rules
udevadm control --reload
systemd-run --quiet --unit=orientd-test-trigger-rate --collect \
    sh -c "while :; do cat $trigger/sampling_frequency; sleep 0.2; done > /run/trigger-rate.log"
