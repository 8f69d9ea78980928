import Foundation
import Testing

/// The live terminal view in a real terminal: tmux runs the built binary in a detached
/// session of a fixed size, and the tests read the screen and send keys.
@Suite(.serialized) struct LiveViewTests {
    static let binary = (try? TiltboxBinary.url().path) ?? "tiltbox"

    /// The HUD line on screen, or "".
    static func hud(_ session: TmuxSession) throws -> String {
        String(try session.capture().split(separator: "\n").last { $0.contains("fps") } ?? "")
    }

    /// The simulated time the HUD shows ("t 1.23s …"), or 0.
    static func hudTime(_ hud: String) -> Double {
        hud.split(separator: " ").dropFirst().first.flatMap { Double($0.dropLast()) } ?? 0
    }

    /// The gravity the HUD shows ("g ↓ 0,-980"), or "".
    static func hudGravity(_ hud: String) -> String {
        hud.firstMatch(of: /g \S+ (-?\d+,-?\d+)/).map { String($0.1) } ?? ""
    }

    /// Sends each arrow key once the previous one has turned gravity on the HUD, so every
    /// key lands (and is recorded) however loaded the machine is. Returns how many turned it.
    static func tilt(_ session: TmuxSession, keys: [String]) throws -> Int {
        var turned = 0
        var shown = hudGravity(try hud(session))
        for key in keys {
            try session.send(key)
            let before = shown
            if try session.wait(
                seconds: 30,
                until: {
                    shown = hudGravity(try hud(session)); return shown != before && !shown.isEmpty
                })
            {
                turned += 1
            }
        }
        return turned
    }

    @Test func pileShowsBrailleCratesAndTheHUDThenQuitsCleanlyOnQ() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        let session = try TmuxSession(
            command: "\(Self.binary) run \(PackageFiles.scenario("pile-100.json"))", directory: directory)
        // The simulation advances: wait for the HUD's simulated time to pass 0.5 s.
        let shown = try session.wait(seconds: Patience.generous) { Self.hudTime(try Self.hud(session)) > 0.5 }
        #expect(shown, "the HUD never showed simulated time past 0.5 s: \((try? session.capture()) ?? "")")
        let screen = try session.capture()
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let hud = lines.last { $0.contains("fps") } ?? ""
        #expect(hud.hasPrefix("t "), "HUD: \(hud)")
        for part in ["fps", "steps", "phys", "ms", "drop", "g ↓", "q quit"] {
            #expect(hud.contains(part), "HUD lacks '\(part)': \(hud)")
        }
        #expect(screen.containsBraille, "no braille cells on screen:\n\(screen)")
        #expect(Self.hudTime(String(hud)) > 0.5, "HUD time: \(hud)")
        #expect(try session.display("#{alternate_on}") == "1", "the view draws on the alternate screen")
        #expect(try session.display("#{cursor_flag}") == "0", "the cursor is hidden while drawing")

        try session.send("q")
        let status = session.exitStatus(within: Patience.generous)
        #expect(status == 0)
        #expect(try session.display("#{alternate_on}") == "0", "the alternate screen was left")
        #expect(try session.display("#{cursor_flag}") == "1", "the cursor is shown again")
        let stty = session.sttyAfterExit
        #expect(stty.contains(" icanon") && stty.contains(" echo "), "line input and echo restored: \(stty)")
        #expect(!(try session.capture().containsBraille), "the normal screen is back")
    }

    @Test func ctrlCRestoresTheTerminalAndExits130() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        let session = try TmuxSession(
            command: "\(Self.binary) run \(PackageFiles.scenario("bounce.json"))", directory: directory)
        #expect(try session.wait(seconds: Patience.generous) { try session.capture().containsBraille })
        try session.send("C-c")
        #expect(session.exitStatus(within: Patience.generous) == 130)
        #expect(try session.display("#{alternate_on}") == "0")
        #expect(try session.display("#{cursor_flag}") == "1")
        #expect(session.sttyAfterExit.contains(" echo "))
    }

    @Test func pauseStopsTheClockAndSpaceResumes() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        // A run whose clock never reaches its end during the test, so "moves again" can be seen.
        let session = try TmuxSession(
            command: "\(Self.binary) run \(PackageFiles.scenario("pile-100.json")) --duration 600",
            directory: directory)
        #expect(try session.wait(seconds: Patience.generous) { try session.capture().contains("fps") })
        try session.send("Space")
        #expect(try session.wait(seconds: Patience.generous) { try session.capture().contains("PAUSED") })
        let first = try Self.hud(session)
        // A window in which a running clock would move (half a second is 60 steps); a slow
        // machine can only make it see less, never fail a view that pauses.
        Thread.sleep(forTimeInterval: 0.5)
        let second = try Self.hud(session)
        #expect(Self.hudTime(first) == Self.hudTime(second), "simulated time moved while paused: \(first) → \(second)")
        try session.send("Space")
        #expect(try session.wait(seconds: Patience.generous) { !(try session.capture().contains("PAUSED")) })
        #expect(
            try session.wait(seconds: Patience.generous) { Self.hudTime(try Self.hud(session)) > Self.hudTime(second) },
            "the clock moves again after space")
        try session.send("q")
        #expect(session.exitStatus(within: Patience.generous) == 0)
    }

    @Test func recordedTiltReplaysToAnIdenticalTrace() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        // Without its `expect`: the keys tilt the pile at moments that vary from run to run, and
        // the replay's `run` would exit 1 whenever that tilt breaks the pile's intent.
        let scenario = try PackageFiles.scenarioWithoutExpectations("pile-100.json", in: directory.url.path)
        let csv = directory.path("tilt.csv"), live = directory.path("live.jsonl"),
            replay = directory.path("replay.jsonl")
        // Eight seconds leave room for every key to land and show, each waited for, on a
        // loaded machine (it takes well under one on an idle one).
        let session = try TmuxSession(
            command: "\(Self.binary) record \(scenario) --out \(csv) --trace \(live) --duration 8 --exit-at-end",
            columns: 140, directory: directory)
        #expect(try session.wait(seconds: Patience.generous) { try session.capture().contains("←→ tilt") })
        let keys = ["Right", "Right", "Right", "Left", "Right", "Right", "Left", "Left", "Left", "Left", "Left"]
        #expect(
            try Self.tilt(session, keys: keys) == keys.count, "every key turned gravity on the HUD before the run ended"
        )
        #expect(session.exitStatus(within: Patience.generous) == 0)
        let recorded = try String(contentsOfFile: csv, encoding: .utf8)
        let samples = recorded.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("t,") }
        #expect(samples.count >= 4, "the arrow keys changed gravity: \(recorded)")

        let run = try TiltboxBinary.run(
            ["run", scenario, "--tilt", csv, "--trace", replay, "--duration", "8"], in: directory)
        #expect(run.status == 0, "replay: \(run.stderr)")
        let diff = try TiltboxBinary.run(["diff", live, replay], in: directory)
        #expect(diff.status == 0, "diff: \(diff.stdout) \(diff.stderr)")
        #expect(diff.stdout.contains("identical: 961 records"), "\(diff.stdout)")
    }

    @Test func recordingStoppedWithQEndsCompleteAndItsOwnReplayCommandDiffsIdentical() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        // Without its `expect`, as above: the replay command's `run` must not exit 1 on the pile's intent.
        let scenario = try PackageFiles.scenarioWithoutExpectations("pile-100.json", in: directory.url.path)
        let csv = directory.path("tilt.csv"), live = directory.path("live.jsonl")
        let session = try TmuxSession(
            command:
                "cd \(directory.url.path) && \(Self.binary) record \(scenario) --out tilt.csv --trace live.jsonl --every 7",
            columns: 140, directory: directory)
        #expect(try session.wait(seconds: Patience.generous) { try session.capture().contains("←→ tilt") })
        let keys = ["Right", "Right", "Left", "Right", "Right", "Right"]
        #expect(try Self.tilt(session, keys: keys) == keys.count, "every key turned gravity on the HUD")
        // Let the run pass 1.2 simulated seconds, then stop the recording with q.
        #expect(try session.wait(seconds: Patience.generous) { Self.hudTime(try Self.hud(session)) > 1.2 })
        try session.send("q")
        #expect(session.exitStatus(within: Patience.generous) == 0)

        let liveLines = try JSONLines.lines(file: live)
        let end = JSONLines.objects(liveLines.last ?? "", source: live).first ?? [:]
        #expect(end["end"] as? String == "complete", "the recording ends complete: \(liveLines.last ?? "")")
        let steps = try #require(JSONLines.number(end["steps"]).map { Int($0) })
        #expect(steps > 100 && steps < 1200, "stopped early, at step \(steps)")
        let lastRecord = JSONLines.objects(liveLines[liveLines.count - 2], source: live).first ?? [:]
        #expect(JSONLines.number(lastRecord["step"]).map { Int($0) } == steps, "the last step taken is recorded")

        let firstLine =
            try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix("# replay: tiltbox run "), "\(firstLine)")
        let command = String(firstLine.dropFirst("# replay: tiltbox".count))
        #expect(
            command.contains("--duration ") && command.contains("--every 7")
                && command.contains("--trace live-replay.jsonl"), "\(command)")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "\(Self.binary)\(command)"]
        shell.currentDirectoryURL = directory.url
        shell.standardOutput = FileHandle.nullDevice
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "replay command: \(command)")
        let diff = try TiltboxBinary.run(["diff", live, directory.path("live-replay.jsonl")], in: directory)
        #expect(diff.status == 0, "diff: \(diff.stdout) \(diff.stderr)")
        #expect(diff.stdout.contains("identical"), "\(diff.stdout)")
    }

    @Test func hudShowsPhysicsAndDrawingCostPerFrameWithTheirSharesOfTheFrame() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        let session = try TmuxSession(
            command: "\(Self.binary) run \(PackageFiles.scenario("pile-100.json")) --fps 50",
            columns: 160, directory: directory)
        let costs = /phys (\d+\.\d\d)ms (\d+)% │ draw (\d+\.\d\d)ms (\d+)% │/
        var figures: (physics: Double, physicsShare: Double, draw: Double, drawShare: Double)?
        // Wait until both running averages have figures (the drawer's first frame has none yet).
        _ = try session.wait(seconds: Patience.generous) {
            let hud = try session.capture().split(separator: "\n").last { $0.contains("fps") } ?? ""
            guard let match = hud.firstMatch(of: costs),
                let p = Double(match.1), let ps = Double(match.2), let d = Double(match.3), let ds = Double(match.4)
            else { return false }
            figures = (p, ps, d, ds)
            return p > 0 && d > 0
        }
        let f = try #require(figures, "no phys and draw figures on the HUD")
        #expect(f.physics > 0 && f.draw > 0, "\(f)")
        // Each share is its cost over the frame budget, 1/50 s = 20 ms (the figures are rounded).
        #expect(abs(f.physicsShare - f.physics / 20 * 100) <= 1, "\(f)")
        #expect(abs(f.drawShare - f.draw / 20 * 100) <= 1, "\(f)")
        try session.send("q")
        #expect(session.exitStatus(within: Patience.generous) == 0)
    }

    @Test func theThreadedLiveViewRecordsTheSameTraceAsAHeadlessRun() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.scenario("pile-100.json")
        let live = directory.path("live.jsonl"), headless = directory.path("headless.jsonl")
        // A scripted session: the scenario's own gravity, a record every 7 steps (the view's
        // buffer still gets every step), closed by itself at the end.
        let session = try TmuxSession(
            command:
                "\(Self.binary) run \(scenario) --view terminal --trace \(live) --duration 1.5 --every 7 --exit-at-end",
            directory: directory)
        #expect(session.exitStatus(within: Patience.generous) == 0)
        let run = try TiltboxBinary.run(
            ["run", scenario, "--view", "none", "--trace", headless, "--duration", "1.5", "--every", "7"],
            in: directory)
        #expect(run.status == 0, "headless: \(run.stderr)")
        let diff = try TiltboxBinary.run(["diff", live, headless], in: directory)
        #expect(diff.status == 0, "diff: \(diff.stdout) \(diff.stderr)")
        // Steps 0, 7, …, 175 and the last, 180.
        #expect(diff.stdout.contains("identical: 27 records"), "\(diff.stdout)")
    }

    @Test func theLiveViewDrawsSpawnedBodiesAndRecordsTheTimelineAsAHeadlessRun() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        // An emitter over an open box: at start only the box, in the lower half of the world.
        let scenario = PackageFiles.scenario("emitter.json")
        let live = directory.path("live.jsonl"), headless = directory.path("headless.jsonl")
        let session = try TmuxSession(
            command:
                "\(Self.binary) run \(scenario) --view terminal --trace \(live) --duration 6.5 --every 7 --exit-at-end",
            directory: directory)
        var top = ""
        // Spawned balls falling from the emitter are drawn in the top third, above the box: inside
        // the world's walls (the first row and the outer columns are the walls).
        let drawn = try session.wait(seconds: Patience.generous) {
            let rows = try session.capture().split(separator: "\n", omittingEmptySubsequences: false)
            top = rows.prefix(max(rows.count / 3, 2)).dropFirst().map { String($0.dropFirst(8).dropLast(8)) }
                .joined(separator: "\n")
            return Self.hudTime(try Self.hud(session)) > 1 && top.containsBraille
        }
        #expect(drawn, "no spawned body drawn above the box:\n\(top)")
        #expect(session.exitStatus(within: Patience.generous) == 0)
        let run = try TiltboxBinary.run(
            ["run", scenario, "--view", "none", "--trace", headless, "--duration", "6.5", "--every", "7"],
            in: directory)
        #expect(run.status == 0, "headless: \(run.stderr)")
        let diff = try TiltboxBinary.run(["diff", live, headless], in: directory)
        #expect(diff.status == 0, "diff: \(diff.stdout) \(diff.stderr)")
        // Steps 0, 7, …, 777 and the last, 780.
        #expect(diff.stdout.contains("identical: 113 records"), "\(diff.stdout)")
    }

    @Test func terminalViewIsRefusedWhenStandardOutputIsNotATerminal() throws {
        let directory = try TemporaryDirectory()
        let run = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("bounce.json"), "--view", "terminal"], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("terminal"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
