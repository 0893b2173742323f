import ArgumentParser
import OrientdCore
import OrientdIO
import SystemPackage

/// `/etc/orientd.conf` turned into `run`'s flags. Every setting is a long flag of `run`
/// with the same value, so the file and the command line cannot disagree about what a
/// value means: the file's settings go first and the command line's after, and for a
/// setting given in both the command line wins (hooks add up).
enum ConfigurationSettings {
    static let defaultPath = "/etc/orientd.conf"

    enum Kind {
        /// `--key value`
        case option
        /// `--key value`, repeatable (hooks)
        case repeatable
        /// `--key` when the value is true
        case flag
    }

    /// The settings a file may hold: `run`'s flags, except those about the file itself.
    static let keys: [String: Kind] = {
        var keys: [String: Kind] = [:]
        for key in [
            "device", "uri", "rate", "supported", "rotate-in", "suggestion-timeout", "lock", "natural", "mount-matrix", "base-mount-matrix",
            "socket",
            "socket-group", "socket-mode", "exec-timeout", "state-directory", "rest-rate", "motion-threshold", "rest-after",
            "change-sensitivity",
        ] + ClassifierParameter.all.map(\.name) {
            keys[key] = .option
        }
        keys["exec"] = .repeatable
        for key in ["wait", "poll", "full-rate", "no-socket", "no-commands", "no-state"] { keys[key] = .flag }
        return keys
    }()

    /// Settings that a reload cannot change: they need a restart.
    static let restartOnly: Set<String> = [
        "device", "uri", "rate", "poll", "wait", "natural", "mount-matrix", "base-mount-matrix", "socket", "socket-group", "socket-mode",
        "no-socket", "no-commands", "state-directory", "no-state", "lock",
        // The reader thread keeps its schedule while it runs.
        "rest-rate", "motion-threshold", "rest-after", "change-sensitivity", "full-rate",
    ]

    /// The file's path: the one given (`--config`), else ORIENTD_CONFIG, else
    /// /etc/orientd.conf. `explicit` says whether a missing file is an error: only the
    /// default may be absent.
    static func location(given: String?) -> (path: String, explicit: Bool) {
        if let given { return (given, true) }
        if let env = Environment.value("ORIENTD_CONFIG") { return (env, true) }
        return (defaultPath, false)
    }

    /// The flags for one entry; nil (and a message) when the key or the value is wrong
    /// in a way the flags cannot say.
    static func arguments(for entry: ConfigurationFile.Entry) -> Result<[String], InputIssue> {
        func issue(_ message: String) -> Result<[String], InputIssue> {
            .failure(InputIssue(source: "", line: entry.line, message: message))
        }
        guard let kind = keys[entry.key] else {
            let known = keys.keys.sorted().joined(separator: ", ")
            return issue("unknown setting '\(entry.key)'; settings are run's long flags: \(known)")
        }
        switch kind {
        case .option, .repeatable:
            guard !entry.value.isEmpty else { return issue("\(entry.key): a value must be given") }
            return .success(["--\(entry.key)", entry.value])
        case .flag:
            switch entry.value.lowercased() {
            case "true", "yes", "on", "1", "": return .success(["--\(entry.key)"])
            case "false", "no", "off", "0": return .success([])
            default: return issue("\(entry.key): expected true or false, got '\(entry.value)'")
            }
        }
    }

    /// Reads and checks a file: the flags it stands for, or every problem, each naming
    /// FILE:LINE. A line whose value `run` refuses is reported with `run`'s own message.
    static func load(_ path: String) -> Result<(file: ConfigurationFile, arguments: [String]), Issues> {
        let text: String
        switch readText(path) {
        case .success(let t): text = t
        case .failure(let failure): return .failure(Issues(list: [InputIssue(source: path, line: 0, message: failure.message)]))
        }
        let file = ConfigurationFile(parsing: text, source: path)
        var issues = file.issues
        var arguments: [String] = []
        var seen: [String: Int] = [:]
        for entry in file.entries {
            switch Self.arguments(for: entry) {
            case .failure(var issue):
                issue.source = path
                issues.append(issue)
            case .success(let flags):
                if keys[entry.key] != .repeatable, let first = seen[entry.key] {
                    issues.append(InputIssue(source: path, line: entry.line, message: "\(entry.key) is already set on line \(first)"))
                    continue
                }
                seen[entry.key] = entry.line
                do {
                    _ = try Run.parse(flags)
                    arguments += flags
                } catch {
                    issues.append(InputIssue(source: path, line: entry.line, message: "\(entry.key): \(Run.message(for: error))"))
                }
            }
        }
        return issues.isEmpty ? .success((file, arguments)) : .failure(Issues(list: issues.sorted { $0.line < $1.line }))
    }

    /// The whole file; `.failure` with a message when it cannot be read.
    static func readText(_ path: String) -> Result<String, ReadFailure> {
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(path, limit: 1 << 20)
        } catch {
            switch error {
            case .missing: return .failure(ReadFailure(message: "cannot read: \(Errno.noSuchFileOrDirectory)", missing: true))
            case .unreadable(let errno): return .failure(ReadFailure(message: "cannot read: \(errno)", missing: false))
            case .tooLarge: return .failure(ReadFailure(message: "larger than 1 MiB: not a configuration file", missing: false))
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(ReadFailure(message: "not UTF-8 text", missing: false))
        }
        return .success(text)
    }

    /// Every problem of a file.
    struct Issues: Error {
        var list: [InputIssue]
    }

    struct ReadFailure: Error {
        var message: String
        var missing: Bool
    }
}
