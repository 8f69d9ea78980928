import Foundation
import Testing
@testable import Tiltbox

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
}
