import ArgumentParser
import OrientdCore
import OrientdIO

/// Builds the pipeline for a recording once its header is known: the mount matrix
/// (flag, else header, else identity, with its oddities reported), the natural
/// orientation, the supported set and the lock.
struct PipelineFactory {
    var policy: PolicyOptions
    var classifier: ClassifierOptions
    var mountMatrix: MountMatrixOption
    var diagnostics: Diagnostics

    /// Fatal input: the caller stops with EX_DATAERR.
    struct DataError: Error { var message: String }

    func make(
        header: RecordingHeader, headerMatrix: MountMatrix?, matrixLine: Int, source: String
    ) throws -> OrientationPipeline {
        let matrix: MountMatrix
        let place: String
        if let flag = try mountMatrix.matrix {
            matrix = flag
            place = "--mount-matrix"
        } else if let headerMatrix {
            matrix = headerMatrix
            place = "\(source):\(matrixLine): mount-matrix"
        } else {
            matrix = .identity
            place = ""
        }
        for finding in matrix.findings {
            if finding.isFatal {
                throw DataError(message: "\(place): \(finding); cannot use it (give --mount-matrix to override)")
            }
            diagnostics.warning("\(place): \(finding); using it as given")
        }
        let natural = try policy.resolvedNatural(header: header)
        var pipeline = OrientationPipeline(
            mountMatrix: matrix, parameters: classifier.parameters,
            supported: try policy.supportedSet(natural: natural), natural: natural)
        if let lock = try policy.lockSet(natural: natural) {
            let outcome = pipeline.lock(lock).outcome
            if outcome.overridesConfigured {
                diagnostics.warning(
                    "--lock \(policy.lock ?? ""): none of it is in --supported \(policy.supported ?? ""); the lock wins")
            }
        }
        return pipeline
    }
}
