/* iio-attr-probe: for every IIO device and channel attribute, print what libiio returns from
 * iio_channel_attr_read (bytes + escaped string), _read_longlong and _read_double (ret + value).
 * Build: cc -o iio-attr-probe iio-attr-probe.c $(pkg-config --cflags --libs libiio)
 */
#include <iio.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static void esc(const char *s, ssize_t n) {
    putchar('"');
    for (ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n') fputs("\\n", stdout);
        else if (c == 0) fputs("\\0", stdout);
        else if (c < 32 || c >= 127) printf("\\x%02x", c);
        else putchar(c);
    }
    putchar('"');
}

static const char *err(int e, char *buf) { iio_strerror(e, buf, 64); return buf; }

int main(void) {
    errno = 0;
    struct iio_context *ctx = iio_create_local_context();
    if (!ctx) { int e = errno; char b[64]; printf("iio_create_local_context: NULL errno=%d (%s)\n", e, err(e, b)); return 1; }
    for (unsigned d = 0; d < iio_context_get_devices_count(ctx); d++) {
        struct iio_device *dev = iio_context_get_device(ctx, d);
        printf("%s name=%s\n", iio_device_get_id(dev), iio_device_get_name(dev));
        for (unsigned c = 0; c < iio_device_get_channels_count(dev); c++) {
            struct iio_channel *ch = iio_device_get_channel(dev, c);
            for (unsigned a = 0; a < iio_channel_get_attrs_count(ch); a++) {
                const char *an = iio_channel_get_attr(ch, a);
                char buf[256], b1[64], b2[64];
                memset(buf, 'X', sizeof buf);
                ssize_t r = iio_channel_attr_read(ch, an, buf, sizeof buf);
                long long ll = -7777; double dv = -7777;
                int rl = iio_channel_attr_read_longlong(ch, an, &ll);
                int rd = iio_channel_attr_read_double(ch, an, &dv);
                printf("  %s %-6s read=%zd ", iio_channel_get_id(ch), an, r);
                if (r > 0) esc(buf, r); 
                printf("  longlong=%d%s%s%s -> %lld  double=%d%s%s%s -> %g\n",
                       rl, rl ? " (" : "", rl ? err(-rl, b1) : "", rl ? ")" : "", ll,
                       rd, rd ? " (" : "", rd ? err(-rd, b2) : "", rd ? ")" : "", dv);
            }
        }
    }
    iio_context_destroy(ctx);
    return 0;
}
