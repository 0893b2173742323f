import ArgumentParser

/// orientd's laboratory: what measures the product and makes its test material, kept out
/// of the program that ships (`orientd`). Built with the package, never installed:
/// `swift run orientd-lab COMMAND`.
@main
struct OrientdLab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientd-lab",
        abstract: "orientd's laboratory: synthesise labelled recordings, and judge the classifier on them.",
        discussion: """
            Not part of the installed orientd: run it from a checkout with \
            'swift run orientd-lab COMMAND'.

            Examples:
              swift run orientd-lab simulate Recordings/scenarios/riding-a-bus.scenario --seed 7 > bus.csv
              swift run orientd-lab evaluate --table Recordings/*.csv
            """,
        subcommands: [Simulate.self, Evaluate.self]
    )
}
