import ArgumentParser
import OrientdCore

public struct MountMatrixOption: ParsableArguments, Sendable {
    @Option(
        name: .customLong("mount-matrix"),
        help: ArgumentHelp(
            "Override the sensor's mount matrix (rows separated by ';').",
            discussion:
                "Applied as corrected = M · raw, row i giving axis i, as in systemd's hwdb. Example: --mount-matrix '0, -1, 0; -1, 0, 0; 0, 0, 1'",
            valueName: "matrix"))
    public var text: String?

    public init() {}

    public var matrix: MountMatrix? {
        get throws { try Self.parse(text, flag: "--mount-matrix") }
    }

    public func validate() throws { try Self.check(text, flag: "--mount-matrix") }

    public static func parse(_ text: String?, flag: String) throws -> MountMatrix? {
        guard let text else { return nil }
        do {
            return try MountMatrix(parsing: text)
        } catch {
            throw ValidationError("\(flag): \(error.message)")
        }
    }

    public static func check(_ text: String?, flag: String) throws {
        guard let matrix = try parse(text, flag: flag) else { return }
        if let fatal = matrix.findings.first(where: \.isFatal) {
            throw ValidationError("\(flag): \(fatal)")
        }
    }
}

/// The base accelerometer's mount matrix, for a convertible's hinge angle: only `run`
/// and `list` read that sensor.
public struct BaseMountMatrixOption: ParsableArguments, Sendable {
    @Option(
        name: .customLong("base-mount-matrix"),
        help: ArgumentHelp(
            "Override the base accelerometer's mount matrix (a 2-in-1's keyboard half).",
            discussion:
                "As --mount-matrix, for the sensor 'orientd list' shows with location base; docs/layers.md, \"2-in-1\", says how to check it. Example: --base-mount-matrix '1, 0, 0; 0, -1, 0; 0, 0, -1'",
            valueName: "matrix"))
    public var text: String?

    public init() {}

    public var matrix: MountMatrix? {
        get throws { try MountMatrixOption.parse(text, flag: "--base-mount-matrix") }
    }

    public func validate() throws { try MountMatrixOption.check(text, flag: "--base-mount-matrix") }
}
