import Testing

@_spi(Tools) @testable import Tiltbox

/// The self-describing header keys (`tiltbox`, `source`, `platform`): written, read back,
/// and checked like every other header key.
@Suite struct TraceHeaderProvenanceTests {
    private func header() -> TraceHeader {
        var header = TraceHeader(scenario: "book", spatialIndex: "bbtree", dt: 1.0 / 120, every: 1, bodies: ["a"])
        header.tiltbox = "0.13.0"
        header.source = TraceHeader.Source(
            scenario: "../Scenarios/book.json", scenarioSHA256: String(repeating: "ab", count: 32),
            tilt: "../Scenarios/tilt/book-landscape.csv", tiltSHA256: String(repeating: "cd", count: 32),
            tiltFormat: "tiltboxCSV", orientation: .landscapeRight, interpolate: .linear, g: 500, convention: .android,
            overrides: [.init(path: "timestep.hz", json: "240"), .init(path: "world.gravity", json: "[0,-500.5]")])
        header.platform = TraceHeader.Platform(
            arch: "aarch64", os: "linux", libc: "glibc 2.36",
            chipmunkSHA256: String(repeating: "0f", count: 32), fma: true)
        return header
    }

    private func parse(_ headerLine: String) throws -> Trace {
        try TraceReader.parse(
            Array(
                (headerLine
                    + #"{"end":"complete","steps":0,"simTime":0,"droppedTime":0,"digest":"fnv1a64:cbf29ce484222325"}"#
                    + "\n").utf8),
            file: "h.jsonl")
    }

    @Test func theSelfDescribingKeysComeLastAndReadBackEqual() throws {
        let line = header().jsonLine
        #expect(
            line.hasSuffix(
                #""bodies":["a"],"tiltbox":"0.13.0","source":{"scenario":"../Scenarios/book.json","scenarioSHA256":"\#(String(repeating: "ab", count: 32))","tilt":"../Scenarios/tilt/book-landscape.csv","tiltSHA256":"\#(String(repeating: "cd", count: 32))","tiltFormat":"tiltboxCSV","orientation":"landscapeRight","interpolate":"linear","g":500,"convention":"android","overrides":{"timestep.hz":240,"world.gravity":[0,-500.5]}},"platform":{"arch":"aarch64","os":"linux","libc":"glibc 2.36","chipmunkSHA256":"\#(String(repeating: "0f", count: 32))","fma":true}}"#
                    + "\n"),
            "\(line)")
        #expect(try parse(line).header == header())
    }

    @Test func aBuiltInScenarioWithoutTiltIsWrittenWithNulls() throws {
        var plain = TraceHeader(scenario: "book", spatialIndex: "bbtree", dt: 0.5, every: 1, bodies: [])
        plain.source = TraceHeader.Source(scenario: nil)
        #expect(plain.jsonLine.hasSuffix(#","source":{"scenario":null,"tilt":null,"overrides":{}}}"# + "\n"))
        #expect(try parse(plain.jsonLine).header == plain)
    }

    @Test func tracesWithoutTheKeysReadAsBefore() throws {
        let old =
            #"{"format":"tiltbox-trace/1","scenario":"s","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":0.5,"every":1,"fields":["x","y","angle","vx","vy","w"],"bodies":[]}"#
        let header = try parse(old + "\n").header
        #expect(header.tiltbox == nil && header.source == nil && header.platform == nil)
    }

    @Test func keysOfOtherVersionsAreTolerated() throws {
        // `space` (the effective space settings) and keys inside source/platform this version does not know.
        let line =
            #"{"format":"tiltbox-trace/1","scenario":"s","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":0.5,"every":1,"fields":["x"],"bodies":[],"space":{"iterations":10,"collisionSlop":0.10000000149011612},"source":{"scenario":"s.json","tilt":null,"overrides":{},"future":1},"platform":{"arch":"x86_64","os":"linux","libc":"glibc 2.36","fma":false,"cpu":"x"}}"#
        let header = try parse(line + "\n").header
        #expect(header.source?.scenario == "s.json")
        #expect(header.platform?.fma == false)
        #expect(header.platform?.chipmunkSHA256 == nil)
    }

    @Test func aMistypedKeyIsNamedWithItsPathAndLine() {
        let line =
            #"{"format":"tiltbox-trace/1","scenario":"s","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":0.5,"every":1,"fields":["x"],"bodies":[],"source":{"scenario":"s.json","orientation":"sideways"}}"#
        #expect {
            try parse(line + "\n")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("h.jsonl:1:") && text.contains("source.orientation: unknown value \"sideways\"")
        }
    }

    @Test func platformDifferencesNameTheFields() {
        let here = TraceHeader.Platform(
            arch: "x86_64", os: "linux", libc: "glibc 2.36", chipmunkSHA256: "aa", fma: true)
        var there = here
        #expect(here.differences(from: there).isEmpty)
        there.arch = "aarch64"
        there.fma = false
        #expect(here.differences(from: there) == ["arch", "fma"])
    }

    @Test func thisMachinesFingerprintIsComplete() {
        let platform = TraceHeader.Platform.current
        #expect(!platform.arch.isEmpty && platform.os == "linux")
        #expect(platform.libc.hasPrefix("glibc 2."))
        #expect(platform.fma != nil)
        let hash = platform.chipmunkSHA256 ?? ""
        #expect(hash.count == 64 && hash.allSatisfy { $0.isHexDigit }, "chipmunkSHA256: \(hash)")
    }
}
