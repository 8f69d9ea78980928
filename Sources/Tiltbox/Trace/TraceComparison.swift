/// The result of comparing two traces with `TraceDiff.compare`.
public enum TraceComparison: Hashable, Sendable, CustomStringConvertible {
    /// Every record agrees (bit for bit, or within the tolerance) and both traces end
    /// the same way; `records` is how many records were compared.
    case identical(records: Int)
    /// Every record, event and counter agrees up to where one trace was interrupted (Ctrl-C,
    /// SIGTERM): not a divergence, only a run that stopped early (a live run and the replay
    /// of its CSV, a reference recorded until interrupted and `verify`'s run of as many steps).
    case identicalUntilInterrupted(TraceInterruptedPrefix)
    /// The first difference.
    case diverged(TraceDivergence)

    /// Whether the traces agree entirely: `true` for `.identical` only.
    public var isIdentical: Bool {
        if case .identical = self { return true }
        return false
    }

    /// Whether no divergence was found: `.identical`, or `.identicalUntilInterrupted`.
    public var agrees: Bool {
        if case .diverged = self { return false }
        return true
    }

    /// Records compared without finding a difference (0 after a divergence).
    public var records: Int {
        switch self {
        case .identical(let records): return records
        case .identicalUntilInterrupted(let prefix): return prefix.records
        case .diverged: return 0
        }
    }

    /// `identical (N records)`, the interrupted prefix, or the divergence's one line naming
    /// "the first trace" and "the second trace".
    public var description: String {
        switch self {
        case .identical(let records): return "identical (\(records) records)"
        case .identicalUntilInterrupted(let prefix): return prefix.describe(.unnamed)
        case .diverged(let divergence): return divergence.description
        }
    }
}

/// Two traces that agree as far as one of them goes, that one having ended `interrupted`.
public struct TraceInterruptedPrefix: Hashable, Sendable {
    /// Records compared (all the interrupted trace holds).
    public var records: Int
    /// Steps the interrupted trace took (its end line's `steps`).
    public var steps: Int
    /// Its simulated time.
    public var time: Double
    /// The trace that was interrupted.
    public var interrupted: TraceDivergence.Side
    /// How the other trace ends (`complete`, `interrupted`, `error`) and after how many steps
    /// (`steps` when it stopped at the same step, more when it ran on).
    public var otherEnd: TraceEndKind
    public var otherSteps: Int

    /// `identical up to where B was interrupted: N records, to step K (t = T); A ends "complete" there`
    /// (or `runs on to step M and ends "complete"`); `agreement` replaces `identical` (a
    /// comparison within a tolerance).
    public func describe(_ sides: TraceSides, agreement: String = "identical") -> String {
        let other: TraceDivergence.Side = interrupted == .a ? .b : .a
        let end =
            otherSteps == steps
            ? "ends \"\(otherEnd.rawValue)\" there"
            : "runs on to step \(otherSteps) and ends \"\(otherEnd.rawValue)\""
        return "\(agreement) up to where \(sides.name(interrupted)) was interrupted: "
            + "\(records) record\(records == 1 ? "" : "s"), to step \(steps) (t = \(NumberFormat.shortest(time))); "
            + "\(sides.name(other)) \(end)"
    }
}
