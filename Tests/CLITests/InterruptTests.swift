import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C and SIGTERM in the middle of a long run: the trace is flushed and closed with
/// an `interrupted` end line, never a half-written line, and the exit status is 130 after
/// SIGINT and 143 after SIGTERM.
@Suite struct InterruptTests {
    @Test func sigintMidRunLeavesAValidTraceEndingInterrupted() throws {
        try interruptMidRun(name: "SIGINT", status: 130) { $0.interrupt() }
    }

    @Test func sigtermMidRunLeavesAValidTraceEndingInterrupted() throws {
        try interruptMidRun(name: "SIGTERM", status: 143) { $0.terminate() }
    }

    /// A terminal closing (SIGHUP) and Ctrl-\\ (SIGQUIT) end a run as SIGTERM does: a valid
    /// trace ending `interrupted`, exit 128 + signal. Before, SIGHUP killed the run outright
    /// (leaving a temporary file) and SIGQUIT was ignored.
    @Test(arguments: [(SIGHUP, Int32(129)), (SIGQUIT, Int32(131))])
    func sighupAndSigquitMidRunLeaveAValidTraceEndingInterrupted(signal: Int32, status: Int32) throws {
        try interruptMidRun(name: "signal \(signal)", status: status) { kill($0.processIdentifier, signal) }
    }

    private func interruptMidRun(name: String, status: Int32, send: (Process) -> Void) throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("long.jsonl")
        let out = directory.url.appendingPathComponent("stdout")
        let err = directory.url.appendingPathComponent("stderr")
        // A run that cannot end before the signal, however fast the machine.
        let process = try TiltboxBinary.start(
            [
                "run", PackageFiles.scenario("pile-100.json"), "--trace", trace, "--duration",
                Patience.unfinishableDuration,
            ],
            stdout: out, stderr: err)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // Wait for records on disk: the writer flushes at 64 KiB, a pile-100 record is ~12 KB.
        // Until the trace is closed they go to a temporary file beside it (.long.jsonl.tiltbox-XXXXXX).
        func written() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []
            return names.filter { $0.hasPrefix(".long.jsonl.tiltbox-") }.map { Self.fileSize(directory.path($0)) }.max()
                ?? 0
        }
        Patience.wait { written() >= 100_000 || !process.isRunning }
        let early = process.isRunning ? "" : ((try? JSONLines.text(file: err.path)) ?? "")
        try #require(process.isRunning, "tiltbox ended before it was interrupted: \(early)")
        try #require(written() >= 100_000, "no records after \(Int(Patience.generous)) s")
        #expect(!FileManager.default.fileExists(atPath: trace), "the trace appears at its path only when it is closed")
        send(process)

        try #require(process.waitForExit("after \(name)"), "tiltbox did not stop after \(name)")
        #expect(process.terminationReason == .exit, "tiltbox died of the signal instead of exiting")
        #expect(process.terminationStatus == status, "exit status \(process.terminationStatus) after \(name)")

        let text = try JSONLines.text(file: trace)
        #expect(text.hasSuffix("\n"), "the trace ends in a half-written line")
        let lines = TiltboxBinary.Result.lines(text)
        let objects = JSONLines.objects(text, source: trace)
        try #require(objects.count == lines.count && lines.count >= 3, "\(lines.count) lines, \(objects.count) parse")
        #expect(objects[0]["format"] as? String == "tiltbox-trace/1")
        let end = objects[objects.count - 1]
        let lastRecord = objects[objects.count - 2]
        #expect(end["end"] as? String == "interrupted", "end line: \(lines.last ?? "")")
        let steps = try #require(JSONLines.number(end["steps"]))
        let lastStep = try #require(JSONLines.number(lastRecord["step"]))
        // Recording every step (the default), the last record is the last step taken,
        // and the end line counts the steps taken.
        #expect(steps == lastStep, "end line steps \(steps), last record step \(lastStep)")
        #expect(steps > 0 && steps < 36_000 * 120)
        #expect(
            JSONLines.number(end["simTime"]) == steps * (1.0 / 120),
            "simTime \(end["simTime"] ?? "nil") for \(steps) steps")
        #expect(objects.count == Int(steps) + 3, "records at steps 0...\(Int(steps)) plus header and end line")
        #expect((end["digest"] as? String)?.hasPrefix("fnv1a64:") == true)
        let summary = try JSONLines.text(file: out.path)
        #expect(summary.contains("outcome:        interrupted"), "summary: \(summary)")
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
