import FuzzSupport
import OrientdCore

// A mount matrix comes from udev's hwdb (ACCEL_MOUNT_MATRIX), the kernel's sysfs
// mount_matrix, a recording's header, --mount-matrix and the configuration file. The
// input is that text; a matrix that parses is then checked against what the rest of
// orientd relies on.

// Gravity along each axis and a diagonal, as a sensor reads them, and a reading far out
// of range, as a recording can carry.
let probes = [
    Vector3(0, -9.81, 0), Vector3(9.81, 0, 0), Vector3(0, 0, 9.81), Vector3(-5.66, 5.66, -5.66),
    Vector3(1e6, -1e6, 1e6),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    // Optional because libFuzzer may pass a null pointer with an empty input.
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    guard let matrix = try? MountMatrix(parsing: text) else { return 0 }
    require(
        matrix.row0.isFinite && matrix.row1.isFinite && matrix.row2.isFinite,
        "'\(text)' parsed with a non-finite entry: \(matrix)")

    // The simulator writes a matrix into a recording's header as its description, and
    // replay parses it back: the two must give the same matrix.
    let reread = try? MountMatrix(parsing: matrix.description)
    require(reread == matrix, "'\(matrix)' (from '\(text)') reads back as \(reread.map(\.description) ?? "an error")")

    let findings = matrix.findings
    for finding in findings {
        // The message names the row by subscripting, so it must be a row that exists.
        _ = finding.description
        if case .singular = finding {
            require(abs(matrix.determinant) < 1e-6, "called singular with determinant \(matrix.determinant)")
        }
    }
    // No findings promises a rotation or a mirror: rows of unit length within 1e-3 and
    // pairwise dot products under 1e-3 keep every squared length within 0.3%, and the
    // determinant near ±1. orientd then uses the matrix without a warning.
    if findings.isEmpty {
        require(abs(abs(matrix.determinant) - 1) < 0.01, "no findings, but determinant \(matrix.determinant)")
        for probe in probes {
            let corrected = matrix.apply(probe)
            require(corrected.isFinite, "\(matrix) turns \(probe) into \(corrected)")
            let ratio = corrected.squaredLength / probe.squaredLength
            require(abs(ratio - 1) < 0.004, "no findings, but \(matrix) scales squared lengths by \(ratio)")
        }
    }
    // orientd runs with any matrix without a fatal finding, only warning about the others,
    // so the classifier must cope with what they make of real readings: scaled far out
    // of range, or infinite and NaN once huge entries overflow.
    if !findings.contains(where: \.isFatal) {
        var pipeline = OrientationPipeline(mountMatrix: matrix)
        for step in 0..<50 {
            _ = pipeline.process(Sample(time: Double(step) * 0.05, acceleration: probes[step / 10]))
        }
    }
    if matrix.isIdentity {
        for probe in probes { require(matrix.apply(probe) == probe, "the identity moves \(probe)") }
    }
    return 0
}
