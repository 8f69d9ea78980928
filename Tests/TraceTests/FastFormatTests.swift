import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The trace writer formats numbers with its own fast formatter (shortest digits from
/// one 128-bit product, or fmt's Dragonbox for the close calls, in Swift's layout).
/// Traces must stay byte-identical to what Swift's `description` gives, so compare the
/// two over edge cases, every power of ten, the form boundaries (1e-4, 2^53, 1e16) and
/// 250 000 random values.
@Test func fastFormatterWritesExactlyWhatSwiftsDescriptionWrites() throws {
    var values: [Double] = [
        0, -0.0, 1, -1, 100, 0.1, 1e-5, 1e-4, 0.0001.nextDown, 1e15, 1e16, 1e22, 1e23,
        Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 2.2250738585072014e-308, 1.7976931348623157e308,
        -1.7976931348623157e308,
        9007199254740992, 9007199254740992.0.nextDown, 9007199254740992.0.nextUp, 123456789012345680,
        1.0 / 3, 2.0.squareRoot(), -12.500000000000002, Double(Float.pi),
    ]
    for e in -324...308 {
        for mantissa in [1.0, 1.5, 4.9, 9.999999999999999] {
            if let d = Double("\(mantissa)e\(e)"), d.isFinite {
                values += [d, d.nextUp, -d.nextDown]
            }
        }
    }
    var random = SplitMix64(seed: 0xF0_4D47)
    for i in 0..<250_000 {
        let bits = random.next()
        let v: Double
        switch i % 4 {
        case 0: v = Double(bitPattern: bits)
        case 1: v = (Double(bits >> 11) * 0x1p-53 - 0.5) * 1000
        case 2: v = Double(Int64(bitPattern: bits) >> Int64(bits % 64))
        default: v = Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        }
        if v.isFinite { values.append(v) }
    }
    try expectTheTraceWriterWritesWhatSwiftWrites(values)
}

/// The fast formatter takes a different path for each form of the text (exponential
/// below 1e-4 and above 2^53, `0.000ddd`, `ddd.ddd`, integral `ddd000`), copies fixed
/// blocks of 16 bytes and writes 17 digits at most: check the values on each side of
/// every switch, with the text written out, and against Swift's description.
@Test func fastFormatterKeepsSwiftsLayoutAtEveryFormBoundary() throws {
    let two53 = 9007199254740992.0
    let expected: [(Double, String)] = [
        // Zero and its sign.
        (0, "0"), (-0.0, "-0"),
        // 1e-4: the smallest positional value; below it, exponential.
        (1e-4, "0.0001"), (0.0001.nextDown, "9.999999999999999e-05"), (0.0001.nextUp, "0.00010000000000000002"),
        (-1e-4, "-0.0001"), (1e-5, "1e-05"), (0.00012345678901234567, "0.00012345678901234567"),
        // 2^53: the largest positional value; above it, exponential.
        (two53, "9007199254740992"), (two53.nextDown, "9007199254740991"), (two53.nextUp, "9.007199254740994e+15"),
        (-two53, "-9007199254740992"), (4503599627370495.5, "4503599627370495.5"),
        // Subnormals and the extremes.
        (Double.leastNonzeroMagnitude, "5e-324"), (-Double.leastNonzeroMagnitude, "-5e-324"),
        (Double.leastNormalMagnitude.nextDown, "2.225073858507201e-308"),
        (2.2250738585072014e-308, "2.2250738585072014e-308"), (1.7976931348623157e308, "1.7976931348623157e+308"),
        (-1.7976931348623157e308, "-1.7976931348623157e+308"),
        // Powers of ten on both sides of each switch.
        (1e-100, "1e-100"), (1e-10, "1e-10"), (0.001, "0.001"), (0.01, "0.01"), (0.1, "0.1"), (1, "1"), (10, "10"),
        (1e15, "1000000000000000"), (1e16, "1e+16"), (1e22, "1e+22"), (1e100, "1e+100"),
        // Seventeen significant digits in every position of the point.
        (0.1 + 0.2, "0.30000000000000004"), (1.0.nextUp, "1.0000000000000002"),
        (123.45678901234568, "123.45678901234568"),
        (-0.0012345678901234567, "-0.0012345678901234567"), (1.2345678901234568e-5, "1.2345678901234568e-05"),
        (12345678901234567e290, "1.2345678901234567e+306"),
        // Integral values: no ".0", trailing zeros written out.
        (12, "12"), (-500, "-500"), (120000, "120000"), (123456789012345, "123456789012345"),
    ]
    let written = try numbersAsTheTraceWriterWritesThem(expected.map(\.0))
    try #require(written.count == expected.count)
    for ((value, text), got) in zip(expected, written) {
        #expect(got == text, "\(value.bitPattern): wrote \(got), expected \(text)")
        #expect(
            got == NumberFormat.shortest(value),
            "\(value.bitPattern): wrote \(got), Swift gives \(NumberFormat.shortest(value))")
    }
}

/// The formatter settles almost every double with one 128-bit product and leaves the
/// close calls to Dragonbox: ties, an end of the rounding interval on a shorter
/// decimal, powers of two, subnormals, the top binade. Aim at those, and at both sides
/// of each: short decimals `n / 10^j` with their neighbours (their intervals end near
/// shorter decimals), integers around every power of ten up to 2^53, every power of
/// two with its neighbours, and values from the top binade and the subnormals.
@Test func fastFormatterAgreesWithSwiftWhereItsShortcutHandsOver() throws {
    var values: [Double] = []
    var scale = 1.0
    for _ in 0...22 {
        for n in stride(from: 1, through: 30_000, by: 13) {
            let d = Double(n) / scale
            values += [d, d.nextUp, d.nextDown]
        }
        scale *= 10
    }
    var power = 1.0
    for _ in 0...15 {
        for offset in -20...20 where power + Double(offset) > 0 { values.append(power + Double(offset)) }
        power *= 10
    }
    var two = Double.leastNonzeroMagnitude
    while two.isFinite {
        values += [two, two.nextUp, two.nextDown, -two]
        two *= 2
    }
    var random = SplitMix64(seed: 0x5107)
    for _ in 0..<2_000 {
        let bits = random.next()
        values.append(Double(bitPattern: (0x7FE << 52) | (bits >> 12))) // the top binade
        values.append(Double(bitPattern: bits >> 12)) // subnormals
        values.append(Double(bitPattern: (UInt64(1 + bits % 2045) << 52) | 1)) // one past a power of two
    }
    try expectTheTraceWriterWritesWhatSwiftWrites(values)
}

/// Writes `values` through the trace writer and expects each number's text to be
/// Swift's `description` of it (the first five differences are recorded).
private func expectTheTraceWriterWritesWhatSwiftWrites(_ values: [Double]) throws {
    let written = try numbersAsTheTraceWriterWritesThem(values)
    #expect(written.count == values.count)
    var mismatches = 0
    for (text, value) in zip(written, values) where text != NumberFormat.shortest(value) {
        mismatches += 1
        if mismatches <= 5 {
            Issue.record("\(value.bitPattern): wrote \(text), Swift gives \(NumberFormat.shortest(value))")
        }
    }
    #expect(mismatches == 0)
}

/// Writes `values` as the bodies of one trace record (six per body, padded with 0) and
/// returns the numbers as the file holds them, in order, without the padding.
private func numbersAsTheTraceWriterWritesThem(_ values: [Double]) throws -> [String] {
    var padded = values
    while padded.count % 6 != 0 { padded.append(0) }
    let dir = try makeTemporaryDirectory()
    let path = dir + "/fast.jsonl"
    let header = TraceHeader(
        scenario: "fast", spatialIndex: "bbtree", dt: 1, every: 1,
        bodies: (0..<(padded.count / 6)).map { "b\($0)" })
    let writer = try TraceWriter(path: path, header: header)
    try writer.writeRecord(step: 0, t: 0, gravity: Vec2(0, 0), states: padded)
    try writer.finish(.complete(steps: 0, simTime: 0, droppedTime: 0))
    let line = try fileLines(path)[1]
    let prefix = #"{"step":0,"t":0,"g":[0,0],"s":[["#
    #expect(line.hasPrefix(prefix) && line.hasSuffix("]]}"))
    let numbers = line.dropFirst(prefix.count).dropLast(3)
        .replacingOccurrences(of: "],[", with: ",").split(separator: ",").map(String.init)
    #expect(numbers.count == padded.count)
    return Array(numbers.prefix(values.count))
}
