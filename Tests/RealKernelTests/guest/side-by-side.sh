# shellcheck shell=sh
# orientd, then iio-sensor-proxy, on the same hub and recording: each one's wake-ups,
# CPU and memory at rest and while turning, and its changes on the recording's clock.
# Usage: side-by-side.sh RECORDING REST-END TURNS-END REST-SECONDS TURNS-SECONDS
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
recording=$1 rest_end=$2 turns_end=$3 rest_seconds=$4 turns_seconds=$5
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(uptime_now)" "$line"; done; }
threads() {  # per thread of $1: id, voluntary switches, CPU nanoseconds
    for task in /proc/"$1"/task/*; do
        echo "${task##*/} $(awk '/^voluntary_ctxt_switches/ { print $2 }' "$task/status") $(cut -d' ' -f1 "$task/schedstat")"
    done 2>/dev/null | awk 'NF == 3' | sort  # not a thread that ended while read
}
# Wake-ups/s and CPU % between two samples, per thread alive at the end.
rate() { join -a 2 -e 0 -o 2.2,1.2,2.3,1.3 "$1" "$2" | awk -v t="$3" '{ s += $1 - $2; c += $3 - $4 } END { printf "%.2f %.3f", s / t, c / t / 1e7 }'; }
for subject in orientd iio-sensor-proxy; do
    if [ $subject = iio-sensor-proxy ]; then
        systemctl mask --runtime --quiet orientd
        rm -f /etc/systemd/system/iio-sensor-proxy.service
    else
        systemctl unmask --runtime --quiet orientd
        ln -sf /dev/null /etc/systemd/system/iio-sensor-proxy.service
    fi
    systemctl daemon-reload
    systemd-run --quiet --unit=side-feeder-$subject --collect -p StandardOutput=file:/run/side-$subject.feeder \
        /mnt/share/virtual-sensor devices --display "$recording" --on-demand --control /run/vs.ctl
    pid=0
    for _ in $(seq 100); do pid=$(systemctl show -p MainPID --value $subject); [ "$pid" != 0 ] && break; sleep 0.1; done
    [ "$pid" != 0 ] || fail "$subject did not start when the sensor was plugged"
    if [ $subject = orientd ]; then
        wait_until 10 test -S /run/orientd/control.sock || true
        consumer="orientd monitor"
    else
        sleep 1  # its D-Bus name
        consumer="stdbuf -oL monitor-sensor --accel"
    fi
    # Its own pid noted, to end it alone (pkill -f would match this script).
    sh -c 'echo $$ > /run/side-consumer.pid; exec '"$consumer" 2>&1 | stamp > /run/side-$subject.txt &
    wait_until 10 grep -q '"event":"started"' /run/side-$subject.feeder || true
    started=$(grep -o '"event":"started".*' /run/side-$subject.feeder | head -1 | sed 's/.*"time":\([0-9.]*\).*/\1/')
    [ -n "$started" ] || fail "$subject: the driver never asked the hub for data: $(cat /run/side-$subject.feeder)"
    at() { while awk -v s="$started" -v t="$1" -v now="$(uptime_now)" 'BEGIN { exit !(now < s + t) }'; do sleep 0.1; done; }
    at 7; threads $pid > /run/a
    at "$rest_end"; threads $pid > /run/b
    at "$turns_end"; threads $pid > /run/c
    anon=$(awk '/^RssAnon/ { print $2 }' /proc/$pid/status)
    printf '%s %s %s %s %s\n' "$subject" "$(rate /run/a /run/b "$rest_seconds")" \
        "$(rate /run/b /run/c "$turns_seconds")" "$anon" "$started" > /run/side-$subject.cost
    feeder quit
    sleep 1
    kill "$(cat /run/side-consumer.pid)"
    systemctl stop $subject
done
systemctl unmask --runtime --quiet orientd
ln -sf /dev/null /etc/systemd/system/iio-sensor-proxy.service
systemctl daemon-reload
for subject in orientd iio-sensor-proxy; do
    echo "== $(cat /run/side-$subject.cost)"
    started=$(cut -d' ' -f7 /run/side-$subject.cost)
    # Each change, on the recording's clock.
    grep -E '"event":"orientation"|orientation changed' /run/side-$subject.txt \
        | awk -v s="$started" '{ t = $1; $1 = ""; printf "%.2f%s\n", t - s, $0 }'
done
