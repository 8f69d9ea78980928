import Foundation
import Testing

/// Physics is the same whatever clock feeds the accumulator (docs/formats.md §4).
@Suite struct FrameProfileTests {
    @Test func frameProfilesGiveByteIdenticalTraceRecords() throws {
        let directory = try TemporaryDirectory()
        // Uneven frames, including zero-length and longer-than-the-cap ones.
        let frameFile = try directory.write(
            "frames.txt",
            """
            # frame durations in seconds
            0.016
            0.001
            0
            0.05
            0.0333
            0.2
            0.004

            """)
        let profiles = ["steady:60", "steady:30", "jitter:60:7", "stall:60:1:0.5", "file:\(frameFile)"]
        var traces: [(profile: String, lines: [String], end: [String: Any])] = []
        for (index, profile) in profiles.enumerated() {
            let trace = directory.path("trace-\(index).jsonl")
            let result = try TiltboxBinary.run(
                ["run", PackageFiles.scenario("book.json"), "--frames", profile, "--trace", trace], in: directory)
            #expect(result.status == 0, "--frames \(profile) exited \(result.status): \(result.stderr)")
            let lines = try JSONLines.lines(file: trace)
            let end = try #require(JSONLines.objects(lines.last ?? "", source: "\(profile) end line").first)
            traces.append((profile, lines, end))
        }
        let reference = traces[0]
        #expect(reference.lines.count == 1203, "header, 1201 records, end line")
        for other in traces.dropFirst() {
            #expect(other.lines.count == reference.lines.count, "--frames \(other.profile): \(other.lines.count) lines")
            let body = zip(reference.lines.dropLast(), other.lines.dropLast())
            if let (index, pair) = body.enumerated().first(where: { $0.element.0 != $0.element.1 }) {
                Issue.record(
                    "--frames \(other.profile) differs from \(reference.profile) at line \(index + 1):\n\(pair.0.prefix(160))\n\(pair.1.prefix(160))"
                )
            }
            #expect(other.end["end"] as? String == "complete")
            #expect(other.end["digest"] as? String == reference.end["digest"] as? String, "--frames \(other.profile)")
            #expect(
                JSONLines.number(other.end["steps"]) == JSONLines.number(reference.end["steps"]),
                "--frames \(other.profile)")
        }
        // The stall drops time (0.5 s owed, 8 steps allowed per frame), the steady clock none.
        #expect(JSONLines.number(reference.end["droppedTime"]) == 0)
        let stall = try #require(traces.first { $0.profile.hasPrefix("stall") })
        #expect((JSONLines.number(stall.end["droppedTime"]) ?? 0) > 0.4, "stall end line: \(stall.end)")
    }
}
