import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// A run whose state leaves the engine's safe range stops with an error naming the step
/// and the body, and its trace ends in an `error` line instead of NaN or an abort.
///
/// No scenario that passes the loader's caps was found to diverge: speeds ≤ 1e7,
/// elasticity ≤ 1e3, crate sizes ≤ 1e5 and hz ≤ 1e5 reach at most ~1e16 before a crate
/// tunnels through what it bounces on (tried: e = 1e6 bounces on thick walls, heavy and
/// 1e-9 crates overlapping with 1e6 rad/s spin, 1 Hz and 1e5 Hz steps). So this test
/// builds the `Scenario` in Swift, past the loader, with a crate at 1e99 units/s, and
/// runs it through `ScenarioRunner` in this process. Its position passes 1e100 after
/// 1200 steps (1200 · 1e99/120), far below the overflow that would make Chipmunk's
/// debug build abort the process (`cpBodySanityCheck`).
@Suite struct DivergenceTests {
    static func runaway() -> Scenario {
        Scenario(
            name: "runaway", world: WorldSettings(size: Vec2(480, 320)), duration: 20,
            walls: WallSettings(box: false),
            crates: [
                CrateSpec(id: "calm", position: Vec2(100, 100)),
                CrateSpec(id: "rocket", position: Vec2(300, 100), velocity: Vec2(1e99, 0)),
            ])
    }

    @Test func divergingSimulationEndsWithErrorNamingStepAndBody() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("runaway.jsonl")
        let scenario = Self.runaway()
        let summary = try ScenarioRunner.run(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), options: RunOptions(),
            tracePath: trace, shouldStop: { false })

        guard case .diverged(let step, let divergence) = summary.outcome else {
            Issue.record("expected a divergence, got \(summary.outcome)")
            return
        }
        #expect((1200...1201).contains(step), "diverged at step \(step)")
        #expect(divergence.bodyID == "rocket" && divergence.bodyIndex == 1, "\(divergence)")
        #expect(divergence.field == "x", "\(divergence)")
        #expect(summary.steps == step)

        let text = try JSONLines.text(file: trace)
        #expect(text.hasSuffix("\n"))
        for bad in ["nan", "NaN", "inf"] {
            #expect(!text.contains(bad), "the trace contains \(bad)")
        }
        let objects = JSONLines.objects(text, source: trace)
        let end = try #require(objects.last)
        #expect(end["end"] as? String == "error", "end line: \(end)")
        #expect(JSONLines.number(end["steps"]) == Double(step))
        let message = try #require(end["message"] as? String, "no message in \(end)")
        #expect(message.contains("step \(step)"), "message: \(message)")
        #expect(message.contains("rocket"), "message: \(message)")
        // Every step before the divergence is recorded; the diverged state is not.
        #expect(JSONLines.number(objects[objects.count - 2]["step"]) == Double(step - 1))
        #expect(objects.count == step + 2, "header, records 0..<\(step), end line")
    }

    @Test func divergenceIsReportedWithoutATraceToo() throws {
        let scenario = Self.runaway()
        let summary = try ScenarioRunner.run(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), options: RunOptions(every: 50),
            tracePath: nil, shouldStop: { false })
        guard case .diverged(_, let divergence) = summary.outcome else {
            Issue.record("expected a divergence, got \(summary.outcome)")
            return
        }
        #expect(divergence.bodyID == "rocket")
        #expect(divergence.description.contains("rocket"))
    }
}
