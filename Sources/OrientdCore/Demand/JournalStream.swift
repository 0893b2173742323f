/// systemd's `JOURNAL_STREAM`: the device and inode of the stream a service's standard
/// output or error is connected to when it goes to the journal, in decimal, separated by
/// a colon (systemd.exec(5)). A process compares them with fstat(2) of its descriptor:
/// the variable is inherited by children whose output goes elsewhere, so only a match
/// says that this descriptor is the journal.
public struct JournalStream: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// Nil for a value not of the form `DEVICE:INODE`.
    public init?(_ value: String) {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return nil }
        self.device = device
        self.inode = inode
    }

    /// Whether a descriptor with this st_dev and st_ino is the journal stream.
    public func matches(device: UInt64, inode: UInt64) -> Bool {
        self.device == device && self.inode == inode
    }
}
