# shellcheck shell=sh
# The sensor's runtime power state while nothing consumes, while a subscriber does, and
# after it leaves.
# Usage: runtime-suspend.sh RECORDING
# Run in the real-kernel guest after scripts/vm-guest/helpers.sh, by Guest.run(script:).
set -u
recording=$1
plug_devices --display "$recording" --loop
reading() { orientd ctl status | jq -c '{reading, consumers}'; }
# Each wait's failure ends the script (fail in $(...) ends only the subshell).
took=$(until_runtime_status 'suspended|unsupported' 15) || exit 1
echo "idle: $took s $(runtime_status) $(reading)"
orientd monitor >/dev/null 2>&1 & monitor=$!
took=$(until_runtime_status active 3) || exit 1
echo "subscribed: $took s $(reading)"
sleep 3
echo "still subscribed: $(runtime_status)"
kill $monitor
took=$(until_runtime_status suspended 15) || exit 1
echo "left: $took s $(reading)"
feeder quit
