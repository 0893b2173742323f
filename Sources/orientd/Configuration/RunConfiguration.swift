import OrientdCore

/// The configuration file `run` started with, and the command line's own flags: a reload
/// (SIGHUP) reads the same file again and puts the same flags after it.
struct RunConfiguration {
    var path: String
    /// The command line's flags after `run`; after the file's, so they win.
    var flags: [String]
    /// The file's settings that take a restart, as last read, for naming those a reload
    /// could not apply.
    var restartOnly: [String: [String]]

    /// Reads the file once: the configuration, and `run`'s arguments that the file and
    /// the flags stand for together.
    static func load(path: String, flags: [String]) -> Result<(RunConfiguration, arguments: [String]), ConfigurationSettings.Issues> {
        ConfigurationSettings.load(path).map { loaded in
            var restartOnly: [String: [String]] = [:]
            for entry in loaded.file.entries where ConfigurationSettings.restartOnly.contains(entry.key) {
                restartOnly[entry.key, default: []].append(entry.value)
            }
            return (RunConfiguration(path: path, flags: flags, restartOnly: restartOnly), loaded.arguments + flags)
        }
    }

    /// The command line's flags after `run` (which may be left out: it is the default command).
    static var commandLineFlags: [String] {
        let arguments = CommandLine.arguments.dropFirst()
        return Array(arguments.first == "run" ? arguments.dropFirst() : arguments)
    }
}
