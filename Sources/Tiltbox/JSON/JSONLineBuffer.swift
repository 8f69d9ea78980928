internal import CNumberFormat

/// A growable byte buffer that JSON text is appended to without creating a `String`
/// per number: the trace writer's hot path formats thousands of doubles per step.
///
/// Numbers go through `CNumberFormat`'s formatter, which writes straight into the
/// buffer's spare room: no `String`, no per-byte append. It is still a
/// `TextOutputStream`, so anything printable can be written into it.
struct JSONLineBuffer: TextOutputStream {
    /// The text is `storage[0..<count]`; the rest is room to write into without
    /// growing (the fast number formatter writes straight into it).
    private var storage: [UInt8]
    /// Bytes of text in the buffer.
    private(set) var count = 0

    init(capacity: Int = 0) {
        storage = [UInt8](repeating: 0, count: max(capacity, 256))
    }

    /// A copy of the text (for short lines: headers, messages, tests).
    var bytes: [UInt8] { Array(storage[0..<count]) }

    subscript(index: Int) -> UInt8 {
        precondition(index < count)
        return storage[index]
    }

    mutating func removeAll() {
        count = 0
    }

    /// Drops the first `k` bytes, keeping the rest in order.
    mutating func removeFirst(_ k: Int) {
        precondition(k <= count)
        storage.withUnsafeMutableBufferPointer { p in
            let base = p.baseAddress!
            base.update(from: base + k, count: count - k)
        }
        count -= k
    }

    /// Calls `body` with the text's bytes (valid only during the call).
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { raw in try body(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
    }

    /// Makes room for `extra` more bytes, doubling the storage when it is short.
    private mutating func reserve(_ extra: Int) {
        let needed = count + extra
        if needed <= storage.count { return }
        storage.append(contentsOf: repeatElement(0, count: max(needed, 2 * storage.count) - storage.count))
    }

    /// Lets `body` write up to `maxCount` bytes after the text; `body` returns how
    /// many it wrote, which become part of the text.
    mutating func appendUnsafe(maxCount: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maxCount)
        let start = count
        let written = storage.withUnsafeMutableBufferPointer { p in body(p.baseAddress! + start) }
        precondition(written <= maxCount)
        count += written
    }

    // MARK: - TextOutputStream

    mutating func write(_ string: String) {
        var text = string
        text.withUTF8 { utf8 in appendBytes(utf8) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        appendBytes(buffer)
    }

    private mutating func appendBytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress, source.count > 0 else { return }
        appendUnsafe(maxCount: source.count) { out in
            out.update(from: base, count: source.count)
            return source.count
        }
    }

    // MARK: - JSON pieces

    /// Appends literal ASCII text (punctuation and keys known at compile time).
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { appendBytes($0) }
    }

    mutating func append(byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    /// Appends `value` in shortest round-trip form, without the redundant `.0` of
    /// integral values: the same text as `NumberFormat.shortest(value)` (Swift's
    /// `description`), written by the fast formatter in `CNumberFormat` (shortest digits
    /// from one 128-bit product, or Dragonbox for the close calls, laid out as Swift lays
    /// them out; tests compare the two over hundreds of thousands of values). Callers must not pass non-finite values (JSON has no form for them).
    mutating func append(number value: Double) {
        precondition(value.isFinite, "JSON has no form for \(value)")
        appendUnsafe(maxCount: Int(TILTBOX_FORMAT_DOUBLE_MAX) + Int(TILTBOX_FORMAT_SLACK)) { out in
            out.withMemoryRebound(to: CChar.self, capacity: 1) { tiltbox_format_double(value, $0) }
        }
    }

    /// Appends the bodies of a trace record, `[x,y,angle,vx,vy,w],[...]`: `perBody`
    /// values per body, in one call into the fast formatter.
    /// Callers must not pass non-finite values (JSON has no form for them).
    mutating func append(states: UnsafeBufferPointer<Double>, perBody: Int) {
        guard let values = states.baseAddress, states.count > 0 else { return }
        precondition(perBody > 0 && states.count % perBody == 0)
        let bound = states.count * (Int(TILTBOX_FORMAT_DOUBLE_MAX) + 1) + 2 * (states.count / perBody)
        appendUnsafe(maxCount: bound + Int(TILTBOX_FORMAT_SLACK)) { out in
            out.withMemoryRebound(to: CChar.self, capacity: 1) {
                tiltbox_format_states(values, states.count, perBody, $0)
            }
        }
    }

    /// Appends a decimal integer.
    mutating func append(integer value: Int) {
        if value < 0 { append(byte: UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 20 digits hold any UInt64.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var i = 20
            repeat {
                i -= 1
                digits[i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            appendBytes(UnsafeBufferPointer(rebasing: digits[i..<20]))
        }
    }

    /// Appends `value` as a JSON string: quotes, backslashes and control characters
    /// escaped, everything else passed through as UTF-8.
    mutating func append(string value: String) {
        append(byte: UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x00..<0x20:
                append("\\u00")
                let hex: StaticString = "0123456789abcdef"
                hex.withUTF8Buffer { h in
                    append(byte: h[Int(byte >> 4)])
                    append(byte: h[Int(byte & 0xF)])
                }
            default:
                append(byte: byte)
            }
        }
        append(byte: UInt8(ascii: "\""))
    }

    /// The bytes `append(string:)` writes for `value`, quotes included: what a writer can
    /// promise about a line's length before writing it (a trace's end line and its counters).
    static func stringLength(_ value: String) -> Int {
        var length = 2
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09, 0x08, 0x0C: length += 2
            case 0x00..<0x20: length += 6
            default: length += 1
            }
        }
        return length
    }

    /// Appends a digest as a JSON string, `"fnv1a64:` and 16 lowercase hex digits`"` (the
    /// text of `TraceDigest.text(of:)`), without making a `String`: a hash trace writes one
    /// per record.
    mutating func append(digest value: UInt64) {
        append("\"fnv1a64:")
        appendUnsafe(maxCount: 17) { out in
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { h in
                for i in 0..<16 { out[i] = h[Int((value >> UInt64(60 - 4 * i)) & 0xF)] }
            }
            out[16] = UInt8(ascii: "\"")
            return 17
        }
    }

    /// Appends `value` as a JSON string, or `null` when it is `nil`.
    mutating func append(optionalString value: String?) {
        if let value { append(string: value) } else { append("null") }
    }

    /// Appends text that is already JSON (a value kept as its JSON text).
    mutating func append(raw text: String) {
        var text = text
        text.withUTF8 { appendBytes($0) }
    }

    /// Appends `["a","b",...]`.
    mutating func append(strings values: [String]) {
        append(byte: UInt8(ascii: "["))
        for (i, s) in values.enumerated() {
            if i > 0 { append(byte: UInt8(ascii: ",")) }
            append(string: s)
        }
        append(byte: UInt8(ascii: "]"))
    }
}
