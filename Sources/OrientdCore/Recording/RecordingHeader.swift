/// The `#` lines at the top of a recording and its column line.
///
/// ```
/// # orientd-recording 1
/// # rate-hz: 50
/// # mount-matrix: 0, -1, 0; -1, 0, 0; 0, 0, 1
/// time,x,y,z
/// ```
/// Every `key: value` pair is kept in order, known or not, so that a recording can be
/// read and written again without losing what another tool put there.
public struct RecordingHeader: Sendable, Equatable {
    /// The format version this orientd reads and writes.
    public static let currentVersion = 1
    public static let magic = "orientd-recording"

    public var version: Int
    /// All `key: value` pairs, in file order.
    public var metadata: [Metadata]
    /// Whether the samples carry a fifth `expect` column.
    public var hasExpectColumn: Bool

    public struct Metadata: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(version: Int = RecordingHeader.currentVersion, metadata: [Metadata] = [], hasExpectColumn: Bool = false) {
        self.version = version
        self.metadata = metadata
        self.hasExpectColumn = hasExpectColumn
    }

    /// The value of the first pair with this key.
    public subscript(key: String) -> String? {
        get { metadata.first { $0.key == key }?.value }
        set {
            if let index = metadata.firstIndex(where: { $0.key == key }) {
                if let newValue { metadata[index].value = newValue } else { metadata.remove(at: index) }
            } else if let newValue {
                metadata.append(Metadata(key: key, value: newValue))
            }
        }
    }

    /// Well-known keys.
    public enum Key {
        public static let rate = "rate-hz"
        public static let mountMatrix = "mount-matrix"
        public static let device = "device"
        public static let description = "description"
        public static let natural = "natural"
        /// How the recording was made (a command line), for recordings that were generated.
        public static let generator = "generator"
        /// `offered` when the sensor offers a change sensitivity (`orientd record` says so):
        /// a replay then plays as on a sensor that watches for motion at rest.
        public static let changeSensitivity = "change-sensitivity"
    }

    /// Whether the recorded sensor offers a change sensitivity (`AdaptiveRate`'s watch).
    public var offersChangeSensitivity: Bool { self[Key.changeSensitivity] == "offered" }

    /// The nominal sample rate, if the header gives a positive number.
    public var rate: Double? {
        guard let text = self[Key.rate], let value = DecimalParser.value(of: text), value > 0 else { return nil }
        return value
    }

    /// The text `# orientd-recording 1` … `time,x,y,z[,expect]`, each line ending in `\n`.
    public var text: String {
        var out = "# \(Self.magic) \(version)\n"
        for pair in metadata {
            out += "# \(pair.key): \(pair.value)\n"
        }
        out += hasExpectColumn ? "time,x,y,z,expect\n" : "time,x,y,z\n"
        return out
    }
}
