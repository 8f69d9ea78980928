import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Traces with thousands of events between two records, and end lines with long counters:
/// what `run` writes, every reader reads (docs/formats.md §3 and §8), and what the writer holds
/// between two far-apart records is bounded.
@Suite struct LongTraceTests {
    static let spawns = 10_000

    /// A trace of one crate, `spawns` balls spawned at step 0 and all of them removed at step 1,
    /// each group of events before the record that shows it.
    static func writeManyEvents(to path: String) throws -> TraceWriter {
        let header = TraceHeader(scenario: "many", spatialIndex: "bbtree", dt: 0.01, every: 1, bodies: ["c"])
        let writer = try TraceWriter(path: path, header: header)
        let ball = TraceEvent.Spawn(
            body: "", type: .dynamic, shapes: [.circle(radius: 1, offset: .zero)], size: Vec2(2, 2), mass: 1)
        for i in 0..<spawns {
            var spawn = ball
            spawn.body = "b\(i)"
            writer.writeEvent(TraceEvent(step: 0, t: 0, change: .spawn(spawn)))
        }
        try writer.writeRecord(
            step: 0, t: 0, gravity: Vec2(0, -980), states: [Double](repeating: 1, count: 6 * (spawns + 1)))
        for i in 0..<spawns {
            writer.writeEvent(TraceEvent(step: 1, t: 0.01, change: .remove(body: "b\(i)", reason: .timeline)))
        }
        try writer.writeRecord(step: 1, t: 0.01, gravity: Vec2(0, -980), states: [Double](repeating: 2, count: 6))
        try writer.finish(.complete(steps: 1, simTime: 0.01, droppedTime: 0))
        return writer
    }

    /// Before, the reader took each event line by calling itself again: 5 000 spawn events in a
    /// row overflowed the stack of `verify` and `render` (a crash, not an exit status).
    @Test func twentyThousandEventsInARowAreReadWithoutDeepening() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/many.jsonl"
        _ = try Self.writeManyEvents(to: path)
        let trace = try TraceReader.read(path: path)
        #expect(trace.records.count == 2)
        #expect(trace.events.count == 2 * Self.spawns)
        #expect(trace.events.prefix(Self.spawns).allSatisfy { $0.beforeRecord == 0 })
        #expect(trace.events.suffix(Self.spawns).allSatisfy { $0.beforeRecord == 1 })
        #expect(try TraceDiff.compare(TraceStream(path: path), TraceStream(path: path)).isIdentical)
    }

    /// Before, a block of the writer's pipeline held every event until the next record: with a
    /// large `--every` they grew without bound (2.5 GB reported).
    @Test func theWriterHoldsABoundedNumberOfEventsBetweenTwoRecords() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try Self.writeManyEvents(to: folder + "/many.jsonl")
        #expect(writer.peakHeldEvents > 0)
        #expect(writer.peakHeldEvents <= RecordPipeline.maximumEventsPerBlock)
        #expect(RecordPipeline.maximumEventsPerBlock * 10 < Self.spawns)
    }

    /// 600 balls, one spawned at each step (fast enough to clear the one before) and removed at the
    /// next, recorded at step 0 and at the end only: 1 200 events between two records.
    static let emitter: String = {
        var timeline = [
            #"{"t": 0, "every": 0.01, "count": 600, "spawn": {"id": "b", "position": [50, 50], "#
                + #""velocity": [0, 1000], "shapes": [{"circle": {"radius": 2}, "mass": 1}]}}"#
        ]
        for k in 0..<600 { timeline.append(#"{"t": \#(Double(k + 1) / 100), "remove": "b#\#(k)"}"#) }
        return #"{"format": "tiltbox-scenario/1", "world": {"size": [100, 100], "gravity": [0, 0]}, "#
            + #""timestep": {"hz": 100}, "duration": 6.01, "timeline": [\#(timeline.joined(separator: ","))]}"#
    }()

    /// Before, the session held every event until the next record it gave its sinks.
    @Test func aRunRecordedRarelyHandsItsEventsOverInBoundedGroups() throws {
        let scenario = try ScenarioLoader.parse(text: Self.emitter, file: "e.json", baseDirectory: nil)
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/e.jsonl"
        let session = try RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), every: 100_000,
            trace: RunSession.TraceOutput(path: path))
        while session.outcome == nil { try session.advance(frameDuration: 0.25) }
        _ = try session.finish()
        #expect(session.peakHeldEvents > 0)
        #expect(session.peakHeldEvents <= RunSession.maxHeldEvents + 2)
        let trace = try TraceReader.read(path: path)
        #expect(trace.records.map(\.step) == [0, 601])
        #expect(trace.events.count == 1200)
        // Step 0's spawn comes before record 0, everything else before the last record.
        #expect(trace.events.filter { $0.beforeRecord == 0 }.count == 1)
        #expect(trace.events.filter { $0.beforeRecord == 1 }.count == 1199)
    }

    /// The same run recorded at every step gives the same events and the same last record.
    @Test func eventsHandedOverInGroupsAreTheEventsOfARunRecordedAtEveryStep() throws {
        let scenario = try ScenarioLoader.parse(text: Self.emitter, file: "e.json", baseDirectory: nil)
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var traces: [Trace] = []
        for every in [1, 100_000] {
            let path = folder + "/e\(every).jsonl"
            let session = try RunSession(
                scenario: scenario, track: ConstantGravity(scenario.world.gravity), every: every,
                trace: RunSession.TraceOutput(path: path))
            while session.outcome == nil { try session.advance(frameDuration: 0.25) }
            _ = try session.finish()
            traces.append(try TraceReader.read(path: path))
        }
        #expect(traces[0].events.map(\.event) == traces[1].events.map(\.event))
        #expect(traces[0].records.last == traces[1].records.last)
    }

    /// Before, the end line was read with a record's bound (4 KiB and a little per body), so 64
    /// counters of long names made a trace no reader would take.
    @Test func anEndLineOfSixtyFourLongCountersIsReadBack() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/counters.jsonl"
        let header = TraceHeader(scenario: "c", spatialIndex: "bbtree", dt: 0.01, every: 1, bodies: ["c"])
        let writer = try TraceWriter(path: path, header: header)
        try writer.writeRecord(step: 0, t: 0, gravity: Vec2(0, -980), states: [Double](repeating: 1, count: 6))
        var end = TraceEnd.complete(steps: 0, simTime: 0, droppedTime: 0)
        end.counters = (0..<64).map { TraceCounter(name: String(repeating: "n", count: 15_000) + "\($0)", value: $0) }
        try writer.finish(end)
        let trace = try TraceReader.read(path: path)
        #expect(trace.end?.counters == end.counters)
        #expect(try TraceDiff.compare(TraceStream(path: path), TraceStream(path: path)).isIdentical)
    }

    /// An error's message on the end line is cut to a bounded length, so the line stays readable
    /// whatever the message names (a body of a very long id).
    @Test func anEndLinesMessageIsCutToItsBound() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/error.jsonl"
        let header = TraceHeader(scenario: "c", spatialIndex: "bbtree", dt: 0.01, every: 1, bodies: ["c"])
        let writer = try TraceWriter(path: path, header: header)
        try writer.writeRecord(step: 0, t: 0, gravity: Vec2(0, -980), states: [Double](repeating: 1, count: 6))
        let message = "body \"" + String(repeating: "\u{1}", count: 200_000) + "\" diverged"
        try writer.finish(.error(message, steps: 0, simTime: 0, droppedTime: 0))
        let trace = try TraceReader.read(path: path)
        let read = try #require(trace.end?.message)
        #expect(read.unicodeScalars.count == TraceEnd.maxMessageScalars)
        #expect(read.hasSuffix("…") && read.hasPrefix("body \""))
    }
}
