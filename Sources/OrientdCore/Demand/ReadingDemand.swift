/// Who consumes orientation, and so whether the sensors are read at all.
///
/// Reading costs power even on an idle machine: a 50 Hz sensor wakes the CPU 50 times a
/// second and keeps the kernel from runtime-suspending the sensor (a HID sensor hub
/// stays "active"). So, as iio-sensor-proxy reads only while a client has claimed the
/// sensor, orientd reads only while something acts on what it decides:
/// - standard output, when it is a real reader (a pipe, a terminal, a file), not the
///   journal (where a service's standard output goes) and not /dev/null;
/// - a socket subscriber (`monitor`);
/// - a hook (`--exec`): it acts on every change of screen.
///
/// Not a consumer: a client that only holds a request or a lock, or asks `orientation`
/// once. A request or a lock bounds what the screen may be, but without a subscriber or
/// a hook nothing turns the screen, so a fresher pose would change nothing anyone sees;
/// the one who does turn it is a subscriber or a hook, and brings the reading back.
/// The tablet-mode switch is not governed by this: it is read from an input device that
/// costs nothing until it moves.
public struct ReadingDemand: Hashable, Sendable {
    /// What standard output is.
    public enum StandardOutput: Hashable, Sendable {
        /// A pipe, a terminal or a file: someone reads the events.
        case consumer
        /// The journal (systemd's `JOURNAL_STREAM`): a log, not a consumer.
        case journal
        /// /dev/null or closed.
        case discarded
    }

    /// One kind of consumer, as `status` names it.
    public enum Consumer: String, Hashable, Sendable, CaseIterable {
        case standardOutput = "standard-output"
        case subscribers
        case hooks
    }

    /// The consumers there are now, in `Consumer`'s order; empty: nothing is read.
    public let consumers: [Consumer]

    /// `subscribers` counts the socket clients that sent `monitor`; `hooks` the
    /// configured `--exec` commands.
    public init(standardOutput: StandardOutput, subscribers: Int, hooks: Int) {
        var consumers: [Consumer] = []
        if standardOutput == .consumer { consumers.append(.standardOutput) }
        if subscribers > 0 { consumers.append(.subscribers) }
        if hooks > 0 { consumers.append(.hooks) }
        self.consumers = consumers
    }

    /// Whether the sensors should be read.
    public var reading: Bool { !consumers.isEmpty }
}
