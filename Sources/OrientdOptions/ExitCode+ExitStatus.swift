import ArgumentParser
import OrientdCore

extension ExitCode {
    /// The command ends with one of orientd's named statuses.
    public init(_ status: ExitStatus) { self.init(status.rawValue) }
}
