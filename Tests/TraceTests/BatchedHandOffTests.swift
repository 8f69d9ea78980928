import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The writer thread takes records in blocks (`RecordPipeline`): whatever the block
/// boundaries, the bytes are those of encoding every record in order on one thread, and
/// a trace ended mid-block still holds every record and a valid end line.
@Suite struct BatchedHandOffTests {
    /// The trace as a plain serial encoding gives it: the same encoder driven inline, on
    /// this thread, one record after the other (no pipeline).
    private func serialEncoding(of run: SampleRun, end: TraceEnd, to path: String) throws -> [UInt8] {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        let encoder = TraceEncoder(
            header: run.header, path: path, sink: try TraceByteSink(fd: fd, compressed: false), canCutBack: false,
            flushThreshold: 64 * 1024)
        encoder.appendHeader()
        for r in run.records {
            r.states.withUnsafeBufferPointer {
                encoder.appendRecord(step: r.step, t: r.t, gravity: r.gravity, states: $0)
            }
        }
        encoder.appendEnd(end)
        try encoder.flush()
        close(fd)
        return try fileBytes(path)
    }

    /// Record counts around the block size and past the ring's wrap-around, for `bodies`.
    private func recordCounts(bodies: Int) -> [Int] {
        let perBlock = max(
            1, min(RecordPipeline.maximumRecordsPerBlock, RecordPipeline.blockBytes / (8 * (3 + 6 * bodies))))
        let ring = perBlock * RecordPipeline.depth
        return [0, 1, perBlock - 1, perBlock, perBlock + 1, ring - 1, ring, ring + 1, 3 * ring + perBlock / 2]
            .filter { $0 >= 0 }
    }

    private enum Kind: CaseIterable { case full, every7, hashes }

    private func run(_ kind: Kind, bodies: Int, records: Int) -> SampleRun {
        var run = SampleRun(
            bodies: bodies, records: records, seed: UInt64(records * 31 + bodies), every: kind == .every7 ? 7 : 1)
        if kind == .hashes { run.header.records = .hashes }
        return run
    }

    @Test(arguments: [1, 3, 900])
    func everyTraceVariantIsByteForByteTheSerialEncoding(bodies: Int) throws {
        let dir = try makeTemporaryDirectory()
        for kind in Kind.allCases {
            for count in recordCounts(bodies: bodies) {
                let run = run(kind, bodies: bodies, records: count)
                let last = run.records.last?.step ?? 0
                let end = TraceEnd.complete(steps: last, simTime: Double(last) * run.header.dt, droppedTime: 0)
                let batched = dir + "/batched.jsonl"
                try run.write(to: batched)
                let reference = try serialEncoding(of: run, end: end, to: dir + "/serial.jsonl")
                let bytes = try fileBytes(batched)
                #expect(
                    bytes == reference,
                    "\(kind), \(bodies) bodies, \(count) records: \(bytes.count) vs \(reference.count) bytes")
            }
        }
    }

    @Test func readingTheDigestOrFlushingMidBlockChangesNoByte() throws {
        let dir = try makeTemporaryDirectory()
        let run = SampleRun(bodies: 2, records: 500, seed: 7)
        let writer = try TraceWriter(path: dir + "/probed.jsonl", header: run.header)
        var serialDigest = TraceDigest()
        for (i, r) in run.records.enumerated() {
            try writer.writeRecord(step: r.step, t: r.t, gravity: r.gravity, states: r.states)
            r.states.withUnsafeBufferPointer { serialDigest.addRecord(gravity: r.gravity, states: $0) }
            // Every few records, at all sorts of places inside a block: the writer must
            // hand over what it holds and catch up.
            if i % 13 == 5 {
                #expect(writer.recordCount == i + 1)
                #expect(writer.digestValue == serialDigest)
            }
            if i % 29 == 3 { try writer.flush() }
        }
        let end = TraceEnd.complete(
            steps: run.records.count - 1, simTime: Double(run.records.count - 1) * run.header.dt, droppedTime: 0)
        try writer.finish(end)
        #expect(
            try fileBytes(dir + "/probed.jsonl") == (try serialEncoding(of: run, end: end, to: dir + "/serial.jsonl")))
    }

    @Test func aFlushHandsOverAPartBlockSoAReaderSeesEveryRecordSoFar() throws {
        let dir = try makeTemporaryDirectory()
        let run = SampleRun(bodies: 3, records: 5)
        let writer = try TraceWriter(path: dir + "/live.jsonl", header: run.header)
        for r in run.records { try writer.writeRecord(step: r.step, t: r.t, gravity: r.gravity, states: r.states) }
        try writer.flush()
        // The trace is written under a temporary name beside its path until `finish`.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        let temporary = try #require(names.first { $0.hasPrefix(".live.jsonl.tiltbox-") }, "\(names)")
        let lines = try fileLines(dir + "/" + temporary)
        #expect(lines.count == 6, "the header and the 5 records, handed to the system before the block is full")
        #expect(lines.last?.hasPrefix(#"{"step":4,"#) == true)
        try writer.finish(.interrupted(steps: 4, simTime: 4 * run.header.dt, droppedTime: 0))
        #expect(try TraceReader.read(path: dir + "/live.jsonl").records.count == 5)
    }

    @Test func aRunInterruptedMidBlockRecordsEveryStepAndEndsInAValidLine() throws {
        let dir = try makeTemporaryDirectory()
        let scenario = BenchmarkPile.scenario(n: 20)
        let path = dir + "/interrupted.jsonl"
        let session = try RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), totalSteps: 10_000,
            trace: .init(path: path))
        // About 46 records (steps 0...45): one block of 32 for 20 crates, and the rest in the next.
        while session.stepCount < 45 { try session.advance(frameDuration: scenario.timestep.dt) }
        session.interrupt()
        #expect(session.outcome == .interrupted)
        let summary = try session.finish()
        let trace = try TraceReader.read(path: path)
        #expect(trace.end?.kind == .interrupted)
        #expect(trace.end?.steps == summary.steps)
        #expect(trace.records.map(\.step) == Array(0...summary.steps))
        #expect(summary.steps >= 45 && (summary.steps + 1) % 32 != 0)
        let lines = try fileLines(path)
        #expect(lines.count == summary.steps + 3, "header, one record per step, end line")
    }
}
