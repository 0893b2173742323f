import ArgumentParser
import OrientdCore
import OrientdIO
import OrientdOptions

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a configuration file, or print the flags it stands for.",
        discussion: """
            The file (/etc/orientd.conf, or --config, or $ORIENTD_CONFIG) holds run's \
            flags as 'key = value' lines; 'man orientd.conf' lists every key.

            Examples:
              orientd config check /etc/orientd.conf
              orientd config show
              orientd config parameters
            """,
        subcommands: [Check.self, Show.self, Parameters.self],
        defaultSubcommand: Check.self
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a configuration file; every bad line is named (FILE:LINE).",
            discussion: """
                Exit status 0 when every line is a valid setting, 78 when not, 66 when the \
                file cannot be read.

                Examples:
                  orientd config check
                  orientd config check ./orientd.conf
                """
        )

        @Argument(help: ArgumentHelp("The file (default: $ORIENTD_CONFIG, else /etc/orientd.conf).", valueName: "file"))
        var path: String?

        func run() throws {
            let path = ConfigurationSettings.location(given: path).path
            if case .failure(let failure) = ConfigurationSettings.readText(path) {
                Diagnostics().error("\(path): \(failure.message)")
                throw ExitCode(ExitStatus.noInput)
            }
            switch ConfigurationSettings.load(path) {
            case .success(let loaded):
                print("\(path): \(loaded.file.entries.count) setting(s), all valid")
            case .failure(let issues):
                let diagnostics = Diagnostics(warningLimit: .max)
                issues.list.forEach { diagnostics.error($0.description) }
                throw ExitCode(ExitStatus.configuration)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the run command line a configuration file stands for.",
            discussion: "Example: orientd config show ./orientd.conf"
        )

        @Argument(help: ArgumentHelp("The file (default: $ORIENTD_CONFIG, else /etc/orientd.conf).", valueName: "file"))
        var path: String?

        func run() throws {
            let path = ConfigurationSettings.location(given: path).path
            switch ConfigurationSettings.load(path) {
            case .success(let loaded):
                print((["orientd", "run"] + loaded.arguments.map(Self.quoted)).joined(separator: " "))
            case .failure(let issues):
                let diagnostics = Diagnostics(warningLimit: .max)
                issues.list.forEach { diagnostics.error($0.description) }
                throw ExitCode(ExitStatus.configuration)
            }
        }

        static func quoted(_ word: String) -> String {
            word.allSatisfy { $0.isLetter || $0.isNumber || "-_./,=:".contains($0) } ? word : "'" + word.replacingQuote() + "'"
        }
    }
}

extension Config {
    struct Parameters: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the classifier's parameters: each key, its default, unit and bounds, and what it does.",
            discussion: """
                Each is a key of the file and a flag of run, replay, explain and orientd-lab evaluate \
                with the same value. --json prints one object a line for scripts (with the \
                values scripts/sweep-parameters tries, and the naive classifier's).

                Examples:
                  orientd config parameters
                  orientd config parameters --json | jq -r 'select(.unit == "s") | .name'
                """
        )

        @Flag(help: "One JSON object a line: name, unit, default, bound, summary, sweep, naive.")
        var json = false

        func run() throws {
            if json {
                for parameter in ClassifierParameter.all { print(String(decoding: parameter.jsonLine.dropLast(), as: UTF8.self)) }
                return
            }
            let nameWidth = (ClassifierParameter.all.map(\.name.count).max() ?? 0) + 2
            let pad = { (text: String, width: Int) in text + String(repeating: " ", count: max(1, width - text.count)) }
            for parameter in ClassifierParameter.all {
                print(pad(parameter.name, nameWidth) + pad("\(parameter.defaultText) (\(parameter.boundText))", 28) + parameter.summary)
            }
        }
    }
}

extension String {
    fileprivate func replacingQuote() -> String {
        var out = ""
        for c in self { out += c == "'" ? "'\\''" : String(c) }
        return out
    }
}
