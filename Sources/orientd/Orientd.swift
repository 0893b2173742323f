import ArgumentParser
import Glibc
import OrientdCore
import OrientdIO

@main
struct Orientd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientd",
        abstract: "Screen orientation from a Linux accelerometer, as one JSON object per line.",
        discussion: """
            orientd turns accelerometer readings into the device's pose (portrait, \
            landscape-left, portrait-upside-down, landscape-right, face-up, face-down), \
            applies a rotation lock, and prints each change of screen orientation as a \
            JSON line on standard output, ready for a rotation script. Diagnostics go to \
            standard error.

            Examples:
              orientd replay Recordings/turned-to-landscape-while-walking.csv
              orientd replay --fast --lock portrait Recordings/lying-in-bed.csv
              orientd run --socket /tmp/orientd.sock --exec orientd-rotate-sway
              orientd ctl --socket /tmp/orientd.sock lock landscape
              orientd monitor | orientd-rotate-x11
              orientd explain Recordings/tapping-while-reading.csv
            """,
        version: OrientdRelease.version,
        subcommands: [
            Run.self, List.self, Doctor.self, Calibrate.self, Record.self, Replay.self, Explain.self, Ctl.self, Monitor.self, Config.self,
        ],
        defaultSubcommand: Run.self
    )

    /// A misspelt command is named as one (not taken for `run`'s argument); the rest is
    /// swift-argument-parser's.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let commands = configuration.subcommands.map { $0._commandName } + ["help"]
        if let unknown = UnknownCommand(arguments: arguments, commands: commands) {
            Diagnostics().error(unknown.message)
            Diagnostics().note("commands: \(commands.joined(separator: ", ")); 'orientd --help' says what each does")
            Glibc.exit(ExitStatus.usage.rawValue)
        }
        main(arguments)
    }
}
