import OrientdLinux
import Testing

/// What orientd says when setting a buffer up is refused (EACCES): the files it may not
/// use, as they are, and what gives them to it.
struct BufferPermissionsTests {
    @Test("a refused buffer: each file not writable or readable named with its owner, group and mode, and the rule that sets them")
    func explanation() {
        let text = BufferPermissions.explanation([
            .init(path: "buffer/enable", owner: "root", group: "root", mode: 0o644, write: true),
            .init(path: "scan_elements/in_accel_x_en", owner: "root", group: "root", mode: 0o644, write: true),
            .init(path: "/dev/iio:device0", owner: "root", group: "root", mode: 0o600, write: false),
        ])
        #expect(
            text
                == "not writable by this user: buffer/enable (root:root 644), scan_elements/in_accel_x_en (root:root 644);"
                + " not readable by this user: /dev/iio:device0 (root:root 600); udev's rule 60-orientd.rules gives them to"
                + " the orientd group: is it installed, and has udev applied it since (udevadm trigger --subsystem-match=iio)?")
        #expect(BufferPermissions.explanation([]).isEmpty)
    }

}
