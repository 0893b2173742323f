// /dev/uhid, the kernel's interface for making a HID device from userspace (the kernel's
// own drivers bind to it), for the test tool virtual-sensor; no library wraps it.
// struct uhid_event is a packed struct of unions, which Swift cannot reach into: these
// inline functions are the only way in, and do nothing else. (The uinput switch uses
// libevdev's uinput support, through CEvdev.)
// /dev/i2c-N's SMBus transfers, for the I2C chips on i2c-stub: the I2C_SMBUS ioctl takes a
// union and is variadic, which Swift cannot call; vd_smbus is the one way in.
#include <stdint.h>
#include <linux/uhid.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <signal.h>
#include <string.h>

/// Talks to the chip at `address` even while a kernel driver owns it (I2C_SLAVE_FORCE):
/// the feeder writes the registers the driver reads.
static inline int vd_i2c_force_address(int fd, uint16_t address) { return ioctl(fd, I2C_SLAVE_FORCE, (unsigned long)address); }

/// One SMBus transfer: `size` is I2C_SMBUS_BYTE_DATA, _WORD_DATA or _I2C_BLOCK_DATA;
/// `data` holds a byte, a little-endian word, or up to 32 bytes (`length` of them).
static inline int vd_smbus(int fd, uint8_t read_write, uint8_t command, uint32_t size, uint8_t *data, uint8_t length) {
    union i2c_smbus_data value;
    memset(&value, 0, sizeof(value));
    if (length > I2C_SMBUS_BLOCK_MAX) length = I2C_SMBUS_BLOCK_MAX;
    if (size == I2C_SMBUS_I2C_BLOCK_DATA) {
        value.block[0] = length;
        if (read_write == I2C_SMBUS_WRITE) memcpy(&value.block[1], data, length);
    } else if (read_write == I2C_SMBUS_WRITE) {
        if (size == I2C_SMBUS_WORD_DATA) value.word = (uint16_t)(data[0] | data[1] << 8);
        else value.byte = data[0];
    }
    struct i2c_smbus_ioctl_data request = {.read_write = read_write, .command = command, .size = size, .data = &value};
    int result = ioctl(fd, I2C_SMBUS, &request);
    if (result >= 0 && read_write == I2C_SMBUS_READ) {
        if (size == I2C_SMBUS_I2C_BLOCK_DATA) memcpy(data, &value.block[1], length);
        else if (size == I2C_SMBUS_WORD_DATA) { data[0] = value.word & 0xff; data[1] = value.word >> 8; }
        else data[0] = value.byte;
    }
    return result;
}

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
