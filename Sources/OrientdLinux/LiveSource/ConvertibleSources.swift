import OrientdCore
import OrientdDaemon
import OrientdIO
import SystemPackage

/// What tells a convertible's mode, beside the display's accelerometer: the kernel's
/// tablet-mode switches, watched for as long as the source runs (they cost nothing until
/// they move), and the base accelerometer, read only while the service wants the hinge
/// angle (`OrientationService.wantsBaseSensor`: `rotate-in tablet` and no switch), so a
/// machine with a switch never polls a second sensor.
final class ConvertibleSources: Sendable {
    /// nil: no base sensor is looked for.
    private let baseConfiguration: SensorReader.Configuration?
    private let switches: SwitchReader?

    private struct Base {
        var reader: SensorReader?
        /// Counts the base readers started and stopped: a stopped reader's thread may still
        /// deliver an event or two, which must not reach the service.
        var generation = 0
        var stopped = false
        /// Whether the base is read (`ReadingDemand`), for the reader there is and any
        /// started later.
        var reading = true
    }

    private let base = Guarded(Base())

    /// `base` nil and `watchSwitches` false for a board reached through a libiio URI: it
    /// is no convertible, has no input devices here, and without udev looking for a base
    /// sensor would mean asking the board again every few seconds.
    init(base: SensorReader.Configuration?, watchSwitches: Bool) throws(Errno) {
        baseConfiguration = base
        switches = watchSwitches ? try SwitchReader() : nil
    }

    func start(into service: SharedService) {
        do {
            try switches?.start { [self] event in
                service.reportSwitch(event)
                adjust(service)
            }
        } catch {
            service.post(.warning("tablet-mode switches not watched: cannot start a thread for them: \(error)"))
        }
        adjust(service)
    }

    /// Starts or stops the base reader as the service now wants it.
    /// The service is asked inside the base's lock (always in that order: the base's,
    /// then the service's), so two threads adjusting at once (a switch event, a reload)
    /// cannot act on answers in the wrong order.
    func adjust(_ service: SharedService) {
        guard let baseConfiguration else { return }
        let stoppedOne = base.withLock { state -> Bool in
            let wanted = service.withService { $0.wantsBaseSensor }
            if wanted, state.reader == nil, !state.stopped {
                state.generation += 1
                state.reader = startBase(baseConfiguration, generation: state.generation, reading: state.reading, into: service)
                return false
            }
            guard !wanted, let reader = state.reader else { return false }
            reader.stop()
            state.reader = nil
            state.generation += 1
            return true
        }
        if stoppedOne { service.baseNoLongerRead() }
    }

    /// Pauses or resumes the base accelerometer with the display's. The hinge needs no
    /// reset after a pause: a base reading older than `HingeTracker.pairingWindow` is
    /// never paired, and a jump in the angle waits for the next reading to agree.
    func setReading(_ reading: Bool) {
        base.withLock { state in
            state.reading = reading
            state.reader?.setReading(reading)
        }
    }

    func stop() {
        base.withLock { state in
            state.stopped = true
            state.reader?.stop()
            state.reader = nil
        }
        switches?.stop()
    }

    private func isCurrent(_ generation: Int) -> Bool {
        base.withLock { $0.generation == generation }
    }

    private func startBase(
        _ configuration: SensorReader.Configuration, generation: Int, reading: Bool, into service: SharedService
    ) -> SensorReader? {
        let reader: SensorReader
        do {
            reader = try SensorReader(configuration: configuration, reading: reading)
        } catch {
            service.post(.warning("cannot read the base accelerometer: \(error)"))
            return nil
        }
        do {
            try reader.start { [self] event in
                guard isCurrent(generation) else { return }
                service.reportBase(event.map(\.attachment))
            }
        } catch {
            service.post(.warning("cannot read the base accelerometer: cannot start a thread for it: \(error)"))
            return nil
        }
        return reader
    }
}
