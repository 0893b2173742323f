# shellcheck shell=sh
# Counts the daemon's wake-ups at rest, then turns the device on cue; prints the pace,
# the wake-ups per thread, the turn and the hub's report intervals.
# Usage: quiet-when-still.sh polled|buffered PORTRAIT-RECORDING HUB-OPTIONS LANDSCAPE-RECORDING
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
read_path=$1 portrait=$2 hub_options=$3 landscape=$4
# Read polled: the unit's ExecStart= given --poll in a drop-in, as a user would.
if [ "$read_path" = polled ]; then
    mkdir -p /etc/systemd/system/orientd.service.d
    printf '[Service]\nExecStart=\nExecStart=/usr/bin/orientd run --wait --poll\n' \
        > /etc/systemd/system/orientd.service.d/poll.conf
    systemctl daemon-reload
fi
since=$(date '+%Y-%m-%d %H:%M:%S')
sleep 1  # the journal's --since is to the second
plug_devices --display "$portrait" --loop $hub_options
orientd monitor > /tmp/monitor.jsonl 2>/dev/null &
monitor=$!
pace() { orientd ctl status | jq -r .pace; }
for _ in $(seq 100); do case $(pace) in rest|watch) break ;; esac; sleep 0.1; done
echo "at rest: $(orientd ctl status | jq -c '{pace, rate}') sysfs $(cat /sys/bus/iio/devices/iio:device0/in_accel_sampling_frequency)"
echo "hysteresis: $(cat /sys/bus/iio/devices/iio:device0/in_accel_hysteresis 2>&1)"
# Each thread's voluntary switches, so a count over the bound says whose they are.
threads() { for t in /proc/"$(main_pid)"/task/*; do printf '%s:%s ' "$(cat "$t/comm")" "$(awk '/^voluntary_ctxt_switches/ { print $2 }' "$t/status")"; done; }
echo "threads before: $(threads)"
before=$(daemon_wakeups); sleep 5; after=$(daemon_wakeups)
echo "threads after: $(threads)"
echo "wake-ups: $(( after - before )) in 5 s"
echo "still at rest: $(pace)"
feeder play display "$landscape"
wait_until 15 grep -q '"device":"landscape-left"' /tmp/monitor.jsonl || true
echo "turned: $(grep -c '"device":"landscape-left"' /tmp/monitor.jsonl)"
feeder quit
kill $monitor
journalctl -b -o cat --no-pager --since "$since" -u 'virtual-sensor-devices-*' | grep '"event":"interval"' \
    | jq -r .milliseconds | tr '\n' ' '
echo
rm -rf /etc/systemd/system/orientd.service.d
