/* hotplug-test: prove that a libudev monitor sees "remove" then "add" of an IIO
 * device in a umockdev testbed.
 * Build: cc -o hotplug-test hotplug-test.c $(pkg-config --cflags --libs libudev umockdev-1.0) -lpthread
 * Run:   umockdev-wrapper ./hotplug-test thread DEVICE.umockdev   (monitor + testbed in one process)
 *        umockdev-wrapper ./hotplug-test fork   DEVICE.umockdev   (parent drives, forked child monitors)
 *        (mode "monitor" is the child side of "fork"; it needs UMOCKDEV_DIR from the parent)
 */
#include <umockdev.h>
#include <libudev.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *SYSPATH = "/sys/devices/platform/bmc150-accel.0/iio:device0";
static UMockdevTestbed *tb;
static const char *devfile;

static double now_ms(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static double t0;

/* umockdev_testbed_add_from_file/_string g_error()s (SIGTRAP, the whole process dies) when a
 * device in the text already exists. After remove_device(iio:device0) the parent platform device
 * is still there, so re-add only the blocks whose P: path is missing. */
static gboolean add_missing_from_file(const char *file, GError **err) {
    gchar *text = NULL;
    if (!g_file_get_contents(file, &text, NULL, err)) return FALSE;
    gchar **blocks = g_strsplit(text, "\n\n", -1);
    GString *keep = g_string_new(NULL);
    gchar *sysdir = umockdev_testbed_get_sys_dir(tb);   /* <root>/sys */
    for (gchar **b = blocks; *b; b++) {
        gchar *blk = g_strstrip(g_strdup(*b));
        if (g_str_has_prefix(blk, "P: ")) {
            gchar *end = strchr(blk, '\n');
            gchar *path = g_strndup(blk + 3, end ? (gsize)(end - blk - 3) : strlen(blk + 3));
            gchar *full = g_strconcat(sysdir, path, NULL);
            if (!g_file_test(full, G_FILE_TEST_EXISTS)) {
                /* umockdev 0.17.16: remove_device() forgets to drop a pty-backed node ("N: name"
                 * without =HEX) from its table, so re-adding it asserts
                 * (!this.dev_fd.contains (devname)) and aborts. Drop such bare N: lines on re-add
                 * (an "N: name=HEX" file-backed node re-adds fine). */
                gchar **lines = g_strsplit(blk, "\n", -1);
                for (gchar **l = lines; *l; l++)
                    if (!(g_str_has_prefix(*l, "N: ") && !strchr(*l, '=')))
                        g_string_append_printf(keep, "%s\n", *l);
                g_string_append(keep, "\n");
                g_strfreev(lines);
            }
            g_free(full); g_free(path);
        }
        g_free(blk);
    }
    gboolean ok = umockdev_testbed_add_from_string(tb, keep->str, err);
    g_string_free(keep, TRUE); g_free(sysdir); g_strfreev(blocks); g_free(text);
    return ok;
}

static void drive(void) {
    GError *err = NULL;
    usleep(300000);
    printf("[driver %7.1f ms] uevent remove + remove_device\n", now_ms() - t0); fflush(stdout);
    umockdev_testbed_uevent(tb, SYSPATH, "remove");
    umockdev_testbed_remove_device(tb, SYSPATH);
    usleep(300000);
    printf("[driver %7.1f ms] add_from_string (missing blocks only) + uevent add\n", now_ms() - t0); fflush(stdout);
    if (!add_missing_from_file(devfile, &err)) {
        fprintf(stderr, "add_from_file: %s\n", err->message); g_clear_error(&err); return;
    }
    umockdev_testbed_uevent(tb, SYSPATH, "add");
}

static void *driver_thread(void *arg) { (void)arg; drive(); return NULL; }

/* returns number of events seen */
static int monitor(int ready_fd, int want, int timeout_ms) {
    struct udev *udev = udev_new();
    struct udev_monitor *m = udev_monitor_new_from_netlink(udev, "udev");
    if (!m) { fprintf(stderr, "udev_monitor_new_from_netlink failed\n"); return -1; }
    udev_monitor_filter_add_match_subsystem_devtype(m, "iio", NULL);
    if (udev_monitor_enable_receiving(m) < 0) { fprintf(stderr, "enable_receiving failed\n"); return -1; }
    if (ready_fd >= 0) { (void)!write(ready_fd, "r", 1); close(ready_fd); }
    struct pollfd p = { .fd = udev_monitor_get_fd(m), .events = POLLIN };
    int seen = 0;
    double end = now_ms() + timeout_ms;
    while (seen < want) {
        int left = (int)(end - now_ms());
        if (left <= 0) break;
        int r = poll(&p, 1, left);
        if (r <= 0) continue;
        struct udev_device *d = udev_monitor_receive_device(m);
        if (!d) continue;
        const char *name = udev_device_get_sysattr_value(d, "name");
        printf("[monitor %6.1f ms] %s %s subsystem=%s devnode=%s IIO_SENSOR_PROXY_TYPE=%s name=%s\n",
               now_ms() - t0, udev_device_get_action(d), udev_device_get_syspath(d),
               udev_device_get_subsystem(d), udev_device_get_devnode(d),
               udev_device_get_property_value(d, "IIO_SENSOR_PROXY_TYPE"), name ? name : "(null)");
        fflush(stdout);
        udev_device_unref(d);
        seen++;
    }
    udev_monitor_unref(m);
    udev_unref(udev);
    return seen;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s thread|fork|monitor [DEVICE.umockdev]\n", argv[0]); return 2; }
    t0 = now_ms();
    if (strcmp(argv[1], "monitor") == 0) {
        int n = monitor(-1, 2, 3000);
        printf("[monitor] saw %d events\n", n);
        return n == 2 ? 0 : 1;
    }
    devfile = argc > 2 ? argv[2] : "polled-accel.umockdev";
    GError *err = NULL;
    tb = umockdev_testbed_new();
    /* umockdev_in_mock_environment() stats /sys and caches the answer at its FIRST call:
       call it only after a testbed exists, or it stays FALSE for the whole process. */
    if (!umockdev_in_mock_environment()) {
        fprintf(stderr, "SKIP: not preloaded (run under umockdev-wrapper)\n"); return 77;
    }
    if (!umockdev_testbed_add_from_file(tb, devfile, &err)) {
        fprintf(stderr, "add_from_file: %s\n", err->message); return 1;
    }
    printf("testbed root %s\n", umockdev_testbed_get_root_dir(tb)); fflush(stdout);
    if (strcmp(argv[1], "thread") == 0) {
        int pfd[2]; (void)!pipe(pfd);
        pthread_t th;
        /* monitor must be listening before the driver sends: the driver waits 300 ms */
        pthread_create(&th, NULL, driver_thread, NULL);
        int n = monitor(-1, 2, 3000);
        pthread_join(th, NULL);
        printf("saw %d events\n", n);
        g_object_unref(tb);
        return n == 2 ? 0 : 1;
    }
    if (strcmp(argv[1], "fork") == 0) {
        int pfd[2]; (void)!pipe(pfd);
        pid_t pid = fork();
        if (pid == 0) { close(pfd[0]); int n = monitor(pfd[1], 2, 3000); printf("[child] saw %d events\n", n); fflush(stdout); _exit(n == 2 ? 0 : 1); }
        close(pfd[1]);
        char c; (void)!read(pfd[0], &c, 1);  /* child is listening */
        drive();
        int st; waitpid(pid, &st, 0);
        printf("child exit %d\n", WEXITSTATUS(st));
        g_object_unref(tb);
        return WEXITSTATUS(st);
    }
    if (strcmp(argv[1], "exec") == 0) {
        /* spawn a separate program (this binary in "monitor" mode) */
        pid_t pid = fork();
        if (pid == 0) { execl("/proc/self/exe", argv[0], "monitor", (char *)NULL); _exit(127); }
        usleep(200000);   /* no ready pipe across exec: give the child time to subscribe */
        drive();
        int st; waitpid(pid, &st, 0);
        printf("child exit %d\n", WEXITSTATUS(st));
        g_object_unref(tb);
        return WEXITSTATUS(st);
    }
    return 2;
}
