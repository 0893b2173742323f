import OrientdCore
import OrientdIO
import SystemPackage

/// Watches the kernel's tablet-mode switches (`SW_TABLET_MODE`, as intel-vbtn,
/// intel-hid, thinkpad_acpi, asus-wmi, hp-wmi and lenovo-ymc report it) on a thread of
/// its own and reports them as `SwitchEvent`s: found at start or hot-plugged (udev's
/// `input` subsystem), toggled, gone.
///
/// The thread sleeps in poll(2) on the switches, the udev monitor and a stop signal: a
/// switch that never moves costs nothing.
public struct SwitchReader: Sendable {
    private let stopSignal: WakeUp

    public init() throws(Errno) {
        stopSignal = try WakeUp()
    }

    /// Starts the thread; `handle` is called on it with every event, then `finished` once
    /// everything it opened is closed. Throws, calling neither, when no thread can be made.
    public func start(
        _ handle: @escaping @Sendable (SwitchEvent) -> Void, finished: @escaping @Sendable () -> Void = {}
    ) throws(BackgroundThread.Refusal) {
        let stopSignal = stopSignal
        try BackgroundThread.start(name: "switches") {
            var loop = SwitchLoop(stop: stopSignal, emit: handle)
            loop.run()
            withExtendedLifetime(loop) {}
            finished()
        }
    }

    /// Ends the thread at once (the signal wakes its poll).
    public func stop() { stopSignal.signal() }
}
