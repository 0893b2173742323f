# shellcheck shell=sh
# A 2-in-1 of two I2C chips, display and base.
# Usage: i2c-two-in-one.sh DISPLAY BASE
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
display=$1 base=$2
printf 'sensor:modalias:i2c:bmc150_accel:*\n ACCEL_LOCATION=base\n' > /etc/udev/hwdb.d/61-orientd-i2c-base.hwdb
systemd-hwdb update && udevadm control --reload
plug_devices --display "$display" --driver bma250e --base "$base" --base-driver bmc150_accel
orientd monitor >/dev/null 2>&1 &
monitor=$!
await_mode '\["laptop","hinge",'
await_mode '\["tablet","hinge",'
echo "hinge: $(mode_events)"
echo "status: $(orientd ctl status | jq -c '{source, base}')"
echo "list: $(orientd list --json | jq -c '[.[] | {name, location, chosen}]')"
feeder quit
kill $monitor 2>/dev/null; true
