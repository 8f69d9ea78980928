import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Runs of scenarios driven by tilt files, checked against the tracks themselves.
@Suite struct TiltRunTests {
    static let scenarios = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios")

    static func run(_ name: String, every: Int = 1) throws -> (Trace, LoadedTilt, RunSummary) {
        let scenario = try ScenarioLoader.load(path: scenarios.appendingPathComponent(name).path)
        let gravity = try GravityInput().resolve(for: scenario)
        let tilt = try #require(gravity.tilt)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tilt-run-\(UUID().uuidString).jsonl")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let summary = try ScenarioRunner.run(
            scenario: scenario, track: gravity.track,
            options: RunOptions(every: every), tracePath: path, shouldStop: { false })
        return (try TraceReader.read(path: path), tilt, summary)
    }

    @Test(arguments: ["rocking.json", "book.json"])
    func traceCarriesTheGravityTheTrackGivesAtEveryStep(scenario: String) throws {
        let (trace, tilt, summary) = try Self.run(scenario)
        #expect(summary.outcome == .complete)
        #expect(trace.records.count == summary.steps + 1)
        for record in trace.records {
            #expect(record.t == Double(record.step) * trace.header.dt)
            let expected = tilt.track.gravity(at: record.t)
            #expect(record.gravity.x.bitPattern == expected.x.bitPattern, "g.x at step \(record.step)")
            #expect(record.gravity.y.bitPattern == expected.y.bitPattern, "g.y at step \(record.step)")
        }
        // The input really changes gravity over the run.
        let xs = Set(trace.records.map(\.gravity.x))
        #expect(xs.count > 10)
    }

    @Test func rockingGravityFollowsTheEasedKeyframes() throws {
        let (trace, _, _) = try Self.run("rocking.json", every: 30)
        func g(at t: Double) -> Vec2 { trace.records.first { $0.t == t }!.gravity }
        // Keyframes in g, portrait, g = 980: (0,-1) at 0, (0.64,-0.77) at 1.5 s, (-0.64,-0.77) at 3 s.
        #expect(g(at: 0) == Vec2(0, -980))
        let quarter = trace.records.first { $0.step == 90 }! // t = 0.75 s: half way through the first segment
        // easeInEaseOut is symmetric, so half way in time is half way in value: x = 0.32 g.
        #expect(abs(quarter.gravity.x - 0.32 * 980) < 1e-6)
        #expect(abs(g(at: 1.5).x - 0.64 * 980) < 1e-9)
        #expect(abs(g(at: 3).x + 0.64 * 980) < 1e-9)
        // Eased, not linear: a quarter of the way (t = 0.375 s) is well below a quarter of the change.
        let early = tilt(at: 0.375, in: trace)
        #expect(early.x > 0 && early.x < 0.25 * 0.64 * 980 * 0.6)
    }

    private func tilt(at t: Double, in trace: Trace) -> Vec2 {
        trace.records.min { abs($0.t - t) < abs($1.t - t) }!.gravity
    }

    @Test func tiltRunsGiveTheSameDigestRunAfterRun() throws {
        let first = try Self.run("book.json").2.digest
        let second = try Self.run("book.json").2.digest
        #expect(first == second)
        #expect(first.hasPrefix("fnv1a64:"))
    }

    @Test func cratesSlideTowardsTheTiltedSide() throws {
        // book.json's recording tilts to +x first (world gravity x ≈ +516 at t = 1 s).
        let (trace, _, _) = try Self.run("book.json", every: 12)
        let start = trace.records.first!, atOneAndHalf = trace.records.first { $0.step == 180 }!
        let meanX = { (r: TraceRecord) in
            stride(from: 0, to: r.states.count, by: 6).map { r.states[$0] }.reduce(0, +) / Double(r.states.count / 6)
        }
        #expect(meanX(atOneAndHalf) > meanX(start) + 20)
    }
}
