@_spi(Tools) import Tiltbox

/// Numbers and counts as people read them, for summaries and messages. Traces and
/// machine-readable output keep exact (shortest round-trip) numbers instead.
enum PeopleText {
    /// `value` rounded to `decimals` places, trailing zeros dropped: `0.4333…` → `0.433`, `6.0` → `6`.
    static func number(_ value: Double, decimals: Int = 3) -> String {
        guard value.isFinite else { return "\(value)" }
        let scale = pow10(decimals)
        var rounded = (value * scale).rounded() / scale
        if rounded == 0 { rounded = 0 } // no "-0"
        return NumberFormat.shortest(rounded)
    }

    /// `value` exactly (shortest round-trip), its exponent written as people do: `1e-9`, not `1e-09`.
    static func exact(_ value: Double) -> String {
        let text = NumberFormat.shortest(value)
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(text[text.index(after: e)...])
        else { return text }
        return "\(text[..<e])e\(exponent)"
    }

    /// `1 crate`, `2 crates`; `plural` for irregular nouns (`1 body`, `2 bodies`).
    static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? noun : (plural ?? noun + "s"))"
    }

    /// `2nd`, `3rd`, `11th`, `21st`.
    static func ordinal(_ n: Int) -> String {
        let suffix: String
        switch (n % 100, n % 10) {
        case (11...13, _): suffix = "th"
        case (_, 1): suffix = "st"
        case (_, 2): suffix = "nd"
        case (_, 3): suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }

    /// A step rate: `120 Hz` for the step length 1/120 s.
    static func hertz(_ hz: Double) -> String { "\(number(hz)) Hz" }

    private static func pow10(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<max(n, 0) { p *= 10 }
        return p
    }
}
