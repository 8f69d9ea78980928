import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Odd files and signals: a FIFO tilt input is refused at once (never waited on), a zip
/// entry whose CRC-32 does not match is refused, messages echo file text inert and on
/// one line, and SIGINT or SIGTERM during `run --html`'s page phase leaves no page.
@Suite struct OddInputTests {
    /// Runs `arguments` and waits at most `seconds`; a run still going then is killed and
    /// recorded as a failure (the thing under test would have blocked forever).
    static func runWithin(
        _ seconds: Double, _ arguments: [String], in directory: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TiltboxBinary.Result? {
        let out = directory.url.appendingPathComponent("\(UUID().uuidString).stdout")
        let err = directory.url.appendingPathComponent("\(UUID().uuidString).stderr")
        let process = try TiltboxBinary.start(arguments, stdout: out, stderr: err)
        Patience.wait(seconds: seconds) { !process.isRunning }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            Issue.record(
                "tiltbox \(arguments.joined(separator: " ")) was still running after \(seconds) s",
                sourceLocation: sourceLocation)
            return nil
        }
        process.waitUntilExit()
        return TiltboxBinary.Result(
            status: process.terminationStatus, stdoutData: try Data(contentsOf: out),
            stderrData: try Data(contentsOf: err))
    }

    // MARK: - FIFOs

    @Test func aFIFOTiltInputIsRefusedAtOnce() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path("tilt.csv")
        try #require(mkfifo(fifo, 0o600) == 0)
        for arguments in [
            ["validate", fifo], ["tilt", fifo],
            ["run", PackageFiles.scenario("crate-stack.json"), "--tilt", fifo, "--view", "none"],
        ] {
            let run = try #require(try Self.runWithin(Patience.generous, arguments, in: directory))
            #expect(run.status == 2, "\(arguments): status \(run.status)")
            #expect(run.stderrLines == ["\(fifo): is not a regular file (a FIFO)"], "\(run.stderr)")
        }
    }

    @Test func aFIFOGravityFileInsideAnExportFolderIsRefusedAtOnce() throws {
        let directory = try TemporaryDirectory()
        let export = directory.url.appendingPathComponent("export")
        try FileManager.default.createDirectory(at: export, withIntermediateDirectories: true)
        let fifo = export.appendingPathComponent("Gravity.csv").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let run = try #require(
            try Self.runWithin(Patience.generous, ["tilt", export.path, "--convention", "ios"], in: directory))
        #expect(run.status == 2, "status \(run.status)")
        #expect(run.stderr.contains("Gravity.csv: is not a regular file (a FIFO)"), "\(run.stderr)")
    }

    @Test func aFIFOFrameFileIsRefusedAtOnce() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path("frames.txt")
        try #require(mkfifo(fifo, 0o600) == 0)
        let run = try #require(
            try Self.runWithin(
                Patience.generous,
                [
                    "run", PackageFiles.scenario("crate-stack.json"), "--frames", "file:\(fifo)",
                    "--view", "none",
                ], in: directory))
        #expect(run.status == 2, "status \(run.status)")
        #expect(run.stderr.contains("is not a regular file (a FIFO)"), "\(run.stderr)")
    }

    // MARK: - Zip

    /// The phyphox fixture zip, with the CRC-32 recorded for `Raw Data.csv` (in its local
    /// header and its central directory entry) changed by one bit: the data inflate fine
    /// but no longer match.
    static func zipWithWrongChecksum() throws -> Data {
        let fixture = PackageFiles.root.appendingPathComponent("Tests/InputTests/Fixtures/phyphox.zip")
        var bytes = [UInt8](try Data(contentsOf: fixture))
        func firstOffset(of signature: [UInt8]) -> Int? {
            (0...(bytes.count - signature.count)).first { Array(bytes[$0..<($0 + signature.count)]) == signature }
        }
        let local = try #require(firstOffset(of: [0x50, 0x4B, 0x03, 0x04]))
        let central = try #require(firstOffset(of: [0x50, 0x4B, 0x01, 0x02]))
        let name = Array("Raw Data.csv".utf8)
        try #require(Array(bytes[(local + 30)..<(local + 30 + name.count)]) == name, "the first entry is Raw Data.csv")
        bytes[local + 14] ^= 1 // local file header: crc-32 at offset 14
        bytes[central + 16] ^= 1 // central directory header: crc-32 at offset 16
        return Data(bytes)
    }

    @Test func aZipEntryWhoseChecksumDoesNotMatchIsRefused() throws {
        let directory = try TemporaryDirectory()
        let intact = PackageFiles.root.appendingPathComponent("Tests/InputTests/Fixtures/phyphox.zip").path
        let good = try TiltboxBinary.run(["validate", intact], in: directory)
        #expect(good.status == 0, "the intact zip is accepted: \(good.stderr)")

        let corrupt = directory.path("corrupt.zip")
        try Self.zipWithWrongChecksum().write(to: URL(fileURLWithPath: corrupt))
        for arguments in [
            ["validate", corrupt], ["tilt", corrupt],
            ["run", PackageFiles.scenario("crate-stack.json"), "--tilt", corrupt, "--view", "none"],
        ] {
            let run = try TiltboxBinary.run(arguments, in: directory)
            #expect(run.status == 2, "\(arguments): status \(run.status)")
            #expect(
                run.stderrLines.count == 1 && run.stderr.hasPrefix("\(corrupt)(Raw Data.csv): ")
                    && run.stderr.contains("CRC-32"), "\(run.stderr)")
        }
    }

    // MARK: - Messages

    @Test func controlCharactersFromAFileAreEscapedInMessages() throws {
        let directory = try TemporaryDirectory()
        // A key with a newline and an escape sequence (JSON \n and \u001b escapes).
        let scenario = try directory.write(
            "keys.json",
            #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [100, 100]},
             "crates": [{"id": "a", "position": [50, 50], "size": [10, 10], "colour\n\u001b[2J": 1}]}
            """#)
        // A CSV cell that would clear the screen, and a format value with a newline.
        let csv = try directory.write("cells.csv", "t,x,y\n0,\u{1B}[2J\u{1B}[31mred,-1\n")
        let format = try directory.write(
            "format.json", #"{"format": "tiltbox-scenario/1\nbogus", "world": {"size": [100, 100]}}"#)
        for (file, visible) in [(scenario, #"colour\n\e[2J"#), (csv, #"\e[2J\e[31mred"#), (format, "unknown format")] {
            let run = try TiltboxBinary.run(["validate", file], in: directory)
            #expect(run.status == 2)
            #expect(run.stderrLines.count == 1, "one line: \(run.stderr)")
            #expect(!run.stderrData.contains(0x1B), "no raw ESC reaches the terminal: \(run.stderr)")
            #expect(run.stderr.contains(visible), "the text shown escaped (\(visible)): \(run.stderr)")
        }
        // A format value is not echoed at all: the file may not be a scenario.
        #expect(!(try TiltboxBinary.run(["validate", format], in: directory)).stderr.contains("bogus"))
    }

    @Test func controlCharactersInAPathAreEscapedInMessages() throws {
        let directory = try TemporaryDirectory()
        let run = try TiltboxBinary.run(["validate", directory.path("no\u{1B}[2Jsuch\nfile.csv")], in: directory)
        #expect(run.status == 2)
        #expect(run.stderrLines.count == 1 && !run.stderrData.contains(0x1B), "\(run.stderr)")
        #expect(run.stderr.contains(#"no\e[2Jsuch\nfile.csv: no such file"#), "\(run.stderr)")
    }

    /// A right-to-left override (U+202E) in an id, a file name or a typed argument would make the
    /// terminal show the rest of the line reversed (`evil\u{202E}nosj.txt` shown as `eviltxt.json`):
    /// every message shows it, and every other bidirectional control, as a visible escape.
    @Test func bidirectionalControlsInIdsPathsAndArgumentsAreEscapedInMessages() throws {
        let directory = try TemporaryDirectory()
        let scenario = try directory.write(
            "ids.json",
            """
            {"format": "tiltbox-scenario/1", "world": {"size": [100, 100]},
             "crates": [{"id": "a\u{202E}b", "position": [50, 50], "size": [10, 10]},
                        {"id": "a\u{202E}b", "position": [20, 20], "size": [10, 10]}]}
            """)
        let runs = [
            try TiltboxBinary.run(["validate", scenario], in: directory),
            try TiltboxBinary.run(["validate", directory.path("evil\u{202E}nosj.\u{2066}txt")], in: directory),
            try TiltboxBinary.run(["diff", "a.jsonl", "b.jsonl", "c\u{202D}d\u{200F}"], in: directory),
        ]
        for run in runs {
            #expect(run.status == 2, "\(run.stderr)")
            let scalars = run.stderr.unicodeScalars.map(\.value)
            #expect(
                !scalars.contains { (0x202A...0x202E).contains($0) || (0x2066...0x2069).contains($0) || $0 == 0x200F },
                "a raw bidirectional control reaches the terminal: \(run.stderr.debugDescription)")
        }
        #expect(runs[0].stderr.contains(#"a\u{202E}b"#), "\(runs[0].stderr)")
        #expect(runs[1].stderr.contains(#"evil\u{202E}nosj.\u{2066}txt"#), "\(runs[1].stderr)")
        #expect(runs[2].stderr.contains(#"c\u{202D}d\u{200F}"#), "\(runs[2].stderr)")
    }

    @Test func aTiltFileTooLongForTheRowLimitIsALocatedInputError() throws {
        let directory = try TemporaryDirectory()
        let keyframes = try directory.write(
            "long.json",
            #"""
            {"format": "tiltbox-tilt/1", "units": "g",
             "keyframes": [{"t": 0, "gravity": [0, -1]}, {"t": 1000000, "gravity": [1, 0]}]}
            """#)
        let run = try TiltboxBinary.run(["tilt", keyframes, "--interval", "0.05"], in: directory)
        #expect(run.status == 2)
        #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("\(keyframes): "), "names the file: \(run.stderr)")
        #expect(run.stderr.contains("20000001 rows") && run.stderr.contains("10000000"), "\(run.stderr)")
        #expect(
            !run.stderr.contains("Usage") && !run.stderr.contains("tiltbox help"), "not a usage error: \(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    // MARK: - Signals in the page phase

    @Test(arguments: [("SIGINT", SIGINT, Int32(130)), ("SIGTERM", SIGTERM, Int32(143))])
    func aSignalDuringThePagePhaseLeavesNoPage(name: String, signal: Int32, status: Int32) throws {
        let directory = try TemporaryDirectory()
        let page = directory.path("page.html")
        let trace = directory.path("run.jsonl")
        let out = directory.url.appendingPathComponent("stdout")
        let err = directory.url.appendingPathComponent("stderr")
        // 20 s of the 100-crate pile is a 31 MB trace: its page takes longer to build than the
        // run takes (about 4 s in a debug build on an idle machine). The window the signal must
        // land in scales with the machine's speed, and stays hundreds of times the 5 ms poll
        // below however fast the machine is.
        let process = try TiltboxBinary.start(
            [
                "run", PackageFiles.scenario("pile-100.json"), "--duration", "20", "--view", "none", "--trace", trace,
                "--html", page,
            ],
            stdout: out, stderr: err)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The summary's last line is printed when the run is over and the page phase begins.
        Patience.wait(interval: 0.005) {
            !process.isRunning || ((try? JSONLines.text(file: out.path)) ?? "").contains("digest:")
        }
        try #require(
            process.isRunning,
            "tiltbox finished before the signal could be sent: \((try? JSONLines.text(file: err.path)) ?? "")")
        kill(process.processIdentifier, signal)
        try #require(process.waitForExit("after \(name)"), "tiltbox did not stop after \(name)")
        #expect(process.terminationReason == .exit, "exited, not killed by the signal")
        #expect(process.terminationStatus == status, "status \(process.terminationStatus) after \(name)")
        #expect(!FileManager.default.fileExists(atPath: page), "no page after \(name)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.hasPrefix(".page.html.tiltbox-") }, "no partial page left: \(names)")
        // The run itself had finished: its trace is complete and kept.
        let objects = try JSONLines.objects(file: trace)
        #expect(objects.last?["end"] as? String == "complete")
    }
}
