import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Event lines (docs/formats.md §8, "Trace") written by a run of a timeline, read back, and
/// compared by `diff`: records list the bodies present, events come before the first record
/// that shows them whatever `every` is, and a differing event is a divergence.
@Suite struct TraceEventTests {
    static let text = #"""
        {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "timestep": {"hz": 10}, "duration": 1,
         "crates": [{"id": "c", "position": [100, 100]}],
         "timeline": [
           {"t": 0, "every": 0.2, "count": 3,
            "spawn": {"id": "ball", "position": [240, 300], "shapes": [{"circle": {"radius": 8}, "mass": 1}]}},
           {"t": 0.3, "joint": {"id": "p", "pivot": {"a": "ball#0", "b": "static", "anchor": [240, 300]}}},
           {"t": 0.4, "impulse": {"body": "ball#1", "impulse": [0, 100]}},
           {"t": 0.5, "removeJoint": "p"},
           {"t": 0.6, "remove": ["ball#0", "c"]},
           {"t": 0.7, "set": {"body": "ball#2", "position": [50, 50], "velocity": [0, 0]}}
         ]}
        """#

    static func scenario() throws -> Scenario {
        try ScenarioLoader.parse(text: text, file: "t.json", baseDirectory: nil)
    }

    /// Runs the scenario to its end, writing its trace to `path`.
    static func run(to path: String, every: Int = 1, hashes: Bool = false) throws -> RunSummary {
        let scenario = try scenario()
        let session = try RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), every: every,
            trace: RunSession.TraceOutput(path: path, hashes: hashes))
        while session.outcome == nil { try session.advance(frameDuration: 0.25) }
        return try session.finish()
    }

    @Test func recordsListTheBodiesPresentAndEventsComeBeforeTheFirstRecordThatShowsThem() throws {
        let dir = try makeTemporaryDirectory()
        _ = try Self.run(to: dir + "/t.jsonl")
        let trace = try TraceReader.read(path: dir + "/t.jsonl")
        #expect(trace.header.bodies == ["c"])
        #expect(
            trace.events.map { "\($0.event.change.name) \($0.event.step) before \($0.beforeRecord)" } == [
                "spawn 0 before 0", "spawn 2 before 2", "joint 3 before 3", "spawn 4 before 4",
                "removeJoint 5 before 5",
                "remove 6 before 6", "remove 6 before 6",
            ])
        let bodies = trace.bodiesOfRecords
        #expect(bodies[0] == ["c", "ball#0"])
        #expect(bodies[4] == ["c", "ball#0", "ball#1", "ball#2"])
        #expect(bodies[6] == ["ball#1", "ball#2"])
        for (record, ids) in zip(trace.records, bodies) { #expect(record.states.count == ids.count * 6) }
        #expect(trace.records[7].crateState(at: 1).position == Vec2(50, 50)) // ball#2 set at step 7
        let lines = try fileLines(dir + "/t.jsonl")
        #expect(
            lines.contains(#"{"event":"remove","step":6,"t":0.6000000000000001,"body":"c","reason":"timeline"}"#))
        #expect(
            lines.contains(
                #"{"event":"spawn","step":0,"t":0,"body":"ball#0","type":"dynamic","shapes":[{"circle":{"radius":8,"offset":[0,0]}}],"size":[16,16],"mass":1}"#
            ))
        #expect(
            lines.contains(
                #"{"event":"joint","step":3,"t":0.30000000000000004,"joint":{"id":"p","kind":"pivot","a":"ball#0","b":"static","anchorA":[0,29.400000000000034],"anchorB":[240,300]}}"#
            ))
    }

    @Test func eventsAreNeverSkippedWithEveryAndTheDigestCoversTheRecordsOnly() throws {
        let dir = try makeTemporaryDirectory()
        let all = try Self.run(to: dir + "/1.jsonl")
        _ = try Self.run(to: dir + "/4.jsonl", every: 4)
        let hashed = try Self.run(to: dir + "/h.jsonl", hashes: true)
        let one = try TraceReader.read(path: dir + "/1.jsonl")
        let four = try TraceReader.read(path: dir + "/4.jsonl")
        let hash = try TraceReader.read(path: dir + "/h.jsonl")
        #expect(four.records.map(\.step) == [0, 4, 8, 10])
        #expect(four.events.map(\.event) == one.events.map(\.event))
        // Each event before the first record (of the trace) at or after its step.
        #expect(four.events.map(\.beforeRecord) == [0, 1, 1, 1, 2, 2, 2])
        #expect(hash.events == one.events)
        #expect(hashed.digest == all.digest)
        #expect(one.end?.digest == one.recordsDigest.text)
        // Records of states and of hashes agree, bodies present included.
        #expect(TraceDiff.compare(one, hash).isIdentical)
    }

    @Test func aDifferingEventIsTheFirstDivergenceNamedWithItsStep() throws {
        let dir = try makeTemporaryDirectory()
        _ = try Self.run(to: dir + "/a.jsonl")
        let a = try TraceReader.read(path: dir + "/a.jsonl")
        #expect(TraceDiff.compare(a, a).description == "identical (11 records)")
        var b = a
        b.events[5].event.change = .remove(body: "ball#0", reason: .cull)
        #expect(
            TraceDiff.compare(a, b).description
                == #"first divergence at step 6 (t = 0.6000000000000001): the events differ: the first trace {"event":"remove","step":6,"t":0.6000000000000001,"body":"ball#0","reason":"timeline"}, the second trace {"event":"remove","step":6,"t":0.6000000000000001,"body":"ball#0","reason":"cull"}"#
        )
        var c = a
        c.events.remove(at: 3)
        #expect(
            TraceDiff.compare(a, c).description
                == #"first divergence at step 4 (t = 0.4): the second trace lacks the event {"event":"spawn","step":4,"t":0.4,"body":"ball#2","type":"dynamic","shapes":[{"circle":{"radius":8,"offset":[0,0]}}],"size":[16,16],"mass":1}"#
        )
        // Streams read from files give the same first divergence.
        let text = try String(contentsOfFile: dir + "/a.jsonl", encoding: .utf8)
        try text.replacingOccurrences(of: #""reason":"timeline"}"#, with: #""reason":"rule"}"#)
            .write(toFile: dir + "/b.jsonl", atomically: true, encoding: .utf8)
        let streamed = try TraceDiff.compare(TraceStream(path: dir + "/a.jsonl"), TraceStream(path: dir + "/b.jsonl"))
        guard case .diverged(.event(let step, _, _, let eventB?)) = streamed else {
            Issue.record("expected an event divergence, got \(streamed)")
            return
        }
        #expect(step == 6 && eventB.change == .remove(body: "ball#0", reason: .rule))
    }

    @Test func theReaderRefusesRecordsAndEventsThatDoNotFitTheBodiesPresent() throws {
        let dir = try makeTemporaryDirectory()
        _ = try Self.run(to: dir + "/a.jsonl")
        let lines = try fileLines(dir + "/a.jsonl")
        func refusal(_ edit: ([String]) -> [String]) throws -> String {
            let text = edit(lines).joined(separator: "\n") + "\n"
            do {
                _ = try TraceReader.parse(Array(text.utf8), file: "x.jsonl", verifyDigest: false)
                return "read"
            } catch {
                return error.description
            }
        }
        // Without the first spawn, record 0 lists a body too many.
        #expect(
            try refusal { Array($0.enumerated().filter { $0.offset != 1 }.map(\.element)) }
                == "x.jsonl:2:34: s: record has 2 bodies, header lists 1")
        // A removal of a body that is not present.
        #expect(
            try refusal {
                $0.map { $0.replacingOccurrences(of: #""body":"c","reason""#, with: #""body":"d","reason""#) }
            }
                == #"x.jsonl:14:58: body: no body "d" is present at this event"#)
        #expect(
            try refusal {
                $0.map { $0.replacingOccurrences(of: #"{"event":"removeJoint""#, with: #"{"event":"unjoin""#) }
            }
                == #"x.jsonl:11:10: event: unknown event "unjoin" (expected spawn, remove, joint, removeJoint, skipped, begin, separate)"#
        )
    }

    @Test func removalsByARuleAndByCullingComeBeforeTheFirstRecordWithoutTheBody() throws {
        let dir = try makeTemporaryDirectory()
        // A ball falls onto a floor whose rule removes it twice (the second does nothing) and
        // pushes it (skipped: it is gone); a fast ball leaves the top of the world and is culled.
        let scenario = try ScenarioLoader.parse(
            text: #"""
                {"format": "tiltbox-scenario/1", "world": {"size": [480, 320], "cull": {"margin": 10}}, "duration": 1,
                 "walls": {"box": false},
                 "segments": [{"from": [0, 10], "to": [480, 10], "collisionType": "floor"}],
                 "bodies": [
                   {"id": "ball", "position": [100, 40], "shapes": [{"circle": {"radius": 8}, "mass": 1, "collisionType": "ball"}]},
                   {"id": "flyer", "position": [240, 300], "velocity": [0, 4000], "shapes": [{"circle": {"radius": 5}, "mass": 1}]}],
                 "rules": [{"on": "begin", "between": ["ball", "floor"],
                            "do": [{"remove": "a"}, {"remove": "a"}, {"impulse": {"body": "a", "impulse": [0, 1]}}]}]}
                """#, file: "r.json", baseDirectory: nil)
        let session = try RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity),
            trace: RunSession.TraceOutput(path: dir + "/r.jsonl"))
        while session.outcome == nil { try session.advance(frameDuration: 0.25) }
        _ = try session.finish()
        let trace = try TraceReader.read(path: dir + "/r.jsonl")
        var removals: [String: String] = [:]
        var skipped: [Int] = []
        for located in trace.events {
            switch located.event.change {
            case .remove(let body, let reason):
                removals[body] = reason.rawValue
                // Made after step n − 1's cpSpaceStep, they belong to record n: the first without the body.
                #expect(located.event.step == located.beforeRecord)
                #expect(!trace.bodiesOfRecords[located.beforeRecord].contains(body))
                #expect(trace.bodiesOfRecords[located.beforeRecord - 1].contains(body))
            case .skipped(_, let body):
                #expect(body == "ball")
                skipped.append(located.event.step)
            default:
                break
            }
        }
        #expect(removals == ["ball": "rule", "flyer": "cull"])
        #expect(skipped.count == 1)
        #expect(trace.bodiesOfRecords.last == [])
    }
}
