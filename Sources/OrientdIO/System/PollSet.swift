import Glibc
import SystemPackage

/// poll(2) over descriptors that each stand for something (`Slot`): the caller gets back
/// what was ready as its own values, not as indices into a `pollfd` array. Built afresh
/// for each wait, as the set a loop watches changes from one turn to the next.
///
/// swift-system has no poll; this is the small shim the project keeps for it.
public struct PollSet<Slot> {
    private var descriptors: [pollfd] = []
    private var slots: [Slot] = []

    public init() {}

    /// Watches `descriptor` for `events` (none: only errors and hang-ups) as `slot`.
    public mutating func watch(_ descriptor: FileDescriptor, for events: PollEvents, as slot: Slot) {
        descriptors.append(pollfd(fd: descriptor.rawValue, events: events.rawValue, revents: 0))
        slots.append(slot)
    }

    /// Waits until something is ready or `timeout` seconds pass (nil: no limit), and
    /// returns what was ready. A signal's interruption returns nothing ready, as a timeout
    /// does: the caller's loop goes round again.
    public mutating func wait(timeout: Double?) throws(Errno) -> [(slot: Slot, events: PollEvents)] {
        let milliseconds = timeout.map { Int32(min(Double(Int32.max), max(0, $0 * 1000)).rounded(.up)) } ?? -1
        let count = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        if count < 0 {
            let error = Errno(rawValue: errno)
            if error == .interrupted { return [] }
            throw error
        }
        return zip(descriptors, slots).compactMap { descriptor, slot in
            descriptor.revents == 0 ? nil : (slot, PollEvents(rawValue: descriptor.revents))
        }
    }
}
