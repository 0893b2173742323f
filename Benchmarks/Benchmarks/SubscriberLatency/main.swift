// How long an event takes from the sample that decides it to the 256th subscriber on the
// control socket: the daemon's real loop, socket and clients in one process, with a
// source that feeds synthetic samples (the classifier's clock is the samples' own, so no
// waiting is measured, only the daemon's work).
//
// Run: make benchmark-subscribers (or swift run -c release SubscriberLatency [rounds]).
import Glibc
import OrientdClient
import OrientdCore
import OrientdDaemon
import OrientdIO
import Synchronization

let subscriberCount = 256
let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1000 : 1000
let socketPath = "/tmp/orientd-latency-\(getpid()).sock"

func complain(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

func now() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// Turns the device between portrait and landscape-left on request, noting the moment it
/// hands over the sample that makes the classifier decide.
final class TurningSource: SampleSource, Sendable {
    let trigger: Int32
    let triggerWrite: Int32
    let decided = Atomic<UInt64>(0)
    let stopped = Atomic<Bool>(false)
    var name: String { "synthetic turns" }

    init() {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        trigger = fds[0]
        triggerWrite = fds[1]
    }

    func turn() {
        var byte: UInt8 = 1
        _ = write(triggerWrite, &byte, 1)
    }

    func start(into service: SharedService) {
        // A benchmark with no thread to be had has nothing to measure: it stops there.
        try! BackgroundThread.start(name: "turning") { [self] in
            var time = 0.0
            var landscape = false
            let g = 9.81
            func feed(_ seconds: Double) -> Bool {
                let v = landscape ? Vector3(-g, 0, 0.3) : Vector3(0, -g, 0.3)
                let before = service.withService { $0.pipeline.current?.screen }
                for _ in 0..<Int(seconds * 100) {
                    time += 0.01
                    let t0 = now()
                    service.take(Sample(time: time, acceleration: v), as: .classify(paceChange: nil))
                    if service.withService({ $0.pipeline.current?.screen }) != before {
                        decided.store(t0, ordering: .releasing)
                        return true
                    }
                }
                return false
            }
            _ = feed(1)
            var byte: UInt8 = 0
            while !stopped.load(ordering: .acquiring), read(trigger, &byte, 1) == 1 {
                landscape.toggle()
                if !feed(2) { complain("the classifier did not turn") }
            }
        }
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        close(triggerWrite)
    }
}

// Events also go to standard output; keep it for the results and send the stream away.
let results = dup(1)
let devNull = open("/dev/null", O_WRONLY)
dup2(devNull, 1)
func say(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(results, $0, strlen($0)) }
}

let source = TurningSource()
// A benchmark with no thread to be had has nothing to measure: it stops there.
try! BackgroundThread.start(name: "daemon") {
    var configuration = Daemon.Configuration(live: true)
    configuration.socketPath = socketPath
    configuration.commandsFromStandardInput = false
    do {
        let daemon = try Daemon(
            configuration: configuration, service: OrientationService(pipeline: OrientationPipeline()), ready: true,
            diagnostics: Diagnostics())
        _ = daemon.run(source: source)
    } catch {
        complain("\(error)")
        exit(1)
    }
}

var clients: [ControlClient] = []
while clients.isEmpty {
    if let client = try? ControlClient(path: socketPath) { clients.append(client) } else { usleep(10_000) }
}
for _ in 1..<subscriberCount { clients.append(try ControlClient(path: socketPath)) }
for client in clients {
    try client.send("monitor")
    _ = try client.readLine(timeout: 10)
}
usleep(200_000)
// Drain the current-state lines.
var buffer = [UInt8](repeating: 0, count: 65536)
for client in clients { while recv(client.descriptor.rawValue, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {} }

var latencies: [Double] = []
for _ in 0..<rounds {
    source.turn()
    // Wait until every subscriber has its orientation event; the time of the last one.
    var waiting = Set(clients.indices)
    var last: UInt64 = 0
    while !waiting.isEmpty {
        let indices = Array(waiting)
        var fds = indices.map { pollfd(fd: clients[$0].descriptor.rawValue, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), 5000) > 0 else {
            say("timed out waiting for \(waiting.count) subscriber(s)")
            exit(1)
        }
        let arrival = now()
        for (k, p) in fds.enumerated() where p.revents != 0 {
            let n = recv(clients[indices[k]].descriptor.rawValue, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0, buffer[0..<n].contains(UInt8(ascii: "\n")) {
                waiting.remove(indices[k])
                last = arrival
            }
        }
    }
    latencies.append(Double(last &- source.decided.load(ordering: .acquiring)) / 1e6)
}
source.stop()
unlink(socketPath)

let sorted = latencies.sorted()
func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
say("sample → event at the \(subscriberCount)th subscriber, \(rounds) rounds:")
func ms(_ value: Double) -> String { JSONLineWriter.number(value, decimals: 3) + " ms" }
say("  median \(ms(percentile(0.5))), p99 \(ms(percentile(0.99))), max \(ms(sorted.last ?? 0))")
exit(0)
