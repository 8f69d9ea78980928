import Foundation

/// A named frame clock from the command line (`--frames`): `steady:60`, `jitter:60:7`,
/// `stall:60:1:0.5`, `file:PATH`. Physics is the same whatever the profile; the
/// profile only changes how steps are grouped into frames.
public enum FrameProfile: Sendable, Equatable, CustomStringConvertible {
    case steady(hz: Double)
    case jitter(hz: Double, seed: UInt64)
    case stall(hz: Double, at: Double, seconds: Double)
    case file(path: String, durations: [Double])

    /// The most frame durations a `file:` profile may hold.
    public static let maxFileFrames = 10_000_000
    /// The largest frame file read, in bytes.
    public static let maxFileBytes = 64 << 20
    /// The highest frame rate of a profile (`HZ`), and so the shortest mean frame,
    /// 1/100 000 s: beyond it a run would spin through millions of empty frames.
    public static let maxHz = 100_000.0
    /// The longest single frame (`SECONDS` of a stall, a line of a frame file): one day.
    public static let maxFrameSeconds = 86_400.0

    /// Parses a profile; `file:` profiles are read here so errors surface before a run.
    public static func parse(_ text: String) throws(InputError) -> FrameProfile {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        func bad(_ reason: String) -> InputError {
            InputError(
                file: "--frames",
                reason: "\(reason) in '\(text)' (expected steady:HZ, jitter:HZ:SEED, stall:HZ:AT:SECONDS or file:PATH)")
        }
        func positive(_ s: String, _ name: String, max: Double) throws(InputError) -> Double {
            guard let v = Double(s), v.isFinite, v > 0, v <= max else {
                throw bad("\(name) must be a number in (0, \(NumberFormat.shortest(max))]")
            }
            return v
        }
        switch parts.first {
        case "steady":
            guard parts.count == 2 else { throw bad("wrong number of fields") }
            return .steady(hz: try positive(parts[1], "HZ", max: maxHz))
        case "jitter":
            guard parts.count == 3 else { throw bad("wrong number of fields") }
            guard let seed = UInt64(parts[2]) else { throw bad("SEED must be a whole number ≥ 0") }
            return .jitter(hz: try positive(parts[1], "HZ", max: maxHz), seed: seed)
        case "stall":
            guard parts.count == 4 else { throw bad("wrong number of fields") }
            guard let at = Double(parts[2]), at.isFinite, at >= 0, at <= 1e6 else {
                throw bad("AT must be a number of seconds in [0, 1000000]")
            }
            return .stall(
                hz: try positive(parts[1], "HZ", max: maxHz), at: at,
                seconds: try positive(parts[3], "SECONDS", max: maxFrameSeconds))
        case "file":
            let path = parts.dropFirst().joined(separator: ":")
            guard !path.isEmpty else { throw bad("missing PATH") }
            return .file(path: path, durations: try readDurations(path))
        default:
            throw bad("unknown profile")
        }
    }

    private static func readDurations(_ path: String) throws(InputError) -> [Double] {
        // A FIFO or a device is refused before it is opened, as for every input file.
        let data = try RegularFile.read(path, maxBytes: maxFileBytes) { size in
            "the frame file is \(size) bytes, more than the limit of \(maxFileBytes)"
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError(file: path, reason: "the frame file is not UTF-8 text")
        }
        var durations: [Double] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let d = Double(trimmed), d.isFinite, d >= 0, d <= maxFrameSeconds else {
                // The line is echoed only once the file has shown itself to be a frame
                // file (a duration read before it): never the first line of some other file.
                let found = durations.isEmpty ? "" : ", found '\(trimmed.prefix(40))'"
                throw InputError(
                    file: path, location: SourceLocation(line: lineNumber, column: 1),
                    reason: "expected a frame duration in seconds (a number in [0, \(Int(maxFrameSeconds))])\(found)")
            }
            guard durations.count < maxFileFrames else {
                throw InputError(
                    file: path, location: SourceLocation(line: lineNumber, column: 1),
                    reason: "more than \(maxFileFrames) frames")
            }
            durations.append(d)
        }
        let mean = durations.reduce(0, +) / Double(max(durations.count, 1))
        guard mean >= 1 / maxHz else {
            throw InputError(
                file: path,
                reason:
                    "the frame file's mean frame lasts \(NumberFormat.shortest(mean)) s; it must be at least \(NumberFormat.shortest(1 / maxHz)) s (at most \(Int(maxHz)) frames per second)"
            )
        }
        return durations
    }

    /// A fresh clock for this profile.
    public func makeClock() -> any FrameClock {
        switch self {
        case .steady(let hz): return SteadyClock(hz: hz)
        case .jitter(let hz, let seed): return JitterClock(hz: hz, seed: seed)
        case .stall(let hz, let at, let seconds): return StallClock(hz: hz, at: at, duration: seconds)
        case .file(_, let durations): return RecordedFrameClock(durations: durations)
        }
    }

    /// The profile as written on the command line: `steady:60`, `jitter:60:7`, `stall:60:1:0.5`, `file:PATH`.
    public var description: String {
        switch self {
        case .steady(let hz): return "steady:\(NumberFormat.shortest(hz))"
        case .jitter(let hz, let seed): return "jitter:\(NumberFormat.shortest(hz)):\(seed)"
        case .stall(let hz, let at, let s):
            return "stall:\(NumberFormat.shortest(hz)):\(NumberFormat.shortest(at)):\(NumberFormat.shortest(s))"
        case .file(let path, _): return "file:\(path)"
        }
    }
}
