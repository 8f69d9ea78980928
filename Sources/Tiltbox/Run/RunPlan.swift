import Foundation

/// One run of a scenario, decided in one place: the scenario loaded (a file, or the
/// built-in default) with its `--set` overrides, the gravity input chosen for it, and,
/// once resolved, the gravity track, and the trace header's `source` that describes it.
///
/// `run`, `record`, `verify`, `validate` and `batch` (whose children are `run` and `verify`) go
/// through a plan: the command line parses its options into one, asks it to resolve
/// and run, and prints what comes back. The steps are separate so a command can refuse
/// options between them (before the tilt file is read) as it always did:
/// ```
/// let plan = try RunPlan.load(scenarioPath: path, overrides: sets, gravity: input)
/// let resolved = try plan.resolve()           // reads the tilt file
/// let summary = try plan.runHeadless(resolved, options: options, tracePath: trace,
///                                    source: plan.source(resolved)) // hashes the tilt file
/// ```
/// Features that add to a run hook in here rather than in each command: expectations
/// checked while the run steps are a sink given every step (`RecordSink.recordsEveryStep`)
/// passed in `sinks`, so `run`, `verify`, a batch job and a `tiltbox test` job all get
/// them; a timeline of actions is part of the scenario the plan loads and the session
/// applies, and its provenance goes in `source(_:)`.
@_spi(Tools) public struct RunPlan: Sendable {
    /// The scenario file, or `nil` for the built-in default.
    public let scenarioPath: String?
    /// How messages name the scenario: its path, or `built-in default (book)`.
    public let label: String
    /// The scenario, overrides applied and validated.
    public let scenario: Scenario
    /// The SHA-256 of the scenario file's bytes as loaded (`nil` for the built-in default).
    public let scenarioSHA256: String?
    /// Lines warning of a scenario that loads but probably does not do what was meant
    /// (`ScenarioLoader.warnings(for:)`, from the overlap census the load took), without the file name.
    public let warnings: [String]
    /// The `--set` overrides applied, in order.
    public let overrides: [ScenarioOverride]
    /// The gravity input chosen: `--tilt` and the options shaping it.
    public var gravity: GravityInput

    /// How messages name the built-in default scenario.
    public static let builtInLabel = "built-in default (\(BuiltInScenario.name))"

    /// Loads the scenario at `scenarioPath` (`nil`: the built-in default) with
    /// `overrides` applied before validation: the file is read once, and the bytes read
    /// are hashed and loaded; the overlap census the loader takes also gives the
    /// warnings. The tilt file is not read yet (`resolve`).
    /// - Throws: `InputError` naming the file and place at fault.
    public static func load(
        scenarioPath: String?, overrides: [ScenarioOverride] = [],
        gravity: GravityInput = GravityInput()
    ) throws(InputError) -> RunPlan {
        let checked: ScenarioLoader.Checked
        var sha256: String?
        if let scenarioPath {
            let data = try ScenarioLoader.readFile(scenarioPath)
            sha256 = SHA256.hex(of: data)
            checked = try ScenarioLoader.load(data: data, path: scenarioPath, overrides: overrides)
        } else {
            checked = try BuiltInScenario.loadChecked(overrides: overrides)
        }
        return RunPlan(
            scenarioPath: scenarioPath, label: scenarioPath ?? builtInLabel, scenario: checked.scenario,
            scenarioSHA256: sha256, warnings: checked.warnings, overrides: overrides, gravity: gravity)
    }

    /// The orientation and g of the tilt input, and of the live view's arrow keys
    /// (`TiltFrame.resolve`: the option, else the scenario's `tilt`, else portrait and
    /// the length of `world.gravity`).
    public var tiltFrame: TiltFrame { gravity.frame(for: scenario) }

    /// The gravity of a run, resolved: its track and the tilt file loaded (`nil`: the
    /// constant `world.gravity`).
    public struct Resolved: Sendable {
        /// The gravity track the run follows.
        public var track: any GravityTrack
        /// The tilt file loaded, when there is one.
        public var tilt: LoadedTilt?
    }

    /// Reads the tilt input (`GravityInput.resolve(for:)`).
    /// - Throws: `InputError` for a bad or missing tilt file.
    public func resolve() throws(InputError) -> Resolved {
        let (track, tilt) = try gravity.resolve(for: scenario)
        return Resolved(track: track, tilt: tilt)
    }

    /// The trace header's `source` for a run with `resolved`'s tilt: paths as given, the
    /// scenario's hash from its load, the tilt file hashed now, the tilt options applied and the overrides.
    public func source(_ resolved: Resolved) -> TraceHeader.Source {
        var source = TraceHeader.Source.describing(
            scenarioPath: scenarioPath, scenarioSHA256: scenarioSHA256,
            scenario: scenario, input: gravity, tilt: resolved.tilt)
        source.overrides = overrides.map(TraceHeader.Source.Override.init)
        return source
    }

    /// A fresh gravity track, for each restart of the live view (the tilt file is read again).
    public func makeTrack() throws(InputError) -> any GravityTrack {
        try gravity.resolve(for: scenario).track
    }

    /// Runs the plan headless to its end or to Ctrl-C (`ScenarioRunner.run`).
    /// - Parameters:
    ///   - resolved: From `resolve()`.
    ///   - tracePath: Where the trace goes (`"-"`: standard output), or `nil` for none.
    ///   - source: What the trace header records as its `source` (`source(_:)`; `nil`
    ///     for none, as in a `verify` re-run's temporary trace).
    ///   - progress: Called after each frame.
    ///   - sinks: More consumers of the records.
    /// - Throws: `RunFailure` when the trace cannot be written.
    public func runHeadless(
        _ resolved: Resolved, options: RunOptions, tracePath: String?, source: TraceHeader.Source?,
        progress: (RunSession) -> Void = { _ in }, sinks: [any RecordSink] = []
    ) throws -> RunSummary {
        try ScenarioRunner.run(
            scenario: scenario, track: resolved.track, options: options, tracePath: tracePath,
            tiltName: resolved.tilt?.source, source: source,
            progress: progress, sinks: sinks)
    }
}
