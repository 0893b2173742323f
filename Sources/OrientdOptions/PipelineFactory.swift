import ArgumentParser
import OrientdCore

/// Builds the pipeline from the flags (and, for a recording, its header once known): the
/// mount matrix (flag, else header, else identity, with its oddities reported), the
/// natural orientation, the supported set, and the lock (the flag, else the saved one).
public struct PipelineFactory: Sendable {
    public var policy: PolicyOptions
    public var classifier: ClassifierOptions
    public var mountMatrix: MountMatrixOption
    /// The lock saved by an earlier run, applied when --lock is not given.
    public var savedLock: RotationSet?

    public init(
        policy: PolicyOptions, classifier: ClassifierOptions, mountMatrix: MountMatrixOption, savedLock: RotationSet? = nil
    ) {
        self.policy = policy
        self.classifier = classifier
        self.mountMatrix = mountMatrix
        self.savedLock = savedLock
    }

    /// Fatal input: the caller stops with EX_DATAERR.
    public struct DataError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// A pipeline and what is worth a warning about how it was built.
    public struct Made {
        public var pipeline: OrientationPipeline
        public var warnings: [String] = []
    }

    public func make(
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

    /// The pipeline maker of a replay of the recording read from `source` (explain, the
    /// lab's evaluate): `make(header:…)`, each warning handed to `warn`.
    public func maker(
        source: String, warn: @escaping (String) -> Void
    ) -> (RecordingHeader, MountMatrix?, Int) throws -> OrientationPipeline {
        { header, matrix, line in
            let made = try make(header: header, headerMatrix: matrix, matrixLine: line, source: source)
            made.warnings.forEach(warn)
            return made.pipeline
        }
    }

    public func make(natural: NaturalOrientation, mountMatrix matrix: MountMatrix) throws -> Made {
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
