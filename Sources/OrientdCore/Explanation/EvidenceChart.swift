/// A picture of a recording as the classifier saw it, as SVG for a bug report: the
/// direction of the filtered gravity (its turn in the screen plane and its tilt) against
/// the poses' bands, the disturbances and walking, the pose the readings argued for with
/// how far its hold had gone, the pose reported, and each orientation event.
///
/// Written by hand: SVG is text, and the few elements drawn here need no library.
public struct EvidenceChart: Sendable {
    /// The evidence after one classified reading, as drawn.
    struct Point: Sendable {
        var time: Double
        var tilt: Double?
        var turn: Double?
        var disturbed: Bool
        var walking: Bool
        var reported: DeviceOrientation
        var proposed: DeviceOrientation?
        /// How far the proposal's hold had gone, 0–1.
        var progress: Double
    }

    struct Mark: Sendable {
        var time: Double
        var label: String
    }

    public let parameters: ClassifierParameters
    public let title: String
    private var points: [Point] = []
    private var marks: [Mark] = []

    public init(title: String, parameters: ClassifierParameters) {
        self.title = title
        self.parameters = parameters
    }

    /// The evidence after a classified reading.
    public mutating func add(_ evidence: ClassifierEvidence) {
        var progress = 0.0
        switch evidence.holdBack {
        case .readings(let have, let need): progress = Double(have) / Double(max(need, 1))
        case .hold(let seconds, _): progress = seconds > 0 ? (evidence.time - evidence.proposedSince) / seconds : 1
        case .disturbance, .offFlat: progress = 1
        case nil: progress = 0
        }
        points.append(
            Point(
                time: evidence.time, tilt: evidence.tilt, turn: evidence.turn,
                disturbed: evidence.lastDisturbance == evidence.time, walking: evidence.walking, reported: evidence.reported,
                proposed: evidence.proposed, progress: min(1, max(0, progress))))
    }

    /// An orientation event, drawn as a line across the chart.
    public mutating func add(_ event: OrientationEvent) {
        let screen = event.screenChanged ? " → \(event.screenType.rawValue)" : ""
        marks.append(Mark(time: event.time, label: "\(event.device)\(screen)"))
    }

    // Layout, in pixels.
    static let width = 1200.0
    static let left = 70.0
    static let right = 20.0
    static let turnPanel = (top: 60.0, height: 180.0)
    static let tiltPanel = (top: 270.0, height: 140.0)
    static let motionStrip = (top: 430.0, height: 24.0)
    static let evidenceStrip = (top: 470.0, height: 36.0)
    static let reportedStrip = (top: 522.0, height: 16.0)
    static let axisTop = 548.0
    static let height = 640.0

    public static func color(_ pose: DeviceOrientation) -> String {
        switch pose {
        case .portrait: "#4e79a7"
        case .landscapeLeft: "#f28e2b"
        case .portraitUpsideDown: "#59a14f"
        case .landscapeRight: "#e15759"
        case .faceUp: "#76b7b2"
        case .faceDown: "#b07aa1"
        case .unknown: "#bab0ac"
        }
    }

    /// The chart, a whole SVG document.
    public var svg: String {
        var out = SVGText()
        let plotWidth = Self.width - Self.left - Self.right
        let start = points.first?.time ?? 0
        let end = max(points.last?.time ?? 1, start + 0.001)
        let x = { (t: Double) in Self.left + (t - start) / (end - start) * plotWidth }
        out.open(width: Self.width, height: Self.height)
        out.text(Self.left, 22, title, size: 15, weight: "bold")
        out.text(
            Self.left, 42,
            "hold-time \(n(parameters.holdTime)) s, settle-time \(n(parameters.settleTime)) s, rotation-hysteresis \(n(parameters.rotationHysteresis))°, face-enter-tilt \(n(parameters.faceEnterTilt))°, face-exit-tilt \(n(parameters.faceExitTilt))°",
            size: 11, fill: "#555")

        // The turn panel: 0° at the bottom, 360° at the top; each upright pose's band.
        let turnY = { (d: Double) in Self.turnPanel.top + Self.turnPanel.height * (1 - d / 360) }
        let bands: [(DeviceOrientation, Double, Double)] = [
            (.portrait, 0, 45), (.landscapeLeft, 45, 135), (.portraitUpsideDown, 135, 225), (.landscapeRight, 225, 315),
            (.portrait, 315, 360),
        ]
        for (pose, low, high) in bands {
            out.rect(Self.left, turnY(high), plotWidth, turnY(low) - turnY(high), fill: Self.color(pose), opacity: 0.13)
        }
        for diagonal in stride(from: 45.0, to: 360, by: 90) {
            let h = parameters.rotationHysteresis
            out.rect(Self.left, turnY(diagonal + h), plotWidth, turnY(diagonal - h) - turnY(diagonal + h), fill: "#888", opacity: 0.12)
        }
        for (label, d) in [("portrait", 0.0), ("landscape-left", 90), ("upside-down", 180), ("landscape-right", 270)] {
            out.text(Self.left - 6, turnY(d) + 4, "\(Int(d))°", size: 10, anchor: "end", fill: "#555")
            out.text(Self.left + 4, turnY(d) - 3, label, size: 10, fill: "#333")
        }
        out.text(
            Self.left, Self.turnPanel.top - 6, "turn in the screen plane (grey: dead band at each diagonal; faint: too flat to count)",
            size: 11)
        let faceExit = parameters.faceExitTilt
        drawLine(&out, x: x, y: turnY, value: { $0.turn }, faint: { abs($0.tilt ?? 90) > faceExit }, wraps: true)

        // The tilt panel: −90° (face-down) to +90° (face-up).
        let tiltY = { (d: Double) in Self.tiltPanel.top + Self.tiltPanel.height * (1 - (d + 90) / 180) }
        let enter = parameters.faceEnterTilt
        out.rect(Self.left, tiltY(90), plotWidth, tiltY(enter) - tiltY(90), fill: Self.color(.faceUp), opacity: 0.25)
        out.rect(Self.left, tiltY(-enter), plotWidth, tiltY(-90) - tiltY(-enter), fill: Self.color(.faceDown), opacity: 0.25)
        out.rect(Self.left, tiltY(enter), plotWidth, tiltY(faceExit) - tiltY(enter), fill: "#888", opacity: 0.12)
        out.rect(Self.left, tiltY(-faceExit), plotWidth, tiltY(-enter) - tiltY(-faceExit), fill: "#888", opacity: 0.12)
        for d in [-90.0, -45, 0, 45, 90] {
            out.text(Self.left - 6, tiltY(d) + 4, "\(Int(d))°", size: 10, anchor: "end", fill: "#555")
        }
        out.text(Self.left + 4, tiltY(90) + 11, "face-up", size: 10, fill: "#333")
        out.text(Self.left + 4, tiltY(-90) - 3, "face-down", size: 10, fill: "#333")
        out.text(
            Self.left, Self.tiltPanel.top - 6, "tilt of the screen towards the sky (grey: between face-exit-tilt and face-enter-tilt)",
            size: 11)
        drawLine(&out, x: x, y: tiltY, value: { $0.tilt }, faint: { _ in false }, wraps: false)

        // Disturbances and walking; the proposal and its hold; the pose reported.
        out.text(Self.left - 6, Self.motionStrip.top + 16, "motion", size: 10, anchor: "end")
        out.text(Self.left - 6, Self.evidenceStrip.top + 22, "evidence", size: 10, anchor: "end")
        out.text(Self.left - 6, Self.reportedStrip.top + 12, "reported", size: 10, anchor: "end")
        drawSpans(&out, x: x, end: end) {
            $0.walking ? "#f1ce63" : nil
        } place: { _ in
            (Self.motionStrip.top, Self.motionStrip.height)
        }
        var lastTick = -Double.infinity
        for point in points where point.disturbed && x(point.time) - lastTick >= 1 {
            lastTick = x(point.time)
            out.line(lastTick, Self.motionStrip.top, lastTick, Self.motionStrip.top + Self.motionStrip.height, stroke: "#d62728", width: 1)
        }
        drawSpans(&out, x: x, end: end, everyPixel: true) {
            $0.proposed.map(Self.color)
        } place: { point in
            let h = Self.evidenceStrip.height * max(0.08, point.progress)
            return (Self.evidenceStrip.top + Self.evidenceStrip.height - h, h)
        }
        out.rect(Self.left, Self.evidenceStrip.top, plotWidth, Self.evidenceStrip.height, fill: "none", stroke: "#ccc")
        drawSpans(&out, x: x, end: end) {
            Self.color($0.reported)
        } place: { _ in
            (Self.reportedStrip.top, Self.reportedStrip.height)
        }

        // Events and the time axis.
        for (index, mark) in marks.enumerated() {
            let at = x(mark.time)
            out.line(at, Self.turnPanel.top, at, Self.reportedStrip.top + Self.reportedStrip.height, stroke: "#000", width: 1, dash: "3,3")
            out.text(at + 2, Self.turnPanel.top + 10 + Double(index % 3) * 11, mark.label, size: 9)
        }
        out.line(Self.left, Self.axisTop, Self.left + plotWidth, Self.axisTop, stroke: "#000", width: 1)
        let step = Self.tickStep(span: end - start)
        var tick = (start / step).rounded(.up) * step
        while tick <= end {
            out.line(x(tick), Self.axisTop, x(tick), Self.axisTop + 5, stroke: "#000", width: 1)
            out.text(x(tick), Self.axisTop + 17, n(tick), size: 10, anchor: "middle")
            tick += step
        }
        out.text(Self.left + plotWidth / 2, Self.axisTop + 34, "seconds", size: 11, anchor: "middle")
        var legendX = Self.left
        for pose in DeviceOrientation.allCases where pose != .unknown {
            out.rect(legendX, Self.axisTop + 50, 12, 12, fill: Self.color(pose), opacity: 1)
            out.text(legendX + 16, Self.axisTop + 60, pose.rawValue, size: 10)
            legendX += 130
        }
        out.line(legendX, Self.axisTop + 50, legendX, Self.axisTop + 62, stroke: "#d62728", width: 1)
        out.text(legendX + 6, Self.axisTop + 60, "disturbance", size: 10)
        out.rect(legendX + 80, Self.axisTop + 50, 12, 12, fill: "#f1ce63", opacity: 1)
        out.text(legendX + 96, Self.axisTop + 60, "walking", size: 10)
        out.text(
            Self.left, Self.axisTop + 80,
            "evidence: the pose the readings argue for, as high as its hold has gone; reported: the device's pose; dashed: each event",
            size: 10, fill: "#555")
        out.close()
        return out.text
    }

    /// A value as a line, one point at most per half pixel (the values are filtered, so
    /// nothing between is lost); broken where it is missing or wraps round (360° to 0°),
    /// and drawn faint where `faint`.
    private func drawLine(
        _ out: inout SVGText, x: (Double) -> Double, y: (Double) -> Double, value: (Point) -> Double?, faint: (Point) -> Bool,
        wraps: Bool
    ) {
        var run: [(Double, Double)] = []
        var runFaint = false
        var previous: (x: Double, value: Double)?
        func flush() {
            if run.count > 1 { out.polyline(run, stroke: runFaint ? "#aaa" : "#111", width: runFaint ? 1 : 1.5) }
            run.removeAll(keepingCapacity: true)
        }
        for point in points {
            let px = x(point.time)
            guard let v = value(point) else {
                flush()
                previous = nil
                continue
            }
            if let p = previous, px - p.x < 0.5 { continue }
            let isFaint = faint(point)
            if isFaint != runFaint || (wraps && previous.map { abs($0.value - v) > 180 } == true) {
                if isFaint != runFaint, let last = run.last {
                    flush()
                    run.append(last)
                } else {
                    flush()
                }
                runFaint = isFaint
            }
            run.append((px, y(v)))
            previous = (px, v)
        }
        flush()
    }

    /// Rectangles for each stretch of points that share a colour, up to the next point;
    /// `place` gives the top and height from the stretch's last point.
    private func drawSpans(
        _ out: inout SVGText, x: (Double) -> Double, end: Double, everyPixel: Bool = false, color: (Point) -> String?,
        place: (Point) -> (top: Double, height: Double)
    ) {
        var index = 0
        while index < points.count {
            let first = points[index]
            let fill = color(first)
            var next = index + 1
            // A proposal's rectangle grows with its hold, so it is cut at each pixel.
            while next < points.count, color(points[next]) == fill, !everyPixel || x(points[next].time) - x(first.time) < 1 {
                next += 1
            }
            if let fill {
                let stop = next < points.count ? points[next].time : end
                let (top, height) = place(points[next - 1])
                out.rect(x(first.time), top, max(0.5, x(stop) - x(first.time)), height, fill: fill)
            }
            index = next
        }
    }

    /// A tick spacing of 1, 2 or 5 times a power of ten giving 5–12 ticks.
    static func tickStep(span: Double) -> Double {
        var step = 0.001
        while span / step > 12 {
            for factor in [2.0, 2.5, 2] {
                step *= factor
                if span / step <= 12 { return step }
            }
        }
        return step
    }

    private func n(_ value: Double) -> String { JSONLineWriter.number(value, decimals: 3) }
}
