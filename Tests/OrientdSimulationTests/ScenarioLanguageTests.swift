import OrientdCore
import Testing

@testable import OrientdSimulation

/// Reading scenarios: what parses to what, and what is refused with which file:line.
struct ScenarioLanguageTests {
    @Test func aScenarioReadsIntoStepsOnTheTimeLine() throws {
        let scenario = try makeScenario(
            """
            # comment
            name: walking-turn
            description: Turned from portrait to landscape while walking
            rate: 50hz
            noise: 0.04

            start portrait tilt 20
            hold 3s walking                   # expect the pose
            rotate landscape-left 600ms walking
            hold 4s walking
            """)
        #expect(scenario.name == "walking-turn")
        #expect(scenario.description == "Turned from portrait to landscape while walking")
        #expect(scenario.rate == 50)
        #expect(abs(scenario.duration - 7.6) < 1e-12)
        #expect(scenario.segments.map(\.kind) == [.hold, .rotate, .hold])
        #expect(scenario.segments.map(\.label) == [.pose(.portrait), nil, .pose(.landscapeLeft)])
        #expect(scenario.segments[1].start == 3)
        #expect(scenario.segments[2].from.roll == 90 && scenario.segments[2].from.tilt == 20)
    }

    @Test func theNameDefaultsToTheFileName() throws {
        #expect(try makeScenario("start face-up\nhold 1s", source: "Recordings/scenarios/on-a-desk.scenario").name == "on-a-desk")
    }

    @Test func labelsFollowTheRules() throws {
        let scenario = try makeScenario(
            """
            start portrait tilt 30
            hold 1s
            rotate roll 40 1s
            hold 1s
            hold 1s expect portrait
            rotate roll 35 1s expect portrait
            rotate portrait tilt 68 1s
            hold 1s
            hold 1s expect portrait
            rotate tilt 80 1s
            hold 1s
            hold 1s expect -
            shake 1s
            move 1s forward=0.3
            """)
        let labels = scenario.segments.map { $0.label?.word ?? "-" }
        #expect(labels == ["portrait", "-", "-", "portrait", "portrait", "-", "-", "portrait", "-", "face-up", "-", "-", "face-up"])
    }

    @Test func repeatBlocksExpand() throws {
        let scenario = try makeScenario(
            """
            start portrait
            repeat 3
              hold 1s
              repeat 2
                rotate landscape-left 0.5s
                rotate portrait 0.5s
              end
            end
            """)
        #expect(scenario.segments.count == 15)
        #expect(scenario.duration == 9)
    }

    @Test func anActivityKeepsTheOptionsOfItsFirstStep() throws {
        let scenario = try makeScenario("start portrait\nhold 1s walking step=2.1\nhold 1s walking\nhold 1s")
        #expect(scenario.segments[0].modifiers == scenario.segments[1].modifiers)
        let e = parseError("start portrait\nhold 1s walking step=2.1\nhold 1s walking step=1.7")
        #expect(e?.line == 3)
    }

    /// Each mistake is reported at its line, with what was expected.
    @Test(arguments: [
        ("start portrait\nhold 2", 2, "has no unit"),
        ("start portrait\nhold walking", 2, "needs a duration"),
        ("start portrait\nhold 2x", 2, "unexpected '2x'"),
        ("rate: 5000\nstart portrait\nhold 1s", 1, "out of range"),
        ("rate: fast\nstart portrait\nhold 1s", 1, "is not a frequency"),
        ("colour: red\nstart portrait\nhold 1s", 1, "unknown setting 'colour:'"),
        ("start portrait\nhold 1s\nrate: 50", 3, "before 'start'"),
        ("hold 1s", 1, "the first step must be 'start POSE'"),
        ("start portrait\nstart face-up\nhold 1s", 2, "given twice"),
        ("start portrait\n\n\njump 1s", 4, "unknown step 'jump'"),
        ("start portrait\nhold 1s walking speed=3", 2, "unknown option 'speed' for walking"),
        ("start portrait\nrotate landscape-left 1s walking pivot=0,0,0", 2, "before its first modifier"),
        ("start portrait\nhold 1s taps rate=lots", 2, "expected a rate"),
        ("start portrait\nrotate portrait-upside-down 1s", 2, "half turn"),
        ("start portrait\nhold 1s expect sideways", 2, "expect 'sideways'"),
        ("start portrait\nrotate roll 60 1s\nhold 1s expect portrait", 3, "not honest"),
        ("start portrait\nrotate landscape-left 1s expect portrait", 2, "not honest"),
        ("start face-up\nhold 1s expect face-down", 2, "not honest"),
        ("start portrait tilt 80\nhold 1s", 1, "is not portrait"),
        ("start portrait tilt 100\nhold 1s", 1, "tilt 100 is out of range"),
        ("start portrait\nrepeat 2\nhold 1s", 2, "without a matching 'end'"),
        ("start portrait\nhold 1s\nend", 3, "'end' without"),
        ("start portrait\nrepeat 100000\nhold 1s\nhold 1s\nend", 2, "more than 100000 steps"),
        ("mount-matrix: 1, 0; 0, 1\nstart portrait\nhold 1s", 1, "mount-matrix:"),
        ("start portrait", 1, "lasts no time"),
        ("# nothing\n", 1, "no steps"),
        ("start portrait\nmove 1s", 2, "needs a displacement"),
        ("start portrait\nhold 1s tremor tremor", 2, "given twice"),
        ("start portrait walking", 1, "takes no modifiers"),
        ("start portrait\nrotate 1s", 2, "needs a pose"),
    ])
    func mistakesNameFileAndLine(text: String, line: Int, words: String) {
        let e = parseError(text, source: "scenarios/bad.scenario")
        #expect(e != nil, "\(text) parsed")
        guard let e else { return }
        #expect(e.line == line, "\(e)")
        #expect(e.description.hasPrefix("scenarios/bad.scenario:\(line): "), "\(e)")
        #expect(e.message.contains(words), "\(e)")
    }

    @Test func unitsAreUnderstood() {
        #expect(Quantity.seconds.parse("350ms") == 0.35)
        #expect(Quantity.seconds.parse("2s") == 2)
        #expect(Quantity.seconds.parse("2") == nil)
        #expect(Quantity.metres.parse("30cm") == 0.3)
        #expect(Quantity.acceleration.parse("0.5g") == 0.5 * g)
        #expect(Quantity.fraction.parse("2%") == 0.02)
        #expect(Quantity.hertz.parse("1.9hz") == 1.9)
        #expect(Quantity.degrees.parse("nan") == nil)
    }
}
