import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Replays every committed fuzz input — the seed corpus and every input that once
/// crashed, trapped or aborted (`Fuzz/regressions/<target>/`) — through the same entry
/// points the fuzzers drive. A regression that came back would crash this test process.
@Suite struct FuzzRegressionTests {
    static let fuzz = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(_ folder: String, _ target: ParserFuzzing.Target) -> [URL] {
        let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test(arguments: ParserFuzzing.Target.allCases)
    func committedFuzzInputsAreHandledWithoutCrashing(target: ParserFuzzing.Target) throws {
        let seeds = Self.inputs("corpus", target)
        #expect(!seeds.isEmpty, "every fuzz target has a seed corpus")
        var accepted = 0
        for url in seeds + Self.inputs("regressions", target) {
            let data = try Data(contentsOf: url)
            if data.withUnsafeBytes({ ParserFuzzing.run(target, bytes: $0) }) { accepted += 1 }
        }
        // The seeds hold valid files too, so the parser under test really runs past the header.
        #expect(accepted > 0, "no committed \(target.rawValue) input was accepted")
    }

    @Test func acceptedScenariosAreSteppedWithoutAnEngineAssertion() {
        // A file at the limits (lightest, smallest, fastest crates; fine spatial hash;
        // overlapping crates) must be stepped, not just parsed.
        let text = #"""
            {"format":"tiltbox-scenario/1","world":{"size":[480,320],"spatialIndex":{"hash":{"cellSize":5,"count":10}}},
             "crates":[{"id":"a","position":[10,10],"mass":1e-9,"size":[0.001,0.001],"velocity":[1e7,-1e7],"angularVelocity":1e6},
                       {"id":"b","position":[100,100]},{"id":"c","position":[100,100]},{"id":"d","position":[100.5,100],"mass":1e12}]}
            """#
        let accepted = Array(text.utf8).withUnsafeBytes { ParserFuzzing.run(.scenario, bytes: $0) }
        #expect(accepted)
    }

    @Test(arguments: [ParserFuzzing.Target.runTilt, .runScenario])
    func hugeValuesFoundByTheRunTargetsAreRefusedBeforeTheEngine(target: ParserFuzzing.Target) throws {
        let findings = Self.inputs("regressions", target)
        #expect(findings.count >= 4)
        for url in findings {
            let data = try Data(contentsOf: url)
            let accepted = data.withUnsafeBytes { ParserFuzzing.run(target, bytes: $0) }
            // A sample at t = 1e303 is a valid recording; every other finding is out of bounds.
            #expect(accepted == (url.lastPathComponent == "late-sample.csv"), "\(url.lastPathComponent)")
        }
    }

    @Test func theRunTargetsStepTheirSeeds() throws {
        // The seeds are valid inputs, so the run targets really reach the engine with them.
        for target in [ParserFuzzing.Target.runTilt, .runScenario] {
            for url in Self.inputs("corpus", target) {
                let data = try Data(contentsOf: url)
                #expect(data.withUnsafeBytes { ParserFuzzing.run(target, bytes: $0) }, "\(url.lastPathComponent)")
            }
        }
    }

    @Test func numberMutationSwapsOneNumberForAnExtremeOne() {
        let text = Array("t,x,y\n0,0.5,-1e-3\n".utf8)
        var seen = Set<String>()
        for seed in 0..<200 as Range<UInt64> {
            guard let mutated = ParserFuzzing.mutateNumbers(text, seed: seed) else {
                Issue.record("no number found")
                return
            }
            let line = String(decoding: mutated, as: UTF8.self).split(separator: "\n")[1]
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(cells.count == 3, "\(line)")
            let changed = zip(cells, ["0", "0.5", "-1e-3"]).filter { $0.0 != $0.1 }.map(\.0)
            #expect(changed.count <= 1, "one number at a time: \(line)")
            for cell in changed {
                #expect(ParserFuzzing.extremeNumbers.contains(cell), "\(cell)")
                seen.insert(cell)
            }
        }
        #expect(seen.contains("1.7976931348623157e308") && seen.contains("5e-324") && seen.contains("-0"))
        #expect(ParserFuzzing.mutateNumbers(Array("no digits".utf8), seed: 1) == nil)
        // The same seed makes the same mutation.
        #expect(ParserFuzzing.mutateNumbers(text, seed: 7) == ParserFuzzing.mutateNumbers(text, seed: 7))
    }
}

/// The `generated-scenario` fuzz target's generator reaches the engine with every shape and
/// joint kind: from 3 000 pseudo-random byte strings, the scenarios the loader accepts hold
/// each kind at least once, and timelines that spawn, set and join.
@Suite struct ScenarioGeneratorTests {
    @Test func acceptedGeneratedScenariosHoldEveryShapeAndJointKind() throws {
        var state: UInt64 = 23
        func next() -> UInt8 {
            // SplitMix64: the same inputs on every run.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
        var shapeKinds: Set<String> = [], jointKinds: Set<String> = [], accepted = 0
        var sensors = 0, filters = 0, types = 0, surfaces = 0, givenMasses = 0, exactSteps = 0
        var rules = 0, culls = 0, spawns = 0, sets = 0, timelineJoints = 0
        for _ in 0..<3_000 {
            var generator = ScenarioGenerator((0..<160).map { _ in next() })
            guard
                let scenario = try? ScenarioLoader.parse(
                    text: generator.scenarioText(), file: "g.json", baseDirectory: nil)
            else { continue }
            accepted += 1
            for body in scenario.bodies { for shape in body.shapes { shapeKinds.insert(shape.geometry.kind) } }
            for joint in scenario.joints { jointKinds.insert(joint.kind.rawValue) }
            for body in scenario.bodies {
                if body.givenMass != nil { givenMasses += 1 }
                for shape in body.shapes {
                    let keys = shape.collision
                    if keys.sensor { sensors += 1 }
                    if keys.filter != nil { filters += 1 }
                    if keys.collisionType != 0 { types += 1 }
                    if keys.surfaceVelocity != nil { surfaces += 1 }
                }
            }
            if scenario.timestep.givenDT != nil { exactSteps += 1 }
            if !scenario.rules.isEmpty { rules += 1 }
            if scenario.cullMargin != nil { culls += 1 }
            for entry in scenario.timeline.entries {
                switch entry.action {
                case .spawn: spawns += 1
                case .set: sets += 1
                case .joint: timelineJoints += 1
                default: break
                }
            }
        }
        #expect(
            spawns > 0 && sets > 0 && timelineJoints > 0,
            "timelines: spawns \(spawns), sets \(sets), joints \(timelineJoints)")
        #expect(rules > 0 && culls > 0, "rules \(rules), culls \(culls)")
        #expect(accepted >= 300, "only \(accepted) of 3000 generated scenarios were accepted")
        #expect(shapeKinds == ["circle", "box", "polygon", "segment"], "\(shapeKinds)")
        #expect(jointKinds == Set(ScenarioLoader.jointKinds), "\(jointKinds.sorted())")
        let counts = [sensors, filters, types, surfaces, givenMasses, exactSteps]
        #expect(counts.allSatisfy { $0 > 0 }, "sensors, filters, types, surfaces, given masses, exact steps: \(counts)")
    }
}
