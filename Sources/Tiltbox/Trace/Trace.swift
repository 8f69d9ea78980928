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
    /// The event lines (docs/formats.md §8), in file order, each with the record it comes before.
    public var events: [TraceEventLine]

    /// Creates a trace from its parts; `TraceReader` reads one from a file.
    public init(header: TraceHeader, records: [TraceRecord], end: TraceEndLine?, events: [TraceEventLine] = []) {
        self.header = header
        self.records = records
        self.end = end
        self.events = events
    }

    /// For each record, the ids of the bodies its states list (the header's, changed by the
    /// events before it), in order; consecutive records share one array while nothing changes.
    public var bodiesOfRecords: [[String]] {
        var presence = TracePresence(header: header)
        var lists: [[String]] = []
        lists.reserveCapacity(records.count)
        var next = 0
        var current = presence.bodies
        for index in records.indices {
            var changed = false
            while next < events.count && events[next].beforeRecord <= index {
                presence.apply(events[next].event)
                next += 1
                changed = true
            }
            if changed { current = presence.bodies }
            lists.append(current)
        }
        return lists
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

/// An event line of a trace in memory: the event and the index of the record it comes before
/// (`records.count` for an event after the last record).
public struct TraceEventLine: Hashable, Sendable {
    /// The event.
    public var event: TraceEvent
    /// The index in `Trace.records` of the first record after it.
    public var beforeRecord: Int

    /// Places `event` before record `beforeRecord`.
    public init(event: TraceEvent, beforeRecord: Int) {
        self.event = event
        self.beforeRecord = beforeRecord
    }
}
