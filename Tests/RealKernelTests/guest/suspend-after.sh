# shellcheck shell=sh
# After the suspend: two more turns within 30 s, the same daemon, and what it said
# besides events.
# Usage: suspend-after.sh BEFORE-JSON
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
before_json=$1
# The turns the monitor has seen.
turns() { grep -c '"cause":"sensor"' /var/tmp/monitor.jsonl; }
before=$(echo "$before_json" | jq .turns)
# Two more turns of the looped recording (one comes every 3–4.5 s), for 30 s
# by the clock: a count of tries takes longer the slower the guest runs.
until=$(( $(cut -d. -f1 /proc/uptime) + 30 ))
while [ "$(turns)" -lt $(( before + 2 )) ] && [ "$(cut -d. -f1 /proc/uptime)" -lt $until ]; do sleep 0.1; done
printf '{"turns":%s,"pid":%s,"restarts":%s,"sleeps":%s,"forgot":%s}\n' "$(( $(turns) - before ))" \
    "$(main_pid)" "$(restarts)" \
    "$(journalctl -b -k -o cat --no-pager | grep -c 'PM: suspend exit')" \
    "$(journalctl -b -u virtual-sensor-suspend -o cat --no-pager | grep -c '"resumed":true')"
# What this daemon (not those of the tests before it in this boot) said besides
# events: notes of its start, no lost sensor or stall.
daemon_journal \
    | grep -v '^{' >&2
if [ "$(( $(turns) - before ))" -lt 2 ]; then
    echo "what the hub saw (the feeder's log):" >&2
    journalctl -b -u virtual-sensor-suspend -o cat --no-pager | grep -v '"sensitivity"' | tail -20 >&2
    echo "the daemon's status: $(orientd ctl status | jq -c '{reading, pace, rate, time, "sensor-trouble"}')" >&2
fi
systemctl stop monitor-suspend virtual-sensor-suspend
