import OrientdCore
import OrientdIO

/// Poses for `orientd calibrate` from recordings rather than from a person's hands: one
/// file a pose, or one labelled recording whose `expect` column names them.
enum RecordedPoses {
    /// The first stretch of `path` held still for the capture's time.
    static func pose(_ pose: DeviceOrientation, from path: String, capture: PoseCapture) throws(CalibrationFailure) -> HeldPose {
        var capture = capture
        var held: Vector3?
        try read(path) { sample, _ in
            if case .held(let mean, _) = capture.add(sample) { held = mean }
            return held == nil
        }
        guard let held else {
            throw CalibrationFailure(
                "\(path): never still for \(JSONLineWriter.number(capture.holdSeconds, decimals: 1)) s, so no \(pose) pose in it",
                status: .dataError)
        }
        return HeldPose(pose, reading: held)
    }

    /// For each pose the `expect` column names, the first stretch with that label held
    /// still for the capture's time.
    static func poses(fromLabelled path: String, capture: PoseCapture) throws(CalibrationFailure) -> [HeldPose] {
        var captures: [DeviceOrientation: PoseCapture] = [:]
        var held: [HeldPose] = []
        var previous: DeviceOrientation?
        var labelled = false
        try read(path) { sample, label in
            guard case .pose(let pose) = label, pose != .unknown, !held.contains(where: { $0.pose == pose }) else {
                previous = nil
                return true
            }
            labelled = true
            // A stretch is one run of the label: a gap starts it again.
            if previous != pose { captures[pose] = capture }
            previous = pose
            if case .held(let mean, _) = captures[pose]?.add(sample) { held.append(HeldPose(pose, reading: mean)) }
            return true
        }
        guard labelled else {
            throw CalibrationFailure(
                "\(path): no 'expect' column naming poses; give one file a pose instead (--upright FILE --flat FILE --turned FILE)",
                status: .dataError)
        }
        return held
    }

    /// Every sample with its label, until `handle` says false. Bad lines are warned about
    /// with their place (file:line), as replay does.
    private static func read(_ path: String, _ handle: (Sample, PoseLabel?) -> Bool) throws(CalibrationFailure) {
        let diagnostics = Diagnostics()
        do {
            let reader = try RecordingReader(path: path)
            defer { reader.close() }
            try reader.read { event in
                switch event {
                case .header: return .proceed
                case .warning(let issue):
                    diagnostics.warning(issue.description)
                    return .proceed
                case .sample(let sample, let expect):
                    return handle(sample, expect) ? .proceed : .stop
                }
            }
        } catch let error as RecordingReader.OpenError {
            throw CalibrationFailure(error.description, status: .noInput)
        } catch {
            throw CalibrationFailure("\(error)", status: .dataError)
        }
    }
}

/// Why `orientd calibrate` stops, and with which status.
struct CalibrationFailure: Error {
    var message: String
    var status: ExitStatus
    init(_ message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }
}
