import Testing

@_spi(Tools) @testable import Tiltbox

@Test func headerLineMatchesTheFormatsExample() {
    let header = TraceHeader(
        scenario: "crate-stack", spatialIndex: "bbtree", dt: 1.0 / 120, every: 1,
        bodies: ["a", "g0_0", "g0_1"])
    #expect(
        header.jsonLine == """
            {"format":"tiltbox-trace/1","scenario":"crate-stack","engine":"chipmunk 7.0.3","spatialIndex":"bbtree",\
            "dt":0.008333333333333333,"every":1,"fields":["x","y","angle","vx","vy","w"],"bodies":["a","g0_0","g0_1"]}

            """)
}

@Test func optionalHeaderKeysFollowTheRequiredOnesInOrder() {
    let header = TraceHeader(
        scenario: "s \"quoted\"\n", spatialIndex: "hash", dt: 0.5, every: 2, bodies: ["a"],
        worldSize: Vec2(480, 320),
        segments: [.init(from: Vec2(0, 100), to: Vec2(200, 60.5), radius: 2)],
        sizes: [Vec2(32, 16)], hz: 120, duration: 10, tilt: "tilt/rock.csv")
    #expect(
        header.jsonLine == """
            {"format":"tiltbox-trace/1","scenario":"s \\"quoted\\"\\n","engine":"chipmunk 7.0.3","spatialIndex":"hash",\
            "dt":0.5,"every":2,"fields":["x","y","angle","vx","vy","w"],"bodies":["a"],"world":{"size":[480,320]},\
            "segments":[{"from":[0,100],"to":[200,60.5],"radius":2}],"sizes":[[32,16]],"hz":120,"duration":10,\
            "tilt":"tilt/rock.csv"}

            """)
}

@Test func recordAndEndLinesHaveTheDocumentedShape() throws {
    let dir = try makeTemporaryDirectory()
    let path = dir + "/t.jsonl"
    let header = TraceHeader(scenario: "one", spatialIndex: "bbtree", dt: 1.0 / 120, every: 1, bodies: ["a", "b"])
    let writer = try TraceWriter(path: path, header: header)
    try writer.writeRecord(
        step: 0, t: 0, gravity: Vec2(0, -980), states: [100, 200, 0, 0, 0, 0, 1.5, -2.25, 0.1, -0.0, 3, 4])
    let digest = writer.digest
    try writer.finish(.complete(steps: 1200, simTime: 10, droppedTime: 0))
    let lines = try fileLines(path)
    #expect(lines.count == 3)
    #expect(lines[1] == #"{"step":0,"t":0,"g":[0,-980],"s":[[100,200,0,0,0,0],[1.5,-2.25,0.1,-0,3,4]]}"#)
    #expect(lines[2] == #"{"end":"complete","steps":1200,"simTime":10,"droppedTime":0,"digest":"\#(digest)"}"#)
    #expect(writer.bytesWritten == (try fileBytes(path)).count)
}

@Test func errorAndInterruptedEndLines() throws {
    let dir = try makeTemporaryDirectory()
    let header = TraceHeader(scenario: "one", spatialIndex: "bbtree", dt: 0.25, every: 1, bodies: [])
    let a = try TraceWriter(path: dir + "/a.jsonl", header: header)
    try a.finish(.error("body \"a\" is not finite at step 3\n", steps: 3, simTime: 0.75, droppedTime: 0.5))
    #expect(
        try fileLines(dir + "/a.jsonl")[1]
            == #"{"end":"error","steps":3,"simTime":0.75,"droppedTime":0.5,"digest":"fnv1a64:cbf29ce484222325","message":"body \"a\" is not finite at step 3\n"}"#
    )
    let b = try TraceWriter(path: dir + "/b.jsonl", header: header)
    try b.finish(.interrupted(steps: 2, simTime: 0.5, droppedTime: 0))
    #expect(
        try fileLines(dir + "/b.jsonl")[1]
            == #"{"end":"interrupted","steps":2,"simTime":0.5,"droppedTime":0,"digest":"fnv1a64:cbf29ce484222325"}"#)
    let trace = try TraceReader.read(path: dir + "/a.jsonl")
    #expect(trace.end?.kind == .error)
    #expect(trace.end?.message == "body \"a\" is not finite at step 3\n")
}

@Test func numbersAreWrittenInShortestRoundTripForm() throws {
    let dir = try makeTemporaryDirectory()
    let path = dir + "/n.jsonl"
    var values = edgeCaseDoubles
    while values.count % 6 != 0 { values.append(0) }
    let header = TraceHeader(
        scenario: "n", spatialIndex: "bbtree", dt: 1, every: 1,
        bodies: (0..<(values.count / 6)).map { "b\($0)" })
    let writer = try TraceWriter(path: path, header: header)
    try writer.writeRecord(step: 0, t: 0, gravity: Vec2(0, 0), states: values)
    try writer.finish(.complete(steps: 0, simTime: 0, droppedTime: 0))
    var expected = #"{"step":0,"t":0,"g":[0,0],"s":["#
    for body in 0..<(values.count / 6) {
        if body > 0 { expected += "," }
        expected += "[" + values[(body * 6)..<(body * 6 + 6)].map(NumberFormat.shortest).joined(separator: ",") + "]"
    }
    expected += "]}"
    #expect(try fileLines(path)[1] == expected)
}

@Test func writingThenReadingGivesTheSameBits() throws {
    let dir = try makeTemporaryDirectory()
    let path = dir + "/bits.jsonl"
    var random = SplitMix64(seed: 0x7157_B0C5)
    let bodies = 5
    var records: [TraceRecord] = []
    var pool = edgeCaseDoubles
    for _ in 0..<2000 { pool.append(random.anyFiniteDouble()) }
    for _ in 0..<500 { pool.append(random.plausibleDouble()) }
    var next = 0
    func take() -> Double { defer { next = (next + 1) % pool.count }; return pool[next] }
    for step in 0..<100 {
        records.append(
            TraceRecord(
                step: step, t: take(), gravity: Vec2(take(), take()),
                states: (0..<(bodies * 6)).map { _ in take() }))
    }
    let header = TraceHeader(
        scenario: "bits", spatialIndex: "bbtree", dt: 1.0 / 120, every: 1,
        bodies: (0..<bodies).map { "b\($0)" })
    let writer = try TraceWriter(path: path, header: header, flushThreshold: 4096)
    for r in records { try writer.writeRecord(step: r.step, t: r.t, gravity: r.gravity, states: r.states) }
    try writer.finish(.complete(steps: 99, simTime: 99.0 / 120, droppedTime: 0))

    let trace = try TraceReader.read(path: path)
    #expect(trace.header == header)
    #expect(trace.records.count == records.count)
    for (read, written) in zip(trace.records, records) {
        #expect(read.step == written.step)
        #expect(read.t.bitPattern == written.t.bitPattern)
        #expect(read.gravity.bitwiseEquals(written.gravity))
        #expect(read.states.map(\.bitPattern) == written.states.map(\.bitPattern))
    }
    #expect(trace.end?.digest == writer.digest)
}

@Test func headerRoundTripsWithAndWithoutOptionalKeys() throws {
    let dir = try makeTemporaryDirectory()
    let plain = TraceHeader(
        scenario: "plain", spatialIndex: "bbtree", dt: 1.0 / 60, every: 3, bodies: ["x\u{e9}", "b"])
    var full = plain
    full.scenario = "full \"one\"\t"
    full.worldSize = Vec2(480, 320)
    full.segments = [
        .init(from: Vec2(0, 0), to: Vec2(480, 0), radius: 1), .init(from: Vec2(0, 100), to: Vec2(200, 60), radius: 2),
    ]
    full.sizes = [Vec2(32, 32), Vec2(16.5, 8)]
    full.hz = 60
    full.duration = 12.5
    full.tilt = "tilt/rock.csv"
    for (i, header) in [plain, full].enumerated() {
        let path = dir + "/h\(i).jsonl"
        let writer = try TraceWriter(path: path, header: header)
        try writer.finish(.complete(steps: 0, simTime: 0, droppedTime: 0))
        #expect(try TraceReader.read(path: path).header == header)
    }
}

@Test func everyLineOfAWrittenTraceParsesAsJSON() throws {
    let dir = try makeTemporaryDirectory()
    let path = dir + "/lines.jsonl"
    let run = SampleRun(bodies: 3, records: 50)
    try run.write(to: path, flushThreshold: 100)
    let lines = try fileLines(path)
    #expect(lines.count == 1 + 50 + 1)
    for line in lines {
        let node = try JSONParser.parse(line)
        #expect(node.objectMembers != nil)
    }
    #expect(try JSONParser.parse(lines[0])["format"]?.stringValue == "tiltbox-trace/1")
    #expect(try JSONParser.parse(lines[51])["end"]?.stringValue == "complete")
}

@Test func outputBytesDoNotDependOnHowOftenTheBufferIsFlushed() throws {
    let dir = try makeTemporaryDirectory()
    let run = SampleRun(bodies: 10, records: 300, seed: 3)
    var outputs: [[UInt8]] = []
    for threshold in [1, 7, 1000, 64 * 1024, 1 << 30] {
        let path = dir + "/f\(threshold).jsonl"
        try run.write(to: path, flushThreshold: threshold)
        outputs.append(try fileBytes(path))
    }
    #expect(outputs[0].count > 64 * 1024, "the default threshold is crossed at least once")
    for output in outputs.dropFirst() { #expect(output == outputs[0]) }
}

@Test func writingToAFullDeviceThrowsAClearError() throws {
    let run = SampleRun(bodies: 3, records: 10)
    // Buffered: the failure shows at the first flush, here at `finish`.
    let writer = try TraceWriter(path: "/dev/full", header: run.header)
    for r in run.records { try writer.writeRecord(step: r.step, t: r.t, gravity: r.gravity, states: r.states) }
    let error = #expect(throws: TraceWriteError.self) {
        try writer.finish(.complete(steps: 9, simTime: 0.075, droppedTime: 0))
    }
    #expect(error?.description == "cannot write trace /dev/full: No space left on device")

    // After a failure every call throws the same error.
    let again = #expect(throws: TraceWriteError.self) {
        try writer.flush()
    }
    #expect(again == error)

    // With a tiny buffer it fails at once, when the header is written.
    #expect(throws: TraceWriteError.self) {
        _ = try TraceWriter(path: "/dev/full", header: run.header, flushThreshold: 1)
    }
}

@Test func creatingATraceInAMissingFolderThrows() {
    let error = #expect(throws: TraceWriteError.self) {
        _ = try TraceWriter(
            path: "/nonexistent-tiltbox-folder/t.jsonl",
            header: TraceHeader(scenario: "x", spatialIndex: "bbtree", dt: 1, every: 1, bodies: []))
    }
    #expect(error?.description == "cannot create trace /nonexistent-tiltbox-folder/t.jsonl: No such file or directory")
}

@Test func aWriterDroppedWithoutFinishLeavesWholeLinesAndNoEnd() throws {
    let dir = try makeTemporaryDirectory()
    let path = dir + "/dropped.jsonl"
    try SampleRun(records: 5).write(to: path, finish: false)
    let trace = try TraceReader.read(path: path)
    #expect(trace.records.count == 5)
    #expect(trace.end == nil)
}
