import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// A rule the loader checks that docs/schema/scenario.schema.json cannot say: it relates
/// several values (or needs arithmetic JSON Schema lacks). A scenario the loader refuses
/// for one of these reasons may still validate against the schema. The same list, with the
/// same reasons, is in docs/schema/README.md ("What the schema cannot check").
struct LoaderOnlyRule: Sendable {
    /// What the rule is about.
    var name: String
    /// Why a JSON Schema cannot say it.
    var why: String
    /// Fragments of the loader's reason that name this rule (any one matches).
    var fragments: [String]

    func matches(_ reason: String) -> Bool {
        fragments.contains { reason.contains($0) }
    }
}

let loaderOnlyRules: [LoaderOnlyRule] = [
    LoaderOnlyRule(
        name: "inside the world", why: "compares a position with world.size",
        fragments: ["lies outside the world"]),
    LoaderOnlyRule(
        name: "unique ids", why: "compares ids across crates, grid crates and bodies",
        fragments: ["duplicate"]),
    LoaderOnlyRule(
        name: "joint ends",
        why: "a and b must name existing crates or bodies, differ, and include a dynamic body (of finite moment for a "
            + "joint on rotation), with the types the timeline gave them at its step",
        fragments: [
            "no crate or body has the id", "both ends are \"static\"", "to itself",
            "neither end is a dynamic body", "neither end can turn", "remove the joint first",
        ]),
    LoaderOnlyRule(
        name: "distinct points",
        why: "compares two values: a segment's from and to, a groove's ends, a pin's anchors in world coordinates",
        fragments: ["must differ from its \"from\"", "the groove has no length", "the pin's anchors coincide"]),
    LoaderOnlyRule(
        name: "min ≤ max", why: "compares two values of a slide or rotaryLimit joint",
        fragments: ["must be ≥ min"]),
    LoaderOnlyRule(
        name: "anchor reach", why: "needs the body's mass and moment of inertia (r² · m / I ≤ 1e9)",
        fragments: ["from its body's centre of gravity", "too small a moment of inertia for its size"]),
    LoaderOnlyRule(
        name: "spring step", why: "stiffness × dt² × k ≤ 4 needs timestep.hz and both bodies' masses",
        fragments: ["stiffer than one step can integrate"]),
    LoaderOnlyRule(
        name: "step count",
        why: "duration × timestep.hz (or duration / timestep.dt), rounded, in [1, 1e9] is a product of two values",
        fragments: ["duration × timestep.hz", "duration / timestep.dt"]),
    LoaderOnlyRule(
        name: "body count", why: "crates (listed and columns × rows of every grid) and bodies together at most 100 000",
        fragments: ["bodies (crates included)", "columns × rows"]),
    LoaderOnlyRule(
        name: "dynamic body mass",
        why: "a dynamic body's mass and moment are accumulated over its shapes (density × area)",
        fragments: ["has no mass", "would have a mass of", "would have a moment of inertia"]),
    LoaderOnlyRule(
        name: "convex polygon", why: "distinct, counter-clockwise, strictly convex vertices winding once need geometry",
        fragments: [
            "repeats vertex", "collinear", "lies on the line through its neighbours", "run clockwise",
            "not convex", "wind around more than once", "Chipmunk's convex hull keeps",
        ]),
    LoaderOnlyRule(
        name: "path keyframe times", why: "times must increase strictly from keyframe to keyframe",
        fragments: ["times must increase strictly"]),
    LoaderOnlyRule(
        name: "curve overshoot", why: "a curve's peak depends on both keyframes' poses",
        fragments: ["overshoots"]),
    LoaderOnlyRule(
        name: "Bézier path", why: "1 + 3k points (a count modulo 3) and a length above 0",
        fragments: ["1 + 3k points", "the path has zero length"]),
    LoaderOnlyRule(
        name: "spring deviation", why: "how far a spring strays depends on all its parameters together",
        fragments: ["could stray up to"]),
    LoaderOnlyRule(
        name: "overlaps at t = 0", why: "needs the geometry of every crate",
        fragments: ["pairs of crates overlap"]),
    LoaderOnlyRule(
        name: "impulse speed", why: "|impulse| / mass at most 1e7 needs the mass of the body at the impulse's step",
        fragments: ["a change of speed of"]),
    LoaderOnlyRule(
        name: "overlaps of spawned bodies", why: "needs the geometry, pose and count of every spawn",
        fragments: ["pairs of spawned bodies overlap"]),
    LoaderOnlyRule(
        name: "spatial hash cells", why: "the cells a shape covers depend on its size, position and the cell size",
        fragments: ["is too small for the scene", "hash cells"]),
    LoaderOnlyRule(
        name: "contact persistence", why: "collisionPersistence × dynamic shapes needs the count of shapes",
        fragments: ["dynamic shapes ="]),
    LoaderOnlyRule(
        name: "sleeping with a kinematic body", why: "sleepTimeThreshold 0 depends on the bodies' types",
        fragments: ["cannot be used with a kinematic body"]),
    LoaderOnlyRule(
        name: "timeline presence",
        why: "an action's body or joint must be present at its step: needs the whole timeline walked in step order",
        fragments: [
            " is present at step", "is a kinematic body driven by its path", "an impulse moves only a dynamic body",
            "a static body never moves", "cannot become dynamic", "which has no", "joint ids are unique over the run",
            "for a slide joint", "for a rotaryLimit joint",
        ]),
    LoaderOnlyRule(
        name: "emitter overlap",
        why: "an emitter's consecutive bodies are compared by their shapes, due steps and spawn velocity",
        fragments: ["the emitter spawns"]),
    LoaderOnlyRule(
        name: "timeline steps and totals",
        why: "the due step t / dt compares with duration and timestep; spawns and actions are summed over counts",
        fragments: [
            "after the run's last step", "spawns more than", "actions in all", "the scenario would make more than",
        ]),
    LoaderOnlyRule(
        name: "expectation names",
        why: "a body id, prefix, collision type or counter must exist in the file (its crates, bodies, shapes, rules)",
        fragments: [
            "no body has the id", "no body id starts with", "is neither a body id nor a collision type",
            "no rule counts", "only a trailing \"*\" is a pattern", "names no one",
        ]),
    LoaderOnlyRule(
        name: "expectation ranges",
        why:
            "compares two values (a window's ends, a box's corners, an angle's min and max) or a time with the duration",
        fragments: [
            "ends before it starts", "the box's first corner must be its lower left",
            "expected [min, max] with min ≤ max",
            "is after the end of the run",
        ]),
    LoaderOnlyRule(
        name: "rule collision types",
        why: "a rule's names must be collisionType values of shapes elsewhere in the file, a set must not reach "
            + "a path-driven body of that type, nor change a type when world.sleepTimeThreshold is set",
        fragments: ["no shape has collisionType", "a set would fight its path", "when bodies may sleep"]),
    LoaderOnlyRule(
        name: "filter group read as a double",
        why: "JSON numbers are read as doubles: an integer just below 2^63 (2^63 − 1) rounds to 2^63, which is refused",
        fragments: ["< 2^63"]),
]

/// A place where the loader accepts more than the format (docs/formats.md) says, so the
/// schema, which follows the format, refuses what the loader accepts. Each is a loader bug
/// to fix in the library; its entry goes when the fix lands. Listed in docs/schema/README.md.
struct LoaderLeniency: Sendable {
    /// What the loader lets through.
    var name: String
    /// Where in the loader, and why it is not fixed here.
    var why: String
    /// The end of the names of the mutations it explains (`schema-cases.py`'s "FILE: PATH: MUTATION").
    var mutationSuffix: String

    func matches(_ mutation: String) -> Bool { mutation.hasSuffix(mutationSuffix) }
}

/// Empty: the one leniency this test found (keys beside `spring` in a curve, ignored) is
/// refused by the loader since (`FieldReader.timingCurve`).
let loaderLeniencies: [LoaderLeniency] = []

/// Compares the schema's verdict with the loader's on each case. A case where only the
/// loader refuses must be one of `loaderOnlyRules`; one where only the schema refuses, one
/// of `loaderLeniencies`; any other disagreement is recorded as an issue naming the case.
/// Returns how many agreed and the explained disagreements by rule, as one line.
func compareVerdicts(of cases: [SchemaCase], loaderOnlyRules: [LoaderOnlyRule]) -> (agreed: Int, summary: String) {
    var agreed = 0
    var explained: [String: Int] = [:]
    for item in cases {
        switch (item.schemaAccepts, item.loaderError) {
        case (true, nil), (false, .some):
            agreed += 1
        case (false, nil):
            if let leniency = loaderLeniencies.first(where: { $0.matches(item.name) }) {
                explained[leniency.name, default: 0] += 1
            } else {
                Issue.record("\(item.name): the schema refuses what the loader accepts: \(item.schemaReason)")
            }
        case (true, .some(let error)):
            if let rule = loaderOnlyRules.first(where: { $0.matches(error.reason) }) {
                explained[rule.name, default: 0] += 1
            } else {
                Issue.record("\(item.name): the schema accepts what the loader refuses: \(error)")
            }
        }
    }
    return (agreed, explained.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
}

/// Every shipped scenario and every scenario the tests write as a valid example validates
/// against docs/schema/scenario.schema.json; on mutations of the shipped scenarios, the
/// schema and the loader agree except where the loader checks a rule the schema cannot say.
@Suite struct SchemaAgreementTests {
    @Test func everyShippedScenarioAndTheEveryKeyScenarioLoadAndValidateAgainstTheSchema() throws {
        let shipped = try SchemaCases.cases().filter { $0.origin == .shipped || $0.origin == .base }
        #expect(shipped.count >= 14)
        for scenario in shipped {
            #expect(scenario.loaderError == nil, "\(scenario.name)")
            #expect(scenario.schemaAccepts, "\(scenario.name): \(scenario.schemaReason)")
        }
    }

    @Test func everyValidScenarioTheTestsAndTheFuzzCorpusWriteValidatesAgainstTheSchema() throws {
        let written = try SchemaCases.cases().filter { $0.origin == .tests || $0.origin == .corpus }
        let valid = written.filter { $0.loaderError == nil }
        #expect(valid.count >= 40)
        for scenario in valid {
            #expect(scenario.schemaAccepts, "\(scenario.name): \(scenario.schemaReason)")
        }
    }

    @Test func schemaAndLoaderAgreeOnEveryMutationButTheLoaderOnlyRules() throws {
        let cases = try SchemaCases.cases().filter {
            $0.origin == .mutation || $0.origin == .tests || $0.origin == .corpus
        }
        #expect(cases.count >= 10_000)
        let (agreed, summary) = compareVerdicts(of: cases, loaderOnlyRules: loaderOnlyRules)
        print("SchemaAgreementTests: \(cases.count) cases, \(agreed) agree; explained disagreements: \(summary)")
    }

    @Test func everyLoaderOnlyRuleIsDocumented() throws {
        let readme = try String(
            contentsOf: SchemaCases.root.appendingPathComponent("docs/schema/README.md"), encoding: .utf8)
        for name in loaderOnlyRules.map(\.name) + loaderLeniencies.map(\.name) {
            #expect(readme.contains(name), "docs/schema/README.md does not name \"\(name)\"")
        }
    }
}
