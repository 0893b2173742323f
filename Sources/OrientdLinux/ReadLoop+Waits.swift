import CIIO
import OrientdCore
import OrientdIO
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// How the sensor thread waits: one poll(2) over the stop signal, udev, the reading gate,
/// the resume alarm and the sensor, and what each wake-up means.
extension ReadLoop {
    /// What woke the thread in `wait`.
    struct Wake {
        /// poll(2)'s result: the number of descriptors ready, 0 on time-out, -1 on error.
        var ready: Int32
        var interrupted: Bool
        var stop: Bool
        var hotPlug: Bool
        /// The reading gate's doorbell rang: `drainGate()` says what it means.
        var gate: Bool
        /// The system resumed from a suspend, or the wall clock was set (`ResumeAlarm`,
        /// acknowledged already).
        var resumed: Bool
        /// The data descriptor's returned events.
        var data: Int16
        var timedOut: Bool { ready == 0 }
    }

    /// Waits in poll(2) until the stop signal, the udev monitor, the reading gate, the
    /// resume alarm or `data` is ready, or `milliseconds` pass (-1: no limit). The one
    /// place that builds the descriptors; a tuple rather than an array, as this runs for
    /// every sample (and so not `PollSet`, which builds arrays for each wait). Mutating
    /// only so that the loop is handed over by reference: called without, from the read
    /// loops, it had the whole loop (272 bytes) copied to the stack at every wait.
    mutating func wait(milliseconds: Int32, data: FileDescriptor? = nil) -> Wake {
        var fds = (
            pollfd(fd: stop.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: monitor?.descriptor.rawValue ?? -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: gate.doorbell.descriptor.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: resume?.descriptor.rawValue ?? -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: data?.rawValue ?? -1, events: Int16(POLLIN), revents: 0)
        )
        let count: nfds_t = data == nil ? 4 : 5
        let ready = withUnsafeMutableBytes(of: &fds) { bytes in
            // A tuple of five pollfds is laid out as an array of them (homogeneous
            // tuples are), and its buffer is never empty.
            poll(bytes.baseAddress!.assumingMemoryBound(to: pollfd.self), count, milliseconds)
        }
        let interrupted = ready < 0 && errno == EINTR
        let resumed = fds.3.revents != 0
        if resumed { resume?.acknowledge() }
        return Wake(
            ready: ready, interrupted: interrupted, stop: fds.0.revents != 0, hotPlug: fds.1.revents != 0,
            gate: fds.2.revents != 0, resumed: resumed, data: fds.4.revents)
    }

    /// What a wake-up means for reading `id`: asked to stop, udev ending the device
    /// (`drainUdev(for:)`), or the gate closed (`drainGate()`); nil: read on.
    mutating func end(after wake: Wake, reading id: String) -> ReadEnd? {
        if wake.stop { return .stopped }
        if wake.hotPlug, let end = drainUdev(for: id) { return end }
        if wake.gate, drainGate() == .closed { return .paused }
        return nil
    }

    enum GatePosition { case open, closed }

    /// After the gate's doorbell rang: silences it, then reads where the gate stands.
    /// Drained before the flag is read, so a change made meanwhile rings again.
    func drainGate() -> GatePosition {
        gate.doorbell.drain()
        return gate.isOpen ? .open : .closed
    }

    /// Blocks until udev reports an IIO device added (or, without udev, a few seconds
    /// pass); false when asked to stop.
    mutating func waitForHotPlug() -> Bool {
        // What the discovery before used of this thread's stack, it does not need while
        // it waits (a 2-in-1's base reader may wait for good).
        ResidentMemory.releaseUnusedThreadStack()
        guard let monitor else {
            return sleepOrStop(seconds: 2)
        }
        while true {
            let wake = wait(milliseconds: -1)
            if wake.interrupted { continue }
            if wake.stop { return false }
            if wake.gate { _ = drainGate() }
            while let event = monitor.receive() {
                note(event)
                if event.action == .add || event.action == .change { return true }
            }
        }
    }

    /// Sleeps `seconds`; false when asked to stop meanwhile.
    func sleepOrStop(seconds: Double) -> Bool { !stop.wait(seconds: seconds) }

    /// While the gate is closed: waits for it to open (nil), the stop signal, or udev
    /// saying the device went away. Nothing but the udev monitor and the two signals is
    /// watched, so an idle sensor costs no wake-up.
    mutating func waitForGate(_ id: String) -> ReadEnd? {
        while true {
            if drainGate() == .open { return nil }
            let wake = wait(milliseconds: -1)
            if wake.interrupted { continue }
            if wake.stop { return .stopped }
            if wake.hotPlug, let end = drainUdev(for: id) { return end }
        }
    }
}
