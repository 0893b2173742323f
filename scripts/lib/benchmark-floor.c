/* The floor scripts/benchmark-live compares orientd with: the system calls orientd's
 * sensor thread makes for each wake-up, and nothing else, so that what orientd costs
 * above it is what it adds (parsing, classifying, deciding), not the price of reading
 * a sensor on this machine.
 *
 *   benchmark-floor wake MS          poll(2) with no descriptors, every MS ms
 *   benchmark-floor polled MS DIR    poll(2) of four idle descriptors for MS ms, then
 *                                    pread(2) of DIR/in_accel_{x,y,z}_raw, kept open
 *   benchmark-floor buffer MS NODE   poll(2) of four idle descriptors for MS ms, then
 *                                    one read(2) of up to 224 bytes from NODE
 *                                    (non-blocking): orientd's buffered wake-up
 *
 * It runs until killed. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

static void usage(void) {
    fputs("usage: benchmark-floor wake MS | polled MS DIR | buffer MS NODE\n", stderr);
    exit(64);
}

int main(int argc, char **argv) {
    if (argc < 3) usage();
    int ms = atoi(argv[2]);
    /* orientd's sensor thread waits on four descriptors: its stop, its gate, udev and
     * the resume alarm. */
    struct pollfd idle[4];
    for (int i = 0; i < 4; i++) {
        idle[i].fd = eventfd(0, EFD_CLOEXEC);
        idle[i].events = POLLIN;
        if (idle[i].fd < 0) { perror("eventfd"); return 1; }
    }
    if (strcmp(argv[1], "wake") == 0) {
        for (;;) poll(NULL, 0, ms);
    }
    if (argc < 4) usage();
    char bytes[224];
    long seen = 0;
    if (strcmp(argv[1], "polled") == 0) {
        int axes[3];
        const char *names[3] = {"x", "y", "z"};
        for (int i = 0; i < 3; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/in_accel_%s_raw", argv[3], names[i]);
            axes[i] = open(path, O_RDONLY | O_CLOEXEC);
            if (axes[i] < 0) { perror(path); return 66; }
        }
        for (;;) {
            poll(idle, 4, ms);
            for (int i = 0; i < 3; i++) seen += pread(axes[i], bytes, 64, 0);
        }
    }
    if (strcmp(argv[1], "buffer") == 0) {
        int node = open(argv[3], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (node < 0) { perror(argv[3]); return 66; }
        for (;;) {
            poll(idle, 4, ms);
            ssize_t n = read(node, bytes, sizeof bytes);
            if (n < 0 && errno != EAGAIN) { perror(argv[3]); return 1; }
            seen += n;
        }
    }
    usage();
    return (int)seen;
}
