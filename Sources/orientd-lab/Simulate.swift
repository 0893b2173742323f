import ArgumentParser
import OrientdCore
import OrientdIO
import OrientdSimulation
import SystemPackage

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Synthesise a labelled recording from a scenario, with a physical model.",
        discussion: """
            A scenario is a small text file of poses, motions and disturbances (walking, a \
            bus, taps, shaking); Recordings/README.md describes the language. The model adds \
            gravity in the device's attitude, motion accelerations, sensor noise, bias, scale \
            error and quantisation, and labels each sample with the pose a careful observer \
            would name ('-' while moving). The same scenario and seed give the same bytes.

            Examples:
              orientd-lab simulate Recordings/scenarios/riding-a-bus.scenario > bus.csv
              orientd-lab simulate my.scenario --seed 3 --output Recordings/my.csv
            """
    )

    @Argument(help: ArgumentHelp("The scenario file.", valueName: "scenario"))
    var scenarioPath: String

    @Option(help: "The random seed; each seed is another take of the same scenario.")
    var seed: UInt64 = 1

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the recording here instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        EventOutput.ignoreBrokenPipeSignal()
        let diagnostics = Diagnostics()
        let text: String
        do {
            text = try Self.readText(scenarioPath)
        } catch {
            diagnostics.error("cannot read scenario '\(scenarioPath)': \(error)")
            throw ExitCode(ExitStatus.noInput.rawValue)
        }
        let scenario: Scenario
        do {
            scenario = try Scenario(parsing: text, source: scenarioPath)
        } catch {
            diagnostics.error(error.description)
            throw ExitCode(ExitStatus.dataError.rawValue)
        }
        let descriptor: FileDescriptor
        if let output {
            do {
                descriptor = try FileDescriptor.open(
                    FilePath(output), .writeOnly, options: [.create, .truncate, .closeOnExec],
                    permissions: [.ownerReadWrite, .groupRead, .otherRead])
            } catch {
                diagnostics.error("cannot write '\(output)': \(error)")
                throw ExitCode(ExitStatus.cannotCreate.rawValue)
            }
        } else {
            descriptor = .standardOutput
        }
        defer { if output != nil { try? descriptor.close() } }
        let sink = EventOutput(descriptor: descriptor)
        do {
            try Simulator(scenario: scenario, seed: seed).render { chunk in try sink.write(chunk) }
        } catch is EventOutput.ConsumerGone {
            diagnostics.note("standard output was closed by its reader; stopping")
        }
    }

    static func readText(_ path: String) throws(Errno) -> String {
        do {
            return String(decoding: try WholeFile.read(path, limit: 1 << 20), as: UTF8.self)
        } catch {
            switch error {
            case .missing: throw .noSuchFileOrDirectory
            case .unreadable(let errno): throw errno
            case .tooLarge: throw .fileTooLarge
            }
        }
    }
}
