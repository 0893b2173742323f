/* iio-decode: read N scans through libiio's buffer API and decode them with iio_channel_convert.
 * Build: cc -o iio-decode iio-decode.c $(pkg-config --cflags --libs libiio)
 * Usage: iio-decode DEVICE_NAME_OR_ID BUFFER_SAMPLES REFILLS [TIMEOUT_MS]
 */
#include <iio.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s DEV BUFSAMPLES REFILLS [TIMEOUT_MS]\n", argv[0]); return 2; }
    struct iio_context *ctx = iio_create_local_context();
    if (!ctx) { perror("iio_create_local_context"); return 1; }
    if (argc > 4) iio_context_set_timeout(ctx, (unsigned)atoi(argv[4]));
    struct iio_device *dev = iio_context_find_device(ctx, argv[1]);
    if (!dev) { fprintf(stderr, "no device %s\n", argv[1]); return 1; }
    unsigned n = iio_device_get_channels_count(dev);
    for (unsigned i = 0; i < n; i++) {
        struct iio_channel *ch = iio_device_get_channel(dev, i);
        if (iio_channel_is_scan_element(ch)) {
            iio_channel_enable(ch);
            const struct iio_data_format *f = iio_channel_get_data_format(ch);
            printf("channel %s index=%ld bits=%u storage=%u shift=%u signed=%d be=%d\n", iio_channel_get_id(ch),
                   iio_channel_get_index(ch), f->bits, f->length, f->shift, f->is_signed, f->is_be);
        }
    }
    printf("sample size %zd\n", iio_device_get_sample_size(dev));
    struct iio_buffer *buf = iio_device_create_buffer(dev, (size_t)atoi(argv[2]), false);
    if (!buf) { int e = errno; fprintf(stderr, "create_buffer: %s (%d)\n", strerror(e), e); return 1; }
    for (int r = 0; r < atoi(argv[3]); r++) {
        ssize_t got = iio_buffer_refill(buf);
        if (got < 0) { char m[128]; iio_strerror((int)-got, m, sizeof m); printf("refill %d: %zd (%s)\n", r, got, m); break; }
        printf("refill %d: %zd bytes\n", r, got);
        ptrdiff_t step = iio_buffer_step(buf);
        for (char *p = iio_buffer_start(buf); p < (char *)iio_buffer_end(buf); p += step) {
            printf("  ");
            for (unsigned i = 0; i < n; i++) {
                struct iio_channel *ch = iio_device_get_channel(dev, i);
                if (!iio_channel_is_enabled(ch)) continue;
                const struct iio_data_format *f = iio_channel_get_data_format(ch);
                int64_t v = 0;
                if (f->length == 64) { iio_channel_convert(ch, &v, iio_buffer_first(buf, ch) + (p - (char *)iio_buffer_start(buf))); }
                else { int16_t s = 0; iio_channel_convert(ch, &s, iio_buffer_first(buf, ch) + (p - (char *)iio_buffer_start(buf))); v = s; }
                printf("%s=%lld ", iio_channel_get_id(ch), (long long)v);
            }
            printf("\n");
        }
    }
    iio_buffer_destroy(buf);
    iio_context_destroy(ctx);
    return 0;
}
