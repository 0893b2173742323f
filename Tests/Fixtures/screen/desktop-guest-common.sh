# shellcheck shell=sh
# What every desktop guest's cases (desktop-guest-cases, desktop-guest-panel) do alike,
# sourced by each from the share as /share/common.sh: the share and the results file,
# waiting, the host's settled picture of the display, the uinput touchscreen. The
# sourcing script sets kind, the case a failure line names.
# shellcheck disable=SC2154 # kind: the sourcing script's

S=/share
R=$S/results
: >"$R"
up() { cut -d' ' -f1 /proc/uptime; }
say() { echo "[$(up)] $*"; }

# until_ok SECONDS COMMAND...: until COMMAND succeeds (tried every 0.25 s), or fails once
# SECONDS have passed on the guest's clock, however long each try takes.
until_ok() {
    deadline=$(($(cut -d. -f1 /proc/uptime) + $1))
    shift
    while ! "$@" >/dev/null 2>&1; do
        [ "$(cut -d. -f1 /proc/uptime)" -lt "$deadline" ] || return 1
        sleep 0.25
    done
}

# matches PATTERN FILE: how many lines of FILE match PATTERN (0 while FILE is not there).
matches() {
    count=$(grep -c -- "$1" "$2" 2>/dev/null)
    echo "${count:-0}"
}
# more_than N PATTERN FILE: FILE has more than N lines that match PATTERN.
more_than() { [ "$(matches "$2" "$3")" -gt "$1" ]; }

# screendump NAME: the host's picture of the display, as /share/NAME.done.ppm, once it
# has settled: taken again a second later until two agree (a compositor redraws some
# time after it turned the output, longer under emulation), ten times at most.
screendump() {
    tries=0
    shot "$1"
    while [ "$tries" -lt 10 ]; do
        mv "$S/$1.done.ppm" "$S/$1.before.ppm" 2>/dev/null
        sleep 1
        shot "$1"
        cmp -s "$S/$1.done.ppm" "$S/$1.before.ppm" && break
        tries=$((tries + 1))
    done
    rm -f "$S/$1.before.ppm"
}
shot() {
    rm -f "$S/$1.done.ppm"
    echo "$1" >"$S/screendump.request"
    until_ok 30 test -s "$S/$1.done.ppm" || echo "failed $kind screendump $1" >>"$R"
}

# touchscreen [--tablet-mode] [--pen]: the uinput touchscreen of touchscreen.py (with a
# tablet-mode switch, folded; with a pen), which taps what is written to file descriptor
# 9 ("tap U V", 0..4095; "pen U V"; "tablet 0|1").
touchscreen() {
    modprobe uinput
    mkfifo /run/taps
    python3 "$S/touchscreen.py" /run/taps "$@" >"$S/touchscreen.log" 2>&1 &
    exec 9<>/run/taps
    until_ok 30 sh -c "grep -q 'orientd test touchscreen' /sys/class/input/*/name" ||
        echo "failed all the touchscreen never appeared" >>"$R"
    udevadm settle
}

# tap_each RESULT SCREEN TOOL PATTERN LOG WHERE [ARGUMENT...]: at two points near opposite
# corners of the digitizer in turn, TOOL ("tap", "pen") touches the touchscreen; once LOG
# has one more line matching PATTERN, the line "RESULT KIND SCREEN U V X Y" (U, V: 0..1 of
# the digitizer; X Y: what WHERE ARGUMENT... prints, where the touch landed), else a
# failure after 10 s.
tap_each() {
    result=$1 tapped=$2 tool=$3 pattern=$4 log=$5
    shift 5
    for at in 205,205 3890,3890; do
        u=${at%,*} v=${at#*,}
        before=$(matches "$pattern" "$log")
        echo "$tool $u $v" >&9
        if until_ok 10 more_than "$before" "$pattern" "$log"; then
            echo "$result $kind $tapped $(awk -v u="$u" -v v="$v" 'BEGIN { printf "%.4f %.4f", u / 4095, v / 4095 }') $("$@")" >>"$R"
        else
            echo "failed $kind $result $tapped at $u $v: nothing in $log" >>"$R"
        fi
    done
}
