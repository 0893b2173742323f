import Testing

@testable import OrientdCore

@Suite("The classifier's one table of parameters")
struct ClassifierParameterTests {
    @Test("names are unique flags in kebab case, each with a summary and an example")
    func names() {
        let names = ClassifierParameter.all.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        for parameter in ClassifierParameter.all {
            #expect(parameter.name.allSatisfy { $0.isLowercase || $0 == "-" }, "\(parameter.name)")
            #expect(parameter.summary.hasSuffix(".") && !parameter.example.isEmpty, "\(parameter.name)")
            #expect(ClassifierParameter.named(parameter.name)?.name == parameter.name)
        }
        #expect(ClassifierParameter.named("gravity") == nil, "gravity is a constant of nature, not a setting")
    }

    @Test("each entry reads and writes its own field of ClassifierParameters, and no other", arguments: ClassifierParameter.all.map(\.name))
    func ownField(name: String) throws {
        let parameter = try #require(ClassifierParameter.named(name))
        var changed = ClassifierParameters()
        let value = parameter.defaultValue + 1
        parameter.set(value, in: &changed)
        #expect(parameter.value(in: changed) == value)
        #expect(changed != ClassifierParameters())
        for other in ClassifierParameter.all where other.name != name {
            #expect(other.value(in: changed) == other.defaultValue, "setting \(name) changed \(other.name)")
        }
    }

    @Test(
        "each default and each swept value is within the bounds, and the sweep tries the default",
        arguments: ClassifierParameter.all.map(\.name))
    func bounds(name: String) throws {
        let parameter = try #require(ClassifierParameter.named(name))
        #expect(parameter.problem(with: parameter.defaultValue) == nil)
        for value in parameter.sweep { #expect(parameter.problem(with: value) == nil, "\(name) sweeps \(value)") }
        if !parameter.sweep.isEmpty { #expect(parameter.sweep.contains(parameter.defaultValue), "\(name)") }
        #expect(parameter.problem(with: -1) != nil && parameter.problem(with: .nan) != nil && parameter.problem(with: .infinity) != nil)
    }

    @Test("each bound refuses what it says, naming the parameter")
    func refusals() {
        func refusal(_ name: String, _ value: Double) -> ClassifierParameters.InvalidParameter? {
            var p = ClassifierParameters()
            ClassifierParameter.named(name)!.set(value, in: &p)
            do {
                try p.validate()
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal("rotation-hysteresis", 45)?.message == "must be below 45 degrees, got 45")
        #expect(refusal("face-enter-tilt", 90.5)?.message == "must be at most 90 degrees, got 90.5")
        #expect(refusal("gap-reset", 0)?.message == "must be > 0")
        #expect(refusal("minimum-samples", 0)?.message == "must be a whole number, at least 1, got 0")
        #expect(refusal("hold-time", -0.1)?.message == "must be a finite number ≥ 0, got -0.1")
        #expect(refusal("hold-time", -0.1)?.name == "hold-time")
        #expect(refusal("face-exit-tilt", 80)?.message == "must not exceed face-enter-tilt (78.0), got 80.0")
        #expect(refusal("hold-time", 0.2) == nil)
    }

    @Test("the naive classifier turns every gate off and is valid")
    func naive() throws {
        let naive = ClassifierParameters.naive
        try naive.validate()
        #expect(naive.holdTime == 0 && naive.minimumSamples == 1 && naive.rotationHysteresis == 0 && naive.magnitudeTolerance == 1000)
        #expect(naive.faceSureTilt == ClassifierParameters().faceSureTilt, "kept at its default")
    }

    @Test("--json: one object a line, with the default, the sweep and the naive value")
    func json() {
        let line = String(decoding: ClassifierParameter.holdTime.jsonLine, as: UTF8.self)
        #expect(
            line
                == #"{"name":"hold-time","unit":"s","default":0.12,"bound":"≥ 0","summary":"A new pose must hold this long before it is reported.","sweep":[0,0.04,0.08,0.12,0.16,0.2,0.25,0.3],"naive":0}"#
                + "\n")
        #expect(String(decoding: ClassifierParameter.gapReset.jsonLine, as: UTF8.self).contains(#""sweep":[],"naive":null"#))
    }
}
