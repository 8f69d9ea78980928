/// Compact fixed-point text for drawings: at most `decimals` digits after the point,
/// trailing zeros and a lone point dropped, `-0` written `0` (`12.50` → `12.5`,
/// `3.00` → `3`).
///
/// Drawings do not need shortest round-trip digits (traces do): two decimals of a
/// world unit are far below a pixel, and they keep an SVG or an HTML page small.
/// Written by hand rather than with `String(format:)` because an HTML page of a long
/// trace formats a million numbers.
enum RenderNumber {
    /// Beyond this magnitude the fixed form would overflow `Int64`; such values (a
    /// crate flung far outside the world) are written in shortest round-trip form.
    private static let fixedLimit = 1e12

    /// `value` with at most `decimals` (0...6) decimals; non-finite values, which no
    /// trace holds, are written `0` so that the output always parses.
    static func text(_ value: Double, decimals: Int) -> String {
        var bytes: [UInt8] = []
        append(value, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` with at most `decimals` (0...6) decimals to `bytes`.
    static func append(_ value: Double, decimals: Int, to bytes: inout [UInt8]) {
        precondition((0...6).contains(decimals), "decimals must be in 0...6")
        guard value.isFinite else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        guard value.magnitude < fixedLimit else {
            bytes.append(contentsOf: NumberFormat.shortest(value).utf8)
            return
        }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        if scaled == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if scaled < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = Int64(scaled.magnitude)
        appendDigits(magnitude / scale, to: &bytes)
        var fraction = magnitude % scale
        guard fraction != 0 else { return }
        var width = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        bytes.append(UInt8(ascii: "."))
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
        var i = width
        while fraction > 0 {
            i -= 1
            digits[i] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
        }
        bytes.append(contentsOf: digits)
    }

    private static func appendDigits(_ value: Int64, to bytes: inout [UInt8]) {
        var digits: [UInt8] = []
        var v = value
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(v % 10))
            v /= 10
        } while v > 0
        bytes.append(contentsOf: digits.reversed())
    }
}
