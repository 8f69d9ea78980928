internal import CDigest

/// The running FNV-1a 64-bit digest of a trace, as docs/formats.md §3 defines it: over the
/// little-endian IEEE-754 bytes of, for each record in order, the two gravity
/// components and then every body's six fields in order.
///
/// Usable on its own (the command line prints the digest of a run that writes no
/// trace file) and used by `TraceWriter`, so the two can never disagree.
/// Two runs with equal digests produced bit-identical records, the way Box2D's
/// determinism test compares a hash of the state.
public struct TraceDigest: Hashable, Sendable, CustomStringConvertible {
    /// The FNV-1a 64-bit offset basis.
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// The FNV-1a 64-bit prime.
    public static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of everything added so far (the offset basis when nothing was added).
    public private(set) var value: UInt64 = TraceDigest.offsetBasis

    /// An empty digest, holding the offset basis.
    public init() {}

    /// Adds one byte: `hash = (hash XOR byte) * prime`, modulo 2^64.
    public mutating func add(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* TraceDigest.prime
    }

    /// Adds raw bytes in order (the hash core; traces add doubles, not bytes).
    public mutating func add(bytes: some Sequence<UInt8>) {
        for byte in bytes { add(byte: byte) }
    }

    /// Adds the 8 little-endian bytes of `number`'s IEEE-754 bit pattern, whatever the
    /// host's byte order.
    public mutating func add(_ number: Double) {
        var number = number
        value = tiltbox_fnv1a64_doubles(value, &number, 1)
    }

    /// Adds one trace record: gravity x, gravity y, then `states` (each body's fields
    /// in trace order, bodies in header order), straight from the caller's storage.
    public mutating func addRecord(gravity: Vec2, states: UnsafeBufferPointer<Double>) {
        var g = (gravity.x, gravity.y)
        let h = withUnsafeBytes(of: &g) {
            tiltbox_fnv1a64_doubles(value, $0.baseAddress!.assumingMemoryBound(to: Double.self), 2)
        }
        value = tiltbox_fnv1a64_doubles(h, states.baseAddress, states.count)
    }

    /// Adds one trace record to `self` and returns the record's own hash (from the offset
    /// basis) in the same pass over its bytes: a hash trace needs both.
    mutating func addRecordAndHash(gravity: Vec2, states: UnsafeBufferPointer<Double>) -> UInt64 {
        var g = (gravity.x, gravity.y)
        var running = value, own = TraceDigest.offsetBasis
        withUnsafeBytes(of: &g) {
            tiltbox_fnv1a64_doubles2(&running, &own, $0.baseAddress!.assumingMemoryBound(to: Double.self), 2)
        }
        tiltbox_fnv1a64_doubles2(&running, &own, states.baseAddress, states.count)
        value = running
        return own
    }

    /// The hash of one record alone (from the offset basis): a hash trace's `h`.
    public static func ofRecord(gravity: Vec2, states: UnsafeBufferPointer<Double>) -> TraceDigest {
        var digest = TraceDigest()
        digest.addRecord(gravity: gravity, states: states)
        return digest
    }

    /// `ofRecord` for states held in an array.
    public static func ofRecord(gravity: Vec2, states: [Double]) -> TraceDigest {
        states.withUnsafeBufferPointer { ofRecord(gravity: gravity, states: $0) }
    }

    /// `value` as a trace writes it: `fnv1a64:` and 16 lowercase hex digits.
    public static func text(of value: UInt64) -> String {
        let hex = String(value, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Reads `text(of:)`'s form back; `nil` for anything else.
    public static func value(ofText text: String) -> UInt64? {
        let hex = text.utf8.dropFirst(8)
        guard text.hasPrefix("fnv1a64:"), hex.count == 16,
            hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return UInt64(String(decoding: hex, as: UTF8.self), radix: 16)
    }

    /// The digest as written in a trace's end line: `fnv1a64:` and 16 lowercase hex digits.
    public var text: String { TraceDigest.text(of: value) }

    /// `text`: `fnv1a64:` and 16 lowercase hex digits.
    public var description: String { text }
}
