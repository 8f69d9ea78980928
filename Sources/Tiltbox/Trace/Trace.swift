/// A whole trace in memory: header, records in order, and the end line (`nil` when the
/// trace stops without one, as when the writing process was killed).
///
/// Produced by `TraceReader`, compared by `TraceDiff`.
public struct Trace: Hashable, Sendable {
    /// The first line: what was simulated and how the records are laid out.
    public var header: TraceHeader
    /// Every record line, in file order.
    public var records: [TraceRecord]
    /// The last line, or `nil` when the trace stops without one.
    public var end: TraceEndLine?

    /// Creates a trace from its parts; `TraceReader` reads one from a file.
    public init(header: TraceHeader, records: [TraceRecord], end: TraceEndLine?) {
        self.header = header
        self.records = records
        self.end = end
    }

    /// The digest of the records as they are now (recomputed, not read from the end line).
    public var recordsDigest: TraceDigest {
        var digest = TraceDigest()
        for record in records {
            record.states.withUnsafeBufferPointer { digest.addRecord(gravity: record.gravity, states: $0) }
        }
        return digest
    }
}
