// libevdev (Debian: libevdev-dev): reads input devices' state and events, and resyncs
// after the kernel drops events (SYN_DROPPED), which a hand-written reader gets wrong.
#include <libevdev/libevdev.h>
