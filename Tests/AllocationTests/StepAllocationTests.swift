import AllocationCounter
import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// A run's steps allocate nothing on the stepping thread once the run is under way: with no
/// output (the digest and the metrics `tiltbox run` reports), with a full trace, with a hash
/// trace and feeding the live view. The states are read into storage made once, the digest
/// and the metrics are computed from them in place, and a record is copied into the trace
/// writer's preallocated blocks. Counted with `AllocationCounter` (the calling thread's
/// `malloc`-family calls) after a warm-up in which the pile settles, so Chipmunk's own
/// contact pools have reached their size.
@Suite struct StepAllocationTests {
    /// Steps before counting (5 s at 120 Hz: the pile has fallen and settled).
    static let warmUpSteps = 600
    /// Steps counted in one window.
    static let countedSteps = 240
    /// Windows counted at most (see `allocationsPerSteps`).
    static let windows = 4

    /// A pile of 100 crates and, beside it, a chain of balls on pivot joints (bodies of
    /// `bodies`, whose states are read from their origin, and joints).
    static func scenario() throws -> Scenario {
        let pile = BenchmarkPile.scenario(n: 100)
        var text = BenchmarkPile.scenarioJSON(n: 100)
        // Long enough for the warm-up and every window of `allocationsPerSteps`.
        text = text.replacingOccurrences(of: "\"duration\": 10,", with: "\"duration\": 60,")
        // Add a hanging chain of five balls (`bodies`) on pivots, away from the pile.
        let w = pile.world.size.x
        let balls = (0..<5).map { i in
            "{ \"id\": \"ball\(i)\", \"position\": [\(w - 40), \(w - 60 - 30 * Double(i))], \"shapes\": [ { \"circle\": { \"radius\": 10 }, \"mass\": 1 } ] }"
        }
        let joints = (0..<5).map { i in
            let a = i == 0 ? "static" : "ball\(i - 1)"
            return
                "{ \"pivot\": { \"a\": \"\(a)\", \"b\": \"ball\(i)\", \"anchor\": [\(w - 40), \(w - 45 - 30 * Double(i))] } }"
        }
        let close = try #require(text.range(of: "  ]\n}", options: .backwards))
        text.replaceSubrange(
            close,
            with: "  ],\n  \"bodies\": [\n" + balls.joined(separator: ",\n") + "\n  ],\n  \"joints\": [\n"
                + joints.joined(separator: ",\n") + "\n  ]\n}")
        return try ScenarioLoader.parse(text: text, file: "pile-and-chain.json", baseDirectory: nil)
    }

    /// Advances `session` one step per frame past the warm-up, then counts the calling
    /// thread's allocations over `countedSteps` more steps (calling `perStep` after each).
    ///
    /// Chipmunk's messages are caught from C's one `stderr` while any world steps
    /// (`ChipmunkMessageCapture`), so whatever another thread writes to C's `stderr` during the
    /// window (another test's world, or the test runner's own progress lines: swift-testing's
    /// `FileHandle.stderr` reads C's `stderr` at each write; `tiltbox` itself writes with
    /// `write(2)`) is read, and recorded as a diagnostic (a `String`, allocated), by the step of
    /// this world that ends next: allocations that are not this step's own (27 were counted
    /// once, in a full suite, against 0 in every run alone). This scene prints none itself
    /// (an own message would recur in every run, and every window would count it), so a window
    /// in which the world's diagnostics grew saw another world's message, and another window is
    /// counted, up to `windows`; the last window's count is returned either way.
    static func allocationsPerSteps(_ session: RunSession, perStep: () -> Void = {}) throws -> UInt64 {
        let dt = session.dt
        while session.stepCount < warmUpSteps {
            try session.advance(frameDuration: dt)
            perStep()
        }
        var counted: UInt64 = 0
        for _ in 0..<windows {
            let messages = session.world.engineDiagnostics.count
            let end = session.stepCount + countedSteps
            allocation_counter_start()
            while session.stepCount < end {
                try session.advance(frameDuration: dt)
                perStep()
            }
            counted = allocation_counter_stop()
            if session.world.engineDiagnostics.count == messages { break }
        }
        #expect(session.outcome == nil, "the run ended early: \(String(describing: session.outcome))")
        return counted
    }

    static func temporaryTrace() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "tiltbox-allocations-\(getpid())-\(UUID().uuidString).jsonl"
        ).path
    }

    @Test func theCounterCountsTheCallingThreadsAllocations() {
        allocation_counter_start()
        let values = [Double](repeating: 1, count: 1_000)
        let text = String(repeating: "x", count: 100)
        let counted = allocation_counter_stop()
        withExtendedLifetime((values, text)) {}
        #expect(counted >= 2)
    }

    @Test func stepsWithoutOutputAllocateNothing() throws {
        let scenario = try Self.scenario()
        let metrics = RunMetricsSink(scenario: scenario)
        let session = RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), sinks: [metrics])
        let allocations = try Self.allocationsPerSteps(session)
        #expect(allocations == 0)
        _ = try session.finish()
        _ = metrics.metrics(digest: "")
    }

    @Test func stepsWritingAFullTraceAllocateNothing() throws {
        let scenario = try Self.scenario()
        let path = Self.temporaryTrace()
        defer { unlink(path) }
        let metrics = RunMetricsSink(scenario: scenario)
        let session = try RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), trace: .init(path: path),
            sinks: [metrics])
        let allocations = try Self.allocationsPerSteps(session)
        #expect(allocations == 0)
        _ = try session.finish()
    }

    @Test func stepsWritingAHashTraceAllocateNothing() throws {
        let scenario = try Self.scenario()
        let path = Self.temporaryTrace()
        defer { unlink(path) }
        let metrics = RunMetricsSink(scenario: scenario)
        let session = try RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), trace: .init(path: path, hashes: true),
            sinks: [metrics])
        let allocations = try Self.allocationsPerSteps(session)
        #expect(allocations == 0)
        _ = try session.finish()
    }

    @Test func stepsFeedingTheLiveViewAllocateNothing() throws {
        let scenario = try Self.scenario()
        let buffer = LiveStateBuffer()
        let session = RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), sinks: [buffer])
        // Two steps per display frame (60 fps at 120 Hz): each frame is published as the
        // live view's physics thread publishes it.
        var frame = 0
        let allocations = try Self.allocationsPerSteps(session) {
            frame += 1
            if frame % 2 == 0 { buffer.publish(LiveFrame()) }
        }
        #expect(allocations == 0)
        #expect(buffer.latest().step == session.stepCount)
        _ = try session.finish()
    }
}
