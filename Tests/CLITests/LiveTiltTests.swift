import Foundation
import Testing

/// Live tilt: `--tilt phyphox://HOST:PORT` against a stand-in phone (`StandInPhone`), and
/// `--tilt -` fed through a pipe, driving `run --realtime`; the CSV of the gravity applied
/// replays the live run bit for bit; a phone that misbehaves or goes away is survived.
@Suite(.serialized) struct LiveTiltTests {
    /// free-fall.json without its `expect`: a phone steers the crate into the walls, which the
    /// shipped scenario's expectations ("never touches a wall") would report with exit 1; these
    /// tests are about the live input, not the scenario's intent. Written once per test process.
    static let scenario: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tiltbox-livetilt-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (try? PackageFiles.scenarioWithoutExpectations("free-fall.json", in: folder.path))
            ?? PackageFiles.scenario("free-fall.json")
    }()

    /// The `g` pairs of a trace's records, in order, read exactly (Swift's correctly
    /// rounded `Double(String)` on the shortest round-trip text).
    static func gravities(_ tracePath: String) throws -> [[Double]] {
        try JSONLines.lines(file: tracePath).compactMap { line in
            guard let match = line.firstMatch(of: /"g":\[([^,\]]+),([^\]]+)\]/) else { return nil }
            return [Double(String(match.1)) ?? .nan, Double(String(match.2)) ?? .nan]
        }
    }

    /// The end line's `end` value.
    static func end(_ tracePath: String) throws -> String? {
        try JSONLines.objects(file: tracePath).last?["end"] as? String
    }

    /// World gravity (portrait, 980 units per g) of a phyphox reading in m/s², as the
    /// formats document it: g = −v / 9.80665, then × 980.
    static func world(x: Double, y: Double) -> [Double] {
        [0 + (-x / 9.80665) * 980, 0 + (-y / 9.80665) * 980]
    }

    /// Runs the replay command of a live CSV's first comment, diffs its trace with `live` and
    /// expects them identical (the diff's exit 0); returns the diff for a test's further checks.
    @discardableResult
    static func replayMatches(
        csv: String, live: String, in directory: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TiltboxBinary.Result {
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        let first = String(text.split(separator: "\n").first ?? "")
        #expect(first.hasPrefix("# replay: tiltbox run "), "first line: \(first)", sourceLocation: sourceLocation)
        let words = first.dropFirst("# replay: tiltbox ".count).split(separator: " ").map(String.init)
        let replay = try TiltboxBinary.run(words + ["-q"], in: directory)
        #expect(replay.status == 0, "replay: \(replay.stderr)", sourceLocation: sourceLocation)
        let replayTrace = try #require(words.last, sourceLocation: sourceLocation)
        let diff = try TiltboxBinary.run(["diff", live, replayTrace], in: directory)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)", sourceLocation: sourceLocation)
        return diff
    }

    /// The replay of a live run's CSV, checked as `replayMatches(csv:live:in:)` checks it.
    @discardableResult
    static func replayMatches(_ run: LiveRun, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> TiltboxBinary.Result
    {
        try replayMatches(csv: run.csv, live: run.trace, in: run.directory, sourceLocation: sourceLocation)
    }

    // MARK: - A headless live run against the stand-in phone

    /// A finished headless live run: what it printed, the files it wrote and where.
    struct LiveRun {
        /// The run's exit status and output.
        var result: TiltboxBinary.Result
        /// The folder the run ran in; its files are there.
        var directory: TemporaryDirectory
        /// The trace's path.
        var trace: String
        /// The CSV of the gravity applied: `--out`'s file, else `NAME-tilt.csv` beside the trace `NAME.jsonl`.
        var csv: String
        /// When the child process was started and when it had exited, in seconds on
        /// `StandInPhone.monotonicNow()`'s clock (the clock of the phone's request times).
        var started: Double
        var exited: Double

        /// The lines of standard error that are warnings.
        var warnings: [String] { result.stderrLines.filter { $0.contains("warning") } }

        /// The CSV's text.
        func csvText() throws -> String { try String(contentsOfFile: csv, encoding: .utf8) }
    }

    /// Runs the scenario headless in a fresh folder, live from `phone`:
    /// `run SCENARIO --tilt URL --realtime OPTIONS --duration SECONDS --trace TRACE [--out OUT] -q`;
    /// expects exit 0 and a trace that ends `complete`.
    static func liveRun(
        against phone: StandInPhone, seconds: String, options: [String] = [], trace name: String = "live.jsonl",
        out: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> LiveRun {
        let directory = try TemporaryDirectory()
        let trace = directory.path(name)
        let csv = directory.path(out ?? (name as NSString).deletingPathExtension + "-tilt.csv")
        let arguments =
            ["run", Self.scenario, "--tilt", phone.url, "--realtime"] + options
            + ["--duration", seconds, "--trace", trace] + (out == nil ? [] : ["--out", csv]) + ["-q"]
        let started = StandInPhone.monotonicNow()
        let result = try TiltboxBinary.run(arguments, in: directory)
        let exited = StandInPhone.monotonicNow()
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(try Self.end(trace) == "complete", sourceLocation: sourceLocation)
        return LiveRun(
            result: result, directory: directory, trace: trace, csv: csv, started: started, exited: exited)
    }

    /// The world gravities of the stand-in phone's first 400 samples of session `epoch`, converted.
    static func gravities(of phone: StandInPhone, epoch: Int = 0) -> Set<[Double]> {
        Set(
            (0..<400).map { i -> [Double] in
                let s = phone.sample(i, epoch: epoch)
                return Self.world(x: StandInPhone.parsed(s.x), y: StandInPhone.parsed(s.y))
            })
    }

    // MARK: - Tests

    @Test func gravityFollowsTheStandInPhonesSamplesAndTheCSVReplaysBitForBit() throws {
        let phone = try StandInPhone()
        let run = try Self.liveRun(against: phone, seconds: "1.5", out: "live.csv")
        // Every gravity applied is one of the phone's samples, converted (or the scenario's
        // own before the first), and more than a few distinct samples were applied.
        var known = Self.gravities(of: phone)
        known.insert([0, -980])
        let applied = try Self.gravities(run.trace)
        let strangers = applied.filter { !known.contains($0) }
        #expect(strangers.isEmpty, "gravity not from the phone: \(strangers.prefix(3))")
        #expect(Set(applied).count > 10, "only \(Set(applied).count) distinct gravities applied")
        #expect(phone.repeats == 0, "the client asked for samples it already had")
        #expect(run.result.stderr.contains("samples received"), "\(run.result.stderr)")
        let diff = try Self.replayMatches(run)
        #expect(diff.stdout.hasPrefix("identical"), "\(diff.stdout)\(diff.stderr)")
        // verify re-runs the trace's own source: the CSV it names.
        let verify = try TiltboxBinary.run(["verify", "--against", run.trace], in: run.directory)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func aMalformedAnswerHoldsGravityWarnsOnceAndTheRunCompletes() throws {
        let phone = try StandInPhone(.init(malformedAnswers: [5, 6, 7, 15]))
        let run = try Self.liveRun(against: phone, seconds: "1.5")
        let stderr = run.result.stderr
        #expect(run.warnings.count == 1, "\(stderr)")
        #expect(run.warnings.first?.contains("malformed") == true, "\(stderr)")
        // Without --out, the CSV is beside the trace, and the gaps are comment lines in it.
        #expect(run.csv == run.directory.path("live-tilt.csv"))
        let text = try run.csvText()
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("# at t = ") && $0.contains("gap") }.count == 2)
        #expect(stderr.contains("wrote the") && stderr.contains(run.csv), "\(stderr)")
        try Self.replayMatches(run)
    }

    @Test func aPhoneThatDoesNotAnswerInTimeIsAGapWithOneWarning() throws {
        let phone = try StandInPhone(.init(slowGets: [6]))
        let run = try Self.liveRun(against: phone, seconds: "3")
        let warnings = run.warnings
        #expect(
            warnings.count == 1 && warnings[0].contains("no answer within the timeout"), "\(run.result.stderr)")
        let text = try run.csvText()
        #expect(text.contains("gap: no answer within the timeout") && text.contains("answers again"), "\(text)")
        try Self.replayMatches(run)
    }

    @Test func aPhoneThatStopsMidRunIsSurvivedWithOneWarning() throws {
        let phone = try StandInPhone(.init(stopAfterGets: 20))
        let run = try Self.liveRun(against: phone, seconds: "2")
        #expect(run.warnings.count == 1, "\(run.result.stderr)")
        #expect(run.warnings.first?.contains("cannot connect") == true, "\(run.result.stderr)")
        let text = try run.csvText()
        #expect(text.contains("gap: cannot connect"), "\(text.suffix(400))")
        // Gravity held: no sample is applied after the gap began, and the replay agrees.
        let afterGap = text.components(separatedBy: "gap: cannot connect").last ?? ""
        #expect(afterGap.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix("#") }, "\(afterGap)")
        try Self.replayMatches(run)
    }

    @Test func pollingIsPacedAtMostAtTheFrameRate() throws {
        let phone = try StandInPhone()
        let fps = 20.0
        let run = try Self.liveRun(against: phone, seconds: "2", options: ["--fps", "20"], trace: "paced.jsonl")
        let lifetime = run.exited - run.started
        // Every /get is made while the process lives. After the connection's one, the poller's
        // requests start at least 1 / fps apart, so they number at most lifetime · fps + 1: with
        // one request of slack, any pace faster than the frame rate over the run shows.
        let bound = Int((lifetime * fps).rounded(.up)) + 3
        let arrivals = phone.requests.map { String(format: "%.3f", $0.arrivedAt - run.started) }
        #expect(phone.gets <= bound, "\(phone.gets) /get requests in \(lifetime) s at --fps 20: \(arrivals)")
        #expect(phone.gets >= 5, "the phone was hardly polled: \(arrivals)")
        // The client's own count (with /config, and a poll begun as the run ended) agrees.
        let counted = run.result.stderr.firstMatch(of: /: (\d+) requests,/).flatMap { Int($0.1) }
        #expect(counted.map { $0 <= bound + 2 } == true, "\(run.result.stderr)")
    }

    @Test func anOversizedAnswerDuringARunIsAGapAndIsNotReadWhole() throws {
        // The 6th answer never says its length, the 14th says one far past 1 MiB.
        let phone = try StandInPhone(.init(endlessGets: [6], hugeLengthGets: [14]))
        let run = try Self.liveRun(against: phone, seconds: "1.5")
        #expect(run.warnings.count == 1, "\(run.result.stderr)")
        #expect(run.warnings.first?.contains("the answer is larger than 1 MiB") == true, "\(run.result.stderr)")
        // The client hung up on both: neither body was taken whole.
        let taken = phone.oversizedBytesSent
        #expect(taken.count == 2 && taken.allSatisfy { $0 < StandInPhone.oversizedBody }, "bytes taken: \(taken)")
        // Two gaps, each held (no sample applied) until the phone answers again.
        let lines = try run.csvText().split(separator: "\n")
        let gaps = lines.indices.filter { lines[$0].contains("gap: the answer is larger than 1 MiB") }
        #expect(gaps.count == 2, "\(lines.filter { $0.hasPrefix("#") })")
        for gap in gaps {
            let resumed = lines[gap...].firstIndex { $0.contains("answers again") }
            #expect(resumed != nil, "the gap at line \(gap + 1) never ended")
            #expect(lines[gap..<(resumed ?? gap)].allSatisfy { $0.hasPrefix("#") }, "a sample applied in the gap")
        }
        try Self.replayMatches(run)
    }

    @Test func dataClearedOnThePhoneAreReadFromTheNewestSampleOfItsFullUpdate() throws {
        let phone = try StandInPhone(.init(clearAtGet: 20))
        let run = try Self.liveRun(against: phone, seconds: "2")
        // After the full update (times from 0 again), the next request asks for what is newer
        // than its newest sample: not for what is newer than the last sample before the clear.
        let newest = try #require(phone.fullAnswerNewest, "the phone's data were never cleared")
        let requests = phone.requests
        let next = requests.first { $0.number == 21 }
        #expect(
            next?.timeValue.flatMap { Double($0) } == newest, "after \(newest): \(requests.dropFirst(18).prefix(4))")
        #expect(phone.repeats == 0, "samples sent twice after the clear")
        // The run went on with the cleared experiment's samples.
        let cleared = Self.gravities(of: phone, epoch: 2)
        let applied = try Self.gravities(run.trace)
        #expect(cleared.contains(applied.last ?? []), "last gravity \(applied.last ?? []) is not the cleared data's")
        try Self.replayMatches(run)
    }

    /// Ctrl-C ends a live run with 130, its CSV written; the CSV's replay (as many steps, ending
    /// `complete`) compares identical up to where the live run stopped, and `diff` and `verify`
    /// say it was interrupted and exit 0 (before, the two end lines alone made them "differ").
    @Test func ctrlCEndsALiveRunWith130AndItsReplayComparesIdenticalUpToWhereItStopped() throws {
        let phone = try StandInPhone()
        let directory = try TemporaryDirectory()
        let trace = directory.path("live.jsonl")
        let process = try TiltboxBinary.start(
            [
                "run", Self.scenario, "--tilt", phone.url, "--realtime", "--duration", Patience.unfinishableDuration,
                "--trace", trace, "-q",
            ],
            stdout: directory.url.appendingPathComponent("out"), stderr: directory.url.appendingPathComponent("err"))
        // Interrupt once the live run is writing its trace and the phone has been polled for about half a second.
        Patience.wait { !Patience.names(in: directory, startingWith: ".live.jsonl").isEmpty && phone.gets > 30 }
        process.interrupt()
        process.waitForExit("the interrupted live run")
        #expect(process.terminationStatus == 130)
        #expect(try Self.end(trace) == "interrupted")
        let csv = try String(contentsOfFile: directory.path("live-tilt.csv"), encoding: .utf8)
        #expect(csv.hasPrefix("# replay: tiltbox run ") && csv.contains(" --duration "), "\(csv.prefix(300))")
        #expect(csv.contains("ended interrupted"), "\(csv.prefix(300))")
        let first = String(csv.split(separator: "\n").first ?? "")
        let words = first.dropFirst("# replay: tiltbox ".count).split(separator: " ").map(String.init)
        let replay = try TiltboxBinary.run(words + ["-q"], in: directory)
        #expect(replay.status == 0, "replay: \(replay.stderr)")
        let replayTrace = try #require(words.last)
        #expect(try Self.end(replayTrace) == "complete")
        let diff = try TiltboxBinary.run(["diff", trace, replayTrace], in: directory)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(
            diff.stdout.hasPrefix("identical up to where \(trace) was interrupted: ")
                && diff.stdout.contains("\(replayTrace) ends \"complete\" there"), "\(diff.stdout)")
        let verify = try TiltboxBinary.run(["verify", "--against", trace], in: directory)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.hasPrefix("identical up to where reference trace was interrupted: "), "\(verify.stdout)")
    }

    @Test func aRestartedExperimentIsReadAfreshAndAPausedOneHoldsGravity() throws {
        let phone = try StandInPhone(.init(restartAtGet: 40, pausedGets: Set(10..<20)))
        let run = try Self.liveRun(against: phone, seconds: "2")
        #expect(run.warnings.count == 2, "\(run.result.stderr)")
        #expect(run.warnings.contains { $0.contains("is not measuring") }, "\(run.result.stderr)")
        #expect(run.warnings.contains { $0.contains("restarted (a new session)") }, "\(run.result.stderr)")
        // After the restart, gravity follows the new session's samples (its times start at 0 again).
        let restarted = Self.gravities(of: phone, epoch: 1)
        let applied = try Self.gravities(run.trace)
        #expect(restarted.contains(applied.last ?? []), "last gravity \(applied.last ?? []) is not the new session's")
        #expect(phone.repeats == 0)
        try Self.replayMatches(run)
    }

    @Test func aReadingBeyondTheGravityBoundIsSkippedSoTheCSVStillReplays() throws {
        let phone = try StandInPhone(.init(hugeGets: Set(8..<40)))
        let run = try Self.liveRun(against: phone, seconds: "1")
        let warnings = run.warnings
        #expect(warnings.count == 1 && warnings[0].contains("a sample skipped: reading"), "\(run.result.stderr)")
        let applied = try Self.gravities(run.trace)
        #expect(
            applied.allSatisfy { abs($0[0]) <= 1e6 && abs($0[1]) <= 1e6 },
            "\(applied.max { abs($0[0]) < abs($1[0]) } ?? [])")
        try Self.replayMatches(run)
    }

    /// A sample time of `1E999` (infinity once read) would become the next request's threshold:
    /// no sample is ever newer, and gravity froze for the rest of the run without a word. The
    /// answer is a gap with a warning instead, and the next one is read as usual.
    @Test func aNonFiniteSampleTimeIsAGapWithAWarningAndTheRunFollowsThePhoneAgain() throws {
        let phone = try StandInPhone(.init(infiniteTimeGets: [8]))
        let run = try Self.liveRun(against: phone, seconds: "1.5")
        let warnings = run.warnings
        #expect(
            warnings.count == 1 && warnings[0].contains("the time is not a finite number"), "\(run.result.stderr)")
        // The requests after it ask for samples newer than the last finite time, and get them.
        let thresholds = phone.requests.filter { $0.number > 8 }.compactMap { $0.timeValue.flatMap { Double($0) } }
        #expect(!thresholds.isEmpty && thresholds.allSatisfy(\.isFinite), "\(phone.requests.suffix(3))")
        let text = try run.csvText()
        #expect(text.contains("gap: a malformed answer") && text.contains("answers again"), "\(text.prefix(600))")
        let afterGap = text.components(separatedBy: "answers again").last ?? ""
        #expect(afterGap.split(separator: "\n").filter { !$0.hasPrefix("#") }.count > 5, "gravity held after the gap")
        try Self.replayMatches(run)
    }

    @Test func aLinearAccelerationExperimentIsRefusedBeforeTheRun() throws {
        let phone = try StandInPhone(.init(source: "linear_acceleration"))
        let directory = try TemporaryDirectory()
        let trace = directory.path("live.jsonl")
        let result = try TiltboxBinary.run(
            ["run", Self.scenario, "--tilt", phone.url, "--realtime", "--trace", trace], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderrLines == [
                "\(phone.url)/config: the experiment reads linear_acceleration, which has no gravity in it; open \"Acceleration with g\" on the phone instead"
            ], "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: trace))
    }

    @Test func nothingListeningOrAnUnknownHostIsOneLineAndExitTwo() throws {
        let directory = try TemporaryDirectory()
        let phone = try StandInPhone()
        let url = phone.url
        phone.stop()
        Patience.wait { (try? TiltboxBinary.run(["validate", url], in: directory).status) == 0 }
        let refused = try TiltboxBinary.run(["run", Self.scenario, "--tilt", url, "--realtime", "-q"], in: directory)
        #expect(refused.status == 2)
        #expect(refused.stderrLines.count == 1 && refused.stderr.contains("Connection refused"), "\(refused.stderr)")
        let unknown = try TiltboxBinary.run(
            ["run", Self.scenario, "--tilt", "phyphox://no-such-host.invalid", "--realtime", "-q"], in: directory)
        #expect(unknown.status == 2)
        #expect(
            unknown.stderrLines == [
                "phyphox://no-such-host.invalid:8080/config: the address no-such-host.invalid cannot be resolved"
            ], "\(unknown.stderr)")
        let validate = try TiltboxBinary.run(["validate", "phyphox://phone.local", "phyphox://x:99999"], in: directory)
        #expect(validate.status == 2)
        #expect(
            validate.stdoutLines == [
                "ok: phyphox://phone.local: phyphox remote access at host phone.local, port 8080 (not contacted)"
            ])
        #expect(validate.stderrLines == ["phyphox://x:99999: the port 99999 is not in 1...65535"])
        let headless = try TiltboxBinary.run(["run", Self.scenario, "--tilt", url, "-q"], in: directory)
        #expect(headless.status == 2 && headless.stderr.contains("add --realtime"), "\(headless.stderr)")
    }

    @Test(arguments: [
        (["--tilt", "-"], "drives a run as it goes: add --realtime"),
        (["--tilt", "-", "--realtime", "--interpolate", "linear"], "--interpolate has no effect with --tilt -"),
        (["--tilt", "phyphox://h", "--realtime", "--convention", "ios"], "phyphox is always in Android's convention"),
        (["--tilt", "-", "--realtime", "--html", "p.html"], "--html is for runs that are not live"),
        (["--tilt", "-", "--realtime", "--out", "-"], "--out needs a file name"),
        (["--out", "x.csv"], "--out writes the gravity of a live --tilt"),
        (["--tilt", "phyphox://h:0", "--realtime"], "phyphox://h:0: the port 0 is not in 1...65535"),
    ])
    func optionsALiveTiltCannotUseAreRefusedWithExitTwo(arguments: [String], message: String) throws {
        let directory = try TemporaryDirectory()
        let result = try TiltboxBinary.run(["run", Self.scenario] + arguments, in: directory)
        #expect(result.status == 2)
        #expect(result.stderrLines.first?.contains(message) == true, "\(result.stderr)")
        let verify = try TiltboxBinary.run(["verify", "--against", "t.jsonl", "--tilt", "-"], in: directory)
        #expect(verify.status == 2 && verify.stderr.contains("verify re-runs a recorded input"), "\(verify.stderr)")
        let tilt = try TiltboxBinary.run(["tilt", "phyphox://h"], in: directory)
        #expect(tilt.status == 2 && tilt.stderr.contains("is a live source"), "\(tilt.stderr)")
    }

    @Test func rowsOnStandardInputDriveTheRunAndBadRowsWarnOnce() throws {
        let directory = try TemporaryDirectory()
        let trace = directory.path("stdin.jsonl")
        let csv = directory.path("stdin.csv")
        let process = Process()
        process.executableURL = try TiltboxBinary.url()
        // 3 s: the rows below take about 0.6 s to write, and the run must see the stream end
        // well before its own.
        process.arguments = [
            "run", Self.scenario, "--tilt", "-", "--realtime", "--duration", "3", "--trace", trace, "--out", csv, "-q",
        ]
        let input = Pipe()
        process.standardInput = input
        let errURL = directory.url.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let writer = input.fileHandleForWriting
        try writer.write(contentsOf: Data("t,x,y,z\n0,0,-1,0\n".utf8))
        let rows = [(0.5, -0.5), (0.25, -0.75), (-0.6, -0.4)]
        for (i, row) in rows.enumerated() {
            // Each row once the run has had a moment with the one before (the temporary trace shows it runs).
            Patience.wait { !Patience.names(in: directory, startingWith: ".stdin.jsonl").isEmpty }
            Thread.sleep(forTimeInterval: 0.2)
            try writer.write(contentsOf: Data("\(Double(i) + 1),\(row.0),\(row.1),0\n".utf8))
            if i == 0 { try writer.write(contentsOf: Data("oops\n2,x,1,0\n1.5,nan,0,0\n".utf8)) }
        }
        try writer.close()
        process.waitForExit("the stdin run")
        let stderr = try String(contentsOf: errURL, encoding: .utf8)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(try Self.end(trace) == "complete")
        let warnings = stderr.split(separator: "\n").filter { $0.contains("row is skipped") }
        #expect(warnings.count == 1, "\(stderr)")
        #expect(stderr.contains("3 bad rows skipped"), "\(stderr)")
        let allowed: Set<[Double]> = [[0, -980], [490, -490], [245, -735], [-588, -392]]
        let applied = try Self.gravities(trace)
        #expect(applied.allSatisfy { allowed.contains($0) }, "\(Set(applied))")
        #expect(applied.last == [-588, -392], "the last row never arrived: \(Set(applied))")
        // The stream ended mid-run (8 lines read): one warning, and a comment in the CSV after
        // which no sample is applied (gravity held at the last row).
        let ended = "the stream ended after 8 lines; gravity held at the last sample"
        let endWarnings = stderr.split(separator: "\n").filter { $0.contains("the stream ended") }
        #expect(endWarnings == ["tiltbox: warning: standard input: \(ended)"], "\(stderr)")
        let csvLines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        let endNote = csvLines.firstIndex { $0.hasPrefix("# at t = ") && $0.hasSuffix(" s: \(ended)") }
        #expect(endNote != nil, "no comment for the end of the stream: \(csvLines.filter { $0.hasPrefix("#") })")
        if let endNote {
            #expect(csvLines[..<endNote].last { !$0.hasPrefix("#") }?.hasSuffix(",-0.6,-0.4") == true, "\(csvLines)")
            #expect(csvLines[endNote...].allSatisfy { $0.hasPrefix("#") }, "a row applied after the end: \(csvLines)")
        }
        try Self.replayMatches(csv: csv, live: trace, in: directory)
    }

    @Test func recordUnderTmuxShowsThePhoneAndItsSampleAgeInTheHUDAndReplaysIdentically() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let phone = try StandInPhone()
        let directory = try TemporaryDirectory()
        let binary = try TiltboxBinary.url().path
        let csv = directory.path("phone.csv"), live = directory.path("live.jsonl")
        let session = try TmuxSession(
            command:
                "\(binary) record \(Self.scenario) --tilt \(phone.url) --out \(csv) --trace \(live) --duration 3 --exit-at-end",
            columns: 200, directory: directory)
        let shown = try session.wait(seconds: Patience.generous) {
            let screen = try session.capture()
            return screen.contains("tilt \(phone.url) ") && screen.contains("s old")
        }
        #expect(shown, "the HUD never named the phone and its sample's age: \((try? session.capture()) ?? "")")
        #expect(!(try session.capture().contains("←→ tilt")), "the arrow keys do not steer a live source")
        #expect(session.exitStatus(within: Patience.generous) == 0)
        #expect(try Self.end(live) == "complete")
        let diff = try Self.replayMatches(csv: csv, live: live, in: directory)
        #expect(diff.stdout.contains("identical: 361 records"), "\(diff.stdout)\(diff.stderr)")
    }

    @Test func theLiveViewTakesRowsFromAPipeAndKeysFromTheTerminal() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        let binary = try TiltboxBinary.url().path
        let live = directory.path("live.jsonl")
        let session = try TmuxSession(
            command:
                "(printf 't,x,y\\n0,0,-1\\n'; sleep 1; printf '1,0.5,-0.5\\n') | \(binary) run \(Self.scenario) --tilt - --view terminal --trace \(live) --duration \(Patience.unfinishableDuration)",
            columns: 200, directory: directory)
        let shown = try session.wait(seconds: Patience.generous) {
            let screen = try session.capture()
            return screen.contains("tilt standard input ") && screen.contains("s old")
                && screen.contains("g ↘ 490,-490")
        }
        #expect(shown, "the HUD never showed the row from the pipe: \((try? session.capture()) ?? "")")
        // q reaches the view from the terminal although standard input is the pipe.
        try session.send("q")
        #expect(session.exitStatus(within: Patience.generous) == 0)
        let csv = try String(contentsOfFile: directory.path("live-tilt.csv"), encoding: .utf8)
        #expect(csv.contains(",0.5,-0.5\n"), "\(csv)")
        // q stops a live run on purpose: the trace ends complete, and the CSV replays it exactly.
        #expect(try Self.end(live) == "complete")
        try Self.replayMatches(csv: directory.path("live-tilt.csv"), live: live, in: directory)
    }

    @Test func recordTakesRowsFromAPipeAndItsCSVReplaysIdentically() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        let binary = try TiltboxBinary.url().path
        let csv = directory.path("piped.csv"), live = directory.path("live.jsonl")
        let session = try TmuxSession(
            command:
                "(printf 't,x,y\\n0,0,-1\\n'; sleep 0.5; printf '1,-0.5,-0.5\\n') | \(binary) record \(Self.scenario) --tilt - --out \(csv) --trace \(live) --duration 2 --exit-at-end",
            columns: 200, directory: directory)
        #expect(session.exitStatus(within: Patience.generous) == 0, "\((try? session.capture()) ?? "")")
        #expect(try Self.end(live) == "complete")
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(text.contains("recorded live from standard input") && text.contains(",-0.5,-0.5\n"), "\(text)")
        let diff = try Self.replayMatches(csv: csv, live: live, in: directory)
        #expect(diff.stdout.contains("identical: 241 records"), "\(diff.stdout)\(diff.stderr)")
    }

    /// The figures of a 10 s live run against the stand-in at 100 Hz, printed for the
    /// record: requests, samples received, the largest sample age seen by a frame, and
    /// whether the replay of its CSV is identical.
    @Test func aTenSecondLiveRunAt100HzReplaysIdentically() throws {
        let phone = try StandInPhone(.init(rate: 100))
        let run = try Self.liveRun(against: phone, seconds: "10", trace: "ten.jsonl")
        #expect(run.csv == run.directory.path("ten-tilt.csv"))
        let counts = run.result.stderrLines.first { $0.contains("samples received") } ?? ""
        let diff = try Self.replayMatches(run)
        print(
            "live tilt, 10 s at 100 Hz: \(counts); stand-in served \(phone.samplesServed) samples to \(phone.gets) /get requests, \(phone.repeats) twice; replay: \(diff.stdout.trimmingCharacters(in: .whitespacesAndNewlines))"
        )
    }
}
