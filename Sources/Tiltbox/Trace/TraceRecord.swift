/// One record line of a trace: the state of every body after `step` physics steps.
public struct TraceRecord: Hashable, Sendable {
    /// The physics step number (0 before any step).
    public var step: Int
    /// Simulated time in seconds.
    public var t: Double
    /// The gravity in effect, in units/s².
    public var gravity: Vec2
    /// Every body's fields, flat, in header order: `fields.count` values per body
    /// (`BodyState`'s `x, y, angle, vx, vy, w` for the standard fields).
    public var states: [Double]

    public init(step: Int, t: Double, gravity: Vec2, states: [Double]) {
        self.step = step
        self.t = t
        self.gravity = gravity
        self.states = states
    }

    /// Body `index`'s state, when records hold the standard fields (`BodyState`).
    public func crateState(at index: Int) -> CrateState {
        let start = index * BodyState.count
        precondition(start >= 0 && start + BodyState.count <= states.count, "body \(index) is not in this record")
        return CrateState(fields: states[start..<(start + BodyState.count)])
    }
}
