/// A trace's end line as read back: how the run ended, its totals and the digest the
/// writer computed.
public struct TraceEndLine: Hashable, Sendable {
    /// The value of the `end` key (the one end enum, `TraceEndKind`).
    public typealias Kind = TraceEndKind

    /// How the run ended: the end line's `end` key.
    public var kind: Kind
    /// Physics steps taken.
    public var steps: Int
    /// Simulated time in seconds.
    public var simTime: Double
    /// Frame time in seconds the step cap discarded.
    public var droppedTime: Double
    /// The digest text, `fnv1a64:` and 16 hex digits.
    public var digest: String
    /// The reason, for an `error` end.
    public var message: String?
    /// The rules' counters (`counters`), in the line's order; empty when the line has none.
    public var counters: [TraceCounter] = []

    /// Creates an end line from its values; `TraceReader` and `TraceStream` read one from a trace.
    public init(kind: Kind, steps: Int, simTime: Double, droppedTime: Double, digest: String, message: String? = nil) {
        self.kind = kind
        self.steps = steps
        self.simTime = simTime
        self.droppedTime = droppedTime
        self.digest = digest
        self.message = message
    }
}
