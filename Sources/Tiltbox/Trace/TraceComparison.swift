/// The result of comparing two traces with `TraceDiff.compare`.
public enum TraceComparison: Hashable, Sendable, CustomStringConvertible {
    /// Every record agrees (bit for bit, or within the tolerance) and both traces end
    /// the same way; `records` is how many records were compared.
    case identical(records: Int)
    /// The first difference.
    case diverged(TraceDivergence)

    /// Whether the traces agree: `true` for `.identical`, `false` for `.diverged`.
    public var isIdentical: Bool {
        if case .identical = self { return true }
        return false
    }

    /// `identical (N records)`, or the divergence's one line naming "the first trace" and "the second trace".
    public var description: String {
        switch self {
        case .identical(let records): return "identical (\(records) records)"
        case .diverged(let divergence): return divergence.description
        }
    }
}
