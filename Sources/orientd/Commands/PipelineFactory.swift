import ArgumentParser
import OrientdCore
import OrientdIO

/// Builds the pipeline from the flags (and, for a recording, its header once known): the
/// mount matrix (flag, else header, else identity, with its oddities reported), the
/// natural orientation, the supported set, and the lock (the flag, else the saved one).
struct PipelineFactory: Sendable {
    var policy: PolicyOptions
    var classifier: ClassifierOptions
    var mountMatrix: MountMatrixOption
    /// The lock saved by an earlier run, applied when --lock is not given.
    var savedLock: RotationSet?

    /// Fatal input: the caller stops with EX_DATAERR.
    struct DataError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// A pipeline and what is worth a warning about how it was built.
    struct Made {
        var pipeline: OrientationPipeline
        var warnings: [String] = []
    }

    func make(
        header: RecordingHeader, headerMatrix: MountMatrix?, matrixLine: Int, source: String
    ) throws -> Made {
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
        var warnings: [String] = []
        for finding in matrix.findings {
            if finding.isFatal {
                throw DataError(message: "\(place): \(finding); cannot use it (give --mount-matrix to override)")
            }
            warnings.append("\(place): \(finding); using it as given")
        }
        var made = try make(natural: try policy.resolvedNatural(header: header), mountMatrix: matrix)
        made.warnings = warnings + made.warnings
        return made
    }

    func make(natural: NaturalOrientation, mountMatrix matrix: MountMatrix) throws -> Made {
        var made = Made(
            pipeline: OrientationPipeline(
                mountMatrix: matrix, parameters: classifier.parameters,
                supported: try policy.supportedSet(natural: natural), natural: natural, rotateIn: policy.rotateIn,
                suggestionTimeout: policy.suggestionTimeout))
        if let lock = try policy.lockSet(natural: natural) {
            if made.pipeline.lock(lock).outcome.overridesConfigured {
                made.warnings.append("--lock \(policy.lock ?? ""): none of it is in --supported \(policy.supported ?? ""); the lock wins")
            }
        } else if let savedLock {
            if made.pipeline.lock(savedLock).outcome.overridesConfigured {
                made.warnings.append("the saved lock has nothing in common with --supported \(policy.supported ?? ""); the lock wins")
            }
        }
        return made
    }
}
