#!/bin/bash
# Run Debian's iio-sensor-proxy (the peer) against polled-accel.umockdev on a private D-Bus
# system bus, watch it with monitor-sensor, change the pose at run time, print what
# monitor-sensor printed (with ms since start) and how long each change took to show.
# Usage: run-iio-sensor-proxy.sh [FIXTURE.umockdev]      (needs: umockdev iio-sensor-proxy dbus)
# Everything it starts is killed by pid on exit; the temp dir is removed.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" != "--inner" ]; then
    for b in umockdev-run iio-sensor-proxy monitor-sensor dbus-daemon stdbuf; do
        command -v "$b" >/dev/null || { echo "SKIP: $b missing (apt-get install umockdev iio-sensor-proxy dbus)"; exit 77; }
    done
    FIXTURE=${1:-$HERE/polled-accel.umockdev}
    WORK=$(mktemp -d /tmp/isp-run.XXXXXX)
    trap 'rm -rf "$WORK"' EXIT
    cat > "$WORK/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$WORK/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
CONF
    umockdev-run --device "$FIXTURE" -- bash "$0" --inner "$WORK"
    exit $?
fi

# ---- inside the testbed ----
WORK=$2
SYS=/sys/bus/iio/devices/iio:device0
now() { date +%s%3N; }
T0=$(now)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    [ -s "$WORK/dbus.pid" ] && kill "$(cat "$WORK/dbus.pid")" 2>/dev/null
    wait 2>/dev/null
}
trap cleanup EXIT

dbus-daemon --config-file="$WORK/bus.conf" --fork --print-address=3 --print-pid=4 3>"$WORK/dbus.addr" 4>"$WORK/dbus.pid"
export DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$WORK/dbus.addr")
echo "private system bus: $DBUS_SYSTEM_BUS_ADDRESS (dbus-daemon pid $(cat "$WORK/dbus.pid"))"

G_MESSAGES_DEBUG=all iio-sensor-proxy >"$WORK/proxy.log" 2>&1 &
PIDS+=($!)
# monitor-sensor uses stdio: line-buffer it, stamp each line with ms since T0
( stdbuf -oL monitor-sensor 2>&1 | while IFS= read -r line; do echo "$(( $(now) - T0 )) $line"; done ) >"$WORK/monitor.log" &
PIDS+=($!)

pose() {  # name x y z  (raw counts; scale 0.009582 -> 1024 counts ~ 9.81 m/s^2)
    sleep "$POSE_WAIT"
    printf '%s\n' "$2" > $SYS/in_accel_x_raw
    printf '%s\n' "$3" > $SYS/in_accel_y_raw
    printf '%s\n' "$4" > $SYS/in_accel_z_raw
    echo "$(( $(now) - T0 )) SET pose $1 raw=($2,$3,$4)" >> "$WORK/events.log"
}
POSE_WAIT=${POSE_WAIT:-2.5}
: > "$WORK/events.log"
echo "$(( $(now) - T0 )) START raw=($(cat $SYS/in_accel_x_raw),$(cat $SYS/in_accel_y_raw),$(cat $SYS/in_accel_z_raw))" >> "$WORK/events.log"
pose right-up -1024 0 0
pose bottom-up 0 1024 0
pose left-up 1024 0 0
pose normal 0 -1024 0
sleep "$POSE_WAIT"

echo "=== monitor-sensor output (ms since start) merged with the pose changes"
sort -n -s -k1,1 "$WORK/events.log" "$WORK/monitor.log"
echo "=== latency: SET -> next 'orientation changed' line"
sort -n -s -k1,1 "$WORK/events.log" "$WORK/monitor.log" | awk '
  /SET pose/ { t=$1; p=$4; next }
  /orientation changed/ && t { printf "%-10s %5d ms\n", p, $1 - t; t=0 }'
echo "=== iio-sensor-proxy log (first 15 lines)"
head -15 "$WORK/proxy.log"
