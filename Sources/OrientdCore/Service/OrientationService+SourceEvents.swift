/// What the sources' threads report, and what each report means: the state it changes,
/// the events broadcast, the lines for people and the service manager's status, decided
/// here in one step so that no command slips in between (the daemon applies each under
/// its one lock) and every rule is tested with plain values.
extension OrientationService {
    /// Whether the source can go on after an event.
    public enum SourceOutcome: Sendable, Equatable {
        case continues
        /// No sensor and not waiting for one: the run ends with this message.
        case cannotContinue(String)
    }

    /// An event of the display accelerometer's thread.
    public mutating func apply(_ event: SensorEvent<SensorAttachment>) -> SourceOutcome {
        switch event {
        case .sample(let sample):
            process(sample)
        case .still(let sample):
            still(sample)
        case .pace(_, let pace, let hz):
            readingRate = ReadingRate(pace: pace, hz: hz)
        case .attached(let sensor):
            let read = sensor.readPath
            let id = sensor.candidate.id
            attach(
                source: id, mountMatrix: sensor.mountMatrix,
                event: SensorStateEvent(
                    .attached(name: sensor.candidate.name, location: sensor.candidate.location, read: read, rate: sensor.samplingFrequency),
                    device: id, time: pipeline.lastTime))
            post(
                .note(
                    "reading \(id) (\(sensor.candidate.name ?? "unnamed")), \(read.rawValue)"
                        + (sensor.polledBecause.map { ": \($0)" } ?? "")))
            post(.opened("reading \(id), \(read.rawValue)"))
        case .changed(let state, let device, let time):
            changed(SensorStateEvent(state, device: device, time: time ?? pipeline.lastTime))
        case .waiting(let message):
            post(.note(message))
            post(.waiting(message))
        case .warning(let message):
            post(.warning(message))
        case .failed(let message):
            return .cannotContinue(message)
        }
        return .continues
    }

    /// The display sensor came to a state: subscribers are told, the journal says what it
    /// means, and the service manager's status says what the daemon does now.
    private mutating func changed(_ event: SensorStateEvent) {
        let device = event.device
        // What the service manager's status says after it.
        let status: Outgoing?
        switch event.state {
        case .lost:
            readingRate = nil
            post(.sensor(event))
            status = .waiting("\(device) lost; waiting for it to return")
        case .idle:
            readingRate = nil
            post(.sensor(event))
            status = .opened("\(device) idle: nothing consumes the events")
        case .reading(let read, let because):
            // Read again after a pause: a fresh classifier. Read another way (its buffer
            // fell silent or sends again), the stream goes on: the classifier keeps what
            // it has.
            if because == nil { resumeReading(event: event) } else { post(.sensor(event)) }
            status = .opened("reading \(device), \(read.rawValue)")
        case .stalled:
            post(.sensor(event))
            status = .waiting("\(device) stalled")
        case .hung:
            post(.sensor(event))
            status = .waiting("\(device) answers nothing")
        case .resumed:
            post(.sensor(event))
            status = .opened("reading \(device)")
        case .attached:
            // `attached` comes with the sensor, whose mount matrix it needs (`attach`):
            // said here alone, it is only passed on.
            post(.sensor(event))
            status = nil
        }
        switch event.state.words(device: device) {
        case .warning(let text): post(.warning(text))
        case .note(let text): post(.note(text))
        case nil: break
        }
        if let status { post(status) }
    }

    /// An event of a convertible's base accelerometer, read for the hinge angle only:
    /// its troubles are warnings, and the run never ends for it.
    public mutating func applyBase(_ event: SensorEvent<SensorAttachment>) {
        switch event {
        case .sample(let sample), .still(let sample):
            // The hinge needs the base's readings at rest too: it pairs them with the
            // display's.
            processBase(sample)
        case .attached(let sensor):
            attachBase(source: sensor.candidate.id, mountMatrix: sensor.mountMatrix)
            post(.note("reading the base accelerometer \(sensor.candidate.id) (\(sensor.candidate.name ?? "unnamed")) for the hinge angle"))
        case .changed(.lost(let reason), let device, _):
            detachBase()
            post(.note("the base accelerometer \(device) is lost: \(reason)"))
        case .changed(.stalled(let seconds), let device, _):
            post(.warning("the base accelerometer \(device) has sent nothing for \(Int(seconds)) s"))
        case .changed(.hung(let seconds), let device, _):
            post(.warning("the base accelerometer " + BufferSilence.hungWarning(device, seconds: seconds)))
        case .pace(_, let pace, _):
            // A base that watches sends nothing while still: its last reading stands.
            baseWatching(pace == .watch)
        case .changed, .waiting:
            // Most machines have no base sensor: waiting for one is not news. Pausing is
            // the display's news, said once by its reader.
            break
        case .warning(let message):
            post(.warning(message))
        case .failed(let message):
            post(.warning("the base accelerometer: \(message)"))
        }
    }

    /// The base accelerometer is no longer read: the service no longer wants it
    /// (`wantsBaseSensor`), and the hinge no longer answers.
    public mutating func baseNoLongerRead() {
        post(.note("the base accelerometer is no longer read: a tablet-mode switch answers, or rotate-in is always"))
        detachBase()
    }

    /// An event of the tablet-mode switches' thread.
    public mutating func applySwitch(_ event: SwitchEvent) {
        switch event {
        case .attached(let found, let mode):
            post(.note("tablet-mode switch \(found.node) (\(found.name)): \(mode.rawValue)"))
            reportSwitch(found.id, mode)
        case .toggled(let found, let mode):
            reportSwitch(found.id, mode)
        case .detached(let found, let reason):
            post(.note("tablet-mode switch \(found.node) \(reason)"))
            reportSwitch(found.id, nil)
        case .warning(let message):
            post(.warning(message))
        }
    }
}
