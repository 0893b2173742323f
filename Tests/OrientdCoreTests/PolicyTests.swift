import Testing

@testable import OrientdCore

@Suite("Orientation words")
struct OrientationWordsTests {
    func set(_ words: String, _ natural: NaturalOrientation = .portrait) throws -> RotationSet {
        try OrientationWords.parse(words, natural: natural)
    }

    @Test("W3C lock types on a naturally portrait panel")
    func w3cPortraitPanel() throws {
        #expect(try set("any") == .all)
        #expect(try set("natural") == [.degrees0])
        #expect(try set("portrait") == [.degrees0, .degrees180])
        #expect(try set("landscape") == [.degrees90, .degrees270])
        #expect(try set("portrait-primary") == [.degrees0])
        #expect(try set("portrait-secondary") == [.degrees180])
        #expect(try set("landscape-primary") == [.degrees90])
        #expect(try set("landscape-secondary") == [.degrees270])
    }

    @Test("W3C names move on a naturally landscape panel; poses and angles do not")
    func w3cLandscapePanel() throws {
        #expect(try set("natural", .landscape) == [.degrees0])
        #expect(try set("landscape-primary", .landscape) == [.degrees0])
        #expect(try set("landscape", .landscape) == [.degrees0, .degrees180])
        #expect(try set("portrait-primary", .landscape) == [.degrees270])
        #expect(try set("portrait", .landscape) == [.degrees90, .degrees270])
        #expect(try set("landscape-left", .landscape) == [.degrees90])
    }

    @Test("iOS mask words and values, device poses, iio-sensor-proxy names, angles, lists")
    func otherVocabularies() throws {
        #expect(try set("all") == .all)
        #expect(try set("all-but-upside-down") == [.degrees0, .degrees90, .degrees270])
        #expect(try set("allButUpsideDown") == [.degrees0, .degrees90, .degrees270])
        #expect(try set("portraitUpsideDown") == [.degrees180])
        #expect(try set("30") == .all)
        #expect(try set("26") == [.degrees0, .degrees90, .degrees270])
        #expect(try set("8") == [.degrees90], "iOS interface landscapeRight is the device's landscape-left pose")
        #expect(try set("16") == [.degrees270])
        #expect(try set("landscape-left") == [.degrees90])
        #expect(try set("landscape-right") == [.degrees270])
        #expect(try set("right-up") == [.degrees90])
        #expect(try set("left-up") == [.degrees270])
        #expect(try set("bottom-up") == [.degrees180])
        #expect(try set("normal") == [.degrees0])
        #expect(try set("90,180") == [.degrees90, .degrees180])
        #expect(try set("portrait, landscape-primary") == [.degrees0, .degrees90, .degrees180])
        #expect(try set("LANDSCAPE") == [.degrees90, .degrees270])
    }

    @Test("nothing or an unknown word is an error that says what was expected")
    func errors() {
        #expect {
            try set("")
        } throws: { error in
            "\(error)".hasPrefix("an orientation must be given")
        }
        #expect {
            try set("portrait,sideways")
        } throws: { error in
            "\(error)".hasPrefix("unknown orientation 'sideways'; expected one of: any, all")
        }
        #expect(throws: OrientationWords.ParseError.self) { try set("32") }
        #expect(throws: OrientationWords.ParseError.self) { try set("1") }
    }
}

@Suite("Screen policy")
struct ScreenPolicyTests {
    @Test("starts at the preferred member: the natural orientation when allowed")
    func initialScreen() {
        #expect(ScreenPolicy().screen == .degrees0)
        #expect(ScreenPolicy(configured: [.degrees90, .degrees270]).screen == .degrees90)
    }

    @Test("the screen follows upright poses in the set; face-up, face-down and unknown never move it")
    func follows() {
        var p = ScreenPolicy()
        let r1 = p.deviceDidChange(to: .landscapeLeft)
        #expect(r1)
        #expect(p.screen == .degrees90)
        let r2 = p.deviceDidChange(to: .faceUp)
        #expect(!r2)
        #expect(p.screen == .degrees90)
        let r3 = p.deviceDidChange(to: .faceDown)
        #expect(!r3)
        let r4 = p.deviceDidChange(to: .unknown)
        #expect(!r4)
        #expect(p.screen == .degrees90)
        let r5 = p.deviceDidChange(to: .portraitUpsideDown)
        #expect(r5)
        #expect(p.screen == .degrees180)
    }

    @Test("a pose outside the set leaves the screen where it is")
    func staysWhenNotAllowed() {
        var p = ScreenPolicy(configured: [.degrees0, .degrees90, .degrees270])
        p.deviceDidChange(to: .landscapeRight)
        let r6 = p.deviceDidChange(to: .portraitUpsideDown)
        #expect(!r6)
        #expect(p.screen == .degrees270)
    }

    @Test("a lock that excludes the screen moves it at once, to the member nearest the pose")
    func lockRotatesAtOnce() {
        var p = ScreenPolicy()
        p.deviceDidChange(to: .landscapeRight)
        let outcome = p.lock([.degrees0, .degrees180])
        #expect(outcome.screenChanged)
        #expect(!outcome.overridesConfigured)
        #expect(p.screen == .degrees0, "tie between 0° and 180°: the primary")
        #expect(p.isLocked)
        // The device turns upside down: allowed by the lock, so the screen follows.
        let r7 = p.deviceDidChange(to: .portraitUpsideDown)
        #expect(r7)
        #expect(p.screen == .degrees180)
        // Landscape is not allowed: the screen stays.
        let r8 = p.deviceDidChange(to: .landscapeLeft)
        #expect(!r8)
        #expect(p.screen == .degrees180)
    }

    @Test("a lock that already allows the screen does not move it")
    func lockKeepsAllowedScreen() {
        var p = ScreenPolicy()
        p.deviceDidChange(to: .landscapeLeft)
        let r9 = p.lock([.degrees90, .degrees270]).screenChanged
        #expect(!r9)
        #expect(p.screen == .degrees90)
    }

    @Test("lock current pins the screen; unlock re-evaluates the pose at once")
    func lockCurrentAndUnlock() {
        var p = ScreenPolicy()
        p.deviceDidChange(to: .portrait)
        let r10 = p.lockCurrent().screenChanged
        #expect(!r10)
        let r11 = p.deviceDidChange(to: .landscapeLeft)
        #expect(!r11)
        #expect(p.screen == .degrees0)
        let r12 = p.unlock()
        #expect(r12, "the device is landscape-left: unlock rotates to it now")
        #expect(p.screen == .degrees90)
        #expect(!p.isLocked)
    }

    @Test("lock ∩ supported empty: the lock wins and says so (iOS 16)")
    func emptyIntersection() {
        var p = ScreenPolicy(configured: [.degrees0, .degrees180])
        p.deviceDidChange(to: .portrait)
        let outcome = p.lock([.degrees90])
        #expect(outcome.overridesConfigured)
        #expect(outcome.screenChanged)
        #expect(p.effective == [.degrees90])
        #expect(p.screen == .degrees90)
        let r13 = p.unlock()
        #expect(r13)
        #expect(p.screen == .degrees0)
    }

    @Test("a new supported set keeps the lock and moves the screen only if it must")
    func newSupportedSet() {
        var p = ScreenPolicy()
        p.deviceDidChange(to: .portraitUpsideDown)
        let r14 = p.setConfigured([.degrees0, .degrees90, .degrees270])
        #expect(r14)
        #expect(p.screen == .degrees90, "upside-down was dropped: the nearest allowed, ties to the smaller angle")
        _ = p.lock([.degrees90, .degrees270])
        #expect(p.screen == .degrees90)
        let r15 = p.setConfigured(.all)
        #expect(!r15)
        #expect(p.isLocked)
    }

    @Test("preferred member: nearest to the given rotation, ties to the smaller angle")
    func preferred() {
        let landscape: RotationSet = [.degrees90, .degrees270]
        #expect(landscape.preferred(near: .degrees0) == .degrees90)
        #expect(landscape.preferred(near: .degrees270) == .degrees270)
        #expect(landscape.preferred(near: nil) == .degrees90)
        #expect(RotationSet([.degrees180]).preferred(near: .degrees0) == .degrees180)
        #expect(
            RotationSet.all.typeNames(natural: .landscape) == [
                "landscape-primary", "portrait-secondary", "landscape-secondary", "portrait-primary",
            ])
    }
}
