/// How an accelerometer is read.
public enum SensorReadPath: String, Sendable {
    /// Scans through the kernel buffer (`/dev/iio:deviceN`): no polling.
    case buffered
    /// `in_accel_*_raw` read at a fixed rate.
    case polled
}
