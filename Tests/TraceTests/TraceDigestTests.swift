import Testing

@_spi(Tools) @testable import Tiltbox

/// FNV-1a 64 over bytes, written independently of `TraceDigest`.
private func referenceFNV1a64(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 14_695_981_039_346_656_037 // 0xcbf29ce484222325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 1_099_511_628_211 // 0x100000001b3
    }
    return hash
}

/// The 8 little-endian bytes of a double, built by shifting (not by memory layout).
private func littleEndianBytes(_ d: Double) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: d.bitPattern >> (8 * UInt64($0))) }
}

@Test func fnvCoreMatchesTheStandardTestVectors() {
    #expect(TraceDigest().value == 0xcbf2_9ce4_8422_2325)
    #expect(TraceDigest().text == "fnv1a64:cbf29ce484222325")
    var a = TraceDigest()
    a.add(bytes: Array("a".utf8))
    #expect(a.value == 0xaf63_dc4c_8601_ec8c)
    #expect(a.text == "fnv1a64:af63dc4c8601ec8c")
    var foobar = TraceDigest()
    foobar.add(bytes: Array("foobar".utf8))
    #expect(foobar.value == 0x8594_4171_f739_67e8)
    #expect(referenceFNV1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
}

@Test func digestTextIsZeroPaddedLowercaseHex() {
    // Find a short input whose hash has a leading zero nibble, to exercise the padding.
    var counter: UInt32 = 0
    var digest = TraceDigest()
    repeat {
        digest = TraceDigest()
        digest.add(bytes: withUnsafeBytes(of: counter.littleEndian) { Array($0) })
        counter += 1
    } while digest.value >> 60 != 0
    let hex = String(digest.value, radix: 16)
    #expect(hex.count < 16)
    #expect(digest.text == "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex)
    #expect(digest.text.count == 8 + 16)
}

@Test func digestOfRecordsEqualsAnIndependentHashOfTheirBytes() throws {
    let run = SampleRun(bodies: 4, records: 7, seed: 7)
    var bytes: [UInt8] = []
    var digest = TraceDigest()
    for r in run.records {
        bytes += littleEndianBytes(r.gravity.x) + littleEndianBytes(r.gravity.y)
        for v in r.states { bytes += littleEndianBytes(v) }
        r.states.withUnsafeBufferPointer { digest.addRecord(gravity: r.gravity, states: $0) }
    }
    let expected = referenceFNV1a64(bytes)
    #expect(digest.value == expected)

    // The writer's digest, the end line and a recomputation agree with it.
    let dir = try makeTemporaryDirectory()
    let path = dir + "/run.jsonl"
    try run.write(to: path)
    let trace = try TraceReader.read(path: path)
    #expect(trace.recordsDigest.value == expected)
    #expect(trace.end?.digest == digest.text)
}

@Test func digestOfAKnownRecord() {
    // Gravity (0, -980) and one body at rest at (100, 200): the bytes written out by hand.
    let bytes: [UInt8] =
        [0, 0, 0, 0, 0, 0, 0, 0] // 0
        + [0, 0, 0, 0, 0, 0xA0, 0x8E, 0xC0] // -980 = 0xC08EA00000000000
        + [0, 0, 0, 0, 0, 0, 0x59, 0x40] // 100 = 0x4059000000000000
        + [0, 0, 0, 0, 0, 0, 0x69, 0x40] // 200 = 0x4069000000000000
        + Array(repeating: 0, count: 32) // angle, vx, vy, w
    var digest = TraceDigest()
    [100.0, 200, 0, 0, 0, 0].withUnsafeBufferPointer { digest.addRecord(gravity: Vec2(0, -980), states: $0) }
    #expect(digest.value == referenceFNV1a64(bytes))
}

@Test func negativeZeroChangesTheDigest() {
    var plus = TraceDigest(), minus = TraceDigest()
    plus.add(0.0)
    minus.add(-0.0)
    #expect(plus != minus)
}
