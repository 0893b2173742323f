import ArgumentParser

@main
struct Orientd: ParsableCommand {
    static let version = "0.1.0"

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
              orientd replay --fast --lock portrait Recordings/lying-in-bed.csv | jq -r .screen
              orientd evaluate Recordings/*.csv
              orientd simulate Recordings/scenarios/riding-a-bus.scenario --seed 7 > bus.csv
            """,
        version: version,
        subcommands: [Run.self, List.self, Record.self, Replay.self, Ctl.self, Monitor.self, Evaluate.self, Simulate.self],
        defaultSubcommand: Run.self
    )
}
