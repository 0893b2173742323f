# shellcheck shell=sh
# Unplugs and plugs the display sensor twenty times under a monitor; prints a JSON
# summary of the events, the daemon's descriptors and memory, and its restarts.
# Usage: hot-plug-twenty.sh RECORDING FEEDER-OPTIONS
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
recording=$1 feeder_options=$2
plug_devices --display "$recording" $feeder_options --loop
orientd monitor > /run/monitor.ndjson 2>/run/monitor.err &
monitor=$!
seen() { grep -c "\"state\":\"$1\"" /run/monitor.ndjson; }
wait_for() {  # wait_for STATE N: the monitor has seen STATE N times (10 s)
    for _ in $(seq 200); do [ "$(count "$1")" -ge "$2" ] && return 0; sleep 0.05; done
    fail "cycle $cycle: no $1 event (count $(count "$1") < $2): $(tail -3 /run/monitor.ndjson)"
}
pid=$(main_pid)
sleep 1
# What the monitor was told on connecting is not counted.
# shellcheck disable=SC2034  # read through eval, by count
lost0=$(seen lost) attached0=$(seen attached)
count() { echo $(( $(seen "$1") - $(eval echo \$${1}0) )); }
for cycle in $(seq 1 20); do
    feeder unplug display
    wait_for lost "$cycle"
    feeder plug display
    wait_for attached "$cycle"
    # Samples flow again: the daemon's latest sample time moves on.
    before=$(sample_time)
    for _ in $(seq 100); do later "$(sample_time)" "$before" && break; sleep 0.05; done
    later "$(sample_time)" "$before" || fail "cycle $cycle: no samples after attached"
    [ "$cycle" = 3 ] && baseline=$(daemon_resources $pid)
done
end=$(daemon_resources $pid)
# And orientation events still follow the looped rotations.
turns=$(grep -c '"cause":"sensor"' /run/monitor.ndjson)
for _ in $(seq 100); do [ "$(grep -c '"cause":"sensor"' /run/monitor.ndjson)" -gt "$turns" ] && break; sleep 0.1; done
after=$(grep -c '"cause":"sensor"' /run/monitor.ndjson)
kill $monitor  # before the feeder's last unplug
feeder quit
printf '{"baseline":[%s],"end":[%s],"pid":%s,"nowpid":%s,"lost":%s,"attached":%s,"turns":%s,"after":%s,"restarts":%s}\n' \
    "$(echo $baseline | tr ' ' ,)" "$(echo $end | tr ' ' ,)" "$pid" "$(main_pid)" \
    "$(count lost)" "$(count attached)" "$turns" "$after" "$(restarts)"
