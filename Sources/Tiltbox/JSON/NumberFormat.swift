/// Shortest round-trip formatting of doubles for JSON output.
///
/// Swift's `Double.description` already prints the shortest digits that parse back to
/// the same bits; this drops the redundant `.0` of integral values so that `100.0`
/// is written `100`, as in the trace examples. Non-finite values have no JSON form:
/// callers must not pass them (traces stop at the first non-finite state).
@_spi(Tools) public enum NumberFormat {
    /// The shortest text that reads back to exactly `value`'s bits (`-0` keeps its sign).
    public static func shortest(_ value: Double) -> String {
        let text = value.description
        if text.hasSuffix(".0") {
            return String(text.dropLast(2))
        }
        return text
    }
}
