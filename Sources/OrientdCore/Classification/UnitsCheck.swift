/// Notices a stream whose readings are consistently not gravity: a sensor reporting counts
/// or g instead of m/s² (a missing or wrong scale). The classifier refuses such readings
/// one by one, which is safe but silent; this says why, once.
public struct UnitsCheck: Sendable {
    /// Readings looked at before judging.
    public let window: Int
    private var magnitudes: [Double] = []
    private var judged = false
    /// It said the readings are not gravity: readings far from it are that, not news.
    public private(set) var foundWrong = false

    public init(window: Int = 50) {
        self.window = max(1, window)
    }

    /// Feeds one reading (after calibration); returns a message once, when the median
    /// magnitude of the first `window` readings is below g/2 or above 2g.
    /// Inlined up to the judgement: once judged, every reading costs one test.
    @inline(__always)
    public mutating func check(_ reading: Vector3, gravity: Double = standardGravity) -> String? {
        guard !judged else { return nil }
        return judge(reading, gravity: gravity)
    }

    private mutating func judge(_ reading: Vector3, gravity: Double) -> String? {
        // All zero is no unit but a sensor sending nothing (ImplausibleReadings says so).
        guard reading.x != 0 || reading.y != 0 || reading.z != 0 else { return nil }
        magnitudes.append(reading.length)
        guard magnitudes.count >= window else { return nil }
        judged = true
        let median = magnitudes.sorted()[magnitudes.count / 2]
        magnitudes = []
        guard median < gravity / 2 || median > gravity * 2 else { return nil }
        foundWrong = true
        var text: [UInt8] = []
        RecordingWriter.appendFixed(median, decimals: 3, to: &text)
        var ratio: [UInt8] = []
        RecordingWriter.appendFixed(median / gravity, decimals: 3, to: &ratio)
        return
            "readings are about \(String(decoding: text, as: UTF8.self)) m/s² (\(String(decoding: ratio, as: UTF8.self)) g), not gravity: "
            + "the scale is probably wrong or missing, so no orientation can be decided"
    }
}
