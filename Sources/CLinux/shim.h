// Linux interfaces that Swift's Glibc module does not export: signalfd, eventfd, pidfd
// and timerfd let the daemon wait for signals, wake-ups, child exits and the system's
// resume in one poll(2);
// mallopt and malloc_trim keep its heap small.
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/pidfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <spawn.h>
#include <grp.h>
#include <malloc.h>
