import CVirtualDevices
import Glibc
import OrientdCore
import OrientdIO
import SystemPackage

/// The virtual devices of one machine, driven from one thread: a display accelerometer,
/// a base accelerometer and a tablet-mode switch as wanted, and a control FIFO that plugs,
/// unplugs and turns them. One poll(2) loop answers the drivers' requests and sends each
/// sample when it is due.
final class VirtualHardware {
    var display: (any PlayedAccelerometer)?
    var base: (any PlayedAccelerometer)?
    var tabletSwitch: TabletModeSwitch?
    private var control: FileDescriptor?
    private var controlBuffer: [UInt8] = []
    private var quit = false
    let log: (String) -> Void

    init(log: @escaping (String) -> Void) {
        self.log = log
    }

    var accelerometers: [any PlayedAccelerometer] { [display, base].compactMap { $0 } }

    /// Commands arrive as lines on `path`, a FIFO made here if missing: `unplug`, `plug`
    /// (each optionally naming `display`, `base` or `switch`; all when none is named),
    /// `tablet`, `laptop`, `play display|base FILE`, `quit`. Opened read-write so that writers coming and going
    /// never make it read end-of-file.
    func listen(on path: String) throws(VirtualDeviceError) {
        if access(path, F_OK) != 0 && mkfifo(path, 0o600) != 0 {
            throw VirtualDeviceError("cannot make the control FIFO \(path): \(Errno(rawValue: errno))")
        }
        do {
            control = try FileDescriptor.open(FilePath(path), .readWrite, options: [.closeOnExec, .nonBlocking])
        } catch {
            throw VirtualDeviceError("cannot open the control FIFO \(path): \(error)")
        }
    }

    /// Runs until `until` says stop, `quit` arrives, SIGTERM, SIGINT or SIGHUP, or nothing
    /// is left to play. The signals are taken through a signalfd so that the owner's
    /// `unplugAll` runs: an I2C chip, unlike a uhid device, outlives the process.
    func run(until shouldStop: (Double) -> Bool = { _ in false }) throws(VirtualDeviceError) {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let signalDescriptor = signalfd(-1, &signals, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        defer { if signalDescriptor >= 0 { close(signalDescriptor) } }
        while !quit {
            let now = MonotonicClock.now
            if shouldStop(now) { return }
            var next: Double?
            for sensor in accelerometers {
                if let due = try sensor.tick(now: now) { next = min(next ?? due, due) }
            }
            var fds: [pollfd] = []
            for sensor in accelerometers {
                if let descriptor = sensor.descriptor { fds.append(pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)) }
            }
            if let control { fds.append(pollfd(fd: control.rawValue, events: Int16(POLLIN), revents: 0)) }
            if signalDescriptor >= 0 { fds.append(pollfd(fd: signalDescriptor, events: Int16(POLLIN), revents: 0)) }
            // Wake at least every 50 ms, so `until` is checked and nothing waits on a
            // deadline that a request moved.
            let wait = max(0, min(next.map { $0 - MonotonicClock.now } ?? 0.05, 0.05))
            if poll(&fds, nfds_t(fds.count), Int32((wait * 1000).rounded(.up))) < 0 && errno != EINTR {
                throw VirtualDeviceError("poll: \(Errno(rawValue: errno))")
            }
            if signalDescriptor >= 0, fds.last?.revents ?? 0 != 0 {
                log(#"{"event":"signal","message":"stopping: unplugging the devices"}"#)
                return
            }
            for sensor in accelerometers { try sensor.serveRequests() }
            try readControl()
        }
    }

    func unplugAll() {
        for sensor in accelerometers { sensor.unplug() }
        tabletSwitch?.unplug()
    }

    private func readControl() throws(VirtualDeviceError) {
        guard let control else { return }
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { try control.read(into: $0) }
            } catch {
                break
            }
            if n <= 0 { break }
            controlBuffer += chunk[0..<n]
        }
        while let end = controlBuffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: controlBuffer[..<end], as: UTF8.self)
            controlBuffer.removeSubrange(...end)
            try execute(line.split(separator: " ").map(String.init))
        }
    }

    private func execute(_ words: [String]) throws(VirtualDeviceError) {
        guard let verb = words.first else { return }
        let target = words.count > 1 ? words[1] : nil
        func wanted(_ name: String) -> Bool { target == nil || target == name }
        switch verb {
        case "unplug":
            if wanted("display") { display?.unplug() }
            if wanted("base") { base?.unplug() }
            if wanted("switch") { tabletSwitch?.unplug() }
        case "plug":
            if wanted("display") { try display?.plug() }
            if wanted("base") { try base?.plug() }
            if wanted("switch") { try tabletSwitch?.plug() }
        case "tablet", "laptop":
            guard let tabletSwitch else {
                log(#"{"event":"error","message":"no switch: start with --switch"}"#)
                return
            }
            try tabletSwitch.set(tablet: verb == "tablet")
            log(#"{"event":"switch","mode":"\#(verb)"}"#)
        case "play":
            // `play display|base FILE`: that sensor plays FILE from now on, as a person
            // moving the device to the next pose (a test that waits on a screen).
            guard words.count == 3, let sensor = accelerometers.first(where: { $0.location.rawValue == words[1] }) else {
                log(#"{"event":"error","message":"play display|base FILE, for a sensor that was started"}"#)
                return
            }
            func message(_ text: String) -> String {
                var line = #"{"event":"error","message":"#.utf8.map { $0 }
                JSONLineWriter.appendString(text, to: &line)
                return String(decoding: line, as: UTF8.self) + "}"
            }
            do {
                sensor.play(try Playback(path: words[2], loops: sensor.playback.loops) { log(message($0)) })
            } catch {
                log(message("\(error)"))
                return
            }
            let now = JSONLineWriter.number(MonotonicClock.now)
            log(#"{"event":"playing","device":"\#(words[1])","file":"\#(words[2])","time":\#(now)}"#)
        case "quit":
            quit = true
        default:
            log(#"{"event":"error","message":"unknown command '\#(verb)': plug, unplug, tablet, laptop, play or quit"}"#)
        }
    }
}
