import Foundation
import OrientdTestSupport
import Testing

/// The chart as a person who attaches it to a bug report sees it: drawn by a real SVG
/// renderer (librsvg's `rsvg-convert`, which GNOME's image viewer and many browsers'
/// platforms share), not only parsed as XML.
let svgRenderer = MissingCounterpart(programs: ["rsvg-convert"], needsRoot: false)

@Suite(
    "orientd explain --svg, rendered by librsvg",
    .enabled(
        if: svgRenderer.missing.isEmpty,
        "\(svgRenderer.skipReason(suite: "ExplainChartRenderTests", why: "The chart is only parsed as XML by the fast tier; scripts/install-dependencies --tests installs librsvg2-bin."))"
    ))
struct ExplainChartRenderTests {
    @Test(
        "each bundled recording's chart renders, without a complaint, at its size",
        arguments: OneReplayPathTests.recordings.filter { $0.contains("walking") || $0.contains("lifted") || $0.contains("bus") })
    func renders(path: String) throws {
        let scratch = try Scratch()
        let svg = scratch.directory.appendingPathComponent("chart.svg").path
        let png = scratch.directory.appendingPathComponent("chart.png").path
        let explained = try OrientdProcess.run(["explain", path, "--svg", svg])
        #expect(explained.status == 0, "\(explained.stderr)")
        let rendered = try OrientdProcess.runShell(["rsvg-convert", svg, "-o", png])
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
        try #require(bytes.count > 24 && bytes[1...3] == [0x50, 0x4E, 0x47], "not a PNG")
        // IHDR: width and height, big-endian, at bytes 16 and 20.
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1200 && height == 640)
        // Bands, lines and text, not a blank page: a blank 1200×640 PNG is under 5 KB.
        #expect(bytes.count > 40_000, "\(bytes.count) bytes")
    }
}
