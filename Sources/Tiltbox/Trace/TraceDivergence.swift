/// Why two traces are not the same, at the first point they differ; printed as one line.
public enum TraceDivergence: Hashable, Sendable, CustomStringConvertible {
    /// One of the two traces being compared.
    public enum Side: String, Hashable, Sendable {
        case a = "A"
        case b = "B"
    }

    /// The headers disagree on `field` (`bodies`, `fields`, `dt` or `every`), so the
    /// records cannot be compared; `a` and `b` are the two values as JSON text.
    case header(field: String, a: String, b: String)
    /// A value in the records differs (beyond the tolerance).
    case value(TraceValueDifference)
    /// The records at position `index` are for different steps.
    case stepMismatch(index: Int, stepA: Int, stepB: Int)
    /// Trace `missingFrom` stops before `step` (time `time`), which the other has.
    /// `truncated` tells whether the shorter trace also lacks its end line.
    case missingRecord(step: Int, time: Double, missingFrom: Side, truncated: Bool)
    /// All records agree but the ends do not: a missing end line, a different end
    /// kind or a different step count.
    case end(reason: String)

    public var description: String {
        switch self {
        case .header(let field, let a, let b):
            return "headers differ in \(field): A = \(a), B = \(b)"
        case .value(let d):
            var text = "first divergence at step \(d.step) (t = \(NumberFormat.shortest(d.time))): "
            if let body = d.body {
                text += "body \(quoted(body)) field \(d.field)"
            } else if d.field.hasPrefix("g.") {
                text += "gravity \(d.field)"
            } else {
                text += "record \(d.field)"
            }
            text += ": A = \(NumberFormat.shortest(d.a)), B = \(NumberFormat.shortest(d.b))"
            text += " (\(d.ulps) \(d.ulps == 1 ? "ULP" : "ULPs") apart)"
            return text
        case .stepMismatch(let index, let stepA, let stepB):
            return "first divergence at record \(index + 1): A has step \(stepA), B has step \(stepB)"
        case .missingRecord(let step, let time, let side, let truncated):
            return "first divergence at step \(step) (t = \(NumberFormat.shortest(time))): trace \(side.rawValue) ends before it"
                + (truncated ? " without an end line (truncated)" : "")
        case .end(let reason):
            return reason
        }
    }

    private func quoted(_ text: String) -> String {
        var buffer = JSONLineBuffer()
        buffer.append(string: text)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }
}
