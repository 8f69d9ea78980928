/// A whole trace in memory: header, records in order, and the end line (`nil` when the
/// trace stops without one, as when the writing process was killed).
///
/// Produced by `TraceReader`, compared by `TraceDiff`.
public struct Trace: Hashable, Sendable {
    public var header: TraceHeader
    public var records: [TraceRecord]
    public var end: TraceEndLine?

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
