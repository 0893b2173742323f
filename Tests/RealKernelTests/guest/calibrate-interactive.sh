# shellcheck shell=sh
# orientd calibrate with its questions answered, on a sensor that moves and then holds
# each pose.
# Usage: calibrate-interactive.sh MOVING UPRIGHT FLAT TURNED
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
moving=$1 upright=$2 flat=$3 turned=$4
plug_devices --display "$moving" --loop
tmux new-session -d -s calibrate -x 220 -y 60 \
    'orientd calibrate --hold 1; echo "exit status $?"; sleep 600'
screen() { tmux capture-pane -p -S - -t calibrate; }
wait_for() {  # the screen that showed it stays in /tmp/screen.txt (the next may not)
    for _ in $(seq 600); do screen > /tmp/screen.txt; grep -qF -- "$1" /tmp/screen.txt && return; sleep 0.1; done
    cat /tmp/screen.txt >&2; fail "'$1' never came on the screen"
}
wait_for "the way you read it"
tmux send-keys -t calibrate Enter
wait_for "m/s²): hold it still"
cp /tmp/screen.txt /tmp/moving.txt
feeder play display "$upright"
wait_for "screen up, then press Enter"
feeder play display "$flat"
tmux send-keys -t calibrate Enter
wait_for "left edge up), then press Enter"
feeder play display "$turned"
tmux send-keys -t calibrate Enter
wait_for "exit status"
echo "=== moving"; cat /tmp/moving.txt
echo "=== end"; screen
tmux kill-server
feeder quit
