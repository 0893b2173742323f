import OrientdCore

/// The accelerometer part: it turns the true specific force in the device frame into the
/// numbers the driver reports in the sensor's own axes.
///
/// Order of the chain, as in a real part: the mounting (the sensor's axes are not the
/// device's), sensitivity and zero-g offset errors, saturation of the analog front end,
/// the digital filter (done by the caller, which averages `analog` values), then noise
/// and the ADC's quantisation.
struct SensorModel: Sendable {
    let inverseMount: MountMatrix
    let scale: Vector3
    let bias: Vector3
    let noise: Double
    let lsb: Double
    let range: Double

    init(settings: SensorSettings, generator: inout Xoshiro256StarStar) {
        // The parser rejects matrices without an inverse.
        inverseMount = (settings.mountMatrix ?? .identity).inverse ?? .identity
        func draw(_ perAxis: SensorSettings.PerAxis) -> Vector3 {
            switch perAxis {
            case .fixed(let v):
                return v
            case .random(let limit):
                var axes: [Double] = []
                for _ in 0..<3 { axes.append(generator.sign() * generator.uniform(0.3, 1) * limit) }
                return Vector3(axes[0], axes[1], axes[2])
            }
        }
        bias = draw(settings.bias)
        let error = draw(settings.scaleError)
        scale = Vector3(1 + error.x, 1 + error.y, 1 + error.z)
        noise = settings.noise
        lsb = settings.lsb
        range = settings.range
    }

    /// The analog signal on the sensor's axes for a true device-frame reading.
    func analog(_ corrected: Vector3) -> Vector3 {
        let raw = inverseMount.apply(corrected)
        return Vector3(
            clip(raw.x * scale.x + bias.x),
            clip(raw.y * scale.y + bias.y),
            clip(raw.z * scale.z + bias.z))
    }

    /// The reported value for a (filtered) analog value.
    func digitize(_ analog: Vector3, noise source: inout GaussianNoise) -> Vector3 {
        var v = analog
        if noise > 0 {
            v = Vector3(v.x + noise * source.next(), v.y + noise * source.next(), v.z + noise * source.next())
        }
        return Vector3(quantize(clip(v.x)), quantize(clip(v.y)), quantize(clip(v.z)))
    }

    private func clip(_ v: Double) -> Double { max(-range, min(range, v)) }

    private func quantize(_ v: Double) -> Double {
        guard lsb > 0 else { return v }
        let q = (v / lsb).rounded() * lsb
        // No "-0.0000" in the recording.
        return q == 0 ? 0 : q
    }
}
