internal import CNumberFormat
import Foundation

/// The entry points the fuzzers drive (`make fuzz`, the `Fuzz/` package) and the
/// regression tests replay: each feeds arbitrary bytes to one parser and, when the
/// parser accepts them, carries on as the command line would, so that a fuzz input
/// reaching the engine proves it cannot trip a Chipmunk assertion.
///
/// An input error is a correct outcome. A crash, a trap or an abort is a bug.
///
/// One target is not a parser: `numbers` drives the trace writer's number formatter
/// (C++, writing into raw buffers), the one place where a memory error was found.
///
/// Two targets fuzz what runs, not only what parses: `run-tilt` loads any tilt input
/// (CSV, phone recording or keyframes, found by content) and steps the built-in
/// scenario under it, with the whole span of the input squeezed into the steps taken,
/// so every sample and keyframe reaches the engine; `run-scenario` takes a scenario
/// and, after a NUL byte, the contents of its tilt file, and validates, warns, builds
/// and steps it as `tiltbox validate` and `tiltbox run` would. `mutateNumbers` is their
/// structured mutation: it swaps one number of a text input for an extreme one.
@_spi(Tools) public enum ParserFuzzing {
    /// A fuzz target, named by `rawValue` (`TILTBOX_FUZZ_TARGET`, `Fuzz/corpus/<name>`).
    /// Each tilt format is a target of its own (`TiltFormat.fuzzTargetName`).
    public enum Target: Hashable, CaseIterable, Sendable, RawRepresentable {
        case scenario
        case tilt(TiltFormat)
        case zip, trace, frames, numbers, runTilt, runScenario, generatedScenario

        public static let allCases: [Target] =
            [.scenario] + TiltFormat.allCases.map(Target.tilt)
            + [.zip, .trace, .frames, .numbers, .runTilt, .runScenario, .generatedScenario]

        /// The target's name.
        public var rawValue: String {
            switch self {
            case .scenario: return "scenario"
            case .tilt(let format): return format.fuzzTargetName
            case .zip: return "zip"
            case .trace: return "trace"
            case .frames: return "frames"
            case .numbers: return "numbers"
            case .runTilt: return "run-tilt"
            case .runScenario: return "run-scenario"
            case .generatedScenario: return "generated-scenario"
            }
        }

        /// The target named `rawValue`, if any.
        public init?(rawValue: String) {
            guard let target = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = target
        }

        /// Whether the target reads text with numbers in it, which `mutateNumbers` mutates.
        public var readsNumbersInText: Bool {
            switch self {
            case .scenario, .tilt, .runTilt, .runScenario, .generatedScenario: return true
            case .zip, .trace, .frames, .numbers: return false
            }
        }
    }

    /// Scenarios with at most this many crates are also built and stepped.
    public static let maxCratesToStep = 200
    /// Steps taken for an accepted scenario.
    public static let stepsToTake = 3

    /// Feeds `bytes` to `target`'s parser. Returns whether the input was accepted.
    @discardableResult
    public static func run(_ target: Target, bytes: UnsafeRawBufferPointer) -> Bool {
        switch target {
        case .scenario:
            let text = String(decoding: bytes, as: UTF8.self)
            guard let scenario = try? ScenarioLoader.parse(text: text, file: "fuzz.json", baseDirectory: nil) else {
                return false
            }
            if scenario.crates.count <= maxCratesToStep {
                // Run the accepted scenario for a few steps, gravity and all, exactly
                // as `tiltbox run` would: nothing may reach an engine assertion.
                run(
                    scenario, track: ConstantGravity(scenario.world.gravity),
                    steps: min(stepsToTake, scenario.totalSteps))
            }
            return true
        case .tilt(let format):
            return track(bytes, name: format.fuzzInput.name, convention: format.fuzzInput.convention)
        case .zip:
            let path = temporaryPath("zip")
            defer { unlink(path) }
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return false }
            guard let loaded = try? TiltFile.load(path: path, g: TiltFrame.standaloneG, convention: .ios) else {
                return false
            }
            sample(loaded.track)
            return true
        case .trace:
            return (try? TraceReader.parse(utf8: bytes.bindMemory(to: UInt8.self), file: "fuzz.jsonl")) != nil
        case .frames:
            let path = temporaryPath("frames")
            defer { unlink(path) }
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return false }
            guard let profile = try? FrameProfile.parse("file:\(path)") else { return false }
            var clock = profile.makeClock()
            for _ in 0..<16 { _ = clock.nextFrameDuration() }
            return true
        case .numbers:
            return formatNumbers(bytes)
        case .runTilt:
            return runTilt(bytes)
        case .runScenario:
            return runScenario(bytes)
        case .generatedScenario:
            return runGenerated(bytes)
        }
    }

    // MARK: - Run what parses

    /// Steps taken with a tilt input applied.
    public static let tiltStepsToTake = 8

    private static func runTilt(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let data = Data(bytes)
        // The loader finds the format from the contents, as `tiltbox run --tilt` does
        // (every format's sample name reads the same: `--convention` is given).
        let name = "fuzz-input"
        let orientation = Orientation.allCases[data.count % Orientation.allCases.count]
        guard
            let loaded = try? TiltFile.parse(
                data: data, name: name, orientation: orientation, g: TiltFrame.standaloneG,
                interpolation: data.count % 2 == 0 ? .hold : .linear,
                convention: .android),
            let scenario = try? BuiltInScenario.load()
        else { return false }
        step(scenario, loaded, steps: tiltStepsToTake)
        return true
    }

    private static func runScenario(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let text = String(decoding: parts[0], as: UTF8.self)
        guard let scenario = try? ScenarioLoader.parse(text: text, file: "fuzz.json", baseDirectory: nil) else {
            return false
        }
        _ = ScenarioLoader.warnings(for: scenario)
        guard scenario.crates.count <= maxCratesToStep else { return true }
        var loaded: LoadedTilt?
        if let tilt = scenario.tilt, parts.count > 1 {
            // The tilt file as `GravityInput.resolve` reads it: the scenario's orientation and g.
            // Refused, it ends the run as it would end `tiltbox run` (exit 2).
            let frame = TiltFrame.resolve(orientation: nil, g: nil, for: scenario)
            guard
                let tiltFile = try? TiltFile.parse(
                    data: Data(parts[1]), name: tilt.file, orientation: frame.orientation,
                    g: frame.g, convention: .ios)
            else { return false }
            loaded = tiltFile
        }
        if let loaded {
            step(scenario, loaded, steps: min(stepsToTake, scenario.totalSteps))
        } else {
            run(scenario, track: ConstantGravity(scenario.world.gravity), steps: min(stepsToTake, scenario.totalSteps))
        }
        return true
    }

    /// Steps the `generated-scenario` target takes with at most `generatedBodiesToStepLong` bodies
    /// (more bodies get `stepsToTake`): long enough for a blow-up to grow, a body to fall out of
    /// the spatial hash's range at the extreme rates, or bodies to fall asleep.
    public static let generatedStepsToTake = 240
    /// Most bodies (crates and others) a scenario may have to be stepped `generatedStepsToTake` times.
    public static let generatedBodiesToStepLong = 20
    /// With a spatial hash, most `count × steps` (hash cells cleared) the target steps.
    public static let generatedHashCellSteps = 16_000_000

    /// A scenario from `ScenarioGenerator` (or, for an input that starts with `{`, the
    /// input itself, so the seed corpus can hold the reproducers of engine aborts as files),
    /// loaded, warned about and stepped as `tiltbox run` would.
    private static func runGenerated(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let isJSON = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{")
        var generator = ScenarioGenerator(Array(bytes))
        let text = isJSON ? String(decoding: bytes, as: UTF8.self) : generator.scenarioText()
        guard let scenario = try? ScenarioLoader.parse(text: text, file: "fuzz.json", baseDirectory: nil) else {
            return false
        }
        _ = ScenarioLoader.warnings(for: scenario)
        guard scenario.crates.count <= maxCratesToStep else { return true }
        let long = scenario.crates.count + scenario.bodies.count <= generatedBodiesToStepLong
        var steps = long ? generatedStepsToTake : stepsToTake
        if case .hash(_, let count) = scenario.world.spatialIndex {
            // Chipmunk's hash clears every one of its `count` cells each step (about 65 ms a step
            // at a million): keep a slow but finite input under libFuzzer's 10 s timeout, which
            // is there to find steps that never return.
            steps = min(steps, max(stepsToTake, generatedHashCellSteps / count))
        }
        run(scenario, track: ConstantGravity(scenario.world.gravity), steps: min(steps, scenario.totalSteps))
        return true
    }

    /// Runs `scenario` for `steps` steps under the loaded tilt, its whole time span
    /// squeezed into those steps (step 0 at its start, the last at its end).
    private static func step(_ scenario: Scenario, _ loaded: LoadedTilt, steps: Int) {
        let track = SpanTrack(
            track: loaded.track, start: loaded.startTime, end: loaded.endTime,
            stepSeconds: scenario.timestep.dt, steps: max(steps, 1))
        run(scenario, track: track, steps: max(steps, 1))
    }

    /// Runs a session as `tiltbox run` does (frames of the scenario's own rate), to its end.
    private static func run(_ scenario: Scenario, track: any GravityTrack, steps: Int) {
        let session = RunSession(scenario: scenario, track: track, totalSteps: steps)
        var clock = SteadyClock(hz: scenario.timestep.hz)
        _ = try? session.run(clock: &clock)
        _ = try? session.finish()
    }

    /// A track replayed so that `steps` physics steps cover all of `start...end`.
    private struct SpanTrack: GravityTrack {
        var track: any GravityTrack
        var start: Double
        var end: Double
        var stepSeconds: Double
        var steps: Int

        func gravity(at t: Double) -> Vec2 {
            let fraction = min(max(t / (stepSeconds * Double(steps)), 0), 1)
            return track.gravity(at: start + (end - start) * fraction)
        }
    }

    // MARK: - Extreme numbers

    /// Well-formed numbers at the edges of `Double` that a value mutation should try:
    /// the largest finite, its neighbours in decimal, the smallest subnormal, negative zero.
    public static let extremeNumbers = [
        "1e308", "-1e308", "1.7976931348623157e308", "-1.7976931348623157e308", "5e-324", "-5e-324",
        "-0", "0", "2.2250738585072014e-308", "1e303", "1e-300", "9007199254740993", "1e6", "1000001", "-1",
    ]

    /// `text` with one number (chosen by `seed`) replaced by one of `extremeNumbers`;
    /// `nil` when the text has no number. A number is a run of digits with its sign,
    /// point and exponent.
    public static func mutateNumbers(_ text: [UInt8], seed: UInt64) -> [UInt8]? {
        var spans: [Range<Int>] = []
        var i = 0
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        while i < text.count {
            if isDigit(text[i]) || (text[i] == UInt8(ascii: "-") && i + 1 < text.count && isDigit(text[i + 1])) {
                let start = i
                i += 1
                while i < text.count,
                    isDigit(text[i]) || text[i] == UInt8(ascii: ".") || text[i] == UInt8(ascii: "e")
                        || text[i] == UInt8(ascii: "E")
                        || ((text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+"))
                            && (text[i - 1] | 0x20) == UInt8(ascii: "e"))
                {
                    i += 1
                }
                spans.append(start..<i)
            } else {
                i += 1
            }
        }
        guard !spans.isEmpty else { return nil }
        // SplitMix64, so a seed always picks the same span and number.
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let span = spans[Int(next() % UInt64(spans.count))]
        let number = extremeNumbers[Int(next() % UInt64(extremeNumbers.count))]
        var result = Array(text[..<span.lowerBound])
        result += Array(number.utf8)
        result += text[span.upperBound...]
        return result
    }

    /// Reads `bytes` as doubles, formats the finite ones as trace states into a buffer of
    /// exactly the size the formatter documents, and checks every number against
    /// `NumberFormat.shortest`. A mismatch traps; an out-of-bounds byte is AddressSanitizer's.
    private static func formatNumbers(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let perBody = BodyStateLayout.count
        var values: [Double] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            let value = Double(bitPattern: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            if value.isFinite { values.append(value) }
            offset += 8
        }
        guard !values.isEmpty else { return false }
        while values.count % perBody != 0 { values.append(values[values.count - 1]) }
        let capacity =
            values.count * (Int(TILTBOX_FORMAT_DOUBLE_MAX) + 1) + 2 * (values.count / perBody)
            + Int(TILTBOX_FORMAT_SLACK)
        let out = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { out.deallocate() }
        let written = values.withUnsafeBufferPointer { tiltbox_format_states($0.baseAddress!, $0.count, perBody, out) }
        precondition(written <= capacity - Int(TILTBOX_FORMAT_SLACK), "formatter wrote past its documented bound")
        let text = String(decoding: UnsafeRawBufferPointer(start: out, count: written), as: UTF8.self)
        precondition(text.hasPrefix("[") && text.hasSuffix("]"), "states are not JSON arrays: \(text)")
        let numbers = text.dropFirst().dropLast().replacingOccurrences(of: "],[", with: ",").split(separator: ",")
        precondition(numbers.count == values.count, "formatter wrote \(numbers.count) numbers for \(values.count)")
        for (number, value) in zip(numbers, values) {
            precondition(
                String(number) == NumberFormat.shortest(value),
                "formatter wrote \(number) for \(value) (bits \(value.bitPattern))")
        }
        return true
    }

    private static func track(_ bytes: UnsafeRawBufferPointer, name: String, convention: SensorConvention?) -> Bool {
        guard
            let loaded = try? TiltFile.parse(
                data: Data(bytes), name: name, g: TiltFrame.standaloneG, interpolation: .linear,
                convention: convention)
        else { return false }
        sample(loaded.track)
        return true
    }

    /// Evaluates a track where a run would, and checks the promise every track makes.
    private static func sample(_ track: any GravityTrack) {
        for n in 0..<64 {
            let g = track.gravity(at: Double(n) * 0.25)
            precondition(g.isFinite, "a gravity track returned a non-finite value")
        }
    }

    private static func temporaryPath(_ suffix: String) -> String {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(folder)/tiltbox-fuzz-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).\(suffix)"
    }
}
