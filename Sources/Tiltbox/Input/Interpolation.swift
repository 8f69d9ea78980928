/// How a recorded track fills the time between two samples (`--interpolate`).
public enum Interpolation: String, Sendable, CaseIterable {
    /// The latest sample at or before `t`, as a display-linked game would see it. Default.
    case hold
    /// A straight-line blend between the samples on either side of `t`.
    case linear
}
