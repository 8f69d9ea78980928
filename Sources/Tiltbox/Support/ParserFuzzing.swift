import Foundation
internal import CNumberFormat

/// The entry points the fuzzers drive (`make fuzz`, the `Fuzz/` package) and the
/// regression tests replay: each feeds arbitrary bytes to one parser and, when the
/// parser accepts them, carries on as the command line would, so that a fuzz input
/// reaching the engine proves it cannot trip a Chipmunk assertion.
///
/// An input error is a correct outcome. A crash, a trap or an abort is a bug.
///
/// One target is not a parser: `numbers` drives the trace writer's number formatter
/// (C++, writing into raw buffers), the one place where a memory error was found.
public enum ParserFuzzing {
    public enum Target: String, CaseIterable, Sendable {
        case scenario, tiltCSV = "tilt-csv", phyphox, sensorLogger = "sensor-logger", keyframes, zip, trace, frames
        case numbers
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
            guard let scenario = try? ScenarioLoader.parse(text: text, file: "fuzz.json", baseDirectory: nil) else { return false }
            if scenario.crates.count <= maxCratesToStep {
                // Run the accepted scenario for a few steps, gravity and all, exactly
                // as `tiltbox run` would: nothing may reach an engine assertion.
                let simulation = Simulation(scenario: scenario, track: ConstantGravity(scenario.world.gravity),
                                            totalSteps: min(stepsToTake, scenario.totalSteps))
                var clock = SteadyClock(hz: scenario.timestep.hz)
                _ = try? simulation.run(clock: &clock)
            }
            return true
        case .tiltCSV, .phyphox:
            return track(bytes, name: "fuzz.csv", convention: nil)
        case .sensorLogger:
            return track(bytes, name: "Gravity.csv", convention: .android)
        case .keyframes:
            return track(bytes, name: "fuzz.json", convention: nil)
        case .zip:
            let path = temporaryPath("zip")
            defer { unlink(path) }
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return false }
            guard let loaded = try? TiltFile.load(path: path, g: 980, convention: .ios) else { return false }
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
        }
    }

    /// Reads `bytes` as doubles, formats the finite ones as trace states into a buffer of
    /// exactly the size the formatter documents, and checks every number against
    /// `NumberFormat.shortest`. A mismatch traps; an out-of-bounds byte is AddressSanitizer's.
    private static func formatNumbers(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let perBody = 6
        var values: [Double] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            let value = Double(bitPattern: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            if value.isFinite { values.append(value) }
            offset += 8
        }
        guard !values.isEmpty else { return false }
        while values.count % perBody != 0 { values.append(values[values.count - 1]) }
        let capacity = values.count * (Int(TILTBOX_FORMAT_DOUBLE_MAX) + 1) + 2 * (values.count / perBody)
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
            precondition(String(number) == NumberFormat.shortest(value),
                         "formatter wrote \(number) for \(value) (bits \(value.bitPattern))")
        }
        return true
    }

    private static func track(_ bytes: UnsafeRawBufferPointer, name: String, convention: SensorConvention?) -> Bool {
        guard let loaded = try? TiltFile.parse(data: Data(bytes), name: name, g: 980, interpolation: .linear,
                                               convention: convention) else { return false }
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
