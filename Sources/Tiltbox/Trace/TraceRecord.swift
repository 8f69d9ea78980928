/// One record line of a trace: the state of every body after `step` physics steps.
public struct TraceRecord: Hashable, Sendable {
    /// The physics step number (0 before any step).
    public var step: Int
    /// Simulated time in seconds.
    public var t: Double
    /// The gravity in effect, in units/s².
    public var gravity: Vec2
    /// Every body's fields, flat, in header order: `fields.count` values per body
    /// (`BodyStateLayout`'s `x, y, angle, vx, vy, w` for the standard fields).
    /// Empty in a hash trace's records, which carry `hash` instead.
    public var states: [Double]
    /// A hash trace's `h`: the FNV-1a 64 of the record's gravity and states (the bytes
    /// the end digest adds for it); `nil` in a record that holds its states.
    public var hash: UInt64?

    /// Creates a record: `states` in header order, or empty with `hash` for a hash trace.
    public init(step: Int, t: Double, gravity: Vec2, states: [Double], hash: UInt64? = nil) {
        self.step = step
        self.t = t
        self.gravity = gravity
        self.states = states
        self.hash = hash
    }

    /// The record's hash: `hash` when the trace carried it, else computed from the
    /// gravity and the states exactly as a hash trace's writer computes `h`.
    public var recordHash: UInt64 {
        if let hash { return hash }
        return TraceDigest.ofRecord(gravity: gravity, states: states).value
    }

    /// Body `index`'s state, when records hold the standard fields (`BodyStateLayout`).
    public func crateState(at index: Int) -> BodyState {
        let start = index * BodyStateLayout.count
        precondition(start >= 0 && start + BodyStateLayout.count <= states.count, "body \(index) is not in this record")
        return BodyState(fields: states[start..<(start + BodyStateLayout.count)])
    }
}

/// What a trace's records carry (the header's `records` key, docs/formats.md §3).
public enum TraceRecordForm: String, Hashable, Sendable, CaseIterable {
    /// Every body's fields (`"s"`), the default when the header has no `records` key.
    case states
    /// Only the FNV-1a 64 of each record's values (`"h"`): a compact golden (`run --hashes`).
    case hashes
}
