# shellcheck shell=sh
# shellcheck disable=SC2010  # sysfs's and hwdb.d's names are plain: ls | grep reads them right
# orientd doctor on a healthy sensor, then with each fault planted in turn; prints each
# run's problems.
# Usage: doctor-faults.sh HEALTHY STALE IN-G ZEROS
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
healthy=$1 stale=$2 in_g=$3 zeros=$4
doctor() {  # NAME: the exit status and the checks found a problem
    orientd doctor --json > /tmp/doctor-$1.json 2>/tmp/doctor-$1.err
    echo "$1: $? $(jq -r 'select(.verdict == "problem") | .check' /tmp/doctor-$1.json | tr '\n' ',')"
}
replug() {
    feeder quit
    for _ in $(seq 100); do ls /sys/bus/iio/devices/ | grep -q iio:device || break; sleep 0.1; done
    plug_devices --display "$1" --loop
    for _ in $(seq 100); do ls /sys/bus/iio/devices/ | grep -q iio:device && break; sleep 0.1; done
    sleep 1
}
plug_devices --display "$healthy" --loop
sleep 1
doctor healthy
orientd ctl lock landscape > /dev/null
doctor locked
orientd ctl unlock > /dev/null
orientd ctl mode laptop > /dev/null
doctor laptop
orientd ctl mode auto > /dev/null
printf '#!/bin/sh\n' > /usr/local/bin/rotate-screen && chmod 644 /usr/local/bin/rotate-screen
echo 'exec = rotate-screen' >> /etc/orientd.conf
systemctl reload orientd && sleep 1
doctor hook
sed -i '/^exec = rotate-screen/d' /etc/orientd.conf
systemctl reload orientd && sleep 1
rm /etc/systemd/system/iio-sensor-proxy.service && systemctl daemon-reload
systemctl start iio-sensor-proxy
doctor proxy
systemctl stop iio-sensor-proxy
ln -s /dev/null /etc/systemd/system/iio-sensor-proxy.service && systemctl daemon-reload
replug "$stale"
doctor stale
replug "$in_g"
doctor scale
replug "$zeros"
doctor zeros
feeder quit
echo "=== healthy"; cat /tmp/doctor-healthy.json /tmp/doctor-healthy.err
for name in locked laptop hook proxy stale scale zeros; do
    echo "=== $name"; jq -c 'select(.verdict == "problem")' /tmp/doctor-$name.json; cat /tmp/doctor-$name.err
done
journalctl -b -u orientd -o cat --no-pager | grep -v '^{' | tail -20 >&2
