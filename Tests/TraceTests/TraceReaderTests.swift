import Testing

@_spi(Tools) @testable import Tiltbox

private let headerLine =
    #"{"format":"tiltbox-trace/1","scenario":"s","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":0.5,"every":1,"fields":["x","y","angle","vx","vy","w"],"bodies":["a","b"]}"#
private let record0 = #"{"step":0,"t":0,"g":[0,-980],"s":[[1,2,3,4,5,6],[7,8,9,10,11,12]]}"#

/// Parses `lines` joined with newlines; the error's description, or nil when it parsed.
private func readError(_ lines: [String], trailingNewline: Bool = true) -> String? {
    let text = lines.joined(separator: "\n") + (trailingNewline ? "\n" : "")
    do {
        _ = try TraceReader.parse(Array(text.utf8), file: "t.jsonl", verifyDigest: false)
        return nil
    } catch {
        return error.description
    }
}

@Test func recordWithTheWrongBodyCountNamesTheLine() {
    let bad = #"{"step":1,"t":0.5,"g":[0,-980],"s":[[1,2,3,4,5,6]]}"#
    #expect(readError([headerLine, record0, bad]) == "t.jsonl:3:36: s: record has 1 bodies, header lists 2")
}

@Test func recordValuesMustBeNumbersAndComplete() {
    let text = #"{"step":1,"t":0.5,"g":[0,-980],"s":[[1,2,3,4,5,6],[7,8,"9",10,11,12]]}"#
    #expect(readError([headerLine, text]) == #"t.jsonl:2:56: s[1][2]: expected a number, got a string"#)
    let short = #"{"step":1,"t":0.5,"g":[0,-980],"s":[[1,2,3,4,5,6],[7,8,9,10,11]]}"#
    #expect(readError([headerLine, short]) == #"t.jsonl:2:51: s[1]: body "b" has 5 values, header lists 6 fields"#)
    let noGravity = #"{"step":1,"t":0.5,"s":[]}"#
    #expect(readError([headerLine, noGravity]) == #"t.jsonl:2:1: missing "g""#)
}

@Test func firstLineMustBeATraceHeader() {
    #expect(
        readError([record0])
            == #"t.jsonl:1:1: not a tiltbox trace: the first line must be a header with "format": "tiltbox-trace/1""#)
    let other = headerLine.replacingOccurrences(of: "tiltbox-trace/1", with: "tiltbox-trace/2")
    #expect(readError([other]) == #"t.jsonl:1:11: format: unsupported trace format (expected "tiltbox-trace/1")"#)
    #expect(readError([]) == "t.jsonl: empty file: a trace starts with a tiltbox-trace/1 header line")
    #expect(readError(["[1,2"]) == "t.jsonl:1:5: expected ',' or ']' in array, found end of file")
}

@Test func syntaxErrorsNameTheLineAndColumn() {
    #expect(
        readError([headerLine, #"{"step":1,,}"#, record0]) == "t.jsonl:2:11: expected a key in double quotes, found ','"
    )
}

@Test func stepsMustIncrease() {
    #expect(readError([headerLine, record0, record0]) == "t.jsonl:3:9: step: step 0 does not follow step 0")
}

@Test func nothingMayFollowTheEndLine() {
    let end = #"{"end":"complete","steps":0,"simTime":0,"droppedTime":0,"digest":"fnv1a64:0000000000000000"}"#
    #expect(readError([headerLine, record0, end]) == nil)
    #expect(readError([headerLine, record0, end, record0]) == "t.jsonl:4:1: text after the end line")
    let badKind = end.replacingOccurrences(of: "complete", with: "done")
    #expect(
        readError([headerLine, badKind])
            == #"t.jsonl:2:8: end: unknown end "done" (expected complete, interrupted or error)"#)
}

@Test func aMissingEndLineReadsAsATruncatedTrace() throws {
    let text = [headerLine, record0].joined(separator: "\n") + "\n"
    let trace = try TraceReader.parse(Array(text.utf8), file: "t.jsonl")
    #expect(trace.records.count == 1)
    #expect(trace.end == nil)
}

@Test func aLineCutOffMidWriteIsReported() {
    let cut = String(record0.prefix(30))
    let error = readError(
        [headerLine, record0.replacingOccurrences(of: "\"step\":0", with: "\"step\":1"), cut], trailingNewline: false)
    #expect(error?.hasPrefix("t.jsonl:3:1: the last line is cut off") == true)
    // A complete last line without its newline is fine.
    #expect(readError([headerLine, record0], trailingNewline: false) == nil)
}

@Test func anEditedTraceFailsTheDigestCheck() throws {
    let dir = try makeTemporaryDirectory()
    let path = dir + "/edited.jsonl"
    try SampleRun(bodies: 2, records: 3).write(to: path)
    var lines = try fileLines(path)
    // Replace the first value of the second record with a different number.
    let record = lines[2]
    let start = try #require(record.range(of: "\"s\":[["))
    let rest = record[start.upperBound...]
    let comma = try #require(rest.firstIndex(of: ","))
    lines[2] = String(record[..<start.upperBound]) + "12345" + String(rest[comma...])
    try writeText(lines.joined(separator: "\n") + "\n", to: path)
    let error = #expect(throws: InputError.self) { _ = try TraceReader.read(path: path) }
    #expect(error?.description.contains("does not match the records") == true)
    #expect(error?.description.hasPrefix(path + ":5:") == true)
    // Without the check it reads.
    #expect(try TraceReader.read(path: path, verifyDigest: false).records[1].states[0] == 12345)
}

@Test func unknownKeysAreIgnored() throws {
    let header = headerLine.replacingOccurrences(of: #""bodies""#, with: #""future":{"x":[1]},"bodies""#)
    let record = record0.replacingOccurrences(of: #""s""#, with: #""extra":true,"s""#)
    let text = [header, record].joined(separator: "\n") + "\n"
    let trace = try TraceReader.parse(Array(text.utf8), file: "t.jsonl")
    #expect(trace.header.bodies == ["a", "b"])
    #expect(
        trace.records[0].crateState(at: 1)
            == BodyState(position: Vec2(7, 8), angle: 9, velocity: Vec2(10, 11), angularVelocity: 12))
}

@Test func aMissingFileIsAnInputError() {
    let error = #expect(throws: InputError.self) { _ = try TraceReader.read(path: "/nonexistent-tiltbox/t.jsonl") }
    #expect(error?.description == "/nonexistent-tiltbox/t.jsonl: No such file or directory")
}
