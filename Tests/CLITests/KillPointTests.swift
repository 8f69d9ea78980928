import Foundation
import Testing

/// Output that is never lost: runs interrupted or killed at random moments always leave a
/// readable trace at the target path — the new one, properly closed, or the old one intact.
@Suite(.serialized) struct KillPointTests {
    /// Every line parses as JSON and the last one is an end line; returns that end line.
    static func validTraceEnd(_ path: String) throws -> [String: Any] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"), "the trace ends with a whole line")
        let objects = JSONLines.objects(text, source: path)
        let end = try #require(objects.last, "empty trace")
        #expect(end["end"] != nil, "the last line is an end line: \(end)")
        #expect(objects.first?["format"] as? String == "tiltbox-trace/1")
        return end
    }

    /// A deterministic spread of kill moments (a small LCG, seeded).
    static func killDelays(count: Int, seed: UInt64, upTo limit: Double) -> [Double] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * limit
        }
    }

    @Test func twentyRandomKillPointsLeaveAValidTrace() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("pile.jsonl")
        let scenario = PackageFiles.scenario("pile-100.json")
        let first = try TiltboxBinary.run(["run", scenario, "--trace", trace, "--duration", "1"], in: directory)
        try #require(first.status == 0, "\(first.stderr)")
        var outcomes: [String: Int] = [:]
        for (i, delay) in Self.killDelays(count: 20, seed: 20_261_123, upTo: 1.2).enumerated() {
            let before = try Data(contentsOf: URL(fileURLWithPath: trace))
            let out = directory.url.appendingPathComponent("kill\(i).out"),
                err = directory.url.appendingPathComponent("kill\(i).err")
            // A run that cannot finish before the kill, however fast the machine.
            let process = try TiltboxBinary.start(
                [
                    "run", scenario, "--trace", trace, "--duration", Patience.unfinishableDuration,
                    "--every", "4",
                ], stdout: out, stderr: err)
            // Half the kills count their delay from the moment the run has installed its
            // handler and opened its temporary trace (so they land mid-run however loaded
            // the machine is); the other half from the start, which may come before that.
            let afterStart = i % 4 == 1 || i % 4 == 2
            if afterStart {
                let writing = Patience.wait(interval: 0.005) {
                    !process.isRunning || !Patience.names(in: directory, startingWith: ".pile.jsonl.tiltbox-").isEmpty
                }
                #expect(writing && process.isRunning, "kill \(i): the run never started writing its trace")
            }
            Thread.sleep(forTimeInterval: delay) // where the kill lands: the spread this test is about
            if i % 2 == 0 { process.interrupt() } else { process.terminate() }
            process.waitForExit("after kill \(i)")
            let after = try Data(contentsOf: URL(fileURLWithPath: trace))
            let end = try Self.validTraceEnd(trace)
            switch (process.terminationReason, process.terminationStatus) {
            case (.exit, 130) where i % 2 == 0, (.exit, 143) where i % 2 == 1:
                #expect(end["end"] as? String == "interrupted", "kill \(i) at \(delay) s: \(end)")
                outcomes["interrupted", default: 0] += 1
            case (.uncaughtSignal, _) where !afterStart:
                // Killed before the run installed its handler: the old trace is untouched.
                #expect(after == before, "kill \(i) at \(delay) s: the previous trace changed")
                outcomes["before the run", default: 0] += 1
            default:
                Issue.record(
                    "kill \(i) at \(delay) s: unexpected exit \(process.terminationReason) \(process.terminationStatus): \(String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self))"
                )
            }
        }
        // Every kill timed from the run's start of writing lands mid-run (the run cannot end
        // before the latest kill), so at least those ten end "interrupted".
        #expect(outcomes["interrupted", default: 0] >= 10, "\(outcomes)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
            $0.contains(".tiltbox-")
        }
        #expect(leftovers.isEmpty, "temporary files left behind: \(leftovers)")
    }

    @Test func aRunKilledOutrightLeavesThePreviousTraceIntact() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("pile.jsonl")
        let scenario = PackageFiles.scenario("pile-100.json")
        let first = try TiltboxBinary.run(["run", scenario, "--trace", trace, "--duration", "1"], in: directory)
        try #require(first.status == 0, "\(first.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: trace))
        let out = directory.url.appendingPathComponent("k.out"), err = directory.url.appendingPathComponent("k.err")
        let process = try TiltboxBinary.start(
            ["run", scenario, "--trace", trace, "--duration", Patience.unfinishableDuration],
            stdout: out, stderr: err)
        // Wait until the new run has written well past its 64 KiB buffer, then SIGKILL it.
        var temporary: String?
        Patience.wait(interval: 0.02) {
            temporary = Patience.names(in: directory, startingWith: ".pile.jsonl.tiltbox-").first { name in
                ((try? FileManager.default.attributesOfItem(atPath: directory.path(name)))?[.size] as? Int ?? 0)
                    > 200_000
            }
            return temporary != nil || !process.isRunning
        }
        #expect(process.isRunning, "the run ended before it was killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitForExit("after SIGKILL")
        #expect(temporary != nil, "the new trace is written beside the target under a temporary name")
        let after = try Data(contentsOf: URL(fileURLWithPath: trace))
        #expect(after == before, "the previous trace was overwritten by a run that never finished")
        #expect((try Self.validTraceEnd(trace))["end"] as? String == "complete")
    }
}
