import SystemPackage

/// An accelerometer the feeder plays a recording through: a HID sensor hub over /dev/uhid
/// (`VirtualAccelerometer`) or an I2C chip on i2c-stub (`I2CAccelerometer`). The kernel's
/// own drivers read it; `VirtualHardware` drives every one from one poll loop.
protocol PlayedAccelerometer: AnyObject {
    var location: VirtualAccelerometer.Location { get }
    var playback: Playback { get }
    /// Set by the owner of an on-demand start: playing may begin at the next demand.
    var armed: Bool { get set }
    /// What the loop polls for the driver's requests (nil: a register file, nothing to answer).
    var descriptor: FileDescriptor? { get }
    /// What the kernel's driver is called for it, for logs and messages.
    var driver: String { get }

    func plug() throws(VirtualDeviceError)
    func unplug()
    /// Answers every request waiting on `descriptor`.
    func serveRequests() throws(VirtualDeviceError)
    /// Begins playing if a driver asked while the owner had not armed it yet.
    func armIfDemanded()
    /// Plays `next` instead, from now (at once if the old one had begun).
    func play(_ next: Playback)
    /// Sends what is due at `now`; when something is next due (nil: nothing until a request).
    func tick(now: Double) throws(VirtualDeviceError) -> Double?
    /// The end of the recording, for owners that stop there.
    func hasFinished(at now: Double) -> Bool
}
