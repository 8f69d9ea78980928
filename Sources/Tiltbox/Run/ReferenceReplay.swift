import Foundation

/// What `tiltbox verify` re-runs to check a reference trace: the scenario, gravity input
/// and options its header records (`source`, docs/formats.md §3), each overridden by what the
/// command line gives. Paths in the header are resolved against the trace file's folder.
///
/// A trace written before headers described their source has no `source`: its scenario
/// must then be named, and the scenario's own tilt settings apply, as they did.
@_spi(Tools) public struct ReferenceReplay: Sendable {
    /// The options given on the command line; `nil` leaves the header's value.
    public struct Overrides: Sendable {
        public var tilt: String?
        public var orientation: Orientation?
        public var interpolate: Interpolation?
        public var g: Double?
        public var convention: SensorConvention?
        /// `--set` overrides: applied after the header's, each replacing a header
        /// override of the same path (`ScenarioOverride.merged`).
        public var set: [ScenarioOverride]

        public init(
            tilt: String? = nil, orientation: Orientation? = nil, interpolate: Interpolation? = nil,
            g: Double? = nil, convention: SensorConvention? = nil, set: [ScenarioOverride] = []
        ) {
            self.tilt = tilt
            self.orientation = orientation
            self.interpolate = interpolate
            self.g = g
            self.convention = convention
            self.set = set
        }
    }

    /// The run to make: the scenario, its overrides (the header's, then the command
    /// line's) and the gravity input.
    public var plan: RunPlan
    /// The reference trace's header.
    public var reference: TraceHeader

    /// The scenario file run, or `nil` for the built-in default.
    public var scenarioPath: String? { plan.scenarioPath }
    /// The scenario run.
    public var scenario: Scenario { plan.scenario }
    /// The gravity input, resolved with `plan.resolve()`.
    public var input: GravityInput { plan.gravity }
    /// The scenario overrides applied: the header's, then the command line's.
    public var overrides: [ScenarioOverride] { plan.overrides }

    /// Decides what to re-run for the reference trace at `tracePath` with header
    /// `reference`; `scenarioPath` is the scenario named on the command line, if any.
    /// - Throws: `InputError` when the scenario is not named and the header does not
    ///   record it, or when a file the header names is not there.
    public static func plan(
        reference: TraceHeader, tracePath: String, scenarioPath: String?,
        overrides: Overrides
    ) throws(InputError) -> ReferenceReplay {
        let source = reference.source
        // The header's overrides are applied again, then the command line's.
        var recorded: [ScenarioOverride] = []
        for override in source?.overrides ?? [] {
            do {
                recorded.append(try ScenarioOverride(path: override.path, json: override.json))
            } catch {
                throw InputError(
                    file: tracePath, path: TraceHeader.Source.fieldPath(of: \.overrides), reason: error.description)
            }
        }
        let scenarioOverrides = ScenarioOverride.merged(recorded, overrides.set)
        let resolvedScenario: String?
        if let scenarioPath {
            resolvedScenario = scenarioPath
        } else if let source {
            resolvedScenario = source.scenario.map { TraceHeader.Source.resolvedPath($0, forTrace: tracePath) }
        } else {
            throw InputError(
                file: tracePath,
                reason: "the header does not record its scenario (a trace written by "
                    + "an older tiltbox): name it, as in 'tiltbox verify SCENARIO --against \(tracePath)'")
        }
        if let resolvedScenario, scenarioPath == nil {
            try requireRecorded(
                resolvedScenario, key: TraceHeader.Source.fieldPath(of: \.scenario), what: "scenario",
                tracePath: tracePath)
        }
        var plan = try RunPlan.load(scenarioPath: resolvedScenario, overrides: scenarioOverrides)
        var input = GravityInput(
            file: overrides.tilt, orientation: overrides.orientation ?? source?.orientation,
            g: overrides.g ?? source?.g,
            interpolation: overrides.interpolate ?? source?.interpolate ?? .hold,
            convention: overrides.convention ?? source?.convention)
        if overrides.tilt == nil, let recorded = source?.tilt {
            let path = TraceHeader.Source.resolvedPath(recorded, forTrace: tracePath)
            try requireRecorded(
                path, key: TraceHeader.Source.fieldPath(of: \.tilt), what: "tilt input", tracePath: tracePath)
            input.file = path
        }
        plan.gravity = input
        return ReferenceReplay(plan: plan, reference: reference)
    }

    private static func requireRecorded(_ path: String, key: String, what: String, tracePath: String) throws(InputError)
    {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        throw InputError(
            file: tracePath, path: key,
            reason: "the \(what) the reference was recorded from, \(path), "
                + "is not there; name it on the command line")
    }

    /// The header this run's trace will have, for `TraceHeaderMismatch.between`.
    public func runHeader() -> TraceHeader {
        TraceHeader(scenario: scenario, every: reference.every, duration: 0)
    }

    /// Why the reference does not describe this run, as one line, or `nil` when it does
    /// (same scenario name, bodies, fields, dt and every).
    public func mismatch() -> String? {
        guard let mismatch = TraceHeaderMismatch.between(reference, runHeader(), compareScenarioNames: true) else {
            return nil
        }
        var line = mismatch.describe(.verify)
        if scenarioChanged { line += " (the scenario file changed since the reference was recorded)" }
        return line
    }

    /// Whether the scenario file (of the reference's scenario name) had another SHA-256,
    /// when loaded, than the one the header records.
    public var scenarioChanged: Bool {
        guard let recorded = reference.source?.scenarioSHA256, let loaded = plan.scenarioSHA256,
            scenario.name == reference.scenario
        else {
            return false
        }
        return loaded != recorded
    }

    /// Whether the tilt file's SHA-256 differs from the one the header records (when
    /// the tilt input run is a file and the header records a hash).
    public func tiltChanged(_ tilt: LoadedTilt?) -> Bool {
        guard let recorded = reference.source?.tiltSHA256, let tilt, let path = input.file ?? scenario.tilt?.file else {
            return false
        }
        guard let now = SHA256.hex(ofFileAt: path) ?? SHA256.hex(ofFileAt: tilt.source) else { return false }
        return now != recorded
    }

    /// Lines to print after a divergence, saying what may explain it: the scenario or
    /// tilt file changed since the reference was recorded, or the reference comes from
    /// another platform.
    public func divergenceNotes(tilt: LoadedTilt?, platform: TraceHeader.Platform = .current) -> [String] {
        var notes: [String] = []
        if scenarioChanged, let scenarioPath {
            notes.append(
                "the scenario \(scenarioPath) changed since the reference was recorded (its SHA-256 differs from the reference header's)"
            )
        }
        if tiltChanged(tilt), let path = input.file ?? scenario.tilt?.file {
            notes.append(
                "the tilt input \(path) changed since the reference was recorded (its SHA-256 differs from the reference header's)"
            )
        }
        if let recorded = reference.platform {
            let differences = recorded.differences(from: platform)
            if !differences.isEmpty {
                let names = differences.map(TraceHeader.Platform.label(ofKey:))
                notes.append(
                    "the reference was recorded on another platform (\(names.joined(separator: ", ")) "
                        + (names.count == 1 ? "differs" : "differ") + "; "
                        + "reference: \(recorded.summary); this run: \(platform.summary)): bit-identical results are not "
                        + "expected across architectures, Chipmunk builds or libm variants; compare within a bound with --tolerance"
                )
            }
        }
        return notes
    }
}
