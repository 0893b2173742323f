/* udev-probe: list IIO devices through libudev, print properties and sysattrs,
 * then optionally re-read in_accel_x_raw N times (every 200 ms) to show run-time changes.
 * Build: cc -o udev-probe udev-probe.c $(pkg-config --cflags --libs libudev)
 * Usage: udev-probe [REREAD_COUNT]
 */
#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void read_file(const char *syspath, const char *attr, char *out, size_t n) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", syspath, attr);
    FILE *f = fopen(path, "r");
    out[0] = 0;
    if (!f) { snprintf(out, n, "<open failed>"); return; }
    size_t r = fread(out, 1, n - 1, f);
    out[r] = 0;
    fclose(f);
    char *nl = strchr(out, '\n'); if (nl) *nl = 0;
}

int main(int argc, char **argv) {
    int rereads = argc > 1 ? atoi(argv[1]) : 0;
    struct udev *udev = udev_new();
    struct udev_enumerate *e = udev_enumerate_new(udev);
    udev_enumerate_add_match_subsystem(e, "iio");
    udev_enumerate_scan_devices(e);
    struct udev_list_entry *it;
    char first[512] = "";
    udev_list_entry_foreach(it, udev_enumerate_get_list_entry(e)) {
        const char *syspath = udev_list_entry_get_name(it);
        struct udev_device *d = udev_device_new_from_syspath(udev, syspath);
        if (!first[0]) snprintf(first, sizeof first, "%s", syspath);
        printf("device %s\n  sysname=%s devnode=%s subsystem=%s devtype=%s\n", syspath,
               udev_device_get_sysname(d), udev_device_get_devnode(d),
               udev_device_get_subsystem(d), udev_device_get_devtype(d));
        struct udev_list_entry *p;
        udev_list_entry_foreach(p, udev_device_get_properties_list_entry(d))
            printf("  E: %s=%s\n", udev_list_entry_get_name(p), udev_list_entry_get_value(p));
        udev_list_entry_foreach(p, udev_device_get_sysattr_list_entry(d)) {
            const char *v = udev_device_get_sysattr_value(d, udev_list_entry_get_name(p));
            printf("  A: %s=%s\n", udev_list_entry_get_name(p), v ? v : "(null)");
        }
        udev_device_unref(d);
    }
    if (!first[0]) { printf("no iio device\n"); return 1; }
    /* keep one udev_device alive to show libudev's sysattr cache */
    struct udev_device *cached = udev_device_new_from_syspath(udev, first);
    for (int i = 0; i < rereads; i++) {
        struct udev_device *fresh = udev_device_new_from_syspath(udev, first);
        char buf[64];
        read_file(first, "in_accel_x_raw", buf, sizeof buf);
        printf("read %d: fresh udev_device=%s  cached udev_device=%s  fopen=%s\n", i,
               udev_device_get_sysattr_value(fresh, "in_accel_x_raw"),
               udev_device_get_sysattr_value(cached, "in_accel_x_raw"), buf);
        fflush(stdout);
        udev_device_unref(fresh);
        usleep(200000);
    }
    udev_device_unref(cached);
    udev_enumerate_unref(e);
    udev_unref(udev);
    return 0;
}
