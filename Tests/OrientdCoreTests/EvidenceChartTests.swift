import Foundation
import Testing

@testable import OrientdCore

/// The chart's structure, read from its text. That it is well-formed XML, and what a
/// renderer makes of it, the command-line tests check with Python's XML parser and
/// librsvg: FoundationXML would link libxml2 into the test bundle, which the arm64 run's
/// Debian root lacks.
@Suite("Evidence chart")
struct EvidenceChartTests {
    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// Portrait, turned to landscape-left at 1 s, with a tap at 0.5 s; its events.
    func chart(title: String = "a turn") -> (EvidenceChart, [OrientationEvent]) {
        var chart = EvidenceChart(title: title, parameters: ClassifierParameters())
        var c = OrientationClassifier()
        var events: [OrientationEvent] = []
        var previous: Rotation?
        for i in 0..<100 {
            let t = Double(i) / 50
            let reading = rest(roll: t < 1 ? 0 : 90, tilt: 20, magnitude: i == 25 ? 25 : g)
            if let pose = c.update(time: t, acceleration: reading) {
                let screen = pose.rotation ?? previous ?? .degrees0
                let event = OrientationEvent(
                    time: t, device: pose, screen: screen, previousScreen: previous, natural: .portrait, locked: false,
                    cause: previous == nil ? .start : .sensor)
                chart.add(event)
                events.append(event)
                previous = screen
            }
            chart.add(c.evidence)
        }
        return (chart, events)
    }

    @Test("an SVG document with a dashed line and a label for each event, and a disturbance mark")
    func structure() throws {
        let (chart, events) = chart()
        #expect(events.map(\.device) == [.portrait, .landscapeLeft])
        let svg = chart.svg
        #expect(svg.hasPrefix("<?xml") && svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.hasSuffix("</svg>\n"))
        #expect(count("stroke-dasharray", in: svg) == events.count)
        #expect(svg.contains(">landscape-left → landscape-primary</text>"))
        // The tap's mark in the motion strip (the legend has a mark of its own, lower).
        #expect(svg.contains(#"<line x1=""#) && svg.contains(#"y1="430" "#) && svg.contains(##"stroke="#d62728""##))
        // The turn and the tilt.
        #expect(count("<polyline ", in: svg) >= 2)
        #expect(count("<text ", in: svg) == count("</text>", in: svg))
    }

    @Test("the title is text, whatever the recording's name holds")
    func escaped() throws {
        let (chart, _) = chart(title: "orientd explain <a&b>\"\u{1}.csv")
        #expect(chart.svg.contains(">orientd explain &lt;a&amp;b&gt;&quot;\u{FFFD}.csv</text>"))
    }

    @Test("an empty recording still draws its frame")
    func empty() throws {
        let svg = EvidenceChart(title: "nothing", parameters: ClassifierParameters()).svg
        #expect(svg.hasSuffix("</svg>\n") && count("stroke-dasharray", in: svg) == 0)
    }

    @Test("time ticks: 1, 2 or 5 times a power of ten, 5 to 12 of them", arguments: [0.05, 0.3, 1, 7, 37, 145, 3600, 86400])
    func ticks(span: Double) {
        let step = EvidenceChart.tickStep(span: span)
        #expect(span / step <= 12 && span / step >= 4, "\(span) s: step \(step)")
        let mantissa = step / pow(10, floor(log10(step)))
        #expect([1.0, 2, 5].contains { abs($0 - mantissa) < 1e-9 }, "\(step)")
    }
}
