import ArgumentParser
import OrientdCore

struct MountMatrixOption: ParsableArguments {
    @Option(
        name: .customLong("mount-matrix"),
        help: ArgumentHelp(
            "Override the sensor's mount matrix (rows separated by ';').",
            discussion:
                "Applied as corrected = M · raw, row i giving axis i, as in systemd's hwdb. Example: --mount-matrix '0, -1, 0; -1, 0, 0; 0, 0, 1'",
            valueName: "matrix"))
    var text: String?

    var matrix: MountMatrix? {
        get throws {
            guard let text else { return nil }
            do {
                return try MountMatrix(parsing: text)
            } catch {
                throw ValidationError("--mount-matrix: \(error.message)")
            }
        }
    }

    func validate() throws {
        guard let matrix = try matrix else { return }
        if let fatal = matrix.findings.first(where: \.isFatal) {
            throw ValidationError("--mount-matrix: \(fatal)")
        }
    }
}
