import Foundation
@_spi(Tools) import Tiltbox

/// A run driven live by `--tilt -` or `--tilt phyphox://HOST[:PORT]`, as `run` and
/// `record` share it: the source opened before the run, the `LiveTiltTrack` it feeds,
/// and, after the run, the CSV of the gravity applied (its first comment the exact replay
/// command) and the feed's warnings and counts.
struct LiveTiltRecording {
    let input: LiveTiltInput
    let feed: LiveTiltFeed
    let frame: TiltFrame

    /// Opens the source (a phone is contacted now: a wrong address is exit 2 before the run).
    static func open(_ input: LiveTiltInput, plan: RunPlan, frame: TiltFrame, fps: Double) throws -> LiveTiltRecording {
        let feed = try input.open(frame: frame, fps: fps)
        return LiveTiltRecording(input: input, feed: feed, frame: frame)
    }

    /// A fresh track for a run (the first, or a restart of the live view): it starts at the
    /// newest sample received (when within the gravity bound), else pointing the way the
    /// scenario's `world.gravity` does.
    func makeTrack(scenario: Scenario) -> LiveTiltTrack {
        if let sample = feed.newestSample,
            GravityBound.violation(
                SampledGravityTrack.worldValue(sample.reading, orientation: frame.orientation, g: frame.g)) == nil
        {
            return LiveTiltTrack(initialReading: sample.reading, orientation: frame.orientation, g: frame.g)
        }
        return LiveTiltTrack(initialGravity: scenario.world.gravity, orientation: frame.orientation, g: frame.g)
    }

    /// Where the CSV goes: `--out`, else beside the trace (`run.jsonl` → `run-tilt.csv`),
    /// else `live-tilt.csv` in the working folder; a name chosen here never replaces a file
    /// (`-2`, `-3`… are added).
    static func csvPath(out: String?, trace: String?) -> String {
        if let out { return out }
        var stem = "live"
        if let trace, trace != "-" {
            stem = trace
            if stem.hasSuffix(".zst") { stem = String(stem.dropLast(4)) }
            if stem.hasSuffix(".jsonl") { stem = String(stem.dropLast(6)) }
        }
        var path = stem + "-tilt.csv"
        var n = 2
        while FileManager.default.fileExists(atPath: path) {
            path = stem + "-tilt-\(n).csv"
            n += 1
        }
        return path
    }

    /// Prints the feed's new warnings on standard error (each kind once).
    func printWarnings() throws {
        for warning in feed.takeWarnings() { try Console.error("tiltbox: \(warning)") }
    }

    /// Stops the source, writes `track`'s CSV to `path` (whole or not at all) with `replay`
    /// as its first comment, and says so on standard error with the feed's counts.
    func finish(track: LiveTiltTrack, to path: String, replay: String, summary: RunSummary, label: String) throws {
        feed.stop()
        let report = feed.report
        let counts =
            "\(input.label): " + (report.polls > 0 ? "\(PeopleText.count(report.polls, "request")), " : "")
            + "\(PeopleText.count(report.samplesReceived, "sample")) received, newest sample at most "
            + String(format: "%.3f", report.maxAge) + " s old at a frame"
            + (report.gaps > 0 ? ", \(PeopleText.count(report.gaps, "gap"))" : "")
            + (report.badRows > 0 ? ", \(PeopleText.count(report.badRows, "bad row")) skipped" : "")
        let comment = """
            replay: \(replay)
            recorded live from \(input.label) by tiltbox for \(label) (\(summary.steps) steps, ended \(summary.outcome == .complete ? "complete" : "interrupted")); orientation \(frame.orientation.rawValue), g \(NumberFormat.shortest(frame.g))
            \(counts)
            """
        try printWarnings()
        try OutputFile.write(Array(track.csv(comment: comment).utf8), to: path)
        try Console.error("tiltbox: \(counts)")
        try Console.error(
            "tiltbox: wrote the \(PeopleText.count(track.samples.count, "tilt sample")) applied to \(path); replay: \(replay)"
        )
    }

    /// The command replaying the CSV: `words` (the scenario, its options), `--tilt CSV`,
    /// `--duration` for the time reached (0 steps: the full duration is left), and the trace.
    static func replayCommand(
        scenario: String?, csv: String, steps: Int, time: Double, every: Int, frame: TiltFrame,
        overrides: [ScenarioOverride], trace: String?
    ) -> String {
        var words = ["tiltbox", "run"]
        if let scenario { words.append(scenario) }
        words += ["--tilt", csv]
        if steps > 0 { words += ["--duration", NumberFormat.shortest(time)] }
        if every != 1 { words += ["--every", String(every)] }
        words += ["--orientation", frame.orientation.rawValue, "--g", NumberFormat.shortest(frame.g)]
        for override in overrides { words += ["--set", "\(override.path)=\(override.json)"] }
        if let trace, trace != "-" { words += ["--trace", TiltboxCommand.Record.replayTracePath(for: trace)] }
        return words.map(ShellWord.quote).joined(separator: " ")
    }
}
