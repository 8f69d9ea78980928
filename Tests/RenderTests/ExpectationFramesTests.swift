import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// `--pictures` draws a failing expectation from the states the run kept as it passed them
/// (`ExpectationFrames`), not from a second run writing a trace of every step: the pictures
/// are byte for byte those a trace of every step gives, while the run keeps a few records.
@Suite struct ExpectationFramesTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenarios")

    /// Shipped scenes made to fail: spawns, removals and rules (goal-sensor), joints (the cradle),
    /// a contact that never begins (ramp-and-ball), and the README's elastic ball.
    static let cases: [(file: String, set: String)] = [
        ("goal-sensor.json", "world.gravity=[-300,-600]"),
        ("newtons-cradle.json", "world.gravity=[400,-980]"),
        ("ramp-and-ball.json", "world.gravity=[-300,-600]"),
        ("bouncing-ball.json", "bodies[0].shapes[0].elasticity=1"),
    ]

    @Test(arguments: cases)
    func picturesFromTheKeptFramesAreThoseOfATraceOfEveryStep(file: String, set: String) throws {
        let path = Self.scenarios.appendingPathComponent(file).path
        let plan = try RunPlan.load(scenarioPath: path, overrides: [try ScenarioOverride(argument: set)])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tiltbox-frames-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tracePath = folder.appendingPathComponent("every-step.jsonl").path
        let expectations = ExpectationSink(scenario: plan.scenario)
        let frames = ExpectationFrames(expectations: expectations)
        let summary = try plan.runHeadless(
            try plan.resolve(), options: RunOptions(every: 1), tracePath: tracePath, source: nil,
            sinks: [expectations, frames])
        #expect(summary.outcome == .complete)
        let failures = expectations.results.failures
        try #require(!failures.isEmpty, "\(file) with \(set) fails no expectation")
        let kept = try #require(frames.trace())
        let everyStep = try TraceReader.read(path: tracePath, verifyDigest: false)
        // Eight panels per failure at most, and the last step; a trace of every step has them all.
        #expect(kept.records.count <= 8 * failures.count + 1, "\(kept.records.count) records kept")
        #expect(everyStep.records.count == summary.steps + 1)
        let fromKept = try RenderScene(trace: kept, file: file)
        let fromTrace = try RenderScene(trace: everyStep, file: tracePath)
        for result in failures {
            let failure = try #require(result.failure)
            let picture = ExpectationPicture(
                expectation: plan.scenario.expectations[result.index], failure: failure,
                worldSize: plan.scenario.world.size)
            #expect(
                picture.recordIndices(scene: fromKept).map { fromKept.records[$0].step }
                    == picture.recordIndices(scene: fromTrace).map { fromTrace.records[$0].step },
                "\(file) \(result.label)")
            #expect(picture.svg(scene: fromKept) == picture.svg(scene: fromTrace), "\(file) \(result.label)")
        }
    }

    @Test func thePanelStepsAreTheStepsNearestEachOffsetFromTheFailingTime() throws {
        let plan = try RunPlan.load(
            scenarioPath: Self.scenarios.appendingPathComponent("bouncing-ball.json").path)
        let frames = ExpectationFrames(expectations: ExpectationSink(scenario: plan.scenario))
        let session = RunSession(
            scenario: plan.scenario, track: try plan.resolve().track, totalSteps: 600, sinks: [frames])
        _ = session
        // 120 Hz: -0.5 s is 60 steps back, +0.3 s 36 on; near the ends the first and last step.
        #expect(frames.panelSteps(failureStep: 252) == [192, 216, 234, 246, 252, 258, 270, 288])
        #expect(frames.panelSteps(failureStep: 0) == [0, 6, 18, 36])
        #expect(frames.panelSteps(failureStep: 600) == [540, 564, 582, 594, 600])
    }
}
