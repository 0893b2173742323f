// Linux interfaces that Swift's Glibc module does not export: signalfd, eventfd and
// pidfd let the daemon wait for signals, wake-ups and child exits in one poll(2);
// mallopt and malloc_trim keep its heap small.
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <spawn.h>
#include <grp.h>
#include <malloc.h>
