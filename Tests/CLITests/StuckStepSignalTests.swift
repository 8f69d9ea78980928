import Foundation
import Testing
@_spi(Tools) import Tiltbox

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A signal ends a run even when the run is stuck inside one physics step that would take
/// minutes: the interrupt watchdog closes the trace (`interrupted`, over the records written),
/// publishes it and exits 128 + signal; `batch` holding such a job stops too.
@Suite struct StuckStepSignalTests {
    /// 3 000 crates in 15 rings of 200, each crate flying at its ring's centre fast enough to
    /// reach it in one step, solved with 1 000 iterations: no crates overlap at t = 0, so the
    /// overlap limit does not apply, but step 1 piles 15 × 19 900 overlapping pairs, which
    /// Chipmunk takes minutes to solve (several minutes for one step of the debug build on
    /// 2 cores). A record of 3 000 crates fills a writer block by itself, so step 0 reaches
    /// the temporary trace before step 1 starts: the event the tests wait for.
    static func stuckScenario(in directory: TemporaryDirectory, name: String = "stuck.json") throws -> String {
        let radius = 600.0, dt = 1.0 / 120, perRing = 200
        var crates: [String] = []
        for ring in 0..<15 {
            let cx = 1000.0 + Double(ring % 10) * 1500, cy = 1000.0 + Double(ring / 10) * 1500
            for i in 0..<perRing {
                let a = 2 * Double.pi * Double(i) / Double(perRing)
                let x = cx + radius * cos(a), y = cy + radius * sin(a)
                crates.append(
                    #"{"id": "r\#(ring)-\#(i)", "position": [\#(x), \#(y)], "size": [10, 10], "mass": 1, "velocity": [\#((cx - x) / dt), \#((cy - y) / dt)]}"#
                )
            }
        }
        return try directory.write(
            name,
            """
            {"format": "tiltbox-scenario/1", "name": "stuck",
             "world": {"size": [20000, 20000], "gravity": [0, 0], "iterations": 1000},
             "duration": 10,
             "crates": [\(crates.joined(separator: ",\n"))]}
            """)
    }

    /// The temporary files of atomic outputs (`.NAME.tiltbox-XXXXXX`) in `directory`.
    static func temporaries(in directory: TemporaryDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []).filter {
            $0.contains(".tiltbox-")
        }
    }

    /// True once a temporary trace of `trace` in `directory` holds the whole step 0 record.
    static func stepZeroWritten(_ directory: TemporaryDirectory, trace: String) -> Bool {
        for name in Patience.names(in: directory, startingWith: ".\(trace).tiltbox-") {
            guard let data = FileManager.default.contents(atPath: directory.path(name)) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            if text.components(separatedBy: "\n").dropFirst().contains(where: {
                $0.hasPrefix("{\"step\":0,") && $0.hasSuffix("}")
            }) {
                return true
            }
        }
        return false
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalEndsARunStuckInsideOneStep(signal: Int32, status: Int32) throws {
        let directory = try TemporaryDirectory()
        let scenario = try Self.stuckScenario(in: directory)
        let trace = directory.path("stuck.jsonl")
        let out = directory.url.appendingPathComponent("stdout"), err = directory.url.appendingPathComponent("stderr")
        let process = try TiltboxBinary.start(
            ["run", scenario, "--trace", trace, "--view", "none"], stdout: out, stderr: err)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        Patience.wait(interval: 0.05) { Self.stepZeroWritten(directory, trace: "stuck.jsonl") || !process.isRunning }
        try #require(
            process.isRunning, "tiltbox ended before the signal: \((try? JSONLines.text(file: err.path)) ?? "")")
        try #require(Self.stepZeroWritten(directory, trace: "stuck.jsonl"), "step 0 never reached the temporary trace")
        // Step 0 is on disk, so the run is inside step 1 (or just about to be): a step of minutes.
        kill(process.processIdentifier, signal)

        try #require(process.waitForExit("after signal \(signal)"), "a run stuck in a step ignored signal \(signal)")
        let stderr = (try? JSONLines.text(file: err.path)) ?? ""
        #expect(process.terminationReason == .exit, "tiltbox died of the signal instead of exiting")
        #expect(process.terminationStatus == status, "exit status \(process.terminationStatus); stderr: \(stderr)")
        // It was the watchdog, not the loop (which would only see the signal after step 1).
        #expect(stderr.contains("step 1 did not return within 1 s"), "stderr: \(stderr)")

        let text = try JSONLines.text(file: trace)
        #expect(text.hasSuffix("\n"), "the trace ends in a half-written line")
        let lines = TiltboxBinary.Result.lines(text)
        #expect(lines.count == 3, "header, step 0 and the end line; got \(lines.count) lines")
        #expect(
            lines.last?.hasPrefix(#"{"end":"interrupted","steps":0,"simTime":0,"droppedTime":0,"digest":"fnv1a64:"#)
                == true,
            "end line: \(lines.last ?? "")")
        // The library's reader checks every line and the end line's digest against the records.
        let read = try TraceReader.read(path: trace)
        #expect(read.records.count == 1)
        #expect(Self.temporaries(in: directory).isEmpty, "temporary files left: \(Self.temporaries(in: directory))")
    }

    @Test func ctrlCStopsABatchWhoseJobIsStuckInsideOneStepAndKeepsTheFinishedResults() throws {
        let directory = try TemporaryDirectory()
        _ = try Self.stuckScenario(in: directory)
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("bounce.json"), toPath: directory.path("bounce.json"))
        try directory.write(
            "m.json",
            """
            { "format": "tiltbox-batch/1",
              "jobs": [
                { "name": "quick", "run": "bounce.json", "duration": 0.25 },
                { "name": "stuck", "run": "stuck.json", "trace": "stuck.jsonl" }
              ] }
            """)
        let out = directory.url.appendingPathComponent("batch.stdout"),
            err = directory.url.appendingPathComponent("batch.stderr")
        // One job at a time: the stuck job starts only once the quick one's result is recorded.
        let batch = try TiltboxBinary.start(
            ["batch", directory.path("m.json"), "--jobs", "1", "--json", directory.path("r.json")],
            stdout: out, stderr: err)
        defer { if batch.isRunning { kill(batch.processIdentifier, SIGKILL) } }

        Patience.wait(interval: 0.05) { Self.stepZeroWritten(directory, trace: "stuck.jsonl") || !batch.isRunning }
        try #require(
            batch.isRunning, "the batch ended before the signal: \((try? JSONLines.text(file: err.path)) ?? "")")
        try #require(Self.stepZeroWritten(directory, trace: "stuck.jsonl"), "the stuck job never wrote step 0")
        batch.interrupt()

        try #require(batch.waitForExit("after Ctrl-C"), "a batch with a job stuck in a step ignored Ctrl-C")
        let stdout = (try? JSONLines.text(file: out.path)) ?? ""
        #expect(batch.terminationReason == .exit)
        #expect(batch.terminationStatus == 130, "exit \(batch.terminationStatus); stdout: \(stdout)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory.path("r.json"))))
                as? [String: Any])
        let jobs = try #require(summary["jobs"] as? [[String: Any]])
        #expect(jobs.map { $0["name"] as? String } == ["quick"], "results: \(jobs)")
        #expect(jobs.first?["status"] as? String == "passed")
        #expect(stdout.contains("1 not finished (interrupted)"), "stdout: \(stdout)")
        // The stuck child's own watchdog closed its trace as interrupted.
        let text = try JSONLines.text(file: directory.path("stuck.jsonl"))
        #expect(TiltboxBinary.Result.lines(text).last?.hasPrefix(#"{"end":"interrupted","steps":0,"#) == true)
        #expect(Self.temporaries(in: directory).isEmpty, "temporary files left: \(Self.temporaries(in: directory))")
    }
}
