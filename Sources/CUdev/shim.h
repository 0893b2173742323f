// libudev (Debian: libudev-dev): device enumeration, properties and hot-plug events.
#include <libudev.h>
