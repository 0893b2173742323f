import ArgumentParser
import OrientdCore
import OrientdIO
import OrientdLinux
import OrientdOptions

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show every accelerometer orientd can see, and which one 'run' would read.",
        discussion: """
            For each: IIO device, name, label, location (display or base) and where that \
            came from, mount matrix and its source, scale and offset and their sources, \
            sampling frequency, whether it is read buffered or polled, and one reading \
            after calibration and mount matrix. On a 2-in-1: the hinge angle the display \
            and base sensors give now, and the tablet-mode switches with their position. \
            Nothing is changed on the devices. Exit status 0 when 'run' would find a \
            display accelerometer to read, 69 (as 'run' exits) when it would not, after \
            printing what it found.

            Examples:
              orientd list
              orientd list --json | jq -r '.[] | select(.chosen) | .device'
              orientd list --uri ip:192.168.1.20
            """
    )

    @Flag(help: ArgumentHelp("Print a JSON array instead of text.", discussion: "Example: orientd list --json | jq ."))
    var json = false

    @OptionGroup(title: "Sensor") var sensor: SensorOptions
    @OptionGroup(title: "Calibration") var mountMatrix: MountMatrixOption
    @OptionGroup(title: "Calibration") var baseMountMatrix: BaseMountMatrixOption

    func run() throws {
        let display = AccelerometerDiscovery(uri: sensor.uri, mountMatrixOverride: try mountMatrix.matrix, rate: sensor.rate)
        let base = AccelerometerDiscovery(uri: sensor.uri, mountMatrixOverride: try baseMountMatrix.matrix, rate: sensor.rate)
        let inventory: ListInventory
        do {
            inventory = try ListInventory.read(display: display, base: base, uri: sensor.uri, requested: sensor.device)
        } catch {
            Diagnostics().error("cannot list accelerometers: \(error)")
            throw ExitCode(ExitStatus.unavailable)
        }
        print(json ? inventory.json : inventory.text, terminator: "")
        // list's status answers "would run find a sensor?" as run's does: 69 when it
        // would not, so a script can ask `orientd list >/dev/null` before it starts run.
        if inventory.chosen == nil { throw ExitCode(ExitStatus.unavailable) }
    }
}
