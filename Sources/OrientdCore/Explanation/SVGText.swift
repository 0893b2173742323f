/// An SVG document being written: the few elements `EvidenceChart` draws, with its text
/// escaped and its coordinates to a tenth of a pixel.
struct SVGText: Sendable {
    private(set) var text = ""

    mutating func open(width: Double, height: Double) {
        text += """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(c(width))" height="\(c(height))" \
            viewBox="0 0 \(c(width)) \(c(height))" font-family="sans-serif">
            <rect width="100%" height="100%" fill="#fff"/>

            """
    }

    mutating func close() { text += "</svg>\n" }

    mutating func text(
        _ x: Double, _ y: Double, _ content: String, size: Double, anchor: String = "start", weight: String = "normal",
        fill: String = "#000"
    ) {
        text +=
            "<text x=\"\(c(x))\" y=\"\(c(y))\" font-size=\"\(c(size))\" text-anchor=\"\(anchor)\" font-weight=\"\(weight)\" fill=\"\(fill)\">\(Self.escaped(content))</text>\n"
    }

    mutating func rect(
        _ x: Double, _ y: Double, _ width: Double, _ height: Double, fill: String, opacity: Double = 1, stroke: String? = nil
    ) {
        let outline = stroke.map { " stroke=\"\($0)\"" } ?? ""
        text +=
            "<rect x=\"\(c(x))\" y=\"\(c(y))\" width=\"\(c(width))\" height=\"\(c(height))\" fill=\"\(fill)\" fill-opacity=\"\(c(opacity, 2))\"\(outline)/>\n"
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double, dash: String? = nil) {
        let dashes = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
        text +=
            "<line x1=\"\(c(x1))\" y1=\"\(c(y1))\" x2=\"\(c(x2))\" y2=\"\(c(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(c(width))\"\(dashes)/>\n"
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double) {
        text += "<polyline fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(c(width))\" points=\""
        text += points.map { "\(c($0.0)),\(c($0.1))" }.joined(separator: " ")
        text += "\"/>\n"
    }

    /// Text as XML character data: the recording's name may hold anything.
    static func escaped(_ content: String) -> String {
        var out = ""
        for character in content {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // XML 1.0 has no control characters but tab and newline.
            case _ where character.asciiValue.map({ $0 < 0x20 && $0 != 9 && $0 != 10 }) == true: out += "\u{FFFD}"
            default: out.append(character)
            }
        }
        return out
    }

    private func c(_ value: Double, _ decimals: Int = 1) -> String { JSONLineWriter.number(value, decimals: decimals) }
}
