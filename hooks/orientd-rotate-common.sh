# orientd-rotate-common.sh: the code every orientd-rotate-* script shares. Sourced, not run.
# shellcheck shell=sh
#
# A script that sources this file defines
#   orientd_session         the variables that reach its session, separated by spaces
#                           (any one set will do), e.g. "SWAYSOCK I3SOCK"
#   orientd_about           prints its part of --help: what it runs, how it finds the output
#   orientd_detect_output   prints the name of the output to turn, or fails
#   orientd_apply OUT WORD  turns OUT to WORD and maps touch input to it; fails if turning
#                           failed. Touch mapping that fails after the screen turned is a
#                           warning (orientd_touch_failed), not a failure: the picture is
#                           right, and reporting the rotation failed would be wrong.
# and ends with
#   orientd_main NAME KEY SESSION "$@"
# NAME is its name, for messages and --help; KEY the event field it applies: xrandr,
# transform or hyprland (ORIENTD_XRANDR, ORIENTD_TRANSFORM or ORIENTD_HYPRLAND in hook
# mode); SESSION the variables that reach its session, any one of which will do.

orientd_tool=orientd-rotate
orientd_session=
orientd_key=
orientd_variable=
orientd_default_output=eDP-1
orientd_detected=
orientd_cr=$(printf '\r')

orientd_warn() {
    printf '%s: %s\n' "$orientd_tool" "$*" >&2
}

# orientd_run COMMAND ARGS...: runs a command with standard input closed (in stream mode
# it must not eat the events), keeps what it printed in orientd_cmd_output, and on
# failure says on stderr what failed and what it said.
orientd_run() {
    orientd_cmd_output=$("$@" 2>&1 </dev/null)
    orientd_cmd_status=$?
    [ "$orientd_cmd_status" -eq 0 ] && return 0
    orientd_failed "$@"
}

# orientd_failed COMMAND ARGS...: says on stderr that the command failed, with the status
# and what it printed (orientd_cmd_status, orientd_cmd_output); returns 1.
orientd_failed() {
    orientd_warn "failed (status $orientd_cmd_status): $*${orientd_cmd_output:+: $orientd_cmd_output}"
    return 1
}

# orientd_is_builtin NAME: whether NAME is a built-in panel's connector (eDP, LVDS, DSI).
orientd_is_builtin() {
    case $1 in
    eDP* | LVDS* | DSI*) return 0 ;;
    *) return 1 ;;
    esac
}

# orientd_pick_output: reads output names, one a line, and prints the built-in panel's,
# else the first. Fails when there is none.
orientd_pick_output() {
    orientd_first=
    while IFS= read -r orientd_name; do
        [ -n "$orientd_name" ] || continue
        if orientd_is_builtin "$orientd_name"; then
            printf '%s\n' "$orientd_name"
            return 0
        fi
        [ -n "$orientd_first" ] || orientd_first=$orientd_name
    done
    [ -n "$orientd_first" ] && printf '%s\n' "$orientd_first"
}

# Fails, saying what to set, when none of the variables that reach the session is set (a
# hook run by a system service, a script started outside the session): without it every
# command fails, and no output name would help.
orientd_check_session() {
    [ -n "$orientd_session" ] || return 0
    for orientd_name in $orientd_session; do
        eval "orientd_set=\${$orientd_name-}"
        [ -n "$orientd_set" ] && return 0
    done
    orientd_warn "cannot reach the session: $(printf '%s' "$orientd_session" | sed 's/ / or /g') is not set (run it from the session, or pass the session's $(printf '%s' "$orientd_session" | cut -d' ' -f1) to orientd's environment)"
    return 1
}

# orientd_at_exit COMMAND: runs COMMAND (shell code) as the script ends, its events
# done or a signal come; what the followers of a stream started is stopped there.
orientd_exit_code=
orientd_at_exit() {
    if [ -z "$orientd_exit_code" ]; then
        trap 'eval "$orientd_exit_code"' EXIT
        trap 'exit 129' HUP
        trap 'exit 130' INT
        trap 'exit 143' TERM
    fi
    orientd_exit_code="$orientd_exit_code
$1"
}

# orientd_word_for ANGLE: the word orientd_key's tool takes for the W3C angle ANGLE, as
# an event's own fields give it ("angle":90 is "xrandr":"right", "transform":"270",
# "hyprland":3); fails for any other angle.
orientd_word_for() {
    case $orientd_key:$1 in
    xrandr:0 | transform:0) printf normal ;;
    xrandr:90) printf right ;;
    xrandr:180) printf inverted ;;
    xrandr:270) printf left ;;
    transform:90) printf 270 ;;
    transform:180 | transform:270) printf '%s' $((360 - $1)) ;;
    hyprland:0) printf 0 ;;
    hyprland:90 | hyprland:180 | hyprland:270) printf '%s' $(((360 - $1) / 90)) ;;
    *) return 1 ;;
    esac
}

# orientd_turn_to_orientd OUT WHY: turns OUT to the screen orientd says now, asked of
# it with 'orientd ctl orientation' until two answers agree (a command just sent may
# reach the daemon after this connection's question). For when something else turned
# the screen and no event will come (the desktop's own rotation, Phosh's lock screen).
orientd_turn_to_orientd() {
    orientd_said='' orientd_tries=0 orientd_reply=
    while [ "$orientd_tries" -lt 10 ]; do
        orientd_tries=$((orientd_tries + 1))
        orientd_reply=$(orientd ctl orientation 2>/dev/null </dev/null) || break
        orientd_field "$orientd_reply" angle || break
        [ "$orientd_value" != "$orientd_said" ] || break
        orientd_said=$orientd_value
        sleep 0.1
    done
    if orientd_word=$(orientd_word_for "$orientd_said"); then
        orientd_apply "$1" "$orientd_word"
    else
        orientd_warn "$2: orientd did not say its screen (${orientd_reply:-no answer})"
    fi
}

orientd_gnome_schema=org.gnome.settings-daemon.peripherals.touchscreen
orientd_gnome_taken=
# orientd_take_over_gnome_rotation DESKTOP OUT: GNOME and Phosh (DESKTOP) turn the screen
# themselves from iio-sensor-proxy while their rotation lock (orientation-lock, the key
# behind the Auto Rotate quick setting) is off, and would fight orientd. Once, where
# iio-sensor-proxy is there (running or activatable) to tell them the orientation: the
# lock is set, for as long as a stream runs (off again as it ends) or, in a hook, for good;
# and in stream mode the quick setting becomes orientd's lock (orientd_follow_gnome_toggle).
orientd_take_over_gnome_rotation() {
    [ -z "$orientd_gnome_taken" ] || return 0
    orientd_gnome_taken=1
    command -v gsettings >/dev/null 2>&1 || return 0
    busctl --system --no-pager --no-legend list 2>/dev/null </dev/null | grep -q '^net\.hadess\.SensorProxy ' || return 0
    if [ "$(gsettings get "$orientd_gnome_schema" orientation-lock 2>/dev/null </dev/null)" = false ]; then
        if ! gsettings set "$orientd_gnome_schema" orientation-lock true 2>/dev/null </dev/null; then
            orientd_warn "$1 rotates the screen itself too (iio-sensor-proxy is there and orientation-lock is off), and the two will fight; locking its rotation failed: switch it off with 'gsettings set $orientd_gnome_schema orientation-lock true'"
            return 0
        fi
        if [ -n "${ORIENTD_SCREEN+set}" ]; then
            orientd_warn "$1 rotates the screen itself too, from iio-sensor-proxy: its rotation is now locked (orientation-lock true) so that the two do not fight; 'gsettings set $orientd_gnome_schema orientation-lock false' gives it back to $1"
            return 0
        fi
        orientd_warn "$1 rotates the screen itself too, from iio-sensor-proxy: its rotation is locked (orientation-lock true) while this script runs, so that the two do not fight, and unlocked as it ends; its quick setting locks and unlocks orientd meanwhile"
        # The follower first: it stops before the lock goes off, which it would take for a touch.
        orientd_follow_gnome_toggle "$1" "$2"
        orientd_at_exit "gsettings set $orientd_gnome_schema orientation-lock false 2>/dev/null </dev/null"
        return 0
    fi
    orientd_follow_gnome_toggle "$1" "$2"
}

# orientd_follow_gnome_toggle DESKTOP OUT: stream mode. GNOME's quick setting as orientd's
# lock (orientd_follow_toggle): a touch turns orientation-lock off.
orientd_follow_gnome_toggle() {
    orientd_follow_toggle "$1" "$2" "exec gsettings monitor $orientd_gnome_schema orientation-lock" '*: false' \
        "gsettings set $orientd_gnome_schema orientation-lock true 2>/dev/null </dev/null"
}

# orientd_follow_toggle DESKTOP OUT MONITOR TOUCHED RELOCK: stream mode. DESKTOP's rotation
# quick setting cannot stay its own switch (on, DESKTOP turns the screen from
# iio-sensor-proxy over orientd), so a touch of it is orientd's lock toggled. MONITOR (a
# command, run in the background and ending in an exec, so that killing it ends it)
# prints a line for each change of the setting; each line matching the pattern
# TOUCHED is a touch: RELOCK (a command) switches DESKTOP's rotation off again, orientd is
# locked where the screen is (or unlocked) and OUT turned back to orientd's screen, over
# the turn DESKTOP may have made meanwhile. Needs orientd.
orientd_follow_toggle() {
    [ -z "${ORIENTD_SCREEN+set}" ] || return 0
    command -v orientd >/dev/null 2>&1 || return 0
    orientd_toggle_dir=$(mktemp -d "${XDG_RUNTIME_DIR:-/tmp}/orientd-toggle.XXXXXX") &&
        mkfifo "$orientd_toggle_dir/changes" || return 0
    eval "$3" >"$orientd_toggle_dir/changes" 2>&1 </dev/null &
    orientd_toggle_monitor=$!
    orientd_toggle_follow "$@" <"$orientd_toggle_dir/changes" &
    orientd_at_exit "kill $orientd_toggle_monitor $! 2>/dev/null; rm -rf '$orientd_toggle_dir'"
}

orientd_toggle_follow() {
    while IFS= read -r orientd_line; do
        # shellcheck disable=SC2254 # the pattern is the caller's
        case $orientd_line in
        $4) ;;
        *) continue ;;
        esac
        eval "$5" || orientd_warn "$1's quick setting: switching its rotation off again failed; $1 and orientd may fight"
        orientd_reply=$(orientd ctl orientation 2>/dev/null </dev/null)
        if orientd_field "$orientd_reply" locked && [ "$orientd_value" = true ]; then
            orientd_toggled=unlock
        else
            orientd_toggled='lock current'
        fi
        # shellcheck disable=SC2086 # two words: lock current
        orientd_run orientd ctl $orientd_toggled || continue
        # DESKTOP may have claimed the sensor and turned the screen before it saw its
        # rotation off again: turned back now and once more after it has let the sensor go.
        orientd_turn_to_orientd "$2" "$1's quick setting"
        sleep 1
        orientd_turn_to_orientd "$2" "$1's quick setting"
    done
}

# orientd_touch_failed WHAT: the screen turned but touch input was not mapped.
orientd_touch_failed() {
    orientd_warn "rotated $orientd_out to $orientd_word, but mapping touch input failed: $*"
}

# orientd_require_output OUT NAMES: fails, naming the outputs there are, when OUT is not
# among NAMES (one a line). For tools that accept settings for outputs that do not exist.
orientd_require_output() {
    if printf '%s\n' "$2" | grep -qxF -- "$1"; then return 0; fi
    orientd_warn "there is no output '$1'; the outputs are: $(printf '%s' "$2" | tr '\n' ' ' | sed 's/ *$//') (set ORIENTD_OUTPUT to one of them)"
    return 1
}

# When the session's variable names a socket that is not there (the compositor is not
# running, or another session's), says so in one line and succeeds; else fails. Asked
# when finding the output failed: what the tool itself says then is many lines (Qt's
# abort) or names no variable.
orientd_unreachable() {
    for orientd_name in $orientd_session; do
        eval "orientd_set=\${$orientd_name-}"
        [ -n "$orientd_set" ] || continue
        case $orientd_name in
        WAYLAND_DISPLAY)
            case $orientd_set in
            /*) orientd_socket=$orientd_set ;;
            *) orientd_socket=${XDG_RUNTIME_DIR-}/$orientd_set ;;
            esac
            ;;
        SWAYSOCK | I3SOCK | NIRI_SOCKET) orientd_socket=$orientd_set ;;
        *) continue ;;
        esac
        [ -S "$orientd_socket" ] && continue
        orientd_warn "cannot reach the compositor: $orientd_name is '$orientd_set', but there is no socket $orientd_socket (is the compositor running? run the script from its session)"
        return 0
    done
    return 1
}

# Sets orientd_out: ORIENTD_OUTPUT, else what orientd_detect_output finds (asked until it
# answers, three times at most, then remembered), else eDP-1 with a warning (and asked
# again on the next rotation). Fails when finding it failed because the compositor
# cannot be reached.
orientd_find_output() {
    if [ -n "${ORIENTD_OUTPUT-}" ]; then
        orientd_out=$ORIENTD_OUTPUT
        return
    fi
    # A listing can come back empty while the compositor applies a change (kscreen-doctor
    # on kwin 6, asked right after the change before it): asked up to three times.
    orientd_tries=0
    while [ -z "$orientd_detected" ] && [ "$orientd_tries" -lt 3 ]; do
        [ "$orientd_tries" -eq 0 ] || sleep 0.2
        orientd_tries=$((orientd_tries + 1))
        orientd_detected=$(orientd_detect_output 2>/dev/null </dev/null)
    done
    if [ -n "$orientd_detected" ]; then
        orientd_out=$orientd_detected
    elif orientd_unreachable; then
        return 1
    else
        orientd_warn "could not find the output to turn; using $orientd_default_output (set ORIENTD_OUTPUT to choose)"
        orientd_out=$orientd_default_output
    fi
}

# orientd_field LINE KEY: sets orientd_value to the value of KEY in the JSON object LINE,
# without its quotes ("null" for null); fails when LINE has no KEY.
#
# This is sound without a JSON parser because an orientation event is a flat object (no
# nested objects or arrays), no key appears twice, and every value is a number, true,
# false, null or a string of plain words (letters, digits, '-', '.', '_', ':') that holds
# no quote, backslash, comma or brace. So '"KEY":' occurs only where KEY is a key (a
# string value is followed by ',' or '}', never by ':'), and the value ends at the next
# '"' if it is a string, else at the next ',' or '}'. Blanks after the colon are allowed.
# Of the other kinds, some of which nest ("allowed" of lock, "results" of hooks), only
# "event" is read: orientd writes it first, and inside a string a quote is escaped, so
# no '"event":' comes before it. A suggestion event is flat like an orientation event
# (orientd-suggest-notify reads its "state", "screen" and "angle").
orientd_field() {
    orientd_pattern="\"$2\":"
    case $1 in
    *"$orientd_pattern"*) ;;
    *) return 1 ;;
    esac
    orientd_value=${1#*"$orientd_pattern"}
    orientd_value=${orientd_value#"${orientd_value%%[! ]*}"}
    case $orientd_value in
    \"*)
        orientd_value=${orientd_value#\"}
        orientd_value=${orientd_value%%\"*}
        ;;
    *)
        orientd_value=${orientd_value%%,*}
        orientd_value=${orientd_value%%\}*}
        orientd_value=${orientd_value%% *}
        ;;
    esac
}

orientd_is_screen() {
    case $1 in
    portrait-primary | landscape-primary | portrait-secondary | landscape-secondary) return 0 ;;
    esac
    return 1
}

# Checks orientd_word for orientd_key. Wayland tools take "normal" for no transform, so a
# "0" (as a future orientd may write) becomes "normal".
orientd_check_word() {
    case $orientd_key:$orientd_word in
    xrandr:normal | xrandr:left | xrandr:inverted | xrandr:right) return 0 ;;
    transform:0) orientd_word=normal ;;
    transform:normal | transform:90 | transform:180 | transform:270) return 0 ;;
    hyprland:0 | hyprland:1 | hyprland:2 | hyprland:3) return 0 ;;
    *) return 1 ;;
    esac
}

orientd_rotate() {
    orientd_check_session || return 1
    orientd_find_output || return 1
    orientd_apply "$orientd_out" "$orientd_word"
}

# Stream mode: one line, one event. Anything but an orientation event that moves the
# screen is ignored.
orientd_handle() {
    case $1 in
    *'"reply":'*) return 0 ;; # an answer to a command, not an event
    '{'*'}') ;;
    *) return 0 ;; # not a JSON object
    esac
    orientd_field "$1" event && [ "$orientd_value" = orientation ] || return 0
    if ! orientd_field "$1" screen || ! orientd_is_screen "$orientd_value"; then
        orientd_warn "ignored an orientation event without a valid \"screen\": $1"
        return 0
    fi
    orientd_screen=$orientd_value
    orientd_field "$1" previous || orientd_value=null
    [ "$orientd_value" != "$orientd_screen" ] || return 0 # only the pose or the lock changed
    if ! orientd_field "$1" "$orientd_key"; then
        orientd_warn "ignored an orientation event without \"$orientd_key\": $1"
        return 0
    fi
    orientd_word=$orientd_value
    if ! orientd_check_word; then
        orientd_warn "ignored an orientation event with \"$orientd_key\":\"$orientd_word\": $1"
        return 0
    fi
    orientd_rotate
}

orientd_stream() {
    orientd_status=0
    while IFS= read -r orientd_line || [ -n "$orientd_line" ]; do
        orientd_handle "${orientd_line%"$orientd_cr"}" || orientd_status=1
    done
    return "$orientd_status"
}

# Hook mode: one change, from the environment orientd run --exec sets and its arguments.
orientd_hook() {
    if [ $# -gt 2 ]; then
        orientd_warn "too many arguments (see --help)"
        exit 2
    fi
    orientd_screen=${1-$ORIENTD_SCREEN}
    orientd_previous=${2-${ORIENTD_PREVIOUS-}}
    if ! orientd_is_screen "$orientd_screen"; then
        orientd_warn "the new screen orientation is '$orientd_screen', not a W3C type (portrait-primary, landscape-primary, portrait-secondary, landscape-secondary)"
        exit 2
    fi
    [ "$orientd_screen" != "$orientd_previous" ] || exit 100
    case $orientd_key in
    xrandr) orientd_word=${ORIENTD_XRANDR-} ;;
    transform) orientd_word=${ORIENTD_TRANSFORM-} ;;
    hyprland) orientd_word=${ORIENTD_HYPRLAND-} ;;
    esac
    if ! orientd_check_word; then
        orientd_warn "$orientd_variable is '$orientd_word', not a $orientd_key value orientd writes"
        exit 2
    fi
    orientd_rotate || exit 1
    exit 0
}

orientd_usage() {
    orientd_word_variable=$(printf '%s                ' "$orientd_variable" | cut -c1-17)
    cat <<EOF
Usage: orientd run | $orientd_tool            stream mode
       orientd run --exec $orientd_tool       hook mode
       $orientd_tool -h | --help

EOF
    orientd_about
    cat <<EOF

Stream mode (ORIENTD_SCREEN not set): reads orientd's JSON events on standard input,
one a line, and turns the screen as each "orientation" event arrives whose "screen"
differs from its "previous" (the first event, "previous":null, too). Other lines are
ignored. A failed command is reported on standard error and the next event is handled;
at the end of the input the exit status is 1 if a rotation failed, else 0.
    orientd run | $orientd_tool
    orientd replay --fast recording.csv | $orientd_tool

Hook mode (ORIENTD_SCREEN set, as 'orientd run --exec' does on each change of the
screen orientation): applies $orientd_variable once and exits: 0 applied, 100 nothing
to do (the new screen orientation is the previous one), 1 a command failed (said on
standard error), 2 bad arguments or environment. \$1 and \$2, when given, are the new
and the previous W3C type and take the place of ORIENTD_SCREEN and ORIENTD_PREVIOUS.
When the screen turned but touch input could not be mapped, that is a warning on
standard error and the rotation counts as applied.

Environment:
    $(printf '%s' "$orientd_session" | sed 's/ / or /g')    reaches the session; without it nothing can be turned
    ORIENTD_OUTPUT    the output to turn (default: found as above, else $orientd_default_output)
    ORIENTD_SCREEN    hook mode: the new W3C screen orientation type (orientd sets it)
    ORIENTD_PREVIOUS  hook mode: the previous one, empty on the first change
    $orientd_word_variable hook mode: the value applied
orientd sets more (ORIENTD_ANGLE, ORIENTD_DEVICE, ORIENTD_LOCKED, ORIENTD_EVENT, ...);
this script does not need them.
EOF
}

orientd_main() {
    orientd_tool=$1
    orientd_key=$2
    orientd_session=${3-}
    orientd_variable=ORIENTD_$(printf '%s' "$orientd_key" | tr '[:lower:]' '[:upper:]')
    shift 3
    case ${1-} in
    -h | --help)
        orientd_usage
        exit 0
        ;;
    esac
    if [ -n "${ORIENTD_SCREEN+set}" ]; then
        orientd_hook "$@"
    fi
    if [ $# -gt 0 ]; then
        orientd_warn "unexpected argument '$1': stream mode reads events on standard input (see --help)"
        exit 2
    fi
    orientd_stream
    exit
}
