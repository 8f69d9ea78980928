import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// `TraceWriter` to a path ending in `.zst` and the readers on what it writes: the same
/// trace as the plain writer gives, read back through zstd, whatever the buffer size.
@Suite struct CompressedTraceWriterTests {
    /// zstd's frame magic number, `28 B5 2F FD`.
    static let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]

    @Test(arguments: [64 * 1024, 1, 300])
    func aCompressedTraceReadsBackAsThePlainTraceOfTheSameRecords(flushThreshold: Int) throws {
        let dir = try makeTemporaryDirectory()
        let run = SampleRun(bodies: 5, records: 200)
        try run.write(to: dir + "/t.jsonl", flushThreshold: flushThreshold)
        try run.write(to: dir + "/t.jsonl.zst", flushThreshold: flushThreshold)
        let packed = try fileBytes(dir + "/t.jsonl.zst")
        #expect(Array(packed.prefix(4)) == Self.magic)
        #expect(packed.count < (try fileBytes(dir + "/t.jsonl")).count)
        let plain = try TraceReader.read(path: dir + "/t.jsonl")
        let unpacked = try TraceReader.read(path: dir + "/t.jsonl.zst")
        #expect(unpacked == plain)
        #expect(unpacked.records.count == 200 && unpacked.end?.kind == .complete)
        // From bytes in memory too (the fuzz target's way in).
        #expect(try TraceReader.parse(packed, file: "t.jsonl.zst") == plain)
    }

    @Test func bytesWrittenIsTheCompressedFileSize() throws {
        let dir = try makeTemporaryDirectory()
        let path = dir + "/t.jsonl.zst"
        let run = SampleRun(bodies: 4, records: 50)
        let writer = try TraceWriter(path: path, header: run.header)
        for r in run.records { try writer.writeRecord(step: r.step, t: r.t, gravity: r.gravity, states: r.states) }
        try writer.finish(.complete(steps: 49, simTime: 49 * run.header.dt, droppedTime: 0))
        #expect(writer.bytesWritten == (try fileBytes(path)).count)
    }

    @Test func aWriterDroppedWithoutFinishLeavesAWholeFrameWithoutEndLine() throws {
        let dir = try makeTemporaryDirectory()
        let path = dir + "/t.jsonl.zst"
        let run = SampleRun(bodies: 3, records: 40)
        try run.write(to: path, finish: false, flushThreshold: 256)
        let trace = try TraceReader.read(path: path)
        #expect(trace.records.count == 40)
        #expect(trace.end == nil)
    }

    @Test func aPlainTraceNamedZstIsNotCompressedButStandardOutputNeverIs() {
        #expect(TraceByteSink.compresses("a/t.jsonl.zst"))
        #expect(TraceByteSink.compresses("-.zst"))
        #expect(!TraceByteSink.compresses("-"))
        #expect(!TraceByteSink.compresses("t.jsonl"))
        #expect(!TraceByteSink.compresses("t.zst.jsonl"))
    }

    @Test func damagedCompressedBytesInMemoryFailAtALine() throws {
        let dir = try makeTemporaryDirectory()
        try SampleRun(bodies: 3, records: 40).write(to: dir + "/t.jsonl.zst")
        let packed = try fileBytes(dir + "/t.jsonl.zst")
        do {
            _ = try TraceReader.parse(Array(packed.prefix(packed.count - 3)), file: "cut.jsonl.zst")
            Issue.record("a cut-off frame was read")
        } catch {
            #expect(error.file == "cut.jsonl.zst" && error.line != nil, "\(error)")
            #expect(error.reason.contains("cut off"), "\(error)")
        }
    }
}
