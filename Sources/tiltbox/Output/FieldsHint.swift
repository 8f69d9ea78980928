@_spi(Tools) import Tiltbox

/// After a divergence found on record hashes (a hash trace holds no fields), the commands
/// that show the fields: record both runs in full up to that step, then diff them.
enum FieldsHint {
    /// One run to re-record: its scenario (`nil`: the built-in default), gravity input and overrides.
    struct Rerun {
        var scenario: String?
        var input: GravityInput
        var overrides: [ScenarioOverride]

        /// The run a trace header's `source` describes (paths resolved against the trace's folder),
        /// or `nil` when the header does not record it.
        static func recorded(in header: TraceHeader, tracePath: String) -> Rerun? {
            guard let source = header.source else { return nil }
            let resolve = { (path: String) in TraceHeader.Source.resolvedPath(path, forTrace: tracePath) }
            let input = GravityInput(
                file: source.tilt.map(resolve), orientation: source.orientation, g: source.g,
                interpolation: source.interpolate ?? .hold, convention: source.convention)
            let overrides = source.overrides.compactMap { try? ScenarioOverride(path: $0.path, json: $0.json) }
            return Rerun(scenario: source.scenario.map(resolve), input: input, overrides: overrides)
        }

        /// `tiltbox run ... --every 1 --duration T --view none --trace OUT`.
        func command(duration: Double, trace: String) -> String {
            var words = ["tiltbox", "run"]
            if let scenario { words.append(scenario) }
            if let file = input.file { words += ["--tilt", file] }
            if let orientation = input.orientation { words += ["--orientation", orientation.rawValue] }
            if input.file != nil { words += ["--interpolate", input.interpolation.rawValue] }
            if let g = input.g { words += ["--g", NumberFormat.shortest(g)] }
            if let convention = input.convention { words += ["--convention", convention.rawValue] }
            for override in overrides { words += ["--set", "\(override.path)=\(override.json)"] }
            words += [
                "--every", "1", "--duration", NumberFormat.shortest(duration), "--view", "none", "--trace", trace,
            ]
            return words.map(ShellWord.quote).joined(separator: " ")
        }
    }

    /// The note lines for a hash divergence at `step` (time `time`, timestep `dt`): `a` and `b`
    /// are the two runs (`nil` when unknown), `aWhere`/`bWhere` say where to run each.
    static func lines(
        step: Int, time: Double, dt: Double, a: Rerun?, b: Rerun?, aName: String, bName: String,
        aWhere: String = "", bWhere: String = ""
    ) -> [String] {
        // At least one step, so that step 0's difference has a run to show it.
        let duration = step == 0 ? dt : time
        let unknown =
            "tiltbox run SCENARIO [its options] --every 1 --duration \(NumberFormat.shortest(duration)) --view none --trace "
        let aTrace = "\(aName)-fields.jsonl", bTrace = "\(bName)-fields.jsonl"
        return [
            "a hash trace holds no fields; to see them, record both runs in full up to step \(step):",
            "  " + (a?.command(duration: duration, trace: aTrace) ?? unknown + aTrace) + aWhere,
            "  " + (b?.command(duration: duration, trace: bTrace) ?? unknown + bTrace) + bWhere,
            "  " + ["tiltbox", "diff", aTrace, bTrace].map(ShellWord.quote).joined(separator: " "),
        ]
    }
}
