/// The parts of a running daemon's `status` reply that say why the screen does not
/// turn (`orientd doctor`): the lock, the apps' requests, a convertible's mode, hooks.
public struct DaemonStatus: Decodable, Equatable, Sendable {
    public struct Request: Decodable, Equatable, Sendable {
        public var by: String
        public var requested: [String]

        public init(by: String, requested: [String]) {
            self.by = by
            self.requested = requested
        }
    }

    /// A hook of the last batch that did not end well.
    public struct FailedHook: Decodable, Equatable, Sendable {
        public var command: String
        public var error: String

        public init(command: String, error: String) {
            self.command = command
            self.error = error
        }
    }

    /// `sensor-trouble`: the display sensor's silent buffer, if it has one.
    public struct Trouble: Decodable, Equatable, Sendable {
        /// `stalled`, `hung` (it answers no request either), `polled` (read polled
        /// meanwhile), or `frozen` (its values do not update): `kind`. A string, so that a
        /// newer daemon's trouble still decodes.
        public var state: String
        /// The trouble `state` names, nil for one this doctor does not know.
        public var kind: SensorTrouble.Kind? { SensorTrouble.Kind(rawValue: state) }
        public var device: String
        /// Seconds since its buffer last sent (frozen: since its values last changed).
        public var silent: Double

        public init(state: String, device: String, silent: Double) {
            self.state = state
            self.device = device
            self.silent = silent
        }
    }

    public var type: String
    public var device: String
    public var lock: [String]?
    public var requests: [Request]
    public var mode: String?
    public var modeSource: String?
    public var rotateIn: String
    public var decided: String
    public var source: String?
    public var reading: Bool
    public var hookCommands: [String]
    public var failedHooks: [FailedHook]
    public var sensorTrouble: Trouble?

    enum CodingKeys: String, CodingKey {
        case type, device, lock, requests, mode, decided, source, reading
        case modeSource = "mode-source"
        case rotateIn = "rotate-in"
        case hookCommands = "hook-commands"
        case failedHooks = "hooks-failed"
        case sensorTrouble = "sensor-trouble"
    }

    public init(
        type: String, device: String, lock: [String]? = nil, requests: [Request] = [], mode: String? = nil, modeSource: String? = nil,
        rotateIn: String = "tablet", decided: String = "device", source: String? = nil, reading: Bool = true, hookCommands: [String] = [],
        failedHooks: [FailedHook] = [], sensorTrouble: Trouble? = nil
    ) {
        self.type = type
        self.device = device
        self.lock = lock
        self.requests = requests
        self.mode = mode
        self.modeSource = modeSource
        self.rotateIn = rotateIn
        self.decided = decided
        self.source = source
        self.reading = reading
        self.hookCommands = hookCommands
        self.failedHooks = failedHooks
        self.sensorTrouble = sensorTrouble
    }
}
