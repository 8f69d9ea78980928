import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The rules `KeyframeFile` checks that docs/schema/keyframes.schema.json cannot say; listed,
/// by the same names, in docs/schema/README.md.
let keyframeLoaderOnlyRules: [LoaderOnlyRule] = [
    LoaderOnlyRule(
        name: "near-miss keys", why: "other keys are ignored but one or two edits from a known key (an edit distance)",
        fragments: ["did you mean"]),
    LoaderOnlyRule(
        name: "keyframe times", why: "times must not decrease from keyframe to keyframe",
        fragments: ["keyframes not sorted by time"]),
    LoaderOnlyRule(
        name: "gravity bound in g",
        why: "a reading in g times the run's g (--g, the scenario's tilt.g) must stay within ±1e6",
        fragments: ["units/s² per g"]),
    LoaderOnlyRule(
        name: "curve overshoot", why: "a curve's peak depends on both keyframes' gravity",
        fragments: ["overshoots"]),
    LoaderOnlyRule(
        name: "spring deviation", why: "how far a spring curve strays depends on all its parameters together",
        fragments: ["could stray up to"]),
]

/// docs/schema/keyframes.schema.json against `KeyframeFile` (tilt keyframe files, `tiltbox-tilt/1`).
@Suite struct KeyframeSchemaTests {
    @Test func everyShippedAndFixtureKeyframeFileLoadsAndValidatesAgainstTheSchema() throws {
        let files = try SchemaCases.cases(.keyframes).filter { $0.origin == .shipped || $0.origin == .base }
        #expect(files.count >= 4)
        for file in files {
            #expect(file.loaderError == nil, "\(file.name)")
            #expect(file.schemaAccepts, "\(file.name): \(file.schemaReason)")
        }
    }

    @Test func everyValidKeyframeFileTheTestsAndTheFuzzCorpusWriteValidatesAgainstTheSchema() throws {
        let written = try SchemaCases.cases(.keyframes).filter { $0.origin == .tests || $0.origin == .corpus }
        let valid = written.filter { $0.loaderError == nil }
        #expect(valid.count >= 8)
        for file in valid {
            #expect(file.schemaAccepts, "\(file.name): \(file.schemaReason)")
        }
    }

    @Test func schemaAndLoaderAgreeOnEveryKeyframeMutationButTheLoaderOnlyRules() throws {
        let cases = try SchemaCases.cases(.keyframes).filter {
            $0.origin == .mutation || $0.origin == .tests || $0.origin == .corpus
        }
        #expect(cases.count >= 1000)
        let (agreed, summary) = compareVerdicts(of: cases, loaderOnlyRules: keyframeLoaderOnlyRules)
        print("KeyframeSchemaTests: \(cases.count) cases, \(agreed) agree; explained disagreements: \(summary)")
    }

    /// The keyframe schema carries its own copy of the scenario schema's curve definitions (so
    /// an editor needs one file); the copies must stay the same.
    @Test func keyframeSchemaCurvesAreTheScenarioSchemasCurves() throws {
        func definitions(_ name: String) throws -> [String: Any] {
            let url = SchemaCases.root.appendingPathComponent("docs/schema/\(name).schema.json")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
            return try #require(object?["$defs"] as? [String: Any])
        }
        let scenario = try definitions("scenario"), keyframes = try definitions("keyframes")
        for name in ["curve", "spring", "springParameter", "springVelocity", "finiteNumber"] {
            let a = try #require(scenario[name] as? NSDictionary), b = try #require(keyframes[name] as? NSDictionary)
            #expect(a == b, "$defs/\(name) differs between scenario.schema.json and keyframes.schema.json")
        }
    }

    @Test func everyKeyframeLoaderOnlyRuleIsDocumented() throws {
        let readme = try String(
            contentsOf: SchemaCases.root.appendingPathComponent("docs/schema/README.md"), encoding: .utf8)
        for rule in keyframeLoaderOnlyRules {
            #expect(readme.contains(rule.name), "docs/schema/README.md does not name \"\(rule.name)\"")
        }
    }
}
