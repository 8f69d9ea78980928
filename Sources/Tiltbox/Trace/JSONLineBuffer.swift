/// A growable byte buffer that JSON text is appended to without creating a `String`
/// per number: the trace writer's hot path formats thousands of doubles per step.
///
/// It is a `TextOutputStream` so that `Double.write(to:)` can hand it the shortest
/// round-trip digits directly. The standard library passes those digits through the
/// underscored customization point `_writeASCII(_:)`; implementing it skips the
/// intermediate `String`. If a future standard library stopped calling it, the
/// digits would arrive through `write(_:)` instead: slower, still correct (a test
/// checks the bytes against `NumberFormat.shortest`).
struct JSONLineBuffer: TextOutputStream {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    // MARK: - TextOutputStream

    mutating func write(_ string: String) {
        bytes.append(contentsOf: string.utf8)
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }

    // MARK: - JSON pieces

    /// Appends literal ASCII text (punctuation and keys known at compile time).
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `value` in shortest round-trip form, without the redundant `.0` of
    /// integral values: the same text as `NumberFormat.shortest(value)`.
    /// Callers must not pass non-finite values (JSON has no form for them).
    mutating func append(number value: Double) {
        value.write(to: &self)
        let n = bytes.count
        if n >= 2, bytes[n - 2] == UInt8(ascii: "."), bytes[n - 1] == UInt8(ascii: "0") {
            bytes.removeLast(2)
        }
    }

    /// Appends a decimal integer.
    mutating func append(integer value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 20 digits hold any UInt64.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var i = 20
            repeat {
                i -= 1
                digits[i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i..<20]))
        }
    }

    /// Appends `value` as a JSON string: quotes, backslashes and control characters
    /// escaped, everything else passed through as UTF-8.
    mutating func append(string value: String) {
        bytes.append(UInt8(ascii: "\""))
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
                    bytes.append(h[Int(byte >> 4)])
                    bytes.append(h[Int(byte & 0xF)])
                }
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `[a,b]`, the JSON form of a vector.
    mutating func append(pair value: Vec2) {
        bytes.append(UInt8(ascii: "["))
        append(number: value.x)
        bytes.append(UInt8(ascii: ","))
        append(number: value.y)
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends `["a","b",...]`.
    mutating func append(strings values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (i, s) in values.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            append(string: s)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
