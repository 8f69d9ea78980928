import Testing

@_spi(Tools) @testable import Tiltbox

@Suite struct FixedStepperTests {
    @Test func steadySixtyHertzFramesTakeTwoStepsEachAtOneHundredTwentyHertz() {
        var stepper = FixedStepper(dt: 1.0 / 120, maxStepsPerFrame: 8)
        var taken: [Int] = []
        var total = 0
        for _ in 0..<600 {
            let report = stepper.advance(frameDuration: 1.0 / 60) { n in
                #expect(n == total)
                total += 1
            }
            taken.append(report.steps)
        }
        // Floating-point remainders may shift one step between neighbouring frames,
        // never more, and never lose a step overall.
        #expect(taken.allSatisfy { (1...3).contains($0) })
        #expect(abs(stepper.stepCount - 1200) <= 1)
        #expect(stepper.droppedSteps == 0)
        #expect(stepper.alpha >= 0 && stepper.alpha < 1)
    }

    @Test func stallOfHalfASecondTakesEightStepsAndDropsTheRestExactly() {
        let dt = 1.0 / 120
        var stepper = FixedStepper(dt: dt, maxStepsPerFrame: 8)
        for _ in 0..<60 { _ = stepper.advance(frameDuration: 1.0 / 60) { _ in } }
        let before = stepper.stepCount
        let carried = stepper.accumulator
        let owed = Int(((carried + 0.5) / dt).rounded(.down))
        let report = stepper.advance(frameDuration: 0.5) { _ in }
        #expect(report.steps == 8)
        #expect(stepper.stepCount == before + 8)
        #expect(report.droppedSteps == owed - 8)
        #expect(stepper.droppedSteps == owed - 8)
        #expect(stepper.droppedTime == Double(owed - 8) * dt)
        // 0.5 s is 60 steps: 8 taken, 52 dropped (give or take the carried remainder).
        #expect((51...52).contains(report.droppedSteps))
        #expect(stepper.accumulator >= 0 && stepper.accumulator < dt)
    }

    @Test func capBelowOwedStepsNeverTakesMoreThanTheCap() {
        var stepper = FixedStepper(dt: 0.01, maxStepsPerFrame: 3)
        let report = stepper.advance(frameDuration: 1) { _ in }
        #expect(report.steps == 3)
        #expect(report.droppedSteps == 97)
    }

    @Test func limitStopsAtTheExactStepCountWithoutDropping() {
        var stepper = FixedStepper(dt: 0.01, maxStepsPerFrame: 8)
        let report = stepper.advance(frameDuration: 0.05, limit: 2) { _ in }
        #expect(report.steps == 2)
        #expect(report.droppedSteps == 0)
        #expect(stepper.stepCount == 2)
    }

    @Test func alphaIsTheFractionOfAStepLeftInTheAccumulator() {
        var stepper = FixedStepper(dt: 0.25, maxStepsPerFrame: 8)
        _ = stepper.advance(frameDuration: 0.375) { _ in }
        #expect(stepper.stepCount == 1)
        #expect(stepper.alpha == 0.5)
    }
}

@Suite struct FrameClockTests {
    @Test func jitterIsRepeatableForASeedAndStaysWithinHalfAFrame() {
        var a = JitterClock(hz: 60, seed: 7)
        var b = JitterClock(hz: 60, seed: 7)
        var c = JitterClock(hz: 60, seed: 8)
        var differs = false
        for _ in 0..<1000 {
            let x = a.nextFrameDuration()
            #expect(x.bitPattern == b.nextFrameDuration().bitPattern)
            #expect(x >= 0.5 / 60 && x < 1.5 / 60)
            if x != c.nextFrameDuration() { differs = true }
        }
        #expect(differs)
    }

    @Test func splitMix64MatchesItsReferenceOutput() {
        // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        var g = SplitMix64(seed: 0)
        #expect(g.next() == 0xE220_A839_7B1D_CDAF)
        #expect(g.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(g.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func stallClockMakesExactlyOneLongFrameAtItsTime() {
        var clock = StallClock(hz: 60, at: 1, duration: 0.5)
        var frames: [Double] = []
        for _ in 0..<200 { frames.append(clock.nextFrameDuration()) }
        #expect(frames.filter { $0 == 0.5 }.count == 1)
        let index = frames.firstIndex(of: 0.5)!
        #expect(abs(frames[..<index].reduce(0, +) - 1) < 1.0 / 60)
    }

    @Test func frameProfilesParseAndRejectNonsense() throws {
        #expect(try FrameProfile.parse("steady:60") == .steady(hz: 60))
        #expect(try FrameProfile.parse("jitter:60:7") == .jitter(hz: 60, seed: 7))
        #expect(try FrameProfile.parse("stall:60:1:0.5") == .stall(hz: 60, at: 1, seconds: 0.5))
        for bad in [
            "steady", "steady:0", "steady:-1", "jitter:60", "jitter:60:x", "stall:60:1", "warp:9", "file:",
            "steady:nan",
        ] {
            #expect(throws: InputError.self) { try FrameProfile.parse(bad) }
        }
    }
}
