import OrientdCore
import Testing

@Suite("A buffer that goes silent")
struct BufferSilenceTests {
    /// Checks once a second (the reader's poll time-out) from `from` to `to`, and the steps
    /// that were not `wait`, with their times. Settings asked for are applied at once.
    static func steps(_ silence: inout BufferSilence, from: Double, to: Double, rate: Double) -> [(Double, BufferSilence.Step)] {
        var out: [(Double, BufferSilence.Step)] = []
        var t = from
        while t <= to {
            let step = silence.check(now: t, rate: rate)
            if step != .wait { out.append((t, step)) }
            if case .stall = step { _ = silence.applied(at: t) }
            t += 1
        }
        return out
    }

    @Test("not given up while its settings are being written (a write can wait on a driver's time-outs), nor after the stall ended")
    func writeUnderWay() {
        var silence = BufferSilence(now: 0)
        #expect(silence.check(now: 2, rate: 50) == .stall(seconds: 2))
        #expect(silence.check(now: 3, rate: 50) == .hung(seconds: 3), "the write has waited 1 s")
        for t in 4...12 { #expect(silence.check(now: Double(t), rate: 50) == .wait) }
        _ = silence.applied(at: 12)
        #expect(silence.check(now: 12.5, rate: 50) == .wait)
        #expect(silence.check(now: 13, rate: 50) == .giveUp(since: 0), "1 s after the write ended")
        var ended = BufferSilence(now: 0)
        _ = ended.check(now: 2, rate: 50)
        #expect(ended.scan(at: 4) == 4)
        _ = ended.applied(at: 12, refused: "EIO")
        #expect(ended.untaken == 0 && !ended.isStalled, "a write that ends after the scans came back changes nothing")
        #expect(ended.check(now: 5, rate: 50) == .wait)
    }

    @Test(
        "a sensor that watches is excused its silence until a check: silent from the check on, it stalls 2 s later; excused while stalled, it is not"
    )
    func excused() {
        var silence = BufferSilence(now: 0)
        for t in stride(from: 1.0, through: 60, by: 1) {
            silence.excuse(at: t)
            #expect(silence.check(now: t, rate: 50) == .wait)
        }
        // The check at 60 s goes unanswered: no more excuses.
        #expect(silence.check(now: 61, rate: 50) == .wait)
        #expect(silence.check(now: 62, rate: 50) == .stall(seconds: 2))
        silence.excuse(at: 63)
        #expect(silence.lastScan == 60, "a stall's silence runs on")
        var back = BufferSilence(now: 0)
        back.excuse(at: 5)
        back.excuse(at: 3)
        #expect(back.lastScan == 5, "never back")
    }

    @Test("stalled after 2 s at 50 Hz, given up 1 s after the settings were applied again; once each")
    func fullRate() {
        var silence = BufferSilence(now: 0)
        #expect(silence.scan(at: 10) == nil, "scans while all is well end no stall")
        let steps = Self.steps(&silence, from: 11, to: 30, rate: 50)
        #expect(steps.map(\.0) == [12, 13])
        #expect(steps.map(\.1) == [.stall(seconds: 2), .giveUp(since: 10)])
        #expect(silence.isStalled && silence.givenUp == 1)
    }

    @Test("at a slow rate the waits are 20 and 10 sampling periods")
    func slowRate() {
        var silence = BufferSilence(now: 0)
        let steps = Self.steps(&silence, from: 1, to: 60, rate: 2)
        #expect(steps.map(\.0) == [10, 15])
        #expect(steps.map(\.1) == [.stall(seconds: 10), .giveUp(since: 0)])
    }

    @Test("scans after the stall end it: the silence is said, and all starts afresh")
    func resumed() {
        var silence = BufferSilence(now: 0)
        _ = Self.steps(&silence, from: 1, to: 2, rate: 50)
        #expect(silence.isStalled)
        #expect(silence.scan(at: 2.5) == 2.5)
        #expect(!silence.isStalled)
        #expect(silence.scan(at: 2.52) == nil)
        #expect(Self.steps(&silence, from: 3, to: 4, rate: 50).isEmpty, "a new silence counts from the last scan")
        #expect(Self.steps(&silence, from: 4.6, to: 4.6, rate: 50).map(\.1) == [.stall(seconds: 4.6 - 2.52)])
    }

    @Test("a retry of the buffer keeps the episode: no second stall, given up again after the short wait, its scans end it all")
    func retry() {
        var silence = BufferSilence(retrying: 10, givenUp: 1, now: 23)
        #expect(silence.isStalled)
        let steps = Self.steps(&silence, from: 23, to: 30, rate: 50)
        #expect(steps.map(\.0) == [24])
        #expect(steps.map(\.1) == [.giveUp(since: 10)])
        #expect(silence.givenUp == 2)
        var patient = BufferSilence(retrying: 10, givenUp: 1, now: 23, waiting: 10)
        #expect(Self.steps(&patient, from: 23, to: 40, rate: 50).map(\.0) == [34], "waited on 10 s, then the grace")
        var back = BufferSilence(retrying: 10, givenUp: 2, now: 44)
        #expect(back.scan(at: 44.1) == 34.1, "the whole episode")
        #expect(back.givenUp == 0 && !back.isStalled)
    }

    @Test("a process that did not run (a suspend) counts the silence from its waking")
    func woke() {
        var silence = BufferSilence(now: 0)
        silence.woke(at: 30)
        #expect(Self.steps(&silence, from: 31, to: 31, rate: 50).isEmpty)
        #expect(Self.steps(&silence, from: 32, to: 32, rate: 50).map(\.1) == [.stall(seconds: 2)])
    }

    @Test(
        "settings the sensor does not take (a hung sensor): the buffer is kept, never given up, the settings written again after 10, 20, 40, 60 s"
    )
    func untaken() {
        var silence = BufferSilence(now: 0)
        #expect(silence.check(now: 2, rate: 50) == .stall(seconds: 2))
        // The write waited out the driver's 5 s time-out; each try after fails at once.
        #expect(
            silence.applied(at: 7, refused: "iio:device0: in_accel_sampling_frequency: timed out")
                == "iio:device0: in_accel_sampling_frequency: timed out: the sensor answers nothing; waiting for it to send, "
                + "and writing its rate again now and then")
        var tries: [Double] = []
        var t = 8.0
        while t <= 200 {
            if silence.check(now: t, rate: 50) == .reapply {
                tries.append(t)
                #expect(silence.applied(at: t, refused: "EIO") == nil, "said once an episode")
            }
            t += 1
        }
        #expect(tries == [17, 37, 77, 137, 197], "10 s after the failed write, then 20, 40, 60, 60")
        #expect(silence.untaken == 6 && silence.givenUp == 0 && silence.isStalled)
        // Taken at last: given a second, then given up as any silent buffer.
        _ = silence.applied(at: 200)
        let steps = Self.steps(&silence, from: 200.5, to: 202.5, rate: 50)
        #expect(steps.map(\.1) == [.giveUp(since: 0)])
        #expect(silence.scan(at: 205) == 205, "the whole silence")
        #expect(silence.untaken == 0)
        #expect(silence.check(now: 207, rate: 50) == .stall(seconds: 2))
        #expect(silence.applied(at: 208, refused: "EIO") != nil, "a new episode's first refusal is said again")
    }

    @Test("a write of the settings still waiting after 1 s: hung, said once an episode; the next silence may be hung again")
    func hung() {
        var silence = BufferSilence(now: 0)
        #expect(silence.check(now: 2, rate: 50) == .stall(seconds: 2))
        #expect(silence.check(now: 2.9, rate: 50) == .wait, "a write may take a while")
        #expect(silence.check(now: 3, rate: 50) == .hung(seconds: 3))
        #expect(silence.isHung)
        _ = silence.applied(at: 12, refused: "EIO")
        #expect(silence.check(now: 22, rate: 50) == .reapply)
        #expect(silence.check(now: 25, rate: 50) == .wait, "the retry's write waits too: said already")
        #expect(silence.scan(at: 26) == 26)
        #expect(!silence.isHung)
        #expect(silence.check(now: 28, rate: 50) == .stall(seconds: 2))
        _ = silence.applied(at: 28.01)
        #expect(silence.check(now: 29.5, rate: 50) == .giveUp(since: 26), "a write that ended at once: never hung")
        var frozen = BufferSilence(now: 0)
        _ = frozen.check(now: 2, rate: 50)
        frozen.woke(at: 40)
        #expect(frozen.check(now: 40.5, rate: 50) == .wait, "the write's wait counts from the waking")
        #expect(frozen.check(now: 41, rate: 50) == .hung(seconds: 1))
    }

    @Test("the buffer is tried again after 10 s of polled reading, then 20, 40, and every 60 s")
    func retryDelays() {
        #expect((1...6).map { BufferSilence.retryDelay(givenUp: $0) } == [10, 20, 40, 60, 60, 60])
        #expect(BufferSilence.retryDelay(givenUp: 1000) == 60)
    }
}

@Suite("The sensor's trouble, from its events")
struct SensorTroubleTests {
    func event(_ state: SensorState, at time: Double) -> SensorStateEvent {
        SensorStateEvent(state, device: "iio:device0", time: time)
    }

    @Test("stalled, then read polled, keep the silence's start; resumed, lost, idle or attached end it")
    func episode() {
        var trouble = SensorTrouble.after(event(.stalled(seconds: 2), at: 6), was: nil)
        #expect(trouble == .stalled(device: "iio:device0", since: 4))
        trouble = SensorTrouble.after(event(.reading(read: .polled, because: "its buffer sends nothing"), at: 7.1), was: trouble)
        #expect(trouble == .polledInstead(device: "iio:device0", since: 4))
        #expect(SensorTrouble.after(event(.resumed(afterSeconds: 13), at: 17), was: trouble) == nil)
        #expect(SensorTrouble.after(event(.reading(read: .buffered, because: "its buffer sends again"), at: 17), was: trouble) == trouble)
        for end in [SensorState.lost(reason: "removed"), .idle, .reading(read: .buffered)] {
            #expect(SensorTrouble.after(event(end, at: 20), was: trouble) == nil, "\(end)")
        }
        #expect(
            SensorTrouble.after(event(.reading(read: .polled, because: "its buffer sends nothing"), at: 9), was: nil)
                == .polledInstead(device: "iio:device0", since: 9), "no stall before it: from now")
    }

    @Test("hung after stalled keeps the silence's start, and so does reading polled after it (a write that ended at last)")
    func hung() {
        var trouble = SensorTrouble.after(event(.stalled(seconds: 2), at: 6), was: nil)
        trouble = SensorTrouble.after(event(.hung(seconds: 3), at: 7), was: trouble)
        #expect(trouble == .hung(device: "iio:device0", since: 4))
        #expect(
            SensorTrouble.after(event(.reading(read: .polled, because: "its buffer sends nothing"), at: 17.1), was: trouble)
                == .polledInstead(device: "iio:device0", since: 4))
        let other = SensorStateEvent(.reading(read: .polled, because: "its buffer sends nothing"), device: "iio:device1", time: 9)
        #expect(SensorTrouble.after(other, was: trouble) == .polledInstead(device: "iio:device1", since: 9), "another device's silence")
        #expect(SensorTrouble.after(event(.resumed(afterSeconds: 10), at: 14), was: trouble) == nil)
        var json = JSONLineWriter()
        json.add("sensor-trouble") { SensorTrouble.hung(device: "iio:device0", since: 4).add(to: &$0, now: 9) }
        #expect(
            String(decoding: json.line(), as: UTF8.self) == #"{"sensor-trouble":{"state":"hung","device":"iio:device0","silent":5}}"# + "\n"
        )
    }

    @Test("in status: its state, device and the silence so far")
    func json() {
        var json = JSONLineWriter()
        json.add("sensor-trouble") { SensorTrouble.polledInstead(device: "iio:device0", since: 4).add(to: &$0, now: 16.46) }
        #expect(
            String(decoding: json.line(), as: UTF8.self) == #"{"sensor-trouble":{"state":"polled","device":"iio:device0","silent":12.5}}"#
                + "\n")
    }
}
