// umockdev (Debian: libumockdev-dev): a fake sysfs, /dev and udev that the real libudev
// and libiio read, for tests. The process must run with libumockdev-preload.so.0
// preloaded (umockdev-wrapper).
#include <umockdev.h>
