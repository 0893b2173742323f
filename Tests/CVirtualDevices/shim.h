// /dev/uhid, the kernel's interface for making a HID device from userspace (the kernel's
// own drivers bind to it), for the test tool virtual-sensor; no library wraps it.
// struct uhid_event is a packed struct of unions, which Swift cannot reach into: these
// inline functions are the only way in, and do nothing else. (The uinput switch uses
// libevdev's uinput support, through CEvdev.)
#include <stdint.h>
#include <linux/uhid.h>
#include <string.h>

static inline size_t vd_uhid_event_size(void) { return sizeof(struct uhid_event); }
static inline uint32_t vd_uhid_type(const struct uhid_event *e) { return e->type; }

static inline void vd_uhid_create2(struct uhid_event *e, const char *name, const uint8_t *descriptor,
                                   uint16_t descriptor_size, uint16_t bus, uint32_t vendor, uint32_t product) {
    memset(e, 0, sizeof(*e));
    e->type = UHID_CREATE2;
    strncpy((char *)e->u.create2.name, name, sizeof(e->u.create2.name) - 1);
    if (descriptor_size > sizeof(e->u.create2.rd_data)) descriptor_size = sizeof(e->u.create2.rd_data);
    memcpy(e->u.create2.rd_data, descriptor, descriptor_size);
    e->u.create2.rd_size = descriptor_size;
    e->u.create2.bus = bus;
    e->u.create2.vendor = vendor;
    e->u.create2.product = product;
}

static inline void vd_uhid_destroy(struct uhid_event *e) {
    memset(e, 0, sizeof(*e));
    e->type = UHID_DESTROY;
}

static inline void vd_uhid_input2(struct uhid_event *e, const uint8_t *data, uint16_t size) {
    memset(e, 0, sizeof(*e));
    e->type = UHID_INPUT2;
    if (size > sizeof(e->u.input2.data)) size = sizeof(e->u.input2.data);
    memcpy(e->u.input2.data, data, size);
    e->u.input2.size = size;
}

static inline void vd_uhid_get_report(const struct uhid_event *e, uint32_t *id, uint8_t *number, uint8_t *type) {
    *id = e->u.get_report.id;
    *number = e->u.get_report.rnum;
    *type = e->u.get_report.rtype;
}

static inline const uint8_t *vd_uhid_set_report(const struct uhid_event *e, uint32_t *id, uint8_t *number, uint8_t *type,
                                               uint16_t *size) {
    *id = e->u.set_report.id;
    *number = e->u.set_report.rnum;
    *type = e->u.set_report.rtype;
    *size = e->u.set_report.size;
    if (*size > sizeof(e->u.set_report.data)) *size = sizeof(e->u.set_report.data);
    return e->u.set_report.data;
}

static inline void vd_uhid_get_report_reply(struct uhid_event *e, uint32_t id, uint16_t err, const uint8_t *data,
                                            uint16_t size) {
    memset(e, 0, sizeof(*e));
    e->type = UHID_GET_REPORT_REPLY;
    e->u.get_report_reply.id = id;
    e->u.get_report_reply.err = err;
    if (size > sizeof(e->u.get_report_reply.data)) size = sizeof(e->u.get_report_reply.data);
    if (data) memcpy(e->u.get_report_reply.data, data, size);
    e->u.get_report_reply.size = size;
}

static inline void vd_uhid_set_report_reply(struct uhid_event *e, uint32_t id, uint16_t err) {
    memset(e, 0, sizeof(*e));
    e->type = UHID_SET_REPORT_REPLY;
    e->u.set_report_reply.id = id;
    e->u.set_report_reply.err = err;
}
