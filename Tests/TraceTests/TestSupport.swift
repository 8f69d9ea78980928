import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// SplitMix64 (Steele, Lea and Flood), written out so the test values never depend on
/// a library's random generator.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Any finite double, every bit pattern equally likely (most are huge or tiny).
    mutating func anyFiniteDouble() -> Double {
        while true {
            let d = Double(bitPattern: next())
            if d.isFinite { return d }
        }
    }

    /// A physically plausible value in [-1000, 1000).
    mutating func plausibleDouble() -> Double {
        (Double(next() >> 11) * 0x1p-53 - 0.5) * 2000
    }
}

/// Doubles whose shortest text is easy to get wrong.
let edgeCaseDoubles: [Double] = [
    0, -0.0, 1, -1, 100, -980, 0.1, 0.2, 0.30000000000000004, 1.0 / 3, 2.0 / 3,
    1.0 / 120, 123456789.125, 1e-300, -1e-300, Double(bitPattern: 1), -Double(bitPattern: 1),
    Double(bitPattern: 0x000F_FFFF_FFFF_FFFF),
    Double.leastNonzeroMagnitude, Double.leastNormalMagnitude, Double.leastNormalMagnitude.nextDown,
    Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.ulpOfOne,
    1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 9007199254740992, 9007199254740994, 4503599627370497.5,
    0.001, 0.0001, 1e-5, 1e-7, 123e-20, 2.2250738585072014e-308, 1.7976931348623157e308,
    Double.leastNormalMagnitude / 3, 0.1.nextUp, 0.1.nextDown, 1.nextUp, 1.nextDown, -0.0.nextDown,
]

/// A fresh empty directory for one test's files.
func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/tiltbox-trace-tests-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    try #require(made != nil)
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func fileBytes(_ path: String) throws -> [UInt8] {
    let data = try #require(FileManager.default.contents(atPath: path))
    return [UInt8](data)
}

func fileLines(_ path: String) throws -> [String] {
    let text = String(decoding: try fileBytes(path), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.last == "", "a trace ends with a newline")
    lines.removeLast()
    return lines
}

func writeText(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

/// A small deterministic run: `records` records of `bodies` bodies with plausible values.
struct SampleRun {
    var header: TraceHeader
    var records: [TraceRecord]

    init(bodies: Int = 3, records count: Int = 20, seed: UInt64 = 42, every: Int = 1) {
        let dt = 1.0 / 120
        header = TraceHeader(
            scenario: "sample", spatialIndex: "bbtree", dt: dt, every: every,
            bodies: (0..<bodies).map { "g0_\($0)" })
        var random = SplitMix64(seed: seed)
        records = (0..<count).map { i in
            let step = i * every
            return TraceRecord(
                step: step, t: Double(step) * dt, gravity: Vec2(random.plausibleDouble(), -980),
                states: (0..<(bodies * 6)).map { _ in random.plausibleDouble() })
        }
    }

    /// Writes the run with `TraceWriter`; `finish: false` leaves it without an end line.
    func write(to path: String, finish: Bool = true, flushThreshold: Int = 64 * 1024) throws {
        let writer = try TraceWriter(path: path, header: header, flushThreshold: flushThreshold)
        for r in records {
            try writer.writeRecord(step: r.step, t: r.t, gravity: r.gravity, states: r.states)
        }
        if finish {
            let last = records.last?.step ?? 0
            try writer.finish(.complete(steps: last, simTime: Double(last) * header.dt, droppedTime: 0))
        }
    }
}
