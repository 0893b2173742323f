/* builtin-panel.c: an LD_PRELOAD library for the desktop guest that makes virtio-gpu's
 * display a built-in panel. mutter and kwin turn the screen from the accelerometer only
 * on a built-in panel, which they know by its DRM connector type (eDP, LVDS, DSI); qemu's
 * displays (virtio-gpu, vkms) are all of type Virtual, so neither desktop's own rotation
 * ever runs there. Every connector libdrm reports as Virtual is reported as eDP instead
 * (named eDP-1 then); nothing else changes: the compositors, libdrm and the kernel's
 * driver are real. A stand-in: said in the test and in README.
 *   gcc -shared -fPIC -o builtin-panel.so builtin-panel.c -ldl $(pkg-config --cflags libdrm)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <xf86drmMode.h>

typedef drmModeConnectorPtr (*get_connector)(int fd, uint32_t id);

static drmModeConnectorPtr as_builtin(drmModeConnectorPtr connector) {
    if (connector && connector->connector_type == DRM_MODE_CONNECTOR_VIRTUAL)
        connector->connector_type = DRM_MODE_CONNECTOR_eDP;
    return connector;
}

drmModeConnectorPtr drmModeGetConnector(int fd, uint32_t id) {
    static get_connector real;
    if (!real) real = (get_connector)dlsym(RTLD_NEXT, "drmModeGetConnector");
    return as_builtin(real(fd, id));
}

drmModeConnectorPtr drmModeGetConnectorCurrent(int fd, uint32_t id) {
    static get_connector real;
    if (!real) real = (get_connector)dlsym(RTLD_NEXT, "drmModeGetConnectorCurrent");
    return as_builtin(real(fd, id));
}
