// A soak test of the daemon, compressed in time: an hour of a 1 kHz sensor (3.6 million
// samples) through the real control loop, with reading subscribers, one that never
// reads, a client that locks and unlocks, a hook on every change, and a hot-plug every
// five minutes of stream time. Prints resident memory at start and end and the event
// counts; the target is no growth beyond 1 MiB and no event lost by a reading subscriber.
//
// Run: make soak (or swift run -c release Soak [stream-seconds]). Knobs: SOAK_SPEEDUP
// (stream seconds per wall second, default 120), SOAK_READERS (default 8), SOAK_NO_HOOKS.
// Daemon and subscribers share this process, so the figures include the readers' own
// buffers; the exit status is 1 when a reader lost an event or memory grew by 1 MiB.
import Glibc
import OrientdClient
import OrientdCore
import OrientdDaemon
import OrientdIO
import Synchronization

let streamSeconds = CommandLine.arguments.count > 1 ? Double(CommandLine.arguments[1]) ?? 3600 : 3600
let rate = 1000.0
let readerCount = getenv("SOAK_READERS").flatMap { Int(String(cString: $0)) } ?? 8
/// Stream seconds per wall second: an hour in 30 s.
let speedup = getenv("SOAK_SPEEDUP").flatMap { Double(String(cString: $0)) } ?? 120
let socketPath = "/tmp/orientd-soak-\(getpid()).sock"
let soakSensor = SensorAttachment(
    candidate: AccelerometerCandidate(id: "soak0", name: "soak", label: nil, location: .display, locationSource: "none"),
    readPath: .buffered, samplingFrequency: rate, mountMatrix: .identity)

func residentKiB(_ field: String = "VmRSS:") -> Int {
    let fd = open("/proc/self/status", O_RDONLY)
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 8192)
    let n = read(fd, &buffer, buffer.count)
    let text = String(decoding: buffer[0..<max(0, n)], as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix(field) {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return -1
}

func say(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(results, $0, strlen($0)) }
}

/// The synthetic sensor: the device turned between portrait and landscape-left every 10 s
/// of stream time, with noise, and unplugged and plugged in again every 300 s.
final class SoakSource: SampleSource, Sendable {
    let hotPlugs = Atomic<Int>(0)
    let done = Atomic<Bool>(false)
    let stopped = Atomic<Bool>(false)
    var name: String { "soak" }

    func start(into service: SharedService) {
        // A benchmark with no thread to be had has nothing to measure: it stops there.
        try! BackgroundThread.start(name: "soak") { [self] in
            let g = 9.81
            var seed: UInt64 = 42
            func noise() -> Double {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return (Double(seed >> 11) / Double(1 << 53) - 0.5) * 0.4
            }
            let count = Int(streamSeconds * rate)
            let begin = MonotonicClock.now
            for i in 0..<count {
                if stopped.load(ordering: .relaxed) { break }
                let t = Double(i) / rate
                if i % 1000 == 0 {
                    let ahead = t / speedup - (MonotonicClock.now - begin)
                    if ahead > 0 { usleep(UInt32(ahead * 1e6)) }
                }
                if i > 0, i % Int(300 * rate) == 0 {
                    // A hot-plug, reported as the sensor's thread reports one.
                    service.report(.changed(.lost(reason: "removed"), device: "soak0"))
                    service.report(.attached(soakSensor))
                    hotPlugs.add(1, ordering: .relaxed)
                }
                let landscape = Int(t / 10) % 2 == 1
                let v = landscape ? Vector3(-g + noise(), noise(), 0.3 + noise()) : Vector3(noise(), -g + noise(), 0.3 + noise())
                service.take(Sample(time: t, acceleration: v), as: .classify(paceChange: nil))
            }
            done.store(true, ordering: .releasing)
            service.finish(.completed)
        }
    }

    func stop() { stopped.store(true, ordering: .relaxed) }
}

// Events also go to standard output; keep it for the results.
let results = dup(1)
let devNull = open("/dev/null", O_WRONLY)
dup2(devNull, 1)

let source = SoakSource()
let daemonDone = Atomic<Bool>(false)
// A benchmark with no thread to be had has nothing to measure: it stops there.
try! BackgroundThread.start(name: "daemon") {
    var configuration = Daemon.Configuration(live: true)
    configuration.socketPath = socketPath
    configuration.commandsFromStandardInput = false
    configuration.hooks = getenv("SOAK_NO_HOOKS") == nil ? [HookCommand(arguments: ["true"])] : []
    let diagnostics = Diagnostics(descriptor: .init(rawValue: open("/dev/null", O_WRONLY)))
    do {
        let daemon = try Daemon(
            configuration: configuration, service: OrientationService(pipeline: OrientationPipeline()), ready: true,
            diagnostics: diagnostics)
        _ = daemon.run(source: source)
    } catch {
        say("cannot start the daemon: \(error)")
        exit(1)
    }
    daemonDone.store(true, ordering: .releasing)
}

var readers: [ControlClient] = []
while readers.isEmpty {
    if let c = try? ControlClient(path: socketPath) { readers.append(c) } else { usleep(1000) }
}
for _ in 1..<readerCount { readers.append(try ControlClient(path: socketPath)) }
for r in readers { try r.send("monitor") }
let silent = try ControlClient(path: socketPath)
try silent.send("monitor")
let controller = try ControlClient(path: socketPath)

// Read every subscriber; count what each got.
struct Tally {
    var lines = 0
    var sensorEvents = 0
    var hooksEvents = 0
    var partial: [UInt8] = []
}
var tallies = Array(repeating: Tally(), count: readers.count)
let orientationPrefix = Array(#"{"event":"orientation""#.utf8)
let hooksPrefix = Array(#"{"event":"hooks""#.utf8)
var chunk = [UInt8](repeating: 0, count: 65536)
var openReaders = Set(readers.indices)
let started = MonotonicClock.now
var startRSS: Int?
var commands = 0
var trend: [Int] = []
var heap: [Int] = []
var lastCommand = started
while !openReaders.isEmpty {
    var fds = openReaders.map { pollfd(fd: readers[$0].descriptor.rawValue, events: Int16(POLLIN), revents: 0) }
    let indices = Array(openReaders)
    _ = poll(&fds, nfds_t(fds.count), 100)
    for (k, p) in fds.enumerated() where p.revents != 0 {
        let i = indices[k]
        let n = recv(readers[i].descriptor.rawValue, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        if n == 0 { openReaders.remove(i) }
        guard n > 0 else { continue }
        // Whole lines are counted, the unfinished tail kept, all in the reader's one
        // buffer: a new array a read (`partial + chunk`, then a copy of its tail) grew
        // this process by 0.7 MiB an hour of its own.
        tallies[i].partial.append(contentsOf: chunk[0..<n])
        var start = 0
        tallies[i].partial.withUnsafeBufferPointer { bytes in
            while let newline = bytes[start...].firstIndex(of: 0x0a) {
                let line = UnsafeBufferPointer(rebasing: bytes[start..<newline])
                tallies[i].lines += 1
                if line.starts(with: orientationPrefix), String(decoding: line, as: UTF8.self).contains(#""cause":"sensor""#) {
                    tallies[i].sensorEvents += 1
                } else if line.starts(with: hooksPrefix) {
                    tallies[i].hooksEvents += 1
                }
                start = newline + 1
            }
        }
        tallies[i].partial.removeSubrange(0..<start)
    }
    let now = MonotonicClock.now
    // The start: everything set up and a minute of stream time through.
    if startRSS == nil, now - started > 60 / speedup { startRSS = residentKiB() }
    if Double(trend.count) * streamSeconds / speedup / 10 <= now - started {
        trend.append(residentKiB())
        heap.append(residentKiB("RssAnon:"))
    }
    // A lock toggled now and then, as a desktop's rotation-lock button would be.
    if now - lastCommand > 0.25, !source.done.load(ordering: .acquiring) {
        lastCommand = now
        _ = try? controller.send(commands % 2 == 0 ? "lock current" : "unlock")
        _ = try? controller.readLine(timeout: 5)
        commands += 1
    }
    if daemonDone.load(ordering: .acquiring) && openReaders.isEmpty { break }
}
let wall = MonotonicClock.now - started
let endRSS = residentKiB()
unlink(socketPath)

let sensor = Set(tallies.map(\.sensorEvents))
let lines = Set(tallies.map(\.lines))
say(
    "soak: \(Int(streamSeconds)) s of a \(Int(rate)) Hz sensor (\(Int(streamSeconds * rate)) samples) in \(JSONLineWriter.number(wall, decimals: 1)) s (\(Int(speedup))× faster)"
)
say(
    "  \(readerCount) reading subscribers: \(lines.sorted()) lines each, \(sensor.sorted()) orientation events from the sensor, \(tallies[0].hooksEvents) hooks events"
)
say("  \(source.hotPlugs.load(ordering: .relaxed)) hot-plugs, \(commands) lock/unlock commands, one subscriber that never read")
say(
    "  resident: \(startRSS ?? -1) KiB after a minute of stream time, \(endRSS) KiB at the end: growth \(endRSS - (startRSS ?? endRSS)) KiB (target < 1024)"
)
say("  resident every tenth of the run (KiB): \(trend.map(String.init).joined(separator: " "))")
say("  of which anonymous (heap, stacks) (KiB): \(heap.map(String.init).joined(separator: " "))")
say(
    sensor.count == 1 && lines.count == 1
        ? "  every reading subscriber got the same events: none lost" : "  READERS DIFFER: events were lost")
exit(sensor.count == 1 && lines.count == 1 && endRSS - (startRSS ?? endRSS) < 1024 ? 0 : 1)
