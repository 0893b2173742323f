# shellcheck shell=sh
# Shell functions for scripts run in the real-kernel guest: put in front of each one, as
# text, by scripts/vm (its play's set-up) and by Tests/RealKernelTests/Guest.swift (every
# test's script). Nothing is installed in the guest: a guest booted from an older
# checkout runs this one's, and the functions work after a suspend (the share hangs).
# POSIX sh (the guest runs them with dash), safe under `set -eu`.

# fail MESSAGE: to stderr, exit 1.
fail() {
    echo "$*" >&2
    exit 1
}

# wait_until SECONDS COMMAND [ARGUMENT...]: COMMAND run every 0.1 s until it succeeds;
# false when it has not within SECONDS.
wait_until() {
    _tries=$(awk -v s="$1" 'BEGIN { print int(s * 10) }')
    shift
    while [ "$_tries" -gt 0 ]; do
        "$@" && return 0
        sleep 0.1
        _tries=$((_tries - 1))
    done
    "$@"
}

# What the running daemon (not those of earlier tests in this boot) wrote to the journal.
daemon_journal() {
    journalctl -b -o cat --no-pager _SYSTEMD_INVOCATION_ID="$(systemctl show -p InvocationID --value orientd)"
}

# How often systemd restarted the daemon, and its pid now (0: none runs).
restarts() { systemctl show -p NRestarts --value orientd; }
main_pid() { systemctl show -p MainPID --value orientd; }

# plug_devices ARGUMENTS: `virtual-sensor devices ARGUMENTS --control /run/vs.ctl` (the
# feeder copied into the share) as a transient unit, then up to 10 s for the daemon that
# udev starts for it to answer on its control socket.
plug_devices() {
    systemd-run --quiet --unit="virtual-sensor-devices-$(date +%s%N)" --collect \
        /mnt/share/virtual-sensor devices "$@" --control /run/vs.ctl
    wait_until 10 test -S /run/orientd/control.sock || fail "orientd did not start for the plugged devices"
}

# feeder COMMAND...: one command to the running feeder (`--control /run/vs.ctl`);
# fails, saying so, when it is not taken within 10 s: a FIFO that lost its reader blocks
# the writer for good, and the test would end at its time limit with nothing said.
feeder() {
    timeout 10 sh -c 'printf "%s\n" "$1" > /run/vs.ctl' feeder "$*" ||
        fail "the virtual sensor did not take '$*' within 10 s; its units: $(systemctl list-units --all --no-legend 'virtual-sensor*' 2>&1)"
}

# orientd stopped, its saved state gone, the shipped /etc/orientd.conf back (kept aside
# at the first call).
stopped_as_shipped() {
    systemctl stop orientd
    rm -rf /var/lib/orientd/*
    [ -f /etc/orientd.conf.shipped ] || cp /etc/orientd.conf /etc/orientd.conf.shipped
    cp /etc/orientd.conf.shipped /etc/orientd.conf
}

# Back to a guest with orientd stopped, no virtual device, no saved lock, and no local
# hwdb entry, udev rule, unit drop-in or configuration left by a test. Only what a test
# left is undone and reloaded: systemd-hwdb update takes 2.8 s and daemon-reload 1.4 s
# under TCG, and this runs before each of some 25 test cases.
reset_guest() {
    systemctl stop 'virtual-sensor*' 2>/dev/null || true
    # No accelerometer left for the next test's daemon to find and then report lost under
    # that test's own (seen in CI: "lost" before the played chip's "attached"): an I2C
    # chip still on i2c-stub is deleted, and a HID hub the kernel is still taking away
    # is waited for.
    for _bus in /sys/bus/i2c/devices/i2c-*; do
        [ "$(cat "$_bus/name" 2>/dev/null)" = "SMBus stub driver" ] || continue
        for _chip in "/sys/bus/i2c/devices/${_bus##*-}"-00*; do
            [ -e "$_chip" ] && echo "0x${_chip##*-00}" > "$_bus/delete_device"
        done
    done
    wait_until 10 sh -c '! ls -d /sys/bus/iio/devices/iio:device* >/dev/null 2>&1' ||
        echo "reset_guest: IIO devices left after 10 s: $(ls /sys/bus/iio/devices)" >&2
    stopped_as_shipped
    systemctl reset-failed 2>/dev/null || true
    _hwdb=$(ls /etc/udev/hwdb.d/61-orientd-*.hwdb 2>/dev/null || true)
    _rules=$(ls /etc/udev/rules.d/59-orientd-test-*.rules 2>/dev/null || true)
    # shellcheck disable=SC2086 # the lists are of paths without spaces
    if [ -n "$_hwdb" ]; then rm -f $_hwdb; systemd-hwdb update; fi
    # shellcheck disable=SC2086
    if [ -n "$_rules" ]; then rm -f $_rules; fi
    if [ -n "$_hwdb$_rules" ]; then udevadm control --reload; fi
    if [ -e /etc/systemd/system/orientd.service.d ]; then
        rm -rf /etc/systemd/system/orientd.service.d
        systemctl daemon-reload
    fi
    # A guest still starting up (the first test after the boot) shares its one emulated
    # CPU with boot jobs: wait for them, and for udev's queue.
    timeout 60 systemctl is-system-running --wait >/dev/null 2>&1 || true
    udevadm settle --timeout=30
}

# play_setup DIRECTORY: orientd stopped and its state gone, then set up as a user would
# from DIRECTORY's files (each empty when the play has none): play-orientd.conf's lines
# after the shipped configuration, play.hwdb as a local hwdb entry, play-dropin.conf as
# the unit's only drop-in. Reloads only what changed since the last play.
play_setup() {
    stopped_as_shipped
    cat "$1/play-orientd.conf" >> /etc/orientd.conf
    # udevd is told to reload: it looks for a new hwdb.bin at most every 3 s, and the
    # feeder plugs the sensor at once.
    _hwdb=/etc/udev/hwdb.d/61-orientd-play.hwdb
    if [ -s "$1/play.hwdb" ]; then
        cmp -s "$1/play.hwdb" "$_hwdb" || { cp "$1/play.hwdb" "$_hwdb"; systemd-hwdb update; udevadm control --reload; }
    elif [ -e "$_hwdb" ]; then
        rm -f "$_hwdb"; systemd-hwdb update; udevadm control --reload
    fi
    _dropins=/etc/systemd/system/orientd.service.d
    if [ -s "$1/play-dropin.conf" ]; then
        if [ "$(ls -A "$_dropins" 2>/dev/null)" != play.conf ] || ! cmp -s "$1/play-dropin.conf" "$_dropins/play.conf"; then
            rm -rf "$_dropins"; mkdir -p "$_dropins"; cp "$1/play-dropin.conf" "$_dropins/play.conf"
            systemctl daemon-reload
        fi
    elif [ -e "$_dropins" ]; then
        rm -rf "$_dropins"; systemctl daemon-reload
    fi
}

# Seconds since the guest booted (CLOCK_BOOTTIME, as /proc/uptime), to two decimals.
uptime_now() { cut -d' ' -f1 /proc/uptime; }

# later A B: true when the number A is greater than B (fractions allowed).
later() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }

# The time of the daemon's latest sample (`orientd ctl status`), 0 before the first.
sample_time() { orientd ctl status | jq -r '.time // 0'; }

# daemon_resources PID: its open descriptors and anonymous memory (KiB), on one line.
daemon_resources() { echo "$(ls "/proc/$1/fd" | wc -l) $(awk '/^RssAnon/ {print $2}' "/proc/$1/status")"; }

# The daemon's voluntary context switches so far, all threads: its wake-ups.
daemon_wakeups() {
    cat /proc/"$(main_pid)"/task/*/status | awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n }'
}

# The daemon's mode events so far, as ["mode","source",hinge°] on one line, from its own
# output in the journal (a subscriber that connects after the first mode event is told
# the orientation, not the mode).
mode_events() {
    daemon_journal | grep '^{"event":"mode"' | jq -c '[.mode, .source, (.hinge // 0 | round)]' | tr '\n' ' '
}

# await_mode PATTERN: a mode event matching PATTERN (grep) within 30 s, or fail.
await_mode() {
    _mode_seen() { mode_events | grep -q "$1"; }
    wait_until 30 _mode_seen "$1" || fail "no mode event like $1: $(mode_events); $(orientd list 2>&1 | head -30)"
}

# The first IIO device's runtime power state: active, suspended, ...
runtime_status() { cat /sys/bus/iio/devices/iio:device0/../power/runtime_status; }

# until_runtime_status STATES SECONDS: how long (s) until runtime_status was one of
# STATES (an extended regular expression: 'suspended|unsupported'); fail after SECONDS,
# with what the daemon says it reads for whom.
until_runtime_status() {
    _since=$(uptime_now)
    _is_state() { runtime_status | grep -Eqx "$1"; }
    wait_until "$2" _is_state "$1" \
        || fail "runtime_status is $(runtime_status), not $1, after $2 s; orientd: $(orientd ctl status | jq -c '{reading, consumers}')"
    awk -v s="$_since" -v n="$(uptime_now)" 'BEGIN { print n - s }'
}
