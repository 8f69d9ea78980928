import Testing

@_spi(Tools) @testable import Tiltbox

/// A trace that ended `interrupted` (Ctrl-C, SIGTERM) after K steps agrees with a trace whose
/// records, events and counters are the same up to step K: the replay of an interrupted live
/// run (run for K steps, ending `complete`), or a run that went on. `diff` and `verify` say so
/// and exit 0; any difference up to step K is still a divergence.
@Suite struct InterruptedPrefixTests {
    /// `run`'s records up to step `upTo` (all of them when nil), written with the end line `end`
    /// (after `steps`, default the last record's step; counters `counters`), read back.
    static func trace(
        _ run: SampleRun, upTo: Int? = nil, end: TraceEndKind = .complete, steps: Int? = nil, extra: TraceRecord? = nil,
        counters: [TraceCounter] = []
    ) throws -> Trace {
        let path = try makeTemporaryDirectory() + "/t.jsonl"
        let writer = try TraceWriter(path: path, header: run.header)
        let records = run.records.filter { $0.step <= (upTo ?? Int.max) } + (extra.map { [$0] } ?? [])
        for r in records { try writer.writeRecord(step: r.step, t: r.t, gravity: r.gravity, states: r.states) }
        let k = steps ?? records.last?.step ?? 0
        let time = Double(k) * run.header.dt
        var line: TraceEnd
        switch end {
        case .complete: line = .complete(steps: k, simTime: time, droppedTime: 0)
        case .interrupted: line = .interrupted(steps: k, simTime: time, droppedTime: 0.5)
        case .error: line = .error("boom", steps: k, simTime: time, droppedTime: 0)
        }
        line.counters = counters
        try writer.finish(line)
        return try TraceReader.read(path: path)
    }

    @Test func aRunInterruptedAtAStepAgreesWithItsReplayThatCompletedThere() throws {
        let run = SampleRun(records: 8)
        let live = try Self.trace(run, end: .interrupted)
        let replay = try Self.trace(run, end: .complete)
        let expected = TraceInterruptedPrefix(
            records: 8, steps: 7, time: 7.0 / 120, interrupted: .a, otherEnd: .complete, otherSteps: 7)
        #expect(TraceDiff.compare(live, replay) == .identicalUntilInterrupted(expected))
        #expect(TraceDiff.compare(live, replay).agrees)
        #expect(
            TraceDiff.compare(live, replay).description
                == "identical up to where the first trace was interrupted: 8 records, to step 7 (t = \(NumberFormat.shortest(7.0 / 120))); the second trace ends \"complete\" there"
        )
        var swapped = expected
        swapped.interrupted = .b
        #expect(TraceDiff.compare(replay, live) == .identicalUntilInterrupted(swapped))
    }

    /// Recording every 5th step, a run interrupted at step 12 last recorded step 10; its replay of
    /// 12 steps records step 12 as its last. That record is not one the interrupted run lacks.
    @Test func theReplaysLastRecordAtTheStepReachedIsNotADivergence() throws {
        let run = SampleRun(records: 3, every: 5) // steps 0, 5, 10
        var last = run.records[2]
        last.step = 12
        last.t = 12.0 / 120
        let live = try Self.trace(run, end: .interrupted, steps: 12)
        let replay = try Self.trace(run, end: .complete, steps: 12, extra: last)
        #expect(
            TraceDiff.compare(live, replay)
                == .identicalUntilInterrupted(
                    .init(records: 3, steps: 12, time: 0.1, interrupted: .a, otherEnd: .complete, otherSteps: 12)))
        // A record the interrupted run was due to write (step 10) and lacks is a divergence.
        let lacking = try Self.trace(SampleRun(records: 2, every: 5), end: .interrupted, steps: 12)
        #expect(!TraceDiff.compare(lacking, replay).agrees)
    }

    @Test func aRunThatWentOnAgreesUpToWhereTheOtherWasInterrupted() throws {
        let run = SampleRun(records: 20)
        let comparison = TraceDiff.compare(try Self.trace(run), try Self.trace(run, upTo: 7, end: .interrupted))
        #expect(
            comparison
                == .identicalUntilInterrupted(
                    .init(records: 8, steps: 7, time: 7.0 / 120, interrupted: .b, otherEnd: .complete, otherSteps: 19)))
        #expect(comparison.description.hasSuffix("the first trace runs on to step 19 and ends \"complete\""))
    }

    @Test func aDifferenceUpToTheInterruptionIsStillADivergence() throws {
        let run = SampleRun(records: 20)
        var changed = run
        changed.records[5].states[2] = changed.records[5].states[2].nextUp
        let full = try Self.trace(run)
        let comparison = TraceDiff.compare(full, try Self.trace(changed, upTo: 7, end: .interrupted))
        guard case .diverged(.value(let d)) = comparison else {
            Issue.record("expected a value divergence, got \(comparison)")
            return
        }
        #expect(d.step == 5)
        // A run that completed early is no prefix: it ends before the other's records.
        #expect(!TraceDiff.compare(full, try Self.trace(run, upTo: 7, end: .complete)).agrees)
        // Nor is an interrupted run that went further than one that completed.
        #expect(!TraceDiff.compare(try Self.trace(run, upTo: 7), try Self.trace(run, end: .interrupted)).agrees)
        // Nor a run that ended in an error where the other was interrupted.
        #expect(!TraceDiff.compare(try Self.trace(run, end: .error), try Self.trace(run, end: .interrupted)).agrees)
        // Counters that differ at the same step are a divergence.
        let counted = try Self.trace(run, end: .complete, counters: [TraceCounter(name: "goals", value: 2)])
        let other = try Self.trace(run, end: .interrupted, counters: [TraceCounter(name: "goals", value: 3)])
        #expect(TraceDiff.compare(counted, other) == .diverged(.end(.counter(name: "goals", a: 2, b: 3))))
    }

    @Test func theComparisonReadOneRecordAtATimeAgreesWithTheOneInMemory() throws {
        let run = SampleRun(records: 20)
        let directory = try makeTemporaryDirectory()
        var paths: [String] = []
        for (name, upTo, end) in [("full", 19, TraceEndKind.complete), ("cut", 7, .interrupted)] {
            let trace = try Self.trace(run, upTo: upTo, end: end)
            let path = directory + "/\(name).jsonl"
            let writer = try TraceWriter(path: path, header: trace.header)
            for r in trace.records {
                try writer.writeRecord(step: r.step, t: r.t, gravity: r.gravity, states: r.states)
            }
            let e = try #require(trace.end)
            try writer.finish(
                e.kind == .complete
                    ? .complete(steps: e.steps, simTime: e.simTime, droppedTime: 0)
                    : .interrupted(steps: e.steps, simTime: e.simTime, droppedTime: 0))
            paths.append(path)
        }
        let streamed = try TraceDiff.compare(
            TraceStream(path: paths[0], verifyDigest: true), TraceStream(path: paths[1], verifyDigest: true))
        #expect(
            streamed
                == TraceDiff.compare(try TraceReader.read(path: paths[0]), try TraceReader.read(path: paths[1])))
        #expect(streamed.agrees && !streamed.isIdentical)
    }
}
