# shellcheck shell=sh
# Each I2C chip on i2c-stub in turn: orientd list and doctor, and a recording played
# through it.
# Usage: i2c-list-and-doctor.sh CHIPS RECORDING
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
chips=$1 recording=$2
systemctl mask --runtime --quiet orientd
for chip in $chips; do
    systemd-run --quiet --unit="virtual-sensor-$chip" --collect \
        /mnt/share/virtual-sensor devices --display "$recording" --driver $chip --loop
    wait_until 10 test -e /sys/bus/iio/devices/iio:device0/name || true
    d=/sys/bus/iio/devices/iio:device0
    scale=$(cat $d/in_accel_scale 2>/dev/null || cat $d/in_accel_x_scale)
    frequency=$(cat $d/sampling_frequency 2>/dev/null || cat $d/in_accel_sampling_frequency 2>/dev/null || echo null)
    buffer=$([ -e $d/scan_elements/in_accel_x_en ] && echo yes || echo no)
    doctor=$(orientd doctor 2>/dev/null | grep -E '^(ok|PROBLEM) +(sensor|readings|gravity) ' | cut -c1-8 | tr -d ' ' | tr '\n' ,)
    orientd list --json | jq -c --arg chip $chip --arg scale "$scale" --arg frequency "$frequency" --arg doctor "$doctor" \
        --arg buffer $buffer '.[0] + {chip: $chip, driverScale: $scale, driverFrequency: $frequency, doctor: $doctor, buffer: $buffer}'
    systemctl stop "virtual-sensor-$chip"
    wait_until 5 test ! -e /sys/bus/iio/devices/iio:device0 || true
done
systemctl unmask --runtime --quiet orientd
