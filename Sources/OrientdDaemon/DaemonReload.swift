import OrientdCore

extension Daemon {
    /// What a configuration reload can change without a restart.
    public struct Reload {
        public var supported: RotationSet
        public var rotateIn: RotateIn
        public var parameters: ClassifierParameters
        public var suggestionTimeout: Double
        public var hooks: [HookCommand]
        public var hookTimeout: Double
        /// Settings that changed but take a restart (the sensor, the socket...).
        public var needsRestart: [String]
        public var source: String

        public init(
            supported: RotationSet, rotateIn: RotateIn, parameters: ClassifierParameters, suggestionTimeout: Double,
            hooks: [HookCommand], hookTimeout: Double, needsRestart: [String], source: String
        ) {
            self.supported = supported
            self.rotateIn = rotateIn
            self.parameters = parameters
            self.suggestionTimeout = suggestionTimeout
            self.hooks = hooks
            self.hookTimeout = hookTimeout
            self.needsRestart = needsRestart
            self.source = source
        }
    }

    public enum ReloadResult {
        case applied(Reload)
        /// The file is broken: nothing changes, and the message says where.
        case failed(String)
    }
}
