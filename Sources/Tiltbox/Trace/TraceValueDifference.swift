/// The first value that differs between two traces: where it is and by how much.
public struct TraceValueDifference: Hashable, Sendable {
    /// The step of the record holding it.
    public var step: Int
    /// That record's time in seconds (the first trace's).
    public var time: Double
    /// The body id, or `nil` for the record's own values (`t`, `g.x`, `g.y`).
    public var body: String?
    /// The field: a header field name (`x`, `y`, `angle`, `vx`, `vy`, `w`), `g.x`, `g.y` or `t`.
    public var field: String
    /// The value in the first trace (the reference).
    public var a: Double
    /// The value in the second trace (this run).
    public var b: Double
    /// How many representable doubles apart the two are (see `TraceDiff.ulpDistance`).
    public var ulps: UInt64

    /// Creates a difference; `ulps` is computed from `a` and `b`.
    public init(step: Int, time: Double, body: String?, field: String, a: Double, b: Double) {
        self.step = step
        self.time = time
        self.body = body
        self.field = field
        self.a = a
        self.b = b
        self.ulps = TraceDiff.ulpDistance(a, b)
    }
}
