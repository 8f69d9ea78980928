import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

extension TiltboxCommand {
    /// `tiltbox validate`: check scenario and tilt files without running them.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check scenario and tilt files without running them.",
            discussion: """
                A .json file whose format is tiltbox-scenario/1 is checked as a scenario (with its tilt file, if any, \
                or the --tilt given, as run would use it); \
                everything else as a tilt file (\(TiltFormat.helpList), folder or zip). A phyphox://HOST[:PORT] \
                URL is checked for its form, without contacting the phone.
                Prints one line per valid file and one error line per invalid file; exits 2 if any file is invalid.
                """)

        @Argument(help: "Scenario or tilt files to check.")
        var files: [String]

        @OptionGroup var tiltOptions: TiltOptions

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one file to validate") }
        }

        func run() throws {
            var failures = 0
            for file in files {
                let line: String
                do {
                    line = try check(file)
                } catch let error as InputError {
                    failures += 1
                    try Console.error(error.description)
                    continue
                }
                try Console.out(line)
            }
            if failures > 0 { throw ExitCode(ExitStatus.badInput) }
        }

        /// `2 bodies (1 dynamic, 1 static), ` for a scenario with `bodies`, else nothing.
        static func bodySummary(_ scenario: Scenario) -> String {
            guard !scenario.bodies.isEmpty else { return "" }
            let perType = BodyType.allCases.compactMap { type -> String? in
                let n = scenario.bodies.filter { $0.type == type }.count
                return n == 0 ? nil : "\(n) \(type.rawValue)"
            }
            return PeopleText.count(scenario.bodies.count, "body", plural: "bodies") + " ("
                + perType.joined(separator: ", ") + "), "
        }

        /// The `ok:` line for `file`, after its warnings; an `InputError` when it is invalid
        /// (a failed write of a warning is thrown as it is).
        private func check(_ file: String) throws -> String {
            // A live source is checked for form only: nothing is connected to.
            if let live = try LiveTiltInput.parse(file) {
                switch live {
                case .phyphox(let host, let port):
                    return "ok: \(file): phyphox remote access at host \(host), port \(port) (not contacted)"
                case .standardInput:
                    throw InputError(
                        file: file,
                        reason: "'-' streams a tilt CSV into a run; validate checks files and phyphox:// URLs")
                }
            }
            let kind = FileKind.of(file)
            if kind == .trace {
                throw InputError(
                    file: file,
                    reason:
                        "this is a Tiltbox trace, not a scenario or tilt file (compare traces with 'tiltbox diff', draw one with 'tiltbox render')"
                )
            }
            if FileKind.isScenario(file, kind: kind) {
                // With `--tilt`, the scenario is checked with that input, as `run` would use it: a
                // file is loaded in place of the scenario's own `tilt`, a live source's form is
                // checked (nothing is contacted).
                let live = try tiltOptions.liveInput()
                let plan = try RunPlan.load(scenarioPath: file, gravity: tiltOptions.gravityInput)
                let scenario = plan.scenario
                try ScenarioWarnings.print(plan.warnings, label: file)
                let joints = scenario.joints.isEmpty ? "" : PeopleText.count(scenario.joints.count, "joint") + ", "
                var line =
                    "ok: \(file): scenario '\(scenario.name)', \(PeopleText.count(scenario.crates.count, "crate")), \(Self.bodySummary(scenario))\(PeopleText.count(scenario.allSegments.count, "static segment")), \(joints)\(PeopleText.count(scenario.totalSteps, "step")) at \(PeopleText.hertz(scenario.timestep.hz)), \(scenario.world.spatialIndex.traceName)"
                line += "; space: " + SpaceSettings.effective(for: scenario.world).summary
                if !scenario.timeline.isEmpty {
                    let actions = scenario.timeline.entries.reduce(0) { $0 + $1.count }
                    line += "; timeline: \(PeopleText.count(actions, "action"))"
                }
                if !scenario.rules.isEmpty {
                    line += "; rules: \(PeopleText.count(scenario.rules.count, "rule"))"
                    if !scenario.counters.isEmpty {
                        line += " (counters: \(scenario.counters.joined(separator: ", ")))"
                    }
                }
                if let margin = scenario.cullMargin { line += "; cull margin \(PeopleText.number(margin))" }
                if let live {
                    line +=
                        "; tilt \(live.label) (live: its form checked, nothing contacted), "
                        + plan.tiltFrame.orientation.rawValue
                } else if let tilt = try plan.resolve().tilt {
                    line += "; tilt \(tilt.source): \(tilt.summary), \(plan.tiltFrame.orientation.rawValue)"
                }
                return line
            }
            let frame = TiltFrame.standalone(orientation: tiltOptions.orientation, g: tiltOptions.g)
            let tilt = try TiltFile.load(
                path: file, orientation: frame.orientation, g: frame.g,
                interpolation: tiltOptions.interpolate ?? .hold, convention: tiltOptions.convention)
            return
                "ok: \(file): tilt \(tilt.summary), from \(PeopleText.number(tilt.startTime)) s to \(PeopleText.number(tilt.endTime)) s, \(frame.orientation.rawValue)"
        }
    }
}

/// Tells scenario files from tilt files (and traces given by mistake) by their `format` key.
enum FileKind {
    /// The kind of Tiltbox JSON file at `path` (`nil` for anything else: CSV, a folder,
    /// a zip, a file that does not parse). Files above the scenario size limit are not read.
    static func of(_ path: String) -> TiltboxFileKind? {
        TiltboxFileKind.ofFile(atPath: path, maxWholeBytes: ScenarioLoader.limits.maxFileBytes)
    }

    /// True for a `.json` file that is not a `tiltbox-tilt/...` keyframes file (`kind`:
    /// `of(path)`, read once by the caller). A file that fails to parse is treated as a
    /// scenario, so its syntax error is reported as one.
    static func isScenario(_ path: String, kind: TiltboxFileKind?) -> Bool {
        guard path.lowercased().hasSuffix(".json") else { return false }
        return kind != .tiltKeyframes
    }
}
