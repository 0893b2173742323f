// Linux interfaces that Swift's Glibc module does not export: signalfd, eventfd, pidfd
// and timerfd let the daemon wait for signals, wake-ups, child exits and the system's
// resume in one poll(2);
// mallopt and malloc_trim keep its heap small; pthread_getattr_np and the frame's
// address find a thread's stack, to give back what its start used; pthread_setname_np
// names a thread.
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/pidfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <spawn.h>
#include <grp.h>
#include <malloc.h>

// A GNU extension, declared by <pthread.h> only under _GNU_SOURCE, which would change
// other types (fd_set's fields) for every module that shares them.
#include <pthread.h>
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attr);
extern int pthread_setname_np(pthread_t thread, const char *name);

// Where the calling thread's stack is now: its own frame, on the thread's stack. A Swift
// local's address is not: AddressSanitizer's builds move addressed locals to a heap of
// its own (its "fake stack"), whose pages below would be dropped instead.
static inline void *orientd_frame_address(void) { return __builtin_frame_address(0); }
