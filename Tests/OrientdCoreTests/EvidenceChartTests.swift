import Foundation
import Testing

@testable import OrientdCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Evidence chart")
struct EvidenceChartTests {
    /// The elements of an SVG document, by name, with their attributes; nil when it is not
    /// well-formed XML.
    final class Elements: NSObject, XMLParserDelegate {
        var found: [(name: String, attributes: [String: String])] = []
        var texts: [String] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            found.append((name, attributes))
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }

        static func parse(_ svg: String) -> Elements? {
            let parser = XMLParser(data: Data(svg.utf8))
            let elements = Elements()
            parser.delegate = elements
            return parser.parse() ? elements : nil
        }
    }

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

    @Test("well-formed SVG with a dashed line and a label for each event, and a disturbance mark")
    func wellFormed() throws {
        let (chart, events) = chart()
        #expect(events.map(\.device) == [.portrait, .landscapeLeft])
        let elements = try #require(Elements.parse(chart.svg), "not well-formed XML")
        #expect(elements.found.first?.name == "svg")
        let dashed = elements.found.filter { $0.name == "line" && $0.attributes["stroke-dasharray"] != nil }
        #expect(dashed.count == events.count)
        #expect(elements.texts.joined().contains("landscape-left → landscape-primary"))
        // The tap's mark in the motion strip (the legend has a mark of its own, lower).
        let marks = elements.found.filter { $0.name == "line" && $0.attributes["stroke"] == "#d62728" }
        #expect(marks.contains { $0.attributes["y1"] == "430" }, "\(marks.map(\.attributes))")
        // Two polylines at least: the turn and the tilt.
        #expect(elements.found.filter { $0.name == "polyline" }.count >= 2)
    }

    @Test("the title is text, whatever the recording's name holds")
    func escaped() throws {
        let (chart, _) = chart(title: "orientd explain <a&b>\"\u{1}.csv")
        let elements = try #require(Elements.parse(chart.svg), "not well-formed XML")
        #expect(elements.texts.joined().contains("orientd explain <a&b>\"\u{FFFD}.csv"))
    }

    @Test("an empty recording still draws its frame")
    func empty() throws {
        let chart = EvidenceChart(title: "nothing", parameters: ClassifierParameters())
        #expect(Elements.parse(chart.svg) != nil)
    }

    @Test("time ticks: 1, 2 or 5 times a power of ten, 5 to 12 of them", arguments: [0.05, 0.3, 1, 7, 37, 145, 3600, 86400])
    func ticks(span: Double) {
        let step = EvidenceChart.tickStep(span: span)
        #expect(span / step <= 12 && span / step >= 4, "\(span) s: step \(step)")
        let mantissa = step / pow(10, floor(log10(step)))
        #expect([1.0, 2, 5].contains { abs($0 - mantissa) < 1e-9 }, "\(step)")
    }
}
