/// Why two traces are not the same, at the first point they differ; printed as one line.
///
/// `describe(_:)` names the two traces as the caller wants (`verify`: "reference" and
/// "this run"; `diff`: the two files); `description` says "the first trace" and "the
/// second trace".
public enum TraceDivergence: Hashable, Sendable, CustomStringConvertible {
    /// One of the two traces being compared: `a` the first (the reference), `b` the second.
    public enum Side: String, Hashable, Sendable {
        case a
        case b
    }

    /// How the ends of two traces whose records agree differ.
    public enum EndMismatch: Hashable, Sendable {
        /// `side` (both when `nil`) has no end line; `afterStep` is the last record's step.
        case missingEndLine(side: Side?, afterStep: Int?)
        /// The end kinds differ (`complete`, `interrupted`, `error`).
        case kinds(a: String, b: String)
        /// The step counts of the end lines differ.
        case stepCounts(a: Int, b: Int)
    }

    /// The headers disagree, so the records cannot be compared.
    case header(TraceHeaderMismatch)
    /// A value in the records differs (beyond the tolerance).
    case value(TraceValueDifference)
    /// The records for `step` have different hashes (one side at least is a hash trace,
    /// which holds no fields to name).
    case recordHash(step: Int, time: Double, a: UInt64, b: UInt64)
    /// The records at position `index` are for different steps.
    case stepMismatch(index: Int, stepA: Int, stepB: Int)
    /// Trace `missingFrom` stops before `step` (time `time`), which the other has.
    /// `truncated` tells whether the shorter trace also lacks its end line.
    case missingRecord(step: Int, time: Double, missingFrom: Side, truncated: Bool)
    /// All records agree but the ends do not.
    case end(EndMismatch)
    /// The first event lines that differ (docs/formats.md §8), before the record of `step` (or
    /// the end); `nil` on a side that has no event there. `step` and `time` are the first
    /// trace's event's, else the second's.
    case event(step: Int, time: Double, a: TraceEvent?, b: TraceEvent?)

    /// One line naming the traces "the first trace" and "the second trace" (`describe(.unnamed)`).
    public var description: String { describe(.unnamed) }

    /// One line, naming the traces by `sides`.
    public func describe(_ sides: TraceSides) -> String {
        switch self {
        case .header(let mismatch):
            return mismatch.describe(sides)
        case .value(let d):
            var text = "first divergence at step \(d.step) (t = \(NumberFormat.shortest(d.time))): "
            if let body = d.body {
                text += "body \(quoted(body)) field \(d.field)"
            } else if d.field.hasPrefix("g.") {
                text += "gravity \(d.field)"
            } else {
                text += "record \(d.field)"
            }
            text += ": \(sides.a) = \(NumberFormat.shortest(d.a)), \(sides.b) = \(NumberFormat.shortest(d.b))"
            text += " (\(d.ulps) \(d.ulps == 1 ? "ULP" : "ULPs") apart)"
            return text
        case .recordHash(let step, let time, let a, let b):
            return "first divergence at step \(step) (t = \(NumberFormat.shortest(time))): the record hashes differ: "
                + "\(sides.a) \(TraceDigest.text(of: a)), \(sides.b) \(TraceDigest.text(of: b)) (a hash trace holds no fields)"
        case .stepMismatch(let index, let stepA, let stepB):
            return
                "first divergence at record \(index + 1): \(sides.aTrace) has step \(stepA), \(sides.bTrace) step \(stepB)"
        case .missingRecord(let step, let time, let side, let truncated):
            return
                "first divergence at step \(step) (t = \(NumberFormat.shortest(time))): \(sides.name(side)) ends before it"
                + (truncated ? " without an end line (truncated)" : "")
        case .event(let step, let time, let a, let b):
            let at = "first divergence at step \(step) (t = \(NumberFormat.shortest(time))): "
            switch (a, b) {
            case (let a?, let b?):
                return at + "the events differ: \(sides.aTrace) \(a), \(sides.bTrace) \(b)"
            case (let a?, nil):
                return at + "\(sides.bTrace) lacks the event \(a)"
            case (nil, let b?):
                return at + "\(sides.aTrace) lacks the event \(b)"
            case (nil, nil):
                return at + "the events differ"
            }
        case .end(let mismatch):
            switch mismatch {
            case .missingEndLine(let side, let afterStep):
                let after = afterStep.map { " after step \($0)" } ?? ""
                guard let side else { return "neither trace has an end line (both truncated\(after))" }
                return "\(sides.name(side)) has no end line (truncated\(after))"
            case .kinds(let a, let b):
                return "the traces end differently: \(sides.aTrace) \"\(a)\", \(sides.bTrace) \"\(b)\""
            case .stepCounts(let a, let b):
                return "the traces end after different step counts: \(sides.aTrace) \(a), \(sides.bTrace) \(b)"
            }
        }
    }

    private func quoted(_ text: String) -> String {
        var buffer = JSONLineBuffer()
        buffer.append(string: text)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }
}
