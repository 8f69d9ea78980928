import Testing

@_spi(Tools) @testable import Tiltbox

/// The header's keys are declared once (`TraceHeader.keys` and the tables of `source`,
/// `platform`, segments and joints): what the writer writes, the reader reads back, in the
/// table's order, and notes name the platform's keys from the same table.
@Suite struct TraceHeaderKeyTableTests {
    /// A header with every key of every table set, none at its default.
    private func everyKeySet() -> TraceHeader {
        var header = TraceHeader(
            scenario: "all", spatialIndex: "bbtree", dt: 1.0 / 120, every: 2, fields: ["x", "y"], bodies: ["a", "b"],
            worldSize: Vec2(800, 600), segments: [TraceHeader.Segment(from: Vec2(0, 0), to: Vec2(800, 0.5), radius: 2)],
            sizes: [Vec2(20, 10), Vec2(5, 5)], hz: 120, duration: 2.5, tilt: "tilt.csv", masses: [1, 0],
            space: SpaceSettings(
                iterations: 10, damping: 1, collisionSlop: 0.1, collisionBias: 0.25,
                collisionPersistence: 3, sleepTimeThreshold: .infinity, idleSpeedThreshold: 0.5),
            tiltbox: "0.13.0",
            source: TraceHeader.Source(
                scenario: "all.json", scenarioSHA256: String(repeating: "ab", count: 32), tilt: "tilt.csv",
                tiltSHA256: String(repeating: "cd", count: 32), tiltFormat: "tiltboxCSV", orientation: .landscapeLeft,
                interpolate: .linear, g: 500, convention: .ios, overrides: [.init(path: "timestep.hz", json: "240")]),
            platform: TraceHeader.Platform(
                arch: "x86_64", os: "linux", libc: "glibc 2.36",
                chipmunkSHA256: String(repeating: "0f", count: 32), fma: false))
        header.records = .hashes
        header.types = [.dynamic, .kinematic]
        header.shapes = [
            [.box(size: Vec2(20, 10), radius: 0)],
            [
                .circle(radius: 2, offset: Vec2(1, 0)),
                .polygon(vertices: [Vec2(0, 0), Vec2(1, 0), Vec2(0, 1)], radius: 0.5),
                .segment(from: Vec2(0, 0), to: Vec2(3, 0), radius: 1),
            ],
        ]
        header.joints = [
            TraceHeader.JointOutline(
                kind: "groove", a: "a", b: "b", anchorA: Vec2(1, 2), anchorB: Vec2(-1, 0),
                groove: [Vec2(0, 0), Vec2(4, 0)]),
            TraceHeader.JointOutline(kind: "pin", a: "static", b: "a"),
        ]
        return header
    }

    private func parse(_ headerLine: String) throws -> Trace {
        try TraceReader.parse(Array(headerLine.utf8), file: "h.jsonl")
    }

    /// The one line of the reader's error for `headerLine`, or `nil` when it reads.
    private func readError(_ headerLine: String) -> String? {
        do {
            _ = try parse(headerLine + "\n")
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The keys of the JSON object `text` (one line), in the order written.
    private func keys(of text: String) throws -> [String] {
        let node = try JSONParser.parse(text)
        return try #require(node.objectMembers).map(\.key)
    }

    @Test func aHeaderWithEveryKeySetReadsBackEqual() throws {
        let header = everyKeySet()
        #expect(try parse(header.jsonLine).header == header)
    }

    @Test func theHeaderLineHasEveryKeyOfTheTableInTheDocumentedOrder() throws {
        let written = try keys(of: everyKeySet().jsonLine)
        #expect(written == TraceHeader.keys.map(\.name))
        // docs/formats.md §3: the required keys, the optional ones, the self-describing ones last.
        #expect(
            written == [
                "format", "scenario", "engine", "spatialIndex", "dt", "every", "fields", "bodies", "records",
                "world", "segments", "sizes", "hz", "duration", "tilt", "masses", "space", "types", "shapes",
                "joints", "tiltbox", "source", "platform",
            ])
    }

    @Test func aHeaderWithOnlyTheRequiredKeysWritesOnlyThem() throws {
        let header = TraceHeader(scenario: "s", spatialIndex: "bbtree", dt: 0.5, every: 1, bodies: ["a"])
        #expect(
            header.jsonLine
                == #"{"format":"tiltbox-trace/1","scenario":"s","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":0.5,"every":1,"fields":["x","y","angle","vx","vy","w"],"bodies":["a"]}"#
                + "\n")
        #expect(try parse(header.jsonLine).header == header)
    }

    @Test func aMissingRequiredKeyIsNamedAtTheHeader() {
        let line =
            #"{"format":"tiltbox-trace/1","scenario":"s","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":0.5,"fields":["x"],"bodies":[]}"#
        #expect(readError(line) == #"h.jsonl:1:1: missing "every""#)
    }

    @Test func aKeyNearRecordsIsIgnoredWhileOneNearBodiesIsRefused() throws {
        let base =
            #"{"format":"tiltbox-trace/1","scenario":"s","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":0.5,"every":1,"fields":["x"],"bodies":[]"#
        #expect(try parse(base + #","record":"x"}"# + "\n").header.records == .states)
        let refused = readError(base + #","bodys":[]}"#)
        #expect(
            refused?.hasSuffix(#"bodys: unknown key "bodys" (did you mean "bodies"?)"#) == true, "\(refused ?? "read")")
    }

    @Test func platformDifferencesAreTheTableKeysWhoseValuesDiffer() {
        let here = TraceHeader.Platform(
            arch: "x86_64", os: "linux", libc: "glibc 2.36", chipmunkSHA256: "aa", fma: true)
        var there = here
        #expect(here.differences(from: there).isEmpty)
        there.chipmunkSHA256 = nil
        there.fma = false
        there.arch = "aarch64"
        #expect(here.differences(from: there) == ["arch", "chipmunkSHA256", "fma"])
        #expect(
            here.differences(from: there).map(TraceHeader.Platform.label(ofKey:))
                == ["architecture", "Chipmunk library", "FMA"])
        #expect(TraceHeader.Platform.label(ofKey: "cpu") == "cpu")
    }

    @Test func messagesNameKeysFromTheTable() {
        #expect(TraceHeader.keyName(of: \.records) == "records")
        #expect(TraceHeader.keyName(of: \.worldSize) == "world")
        #expect(TraceHeader.Source.fieldPath(of: \.tilt) == "source.tilt")
        #expect(TraceHeader.Source.fieldPath(of: \.overrides) == "source.overrides")
    }
}
