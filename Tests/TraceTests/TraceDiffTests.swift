import Testing

@_spi(Tools) @testable import Tiltbox

/// Writes `run` and reads it back, so diff tests go through the real file format.
private func roundTrip(_ run: SampleRun, _ name: String, finish: Bool = true) throws -> Trace {
    let dir = try makeTemporaryDirectory()
    let path = dir + "/" + name + ".jsonl"
    try run.write(to: path, finish: finish)
    return try TraceReader.read(path: path)
}

@Test func identicalTracesCompareIdentical() throws {
    let a = try roundTrip(SampleRun(), "a")
    let b = try roundTrip(SampleRun(), "b")
    #expect(TraceDiff.compare(a, b) == .identical(records: 20))
    #expect(TraceDiff.compare(a, b, tolerance: 1e-9) == .identical(records: 20))
}

@Test func aOneULPChangeIsFoundAtItsStepBodyAndField() throws {
    let run = SampleRun(bodies: 4, records: 40)
    var changed = run
    // Step 37, body g0_3, field vy (index 4).
    let old = changed.records[37].states[3 * 6 + 4]
    changed.records[37].states[3 * 6 + 4] = old.nextUp
    let a = try roundTrip(run, "a")
    let b = try roundTrip(changed, "b")
    let result = TraceDiff.compare(a, b)
    guard case .diverged(.value(let d)) = result else {
        Issue.record("expected a value divergence, got \(result)")
        return
    }
    #expect(d.step == 37)
    #expect(d.time == 37.0 / 120)
    #expect(d.body == "g0_3")
    #expect(d.field == "vy")
    #expect(d.a.bitPattern == old.bitPattern)
    #expect(d.b.bitPattern == old.nextUp.bitPattern)
    #expect(d.ulps == 1)
    #expect(
        result.description
            == "first divergence at step 37 (t = \(NumberFormat.shortest(37.0 / 120))): body \"g0_3\" field vy: first = \(NumberFormat.shortest(old)), second = \(NumberFormat.shortest(old.nextUp)) (1 ULP apart)"
    )
    // Swapped, the values swap.
    guard case .diverged(.value(let swapped)) = TraceDiff.compare(b, a) else {
        Issue.record("expected a value divergence")
        return
    }
    #expect(swapped.a.bitPattern == old.nextUp.bitPattern && swapped.ulps == 1)
}

@Test func gravityDifferencesAreNamedGxAndGy() throws {
    let run = SampleRun(records: 5)
    var changed = run
    changed.records[2].gravity.y = -981
    let result = TraceDiff.compare(try roundTrip(run, "a"), try roundTrip(changed, "b"))
    guard case .diverged(.value(let d)) = result else {
        Issue.record("expected a value divergence, got \(result)")
        return
    }
    #expect(d.step == 2 && d.body == nil && d.field == "g.y")
    #expect(result.description.contains("gravity g.y: first = -980, second = -981 ("))
    guard case .diverged(let divergence) = result else { return }
    #expect(divergence.describe(.verify).contains("gravity g.y: reference = -980, this run = -981 ("))
    #expect(
        divergence.describe(.files("old.jsonl", "new.jsonl")).contains(
            "gravity g.y: old.jsonl = -980, new.jsonl = -981 ("))
}

@Test func toleranceAcceptsASmallChangeButNotALargeOne() throws {
    let run = SampleRun(records: 10)
    var small = run
    small.records[5].states[2] += 1e-7
    let a = try roundTrip(run, "a")
    let b = try roundTrip(small, "b")
    #expect(!TraceDiff.compare(a, b).isIdentical)
    #expect(TraceDiff.compare(a, b, tolerance: 1e-6) == .identical(records: 10))
    #expect(!TraceDiff.compare(a, b, tolerance: 1e-8).isIdentical)
}

@Test func negativeZeroDiffersFromZeroBitForBit() {
    let header = TraceHeader(scenario: "z", spatialIndex: "bbtree", dt: 1, every: 1, bodies: ["a"])
    let end = TraceEndLine(kind: .complete, steps: 0, simTime: 0, droppedTime: 0, digest: "fnv1a64:0000000000000000")
    let plus = Trace(
        header: header, records: [TraceRecord(step: 0, t: 0, gravity: .zero, states: [0, 0, 0, 0, 0, 0])], end: end)
    var minus = plus
    minus.records[0].states[5] = -0.0
    guard case .diverged(.value(let d)) = TraceDiff.compare(plus, minus) else {
        Issue.record("expected a value divergence")
        return
    }
    #expect(d.field == "w" && d.ulps == 1)
    #expect(TraceDiff.compare(plus, minus, tolerance: 1e-12).isIdentical)
}

@Test func ulpDistanceCountsRepresentableDoubles() {
    #expect(TraceDiff.ulpDistance(1, 1) == 0)
    #expect(TraceDiff.ulpDistance(1, 1.nextUp) == 1)
    #expect(TraceDiff.ulpDistance(1.nextUp, 1) == 1)
    #expect(TraceDiff.ulpDistance(1, 1.nextDown) == 1)
    #expect(TraceDiff.ulpDistance(-1, (-1.0).nextUp) == 1)
    #expect(TraceDiff.ulpDistance(1, 2) == 1 << 52)
    #expect(TraceDiff.ulpDistance(0, -0.0) == 1)
    #expect(TraceDiff.ulpDistance(0, .leastNonzeroMagnitude) == 1)
    #expect(TraceDiff.ulpDistance(-.leastNonzeroMagnitude, .leastNonzeroMagnitude) == 3)
    #expect(TraceDiff.ulpDistance(.greatestFiniteMagnitude, .infinity) == 1)
    // Opposite signs: the steps from -x down to -0, across to 0, and up to x.
    let x = 1.5
    #expect(TraceDiff.ulpDistance(-x, x) == 2 * x.bitPattern + 1)
    #expect(
        TraceDiff.ulpDistance(-.greatestFiniteMagnitude, .greatestFiniteMagnitude) == 2
            * Double.greatestFiniteMagnitude.bitPattern + 1)
}

@Test func aShorterTraceReportsTheFirstMissingStep() throws {
    let full = SampleRun(records: 12, every: 5)
    var short = full
    short.records.removeLast(4)
    let a = try roundTrip(full, "a")
    let truncated = try roundTrip(short, "b", finish: false)
    let result = TraceDiff.compare(a, truncated)
    #expect(result == .diverged(.missingRecord(step: 40, time: 40.0 / 120, missingFrom: .b, truncated: true)))
    #expect(
        result.description
            == "first divergence at step 40 (t = 0.3333333333333333): the second trace ends before it without an end line (truncated)"
    )
    #expect(
        TraceDiff.compare(truncated, a)
            == .diverged(.missingRecord(step: 40, time: 40.0 / 120, missingFrom: .a, truncated: true)))
}

@Test func aTruncatedTraceIsReportedEvenWhenItsRecordsAgree() throws {
    let a = try roundTrip(SampleRun(records: 6), "a")
    let b = try roundTrip(SampleRun(records: 6), "b", finish: false)
    #expect(TraceDiff.compare(a, b) == .diverged(.end(.missingEndLine(side: .b, afterStep: 5))))
    #expect(TraceDiff.compare(b, a).description == "the first trace has no end line (truncated after step 5)")
    guard case .diverged(let divergence) = TraceDiff.compare(a, b) else { return }
    #expect(divergence.describe(.verify) == "this run has no end line (truncated after step 5)")
}

@Test func differentEndsAreReported() throws {
    let a = try roundTrip(SampleRun(records: 3), "a")
    var b = a
    b.end?.kind = .error
    #expect(
        TraceDiff.compare(a, b).description
            == #"the traces end differently: the first trace "complete", the second trace "error""#)
    // Interrupted where the other completed is no divergence (InterruptedPrefixTests).
    b.end?.kind = .interrupted
    #expect(TraceDiff.compare(a, b).agrees && !TraceDiff.compare(a, b).isIdentical)
    var c = a
    c.end?.droppedTime = 1.25 // depends on the frame clock, not the physics
    #expect(TraceDiff.compare(a, c).isIdentical)
}

@Test func headerMismatchesComeFirst() throws {
    let a = try roundTrip(SampleRun(records: 3), "a")
    var b = a
    b.header.bodies[1] = "other"
    #expect(
        TraceDiff.compare(a, b).description
            == "body 2 is 'g0_1' in the first trace and 'other' in the second trace (3 bodies each)")
    var c = a
    c.header.dt = 1.0 / 60
    #expect(TraceDiff.compare(a, c) == .diverged(.header(.dt(a: 1.0 / 120, b: 1.0 / 60))))
    guard case .diverged(let dtDivergence) = TraceDiff.compare(a, c) else { return }
    #expect(
        dtDivergence.describe(.verify)
            == "reference trace steps at dt = 0.008333333333333333 s (120 Hz); this run at dt = 0.016666666666666666 s (60 Hz)"
    )
    var d = a
    d.header.every = 2
    #expect(TraceDiff.compare(a, d) == .diverged(.header(.every(a: 1, b: 2))))
    // Another scenario's trace is named as such, with body counts, not body lists.
    var e = a
    e.header.scenario = "pile-100"
    e.header.bodies.append("g0_3")
    guard case .diverged(let scenarioDivergence) = TraceDiff.compare(e, a) else {
        Issue.record("expected a header divergence")
        return
    }
    #expect(
        scenarioDivergence.describe(.verify)
            == "reference trace is from scenario 'pile-100' (4 bodies); this run is 'sample' (3 bodies)")
    // diff alone does not compare names: a renamed scenario with the same bodies still compares its records.
    var f = a
    f.header.scenario = "renamed"
    #expect(TraceDiff.compare(a, f).isIdentical)
}

// MARK: - Streaming

/// Writes each run to a file and compares them both ways: whole traces in memory and
/// streamed one record at a time. The two must agree.
private func compareBothWays(_ a: SampleRun, _ b: SampleRun, finishB: Bool = true) throws
    -> (memory: TraceComparison, stream: TraceComparison)
{
    let dir = try makeTemporaryDirectory()
    try a.write(to: dir + "/a.jsonl")
    try b.write(to: dir + "/b.jsonl", finish: finishB)
    let memory = TraceDiff.compare(
        try TraceReader.read(path: dir + "/a.jsonl"),
        try TraceReader.read(path: dir + "/b.jsonl"))
    let stream = try TraceDiff.compare(TraceStream(path: dir + "/a.jsonl"), TraceStream(path: dir + "/b.jsonl"))
    return (memory, stream)
}

@Test func streamedComparisonsEqualInMemoryOnes() throws {
    let run = SampleRun(bodies: 3, records: 30)
    var changed = run
    changed.records[17].states[7] = changed.records[17].states[7].nextDown
    var shorter = run
    shorter.records.removeLast(4)
    for (b, finish) in [(run, true), (changed, true), (shorter, true), (shorter, false), (run, false)] {
        let (memory, stream) = try compareBothWays(run, b, finishB: finish)
        #expect(memory == stream)
    }
    #expect(try compareBothWays(run, run).stream == .identical(records: 30))
    let (_, diverged) = try compareBothWays(run, changed)
    guard case .diverged(.value(let d)) = diverged else {
        Issue.record("expected a value divergence, got \(diverged)")
        return
    }
    #expect(d.step == 17 && d.body == "g0_1" && d.field == "y")
}

@Test func aStreamHoldsItsRecordsOneAtATimeAndThenTheEndLine() throws {
    let dir = try makeTemporaryDirectory()
    let run = SampleRun(bodies: 2, records: 5)
    try run.write(to: dir + "/t.jsonl")
    let stream = try TraceStream(path: dir + "/t.jsonl")
    #expect(stream.header.bodies == ["g0_0", "g0_1"])
    var steps: [Int] = []
    while let record = try stream.next() {
        #expect(stream.end == nil, "the end line comes after the last record")
        steps.append(record.step)
    }
    #expect(steps == [0, 1, 2, 3, 4])
    #expect(stream.end?.steps == 4)
    #expect(try stream.next() == nil)
}

@Test func aRecordLineLongerThanTheHeaderAllowsIsRefusedWhenReached() throws {
    let header = TraceHeader(scenario: "s", spatialIndex: "bbtree", dt: 0.5, every: 1, bodies: ["a"])
    let limit = TraceStream.maxRecordLineBytes(for: header)
    #expect(limit == 4096 + 2 * (6 * 25 + 3))
    let long = #"{"step":0,"t":0,"g":[0,0],"s":[["# + String(repeating: " ", count: limit) + "]]}"
    let text = header.jsonLine + long + "\n"
    let error = #expect(throws: InputError.self) { _ = try TraceReader.parse(Array(text.utf8), file: "t.jsonl") }
    #expect(
        error?.description == "t.jsonl:2: line longer than \(limit) bytes, more than any record of this trace can be")
    let nul = header.jsonLine + "{\"step\":0\u{0}}\n"
    let control = #expect(throws: InputError.self) { _ = try TraceReader.parse(Array(nul.utf8), file: "t.jsonl") }
    #expect(control?.description == "t.jsonl:2:10: control character 0x0 where a trace has JSON text")
}
