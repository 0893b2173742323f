import Testing

@testable import OrientdCore

@Suite("Reading on demand")
struct ReadingDemandTests {
    @Test(
        "the sensor is read while standard output is a real reader, a socket subscribes or a hook is configured",
        arguments: [
            (ReadingDemand.StandardOutput.consumer, 0, 0, [ReadingDemand.Consumer.standardOutput]),
            (.journal, 0, 0, []),
            (.discarded, 0, 0, []),
            (.journal, 1, 0, [.subscribers]),
            (.journal, 0, 2, [.hooks]),
            (.consumer, 3, 1, [.standardOutput, .subscribers, .hooks]),
        ])
    func rule(output: ReadingDemand.StandardOutput, subscribers: Int, hooks: Int, consumers: [ReadingDemand.Consumer]) {
        let demand = ReadingDemand(standardOutput: output, subscribers: subscribers, hooks: hooks)
        #expect(demand.consumers == consumers)
        #expect(demand.reading == !consumers.isEmpty)
    }

    @Test("JOURNAL_STREAM is DEVICE:INODE in decimal; standard output is the journal only when both match")
    func journalStream() {
        let stream = JournalStream("64769:123456")
        #expect(stream?.device == 64769 && stream?.inode == 123456)
        #expect(stream?.matches(device: 64769, inode: 123456) == true)
        #expect(stream?.matches(device: 64769, inode: 123457) == false)
        for bad in ["", "12", "12:", ":34", "1:2:3", "a:b", "-1:2"] {
            #expect(JournalStream(bad) == nil, "\(bad)")
        }
    }

    @Test("idle and reading are sensor events of one line, like the others")
    func eventLines() {
        #expect(
            String(decoding: SensorStateEvent(.idle, device: "iio:device0", time: 7.5).jsonLine, as: UTF8.self)
                == #"{"event":"sensor","state":"idle","time":7.5,"device":"iio:device0","version":1}"# + "\n")
        #expect(
            String(decoding: SensorStateEvent(.reading(read: .buffered), device: "iio:device0", time: 9).jsonLine, as: UTF8.self)
                == #"{"event":"sensor","state":"reading","time":9,"device":"iio:device0","read":"buffered","version":1}"# + "\n")
        let fallback = SensorStateEvent(.reading(read: .polled, because: "its buffer sends nothing"), device: "iio:device0", time: 7)
        #expect(
            String(decoding: fallback.jsonLine, as: UTF8.self)
                == #"{"event":"sensor","state":"reading","time":7,"device":"iio:device0","read":"polled","reason":"its buffer sends nothing","version":1}"#
                + "\n")
    }

    /// A service whose sensor has said portrait, read at 50 Hz from 0 to 0.4 s.
    func serviceInPortrait() -> OrientationService {
        var service = OrientationService(pipeline: OrientationPipeline())
        for i in 0..<20 { service.process(Sample(time: Double(i) * 0.02, acceleration: rest(roll: 0))) }
        _ = service.takeOutbox()
        return service
    }

    @Test("read again after a pause in which the device turned: the new pose within the start's hold time, cause sensor")
    func resumeAfterTurn() throws {
        var service = serviceInPortrait()
        service.resumeReading(event: SensorStateEvent(.reading(read: .polled), device: "iio:device0", time: 0.4))
        var events: [OrientationEvent] = []
        // Read again 60 s later, lying landscape-left now.
        for i in 0..<25 {
            service.process(Sample(time: 60 + Double(i) * 0.02, acceleration: rest(roll: 90)))
            for case .orientation(let event) in service.takeOutbox() { events.append(event) }
        }
        let first = try #require(events.first)
        #expect(first.device == .landscapeLeft && first.cause == .sensor && first.previousScreen == .degrees0)
        let parameters = ClassifierParameters()
        #expect(first.time - 60 <= parameters.initialHoldTime + 2 * 0.02 * Double(parameters.minimumSamples), "\(first.time)")
        #expect(events.count == 1)
    }

    @Test("read again in the same pose: a sensor event, and no orientation event")
    func resumeInSamePose() {
        var service = serviceInPortrait()
        service.resumeReading(event: SensorStateEvent(.reading(read: .polled), device: "iio:device0", time: 0.4))
        let sensorEvents = service.takeOutbox().filter { if case .sensor = $0 { true } else { false } }
        #expect(sensorEvents.count == 1)
        for i in 0..<50 { service.process(Sample(time: 60 + Double(i) * 0.02, acceleration: rest(roll: 0))) }
        let orientation = service.takeOutbox().filter { if case .orientation = $0 { true } else { false } }
        #expect(orientation.isEmpty)
    }

    @Test("orientation while the sensor is not read: the last pose, with reading false")
    func orientationWhileIdle() {
        var service = serviceInPortrait()
        #expect(String(decoding: service.execute(.orientation, by: .stdin).reply, as: UTF8.self).contains(#""reading":true"#))
        service.isReading = false
        let reply = String(decoding: service.execute(.orientation, by: .stdin).reply, as: UTF8.self)
        #expect(reply.contains(#""device":"portrait""#) && reply.contains(#""reading":false"#), "\(reply)")
    }
}
