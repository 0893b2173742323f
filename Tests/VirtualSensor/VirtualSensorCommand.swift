import ArgumentParser
import Glibc
import OrientdIO

/// Test tooling that runs inside the real-kernel guest (scripts/vm): it makes the devices
/// a tablet has through the kernel's own interfaces, so that the kernel's unmodified
/// drivers, udev and the installed orientd meet them as they would meet hardware.
@main
struct VirtualSensorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "virtual-sensor",
        abstract: "Make a HID sensor hub accelerometer (/dev/uhid) and a tablet-mode switch (/dev/uinput) that play orientd recordings.",
        discussion: """
            Runs in a guest with a real kernel (scripts/vm): the kernel's hid-sensor-hub and \
            hid-sensor-accel-3d drivers make a real IIO device of the hub, and udev starts \
            orientd for it as on a tablet.
            """,
        subcommands: [Devices.self, Play.self])
}

/// Diagnostics and the devices' own log lines go to standard error, never standard output.
func printError(_ line: String) {
    var text = line
    if !text.hasSuffix("\n") { text += "\n" }
    _ = text.withCString { Glibc.write(2, $0, strlen($0)) }
}

func printOutput(_ line: String) {
    var text = line
    if !text.hasSuffix("\n") { text += "\n" }
    _ = text.withCString { Glibc.write(1, $0, strlen($0)) }
}

extension VirtualSensorCommand {
    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Plug the devices and play until told to quit.",
            discussion: """
                Each device's log is one JSON object a line on standard output (plugged, \
                unplugged, started, the report interval and power state the driver set). \
                With --control FIFO, lines written to FIFO drive it: 'unplug [display|base|switch]', \
                'plug [...]', 'tablet', 'laptop', 'quit'.

                Example:
                  virtual-sensor devices --display picked-up.csv --loop --control /run/vs.ctl &
                  echo unplug > /run/vs.ctl; echo plug > /run/vs.ctl
                """)

        @Option(help: "The display accelerometer's recording.")
        var display: String?

        @Option(help: "A base (keyboard) accelerometer's recording, for a 2-in-1's hinge.")
        var base: String?

        @Option(name: .customLong("switch"), help: "A tablet-mode switch, in this position (laptop or tablet).")
        var tabletSwitch: SwitchPosition?

        @Option(help: ArgumentHelp("The display accelerometer is this I2C chip on i2c-stub, not a HID sensor hub.", valueName: "chip"))
        var driver: StubChip?

        @Option(help: ArgumentHelp("The base accelerometer is this I2C chip on i2c-stub.", valueName: "chip"))
        var baseDriver: StubChip?

        @Flag(help: "The HID sensor hubs have no change sensitivity (no in_accel_hysteresis to set), as older hubs.")
        var noSensitivity = false

        @Flag(help: "Play the recordings again from the start after their end.")
        var loop = false

        @Flag(help: "Start playing when a driver first asks for data, not when plugged.")
        var onDemand = false

        @Option(help: "A FIFO to read commands from (made if missing).")
        var control: String?

        @Flag(
            help: ArgumentHelp(
                "The display hub loses its settings (power, reporting, interval) a second after the system resumes from "
                    + "a suspend, after its driver set it up again, and sends nothing until a driver sets it up again."))
        var forgetOnResume = false

        func run() throws {
            let hardware = VirtualHardware(log: printOutput)
            let start: VirtualAccelerometer.Start = onDemand ? .onDemand : .atPlug
            let bus = driver == nil && baseDriver == nil ? nil : try I2CStubBus()
            func accelerometer(_ path: String, _ location: VirtualAccelerometer.Location, _ chip: StubChip?) throws
                -> any PlayedAccelerometer
            {
                let playback = try Playback(path: path, loops: loop, warn: printError)
                if let chip, let bus {
                    return I2CAccelerometer(chip: chip, location: location, playback: playback, start: start, bus: bus, log: printOutput)
                }
                let hub = VirtualAccelerometer(
                    location: location, playback: playback, start: start, offersSensitivity: !noSensitivity, log: printOutput)
                hub.forgetsOnResume = forgetOnResume && location == .display
                return hub
            }
            if let display { hardware.display = try accelerometer(display, .display, driver) }
            if let base { hardware.base = try accelerometer(base, .base, baseDriver) }
            if let tabletSwitch { hardware.tabletSwitch = TabletModeSwitch(tablet: tabletSwitch == .tablet) }
            guard display != nil || base != nil || tabletSwitch != nil else {
                throw ValidationError("name at least one device: --display, --base or --switch")
            }
            if let control { try hardware.listen(on: control) }
            try hardware.tabletSwitch?.plug()
            for sensor in hardware.accelerometers { try sensor.plug() }
            defer { hardware.unplugAll() }
            try hardware.run()
        }
    }

    enum SwitchPosition: String, ExpressibleByArgument, CaseIterable {
        case laptop, tablet
    }
}
