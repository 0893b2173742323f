// libevdev (Debian: libevdev-dev): reads input devices' state and events, and resyncs
// after the kernel drops events (SYN_DROPPED), which a hand-written reader gets wrong.
#include <libevdev/libevdev.h>
// And its uinput half, with which the real-kernel test tool (Tests/VirtualSensor) makes a
// tablet-mode switch; the daemon itself never creates devices.
#include <libevdev/libevdev-uinput.h>
