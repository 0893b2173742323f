import ArgumentParser
import Glibc
import OrientdCore

/// How `orientd` was asked to run the daemon: the command line's own arguments and the
/// configuration file that goes before them. Worked out from the process's arguments, so
/// a reload (SIGHUP) reads the same file and keeps the same flags.
struct RunInvocation {
    /// The arguments after `run` (or all of them when `run` was implied).
    var userArguments: [String]
    /// The configuration file, nil with --no-config or when the default one is absent.
    var configurationPath: String?

    /// nil when the command line is not `run` (another subcommand, --help, --version).
    init?(arguments: [String]) {
        if arguments.first == "run" {
            userArguments = Array(arguments.dropFirst())
        } else if let first = arguments.first {
            let topLevel: Set = ["-h", "--help", "--version", "--generate-completion-script", "--experimental-dump-help", "help"]
            guard first.hasPrefix("-"), !topLevel.contains(first), !first.hasPrefix("--generate-completion-script") else {
                return nil
            }
            userArguments = arguments
        } else {
            userArguments = []
        }
        if userArguments.contains("-h") || userArguments.contains("--help") {
            configurationPath = nil
            return
        }
        switch ConfigurationSettings.path(in: userArguments) {
        case nil:
            configurationPath = nil
        case (let path, let explicit)?:
            configurationPath = explicit || access(path, F_OK) == 0 ? path : nil
        }
    }

    static var current: RunInvocation? { RunInvocation(arguments: Array(CommandLine.arguments.dropFirst())) }

    /// What the file and the command line say together, from one reading of the file.
    struct Resolved {
        /// `run`'s whole command line: the file's settings, then the user's flags (which win).
        var arguments: [String]
        /// The file's settings that take a restart, for telling what a reload skipped.
        var restartOnly: [String: [String]]
    }

    func resolve() -> Result<Resolved, ConfigurationSettings.Issues> {
        guard let configurationPath else { return .success(Resolved(arguments: ["run"] + userArguments, restartOnly: [:])) }
        return ConfigurationSettings.load(configurationPath).map { loaded in
            var restartOnly: [String: [String]] = [:]
            for entry in loaded.file.entries where ConfigurationSettings.restartOnly.contains(entry.key) {
                restartOnly[entry.key, default: []].append(entry.value)
            }
            return Resolved(arguments: ["run"] + loaded.arguments + userArguments, restartOnly: restartOnly)
        }
    }
}
