import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `batch`'s children die with it and leave nothing behind, and a crashed child's message
/// says what the child said, not what Swift's backtracer appended.
@Suite struct BatchChildProcessTests {
    /// The pids of processes whose command line contains `marker`.
    static func processes(containing marker: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), pid != getpid(),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            return String(decoding: data, as: UTF8.self).contains(marker) ? pid : nil
        }
    }

    /// True while `pid` is a process that has not ended (a zombie, waiting to be reaped by
    /// whoever adopted it, has ended).
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return false }
        let text = String(decoding: stat, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return false }
        let state = text[text.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    @Test func killingTheBatchEndsItsChildrenWhichPublishNothing() throws {
        let directory = try TemporaryDirectory()
        let scratch = directory.path("tmp")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        for name in ["orphan-a.json", "orphan-b.json"] {
            try FileManager.default.copyItem(
                atPath: PackageFiles.scenario("pile-100.json"), toPath: directory.path(name))
        }
        try directory.write(
            "m.json",
            """
            { "format": "tiltbox-batch/1",
              "jobs": [
                { "name": "a", "run": "orphan-a.json", "duration": \(Patience.unfinishableDuration), "trace": "a.jsonl" },
                { "name": "b", "run": "orphan-b.json", "duration": \(Patience.unfinishableDuration), "trace": "b.jsonl" }
              ] }
            """)
        let out = directory.url.appendingPathComponent("batch.stdout"),
            err = directory.url.appendingPathComponent("batch.stderr")
        // The batch's scratch folder goes in TMPDIR: here, so the test sees it removed.
        let batch = try TiltboxBinary.start(
            ["batch", directory.path("m.json"), "--jobs", "2", "--json", directory.path("r.json")],
            stdout: out, stderr: err, environment: ["TMPDIR": scratch])
        var children: [pid_t] = []
        defer {
            if batch.isRunning { kill(batch.processIdentifier, SIGKILL) }
            for child in children where Self.isAlive(child) { kill(child, SIGKILL) }
        }
        // Both children are writing their traces (a pile-100 record is ~12 KB, the writer
        // flushes at 64 KiB): each has a temporary file with records in it.
        Patience.wait(interval: 0.05) {
            ["a", "b"].allSatisfy { name in
                Patience.names(in: directory, startingWith: ".\(name).jsonl.tiltbox-")
                    .contains { InterruptTests.fileSize(directory.path($0)) > 0 }
            } || !batch.isRunning
        }
        try #require(batch.isRunning, "the batch ended early: \((try? JSONLines.text(file: err.path)) ?? "")")
        children = Self.processes(containing: "orphan-a.json") + Self.processes(containing: "orphan-b.json")
        try #require(children.count == 2, "children: \(children)")

        #expect(kill(batch.processIdentifier, SIGKILL) == 0)
        batch.waitForExit("after SIGKILL")
        let gone = Patience.wait(interval: 0.05) { !children.contains(where: Self.isAlive) }
        #expect(gone, "children still running after their batch was killed: \(children.filter(Self.isAlive))")

        let left = ((try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []).sorted()
        #expect(
            left == ["batch.stderr", "batch.stdout", "m.json", "orphan-a.json", "orphan-b.json", "tmp"],
            "an orphaned child published a trace or left a temporary file: \(left) \(left.filter { $0.hasSuffix(".jsonl") }.map { ((try? JSONLines.lines(file: directory.path($0))) ?? []).last ?? "" })"
        )
        let scratchLeft = (try? FileManager.default.subpathsOfDirectory(atPath: scratch)) ?? []
        #expect(scratchLeft.isEmpty, "the batch's scratch files were left: \(scratchLeft)")
    }

    @Test func anInterruptedBatchKillsAChildThatIgnoresSigtermAndStillWritesItsResults() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("bounce.json"), toPath: directory.path("bounce.json"))
        // A trace to a FIFO nobody reads: the child blocks in open(2) before its run starts, where
        // neither the run loop nor its watchdog can end it; SIGTERM only interrupts the open, which
        // is retried. It can never finish, so only the batch's SIGKILL ends it.
        try #require(mkfifo(directory.path("blocked.fifo"), 0o644) == 0)
        try directory.write(
            "m.json",
            """
            { "format": "tiltbox-batch/1",
              "jobs": [
                { "name": "quick", "run": "bounce.json", "duration": 0.25 },
                { "name": "blocked", "run": "bounce.json", "trace": "blocked.fifo" }
              ] }
            """)
        let out = directory.url.appendingPathComponent("batch.stdout"),
            err = directory.url.appendingPathComponent("batch.stderr")
        // One job at a time: the blocked job starts only once the quick one's result is recorded.
        let batch = try TiltboxBinary.start(
            ["batch", directory.path("m.json"), "--jobs", "1", "--json", directory.path("r.json")],
            stdout: out, stderr: err)
        var child: pid_t?
        defer {
            if batch.isRunning { kill(batch.processIdentifier, SIGKILL) }
            if let child, Self.isAlive(child) { kill(child, SIGKILL) }
        }
        func blockedInOpen() -> Bool {
            guard let pid = Self.processes(containing: "blocked.fifo").first,
                let wchan = FileManager.default.contents(atPath: "/proc/\(pid)/wchan")
            else { return false }
            child = pid
            return String(decoding: wchan, as: UTF8.self).contains("wait_for_partner") // fifo_open waiting for a reader
        }
        Patience.wait(interval: 0.05) { blockedInOpen() || !batch.isRunning }
        try #require(blockedInOpen(), "the blocked child never reached open(2) of its FIFO")
        batch.interrupt()

        try #require(batch.waitForExit("after Ctrl-C"), "the batch waited for ever for a child that ignores SIGTERM")
        #expect(batch.terminationReason == .exit)
        #expect(batch.terminationStatus == 130)
        if let child { #expect(Patience.wait { !Self.isAlive(child) }, "the blocked child was not killed") }
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.path("r.json")))
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let jobs = try #require(summary["jobs"] as? [[String: Any]])
        #expect(jobs.map { $0["name"] as? String } == ["quick"], "\(jobs)")
        #expect(jobs.first?["status"] as? String == "passed")
    }

    @Test func aKilledChildsMessageEndsWithItsOwnLastLineOrNothing() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: PackageFiles.scenario("pile-100.json"), toPath: directory.path("quiet-crash.json"))
        // Two crates at one point: the run warns on standard error, then runs on.
        let pile = try String(contentsOfFile: PackageFiles.scenario("pile-100.json"), encoding: .utf8)
        try directory.write(
            "warned-crash.json",
            pile.replacingOccurrences(
                of: #""duration": 10.0,"#,
                with:
                    #""duration": 10.0, "crates": [{"id": "x", "position": [40, 600], "size": [10, 10]}, {"id": "y", "position": [40, 600], "size": [10, 10]}],"#
            ))
        try directory.write(
            "m.json",
            """
            { "format": "tiltbox-batch/1",
              "jobs": [
                { "name": "quiet", "run": "quiet-crash.json", "duration": \(Patience.unfinishableDuration) },
                { "name": "warned", "run": "warned-crash.json", "duration": \(Patience.unfinishableDuration) }
              ] }
            """)
        let out = directory.url.appendingPathComponent("batch.stdout"),
            err = directory.url.appendingPathComponent("batch.stderr")
        let scratch = directory.path("tmp")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let batch = try TiltboxBinary.start(
            ["batch", directory.path("m.json"), "--jobs", "2", "--json", directory.path("r.json")],
            stdout: out, stderr: err, environment: ["TMPDIR": scratch])
        defer { if batch.isRunning { kill(batch.processIdentifier, SIGKILL) } }
        var children: [pid_t] = []
        Patience.wait(interval: 0.05) {
            children = Self.processes(containing: "quiet-crash.json") + Self.processes(containing: "warned-crash.json")
            return children.count == 2 || !batch.isRunning
        }
        try #require(children.count == 2, "children: \(children)")
        // Each child's standard error goes to a file in the batch's scratch folder: wait for the warning there.
        func warningWritten() -> Bool {
            let folders = (try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []
            return folders.contains { folder in
                let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(scratch)/\(folder)")) ?? []
                return names.filter { $0.hasSuffix(".stderr") }.contains { name in
                    let data = FileManager.default.contents(atPath: "\(scratch)/\(folder)/\(name)") ?? Data()
                    return String(decoding: data, as: UTF8.self).contains("tiltbox: warning: ")
                }
            }
        }
        Patience.wait(interval: 0.05) { warningWritten() || !batch.isRunning }
        try #require(warningWritten(), "the warned child wrote no warning")
        for child in children { #expect(kill(child, SIGKILL) == 0) }
        try #require(batch.waitForExit("after its children were killed"))
        #expect(batch.terminationStatus == 1)

        let data = try Data(contentsOf: URL(fileURLWithPath: directory.path("r.json")))
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let jobs = try #require(summary["jobs"] as? [[String: Any]])
        let messages = Dictionary(
            uniqueKeysWithValues: jobs.map { ($0["name"] as? String ?? "", $0["message"] as? String ?? "") })
        #expect(messages["quiet"] == "killed by signal 9 (Killed)", "\(messages)")
        let warned = messages["warned"] ?? ""
        #expect(warned.hasPrefix("killed by signal 9 (Killed): tiltbox: warning: "), "\(warned)")
    }
}
