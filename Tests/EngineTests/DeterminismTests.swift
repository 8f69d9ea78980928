import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Runs are pure functions of the scenario and its gravity input: the same digest every
/// time (as Box2D v3's determinism test compares a hash of the final state), the same
/// records whatever frame clock drives the accumulator, and the shipped scenes behave.
@Suite struct DeterminismTests {
    // MARK: - Support

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func scenarioPath(_ name: String) -> String {
        packageRoot.appendingPathComponent("Scenarios").appendingPathComponent(name).path
    }

    static var shippedScenarios: [String] {
        let folder = packageRoot.appendingPathComponent("Scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    /// The scenario's gravity track: its tilt file when it has one, else constant gravity.
    static func track(for scenario: Scenario) throws -> any GravityTrack {
        guard let tilt = scenario.tilt else { return ConstantGravity(scenario.world.gravity) }
        return try TiltFile.load(
            path: tilt.file, orientation: tilt.orientation,
            g: tilt.g ?? scenario.world.gravity.length
        ).track
    }

    /// Keeps every record a run emits, as bit patterns.
    final class RecordCollector: RecordSink {
        struct Record: Equatable {
            var step: Int
            var time: UInt64
            var gravity: [UInt64]
            var states: [UInt64]
        }

        var records: [Record] = []

        func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
            records.append(
                Record(
                    step: step, time: time.bitPattern, gravity: [gravity.x.bitPattern, gravity.y.bitPattern],
                    states: states.map(\.bitPattern)))
        }
    }

    /// Runs `scenario` to the end on `profile`'s clock; returns the records and the simulation.
    static func collect(_ scenario: Scenario, frames profile: FrameProfile) throws -> (
        [RecordCollector.Record], RunSession
    ) {
        let collector = RecordCollector()
        let simulation = RunSession(scenario: scenario, track: try track(for: scenario), sinks: [collector])
        var clock = profile.makeClock()
        let outcome = try simulation.run(clock: &clock)
        #expect(outcome == .complete, "\(scenario.name) on \(profile): \(outcome)")
        return (collector.records, simulation)
    }

    /// Runs `scenario` to the end and returns every crate's final state with its start.
    static func finalStates(of scenario: Scenario) throws -> [(spec: CrateSpec, state: BodyState)] {
        let (_, simulation) = try collect(scenario, frames: .steady(hz: 60))
        return zip(scenario.crates, simulation.world.states).map { ($0, $1) }
    }

    // MARK: - Tests

    @Test func everyShippedScenarioGivesTheSameDigestTwice() throws {
        let names = Self.shippedScenarios
        try #require(names.count >= 6, "found only \(names)")
        for name in names {
            let scenario = try ScenarioLoader.load(path: Self.scenarioPath(name))
            var digests: [String] = []
            for _ in 0..<2 {
                let summary = try ScenarioRunner.run(
                    scenario: scenario, track: try Self.track(for: scenario), options: RunOptions(),
                    tracePath: nil, shouldStop: { false })
                #expect(summary.outcome == .complete, "\(name): \(summary.outcome)")
                #expect(summary.steps == scenario.totalSteps, "\(name)")
                digests.append(summary.digest)
            }
            #expect(digests[0] == digests[1], "\(name): \(digests[0]) then \(digests[1])")
            #expect(digests[0].hasPrefix("fnv1a64:"), "\(name): \(digests[0])")
        }
    }

    @Test(arguments: ["pile-100.json", "crate-stack.json"])
    func frameProfilesDoNotChangeTheRecords(_ name: String) throws {
        let scenario = try ScenarioLoader.load(path: Self.scenarioPath(name))
        let (reference, steady) = try Self.collect(scenario, frames: .steady(hz: 60))
        #expect(reference.count == scenario.totalSteps + 1)
        #expect(steady.droppedSteps == 0)
        let profiles: [FrameProfile] = [.steady(hz: 30), .jitter(hz: 60, seed: 7), .stall(hz: 60, at: 1, seconds: 0.5)]
        for profile in profiles {
            let (records, simulation) = try Self.collect(scenario, frames: profile)
            #expect(records.count == reference.count, "\(name) on \(profile)")
            if let index = zip(reference, records).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                Issue.record(
                    "\(name) on \(profile): record \(index) (step \(reference[index].step)) differs from steady:60")
            }
            if case .stall = profile {
                // 0.5 s at 120 Hz owes 60 steps; the frame may take 8, so about 52 are dropped.
                let dropped = simulation.droppedSteps
                #expect((51...53).contains(dropped), "\(name) stall dropped \(dropped) steps")
                #expect(simulation.droppedTime > 0.4)
            }
        }
    }

    @Test func stackStaysStandingForTenSeconds() throws {
        let scenario = try ScenarioLoader.load(path: Self.scenarioPath("crate-stack.json"))
        #expect(scenario.duration == 10)
        let finals = try Self.finalStates(of: scenario)
        try #require(finals.count == 10)
        let displacements = finals.map { ($0.spec.id, ($0.state.position - $0.spec.position).length) }
        let worst = try #require(displacements.max { $0.1 < $1.1 })
        let table = finals.map {
            "\($0.spec.id): start \($0.spec.position) end \($0.state.position) angle \($0.state.angle)"
        }
        .joined(separator: "\n")
        #expect(worst.1 <= 1, "max displacement \(worst.1) units (crate \(worst.0)):\n\(table)")
    }

    @Test func pileSettlesInsideTheBox() throws {
        let scenario = try ScenarioLoader.load(path: Self.scenarioPath("pile-100.json"))
        #expect(scenario.duration == 10)
        let finals = try Self.finalStates(of: scenario)
        try #require(finals.count == 100)
        let size = scenario.world.size
        let outside = finals.filter { f in
            let p = f.state.position
            return !(p.x > 0 && p.x < size.x && p.y > 0 && p.y < size.y)
        }
        #expect(outside.isEmpty, "outside the box: \(outside.map { "\($0.spec.id) at \($0.state.position)" })")
        let fastest = try #require(finals.max { $0.state.velocity.length < $1.state.velocity.length })
        let spinniest = try #require(finals.max { abs($0.state.angularVelocity) < abs($1.state.angularVelocity) })
        let moving = finals.filter { $0.state.velocity.length >= 5 }.count
        #expect(
            fastest.state.velocity.length < 5,
            "\(moving) crates at 5 units/s or more; fastest \(fastest.spec.id): |v| = \(fastest.state.velocity.length)")
        #expect(
            abs(spinniest.state.angularVelocity) < 0.5,
            "fastest spin \(spinniest.spec.id): w = \(spinniest.state.angularVelocity)")
    }
}
