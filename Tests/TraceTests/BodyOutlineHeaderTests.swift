import Testing

@_spi(Tools) @testable import Tiltbox

/// The optional `types`, `shapes` and `joints` header keys: written in a fixed layout,
/// read back equal, absent from traces of crate-only scenes, and checked against the
/// header's bodies on reading.
@Suite struct BodyOutlineHeaderTests {
    static func parse(_ headerLine: String) throws -> TraceHeader {
        try TraceReader.parse(Array((headerLine + SpaceHeaderTests.end + "\n").utf8), file: "t.jsonl").header
    }

    static func sample() -> TraceHeader {
        var header = TraceHeader(
            scenario: "s", spatialIndex: "bbtree", dt: 0.5, every: 1, bodies: ["crate", "ball", "wedge"])
        header.types = [.dynamic, .dynamic, .kinematic]
        header.shapes = [
            [.box(size: Vec2(32, 32), radius: 0)],
            [.circle(radius: 12, offset: Vec2(1.5, 0)), .segment(from: Vec2(-3, 0), to: Vec2(3, 0), radius: 0.5)],
            [.polygon(vertices: [Vec2(-40, -20), Vec2(40, -20), Vec2(0, 20)], radius: 2)],
        ]
        header.joints = [
            TraceHeader.JointOutline(kind: "pivot", a: "ball", b: "static", anchorA: .zero, anchorB: Vec2(120, 360)),
            TraceHeader.JointOutline(
                kind: "groove", a: "wedge", b: "crate", anchorB: Vec2(0, 1),
                groove: [Vec2(-10, 0), Vec2(10, 0)]),
        ]
        return header
    }

    @Test func shapesTypesAndJointsAreWrittenInTheDocumentedLayout() {
        let line = Self.sample().jsonLine
        #expect(
            line.contains(
                #","types":["dynamic","dynamic","kinematic"],"shapes":[[{"box":{"size":[32,32],"radius":0}}],[{"circle":{"radius":12,"offset":[1.5,0]}},{"segment":{"from":[-3,0],"to":[3,0],"radius":0.5}}],[{"polygon":{"vertices":[[-40,-20],[40,-20],[0,20]],"radius":2}}]],"joints":[{"kind":"pivot","a":"ball","b":"static","anchorA":[0,0],"anchorB":[120,360]},{"kind":"groove","a":"wedge","b":"crate","anchorA":[0,0],"anchorB":[0,1],"groove":[[-10,0],[10,0]]}]"#
            ))
    }

    @Test func theyReadBackEqual() throws {
        let header = Self.sample()
        let read = try Self.parse(header.jsonLine)
        #expect(read.types == header.types)
        #expect(read.shapes == header.shapes)
        #expect(read.joints == header.joints)
    }

    @Test func aHeaderWithoutThemHasNoneOfTheKeys() {
        let line = TraceHeader(scenario: "s", spatialIndex: "bbtree", dt: 0.5, every: 1, bodies: ["a"]).jsonLine
        #expect(!line.contains("\"types\"") && !line.contains("\"shapes\"") && !line.contains("\"joints\""))
    }

    @Test(arguments: [
        (#","shapes":[[{"circle":{"radius":1}}]]"#, "shapes: expected 3 elements"),
        (#","types":["dynamic","dynamic","floating"]"#, "types[2]"),
        (#","shapes":[[],[{"triangle":{}}],[]]"#, "shapes[1][0]"),
        (#","joints":[{"kind":"pin","a":"ball","b":"nobody"}]"#, "joints[0].b"),
    ])
    func badOutlinesAreRefusedAtTheirPath(extra: String, expected: String) {
        let base = Self.sample()
        var plain = base
        plain.types = nil
        plain.shapes = nil
        plain.joints = nil
        let line = String(plain.jsonLine.dropLast(2)) + extra + "}\n"
        #expect {
            _ = try Self.parse(line)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }
}
