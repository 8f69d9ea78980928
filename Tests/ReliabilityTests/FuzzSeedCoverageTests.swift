import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// What the scenario fuzz targets start from: their seeds and the dictionary reach a world
/// that changes after t = 0 (the timeline, rules, counters and culling), so the mutations
/// begin inside those parts of the loader and the run rather than having to find them.
@Suite struct FuzzSeedCoverageTests {
    /// The targets that read a scenario file.
    static let scenarioTargets: [ParserFuzzing.Target] = [.scenario, .runScenario, .generatedScenario]

    /// The accepted scenario seeds of `target` (JSON text; a run target's tilt part after a NUL
    /// byte is left out).
    static func scenarioSeeds(_ target: ParserFuzzing.Target) throws -> [Scenario] {
        try FuzzRegressionTests.inputs("corpus", target).compactMap { url -> Scenario? in
            let data = try Data(contentsOf: url)
            let text = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
            guard text.first == "{" else { return nil }
            return try? ScenarioLoader.parse(text: text, file: url.lastPathComponent, baseDirectory: nil)
        }
    }

    @Test(arguments: scenarioTargets)
    func theScenarioSeedsHoldAnEmitterRulesOfEveryKindCountersAndCulling(target: ParserFuzzing.Target) throws {
        let seeds = try Self.scenarioSeeds(target)
        let rules = seeds.flatMap(\.rules)
        #expect(Set(rules.map(\.on)) == Set(CollisionPhase.allCases), "begin and separate rules")
        #expect(rules.contains { $0.typeB == nil }, "a wildcard rule")
        #expect(Set(rules.flatMap(\.actions).map(\.key)) == Set(RuleAction.keys), "every rule action")
        #expect(seeds.contains { !$0.counters.isEmpty }, "counters")
        #expect(seeds.contains { $0.cullMargin != nil }, "world.cull")
        let emitters = seeds.flatMap(\.timeline.entries).filter {
            if case .spawn = $0.action { return $0.count > 1 }
            return false
        }
        #expect(!emitters.isEmpty, "an emitter (a repeated spawn)")
    }

    @Test(arguments: [ParserFuzzing.Target.scenario, .runScenario])
    func theScenarioSeedsHoldEveryTimelineAction(target: ParserFuzzing.Target) throws {
        let keys = Set(try Self.scenarioSeeds(target).flatMap(\.timeline.entries).map(\.action.key))
        #expect(keys == Set(TimelineAction.keys))
    }

    /// Collects the events a run gives its sinks.
    final class EventLog: RecordSink {
        var names: [String] = []
        func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {}
        func event(_ event: TraceEvent) throws {
            if case .remove(_, let reason) = event.change {
                names.append("remove:\(reason.rawValue)")
            } else {
                names.append(event.change.name)
            }
        }
    }

    @Test func theRunSeedFiresTimelineRulesAndCullingWithinTheStepsTheRunTargetTakes() throws {
        let url = FuzzRegressionTests.fuzz.appendingPathComponent("corpus/run-scenario/timeline-rules.json")
        let scenario = try ScenarioLoader.parse(
            text: String(contentsOf: url, encoding: .utf8), file: "timeline-rules.json", baseDirectory: nil)
        let log = EventLog()
        let session = RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity),
            totalSteps: ParserFuzzing.stepsToTake, sinks: [log])
        var clock = SteadyClock(hz: scenario.timestep.hz)
        _ = try session.run(clock: &clock)
        _ = try session.finish()
        let seen = Set(log.names)
        for name in ["spawn", "joint", "begin", "separate", "remove:rule", "remove:cull", "remove:timeline", "skipped"]
        {
            #expect(seen.contains(name), "no \(name) event within \(ParserFuzzing.stepsToTake) steps: \(log.names)")
        }
        #expect(session.counters.contains { $0.value > 0 }, "a counter counted")
    }

    @Test func theFuzzDictionaryNamesTheTimelineRuleAndCullKeys() throws {
        let text = try String(
            contentsOf: FuzzRegressionTests.fuzz.appendingPathComponent("extreme-numbers.dict"), encoding: .utf8)
        let entries = Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
        let keys =
            ["timeline", "every", "count", "rules", "on", "between", "do", "cull", "margin", "collisionType", "filter"]
            + TimelineAction.keys + RuleAction.keys
        for key in keys {
            #expect(
                entries.contains { $0.hasPrefix(#""\"\#(key)\":"#) }, "the dictionary lacks \(key)")
        }
    }
}
