import OrientdIO
import Synchronization
import SystemPackage

/// Whether a sensor thread should read its sensor now, set from another thread
/// (`ReadingDemand`), with a doorbell that wakes the thread's poll(2) when it changes.
///
/// The flag is an atomic and the doorbell a `WakeUp`, itself Sendable: that is what
/// makes this Sendable. The thread reads the flag after draining the doorbell, so a
/// change made while it was busy is seen at its next wait.
final class ReadingGate: Sendable {
    private let open: Atomic<Bool>
    let doorbell: WakeUp

    init(open: Bool) throws(Errno) {
        self.open = Atomic(open)
        doorbell = try WakeUp()
    }

    var isOpen: Bool { open.load(ordering: .acquiring) }

    func set(_ reading: Bool) {
        guard open.exchange(reading, ordering: .acquiringAndReleasing) != reading else { return }
        doorbell.signal()
    }
}
