# shellcheck shell=bash
# processes.sh: the programs a measurement script starts (benchmark-live,
# compare-iio-sensor-proxy, soak): checking they are installed, a private system bus for
# them, a clock to time them by, waiting for what they print, and stopping every one of
# them when the script ends, however it ends. Sourced after set -euo pipefail, not run.
#
# Stopped by pid, never by name: these scripts run beside other work (the test suite, a
# real iio-sensor-proxy) whose processes have the same names. And always stopped: a
# daemon left behind would read the same fake sensor, or own the same bus name, in the
# next run, and change what it measures.

# us reads EPOCHREALTIME, which bash has from version 5.
[ "${BASH_VERSINFO[0]}" -ge 5 ] || { echo "${0##*/}: needs bash 5 (EPOCHREALTIME)" >&2; exit 69; }

# us: microseconds since the script started (sourced this file). From bash itself, not
# date: running a program would add a millisecond to every time taken.
processes_origin=${EPOCHREALTIME/./}
us() { echo $((${EPOCHREALTIME/./} - processes_origin)); }

# require_programs PROGRAM:PACKAGE...: if any PROGRAM is not on PATH, says which Debian
# packages to install and exits 69, before anything has been started.
require_programs() {
    local program missing=()
    for program in "$@"; do
        command -v "${program%%:*}" >/dev/null 2>&1 || missing+=("${program#*:}")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "${0##*/}: missing tools; install them with:" >&2
        echo "  apt-get install -y $(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')" >&2
        exit 69
    fi
}

# What has been started, to be stopped: each as PID:START, START the time it started
# (field 22 of /proc/PID/stat), so that a pid handed to another process after this one
# ended is never signalled. A script in two parts, whose outer part runs the inner one
# under umockdev-run, sets PIDS_FILE in both: the inner part lists there what it starts,
# so that the outer part stops it if the inner part is killed before its own exit trap can.
PIDS=()
PIDS_FILE=""
RUNNING=""
started() {  # PID
    processes_entry "$1"
    PIDS+=("$processes_entry_is")
    [ -z "$PIDS_FILE" ] || echo "$processes_entry_is" >>"$PIDS_FILE"
}
# These two run only bash builtins, no command substitution: started is called between
# a program's exec and its first output, and a fork there would be timed too.
processes_entry() {  # PID: sets processes_entry_is to PID:START, START empty if it has gone
    local stat="" fields=()
    { read -r stat <"/proc/$1/stat"; } 2>/dev/null || true
    [ -z "$stat" ] || read -ra fields <<<"${stat##*) }"
    processes_entry_is=$1:${fields[19]:-}
}
processes_running() {  # PID:START: that process, and not a zombie (gone, its parent yet to reap it)
    local stat="" fields=()
    { read -r stat <"/proc/${1%%:*}/stat"; } 2>/dev/null || return 1
    read -ra fields <<<"${stat##*) }"
    [ "${fields[0]:-}" != Z ] && [ "${fields[19]:-}" = "${1#*:}" ]
}

# run_interruptibly COMMAND...: runs COMMAND (standard input /dev/null) and returns its
# status. In the background, waited for: bash runs a trap only once the foreground
# command has ended, and an INT or TERM must stop everything at once.
run_interruptibly() {
    local status=0
    "$@" </dev/null &
    processes_entry $!
    RUNNING=$processes_entry_is
    wait "${RUNNING%%:*}" || status=$?
    RUNNING=""
    return "$status"
}

# stop_pids PID:START...: TERM to each, then up to a second for each to go before KILL,
# then the children reaped. (dbus-daemon --fork is no child of this shell: init reaps it.)
stop_pids() {
    local entry i
    for entry in "$@"; do
        if processes_running "$entry"; then kill "${entry%%:*}" 2>/dev/null || true; fi
    done
    for entry in "$@"; do
        for ((i = 0; i < 10; i++)); do
            processes_running "$entry" || continue 2
            sleep 0.1
        done
        if processes_running "$entry"; then
            # A measured program that ignores TERM is a finding, not to be hidden.
            echo "${0##*/}: $(cat "/proc/${entry%%:*}/comm" 2>/dev/null) (${entry%%:*}) still ran 1 s after TERM: killed" >&2
            kill -KILL "${entry%%:*}" 2>/dev/null || true
        fi
    done
    for entry in "$@"; do wait "${entry%%:*}" 2>/dev/null || true; done
}

# stop_started: stops everything started (with PIDS_FILE, everything listed there) and
# what run_interruptibly waits for; the list is empty after it.
stop_started() {
    local pids=("${PIDS[@]}")
    if [ -n "$PIDS_FILE" ] && [ -f "$PIDS_FILE" ]; then mapfile -t pids <"$PIDS_FILE"; fi
    stop_pids "${pids[@]}" ${RUNNING:+"$RUNNING"}
    PIDS=()
    RUNNING=""
    if [ -n "$PIDS_FILE" ] && [ -f "$PIDS_FILE" ]; then : >"$PIDS_FILE"; fi
}

# at_exit FUNCTION: FUNCTION runs once when the script ends, and the script keeps its
# exit status; INT ends it with 130 and TERM or HUP with 143, the statuses a shell gives
# a command that INT or TERM killed.
at_exit() {
    processes_at_exit=$1
    trap processes_exit EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM HUP
}
processes_exit() {
    local status=$?
    trap - EXIT INT TERM HUP
    "$processes_at_exit"
    exit "$status"
}

# wait_for FILE PATTERN SECONDS: until a line of FILE matches PATTERN (grep); 1 if none
# has by then.
wait_for() {
    local deadline=$(($(us) + ${3%.*} * 1000000))
    until grep -q -- "$2" "$1" 2>/dev/null; do
        [ "$(us)" -lt "$deadline" ] || return 1
        sleep 0.02
    done
}

# start_system_bus DIR: a D-Bus system bus of the script's own, its socket in DIR, open
# to anyone, so that iio-sensor-proxy can own its name without root's policy and never
# meets the machine's bus. Exports DBUS_SYSTEM_BUS_ADDRESS for what starts after it;
# DBUS_PID is its pid, already passed to started.
start_system_bus() {
    local dir=$1
    cat >"$dir/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$dir/system_bus_socket</listen>
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
    # It forks; its address comes back on fd 3 and its pid on fd 4.
    dbus-daemon --config-file="$dir/bus.conf" --fork --print-address=3 --print-pid=4 \
        3>"$dir/dbus.addr" 4>"$dir/dbus.pid"
    DBUS_PID=$(cat "$dir/dbus.pid")
    started "$DBUS_PID"
    DBUS_SYSTEM_BUS_ADDRESS=$(head -1 "$dir/dbus.addr")
    export DBUS_SYSTEM_BUS_ADDRESS
}
