# shellcheck shell=sh
# Before a suspend: the feeder from a copy (the share is gone after it), a monitor, two
# turns, and the pace asked for; prints them as JSON.
# Usage: suspend-before.sh RECORDING FEEDER-OPTIONS PACE
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
recording=$1 feeder_options=$2 wanted_pace=$3
# The turns the monitor has seen.
turns() { grep -c '"cause":"sensor"' /var/tmp/monitor.jsonl; }
install -m 755 /mnt/share/virtual-sensor /usr/local/bin/virtual-sensor
cp "$recording" /var/tmp/turns.csv
systemd-run --quiet --unit=virtual-sensor-suspend --collect \
    /usr/local/bin/virtual-sensor devices --display /var/tmp/turns.csv --loop --control /run/vs.ctl $feeder_options
wait_until 10 test -S /run/orientd/control.sock || true
systemd-run --quiet --unit=monitor-suspend --collect sh -c 'exec orientd monitor > /var/tmp/monitor.jsonl'
for _ in $(seq 200); do [ "$(turns)" -ge 2 ] && break; sleep 0.1; done
[ "$(turns)" -ge 2 ] || fail "no turns before the suspend: $(cat /var/tmp/monitor.jsonl)"
# The pace seen is the one printed: asking again could find the turn's full
# rate over (1.5 s, about as long as a status under TCG on a busy host).
for _ in $(seq 400); do pace=$(orientd ctl status | jq -r .pace); [ "$pace" = "$wanted_pace" ] && break; sleep 0.05; done
printf '{"pace":"%s","turns":%s,"pid":%s}\n' "$pace" "$(turns)" \
    "$(main_pid)"
