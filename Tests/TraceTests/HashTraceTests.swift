import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Hash traces (`run --hashes`): records carry the FNV-1a 64 of their values instead of them.
@Suite struct HashTraceTests {
    private func write(_ run: SampleRun, hashes: Bool, name: String) throws -> String {
        var run = run
        run.header.records = hashes ? .hashes : .states
        let path = try makeTemporaryDirectory() + "/" + name + ".jsonl"
        try run.write(to: path)
        return path
    }

    @Test func eachRecordCarriesTheHashOfTheBytesTheDigestAdds() throws {
        let run = SampleRun(bodies: 3, records: 12)
        let trace = try TraceReader.read(path: try write(run, hashes: true, name: "h"))
        #expect(trace.header.records == .hashes)
        #expect(trace.records.count == 12)
        for (read, written) in zip(trace.records, run.records) {
            #expect(read.states.isEmpty)
            #expect(read.hash == TraceDigest.ofRecord(gravity: written.gravity, states: written.states).value)
            var digest = TraceDigest()
            digest.add(written.gravity.x)
            digest.add(written.gravity.y)
            for value in written.states { digest.add(value) }
            #expect(read.hash == digest.value)
        }
        // The end digest is the full trace's.
        let full = try TraceReader.read(path: try write(run, hashes: false, name: "f"))
        #expect(trace.end?.digest == full.end?.digest)
    }

    @Test func theHeaderSaysRecordsHashesOnlyForAHashTrace() {
        var header = SampleRun().header
        #expect(!header.jsonLine.contains("records"))
        header.records = .hashes
        #expect(header.jsonLine.contains(#""bodies":["g0_0","g0_1","g0_2"],"records":"hashes"}"#))
    }

    @Test func aFullTraceAndAHashTraceOfTheSameRecordsAreIdentical() throws {
        let run = SampleRun(bodies: 4, records: 30)
        let full = try TraceReader.read(path: try write(run, hashes: false, name: "f"))
        let hashed = try TraceReader.read(path: try write(run, hashes: true, name: "h"))
        #expect(TraceDiff.compare(full, hashed) == .identical(records: 30))
        #expect(TraceDiff.compare(hashed, full) == .identical(records: 30))
        #expect(TraceDiff.compare(hashed, hashed) == .identical(records: 30))
    }

    @Test func aOneULPChangeIsFoundAtItsRecordWithoutAField() throws {
        let run = SampleRun(bodies: 4, records: 30)
        var changed = run
        changed.records[17].states[9] = changed.records[17].states[9].nextUp
        let hashed = try TraceReader.read(path: try write(run, hashes: true, name: "h"))
        let other = try TraceReader.read(path: try write(changed, hashes: false, name: "c"))
        let expected = TraceDivergence.recordHash(
            step: 17, time: run.records[17].t, a: hashed.records[17].hash ?? 0,
            b: TraceDigest.ofRecord(gravity: changed.records[17].gravity, states: changed.records[17].states).value)
        #expect(TraceDiff.compare(hashed, other) == .diverged(expected))
        #expect(TraceDiff.compare(hashed, other).description.hasPrefix("first divergence at step 17 (t = "))
    }

    @Test func aBadHashOrRecordFormIsALocatedError() throws {
        var lines = SampleRun(records: 2).header
        lines.records = .hashes
        let header = lines.jsonLine
        let bad = header + #"{"step":0,"t":0,"g":[0,-980],"h":"fnv1a64:XYZ"}"# + "\n"
        #expect(throws: InputError.self) { try TraceReader.parse(Array(bad.utf8), file: "bad.jsonl") }
        let form = header.replacingOccurrences(of: #""records":"hashes""#, with: #""records":"sums""#)
        do {
            _ = try TraceReader.parse(Array(form.utf8), file: "form.jsonl")
            Issue.record("an unknown record form was accepted")
        } catch {
            #expect(error.path == "records")
        }
    }
}
