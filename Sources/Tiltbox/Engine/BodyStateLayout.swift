/// The layout of one body's state wherever states travel as flat arrays of doubles:
/// the engine's read-out (`World.readStates(into:)`, the C helper `tiltbox_body_state`),
/// trace records and headers, interpolation and drawing.
///
/// Six values per body, in this order: `x`, `y`, `angle`, `vx`, `vy`, `w`
/// (world units, radians, seconds). Body `i`'s value `f` is at `i * BodyStateLayout.count + f`.
public enum BodyStateLayout {
    /// Values per body.
    public static let count = 6
    /// Index of the centre's x.
    public static let x = 0
    /// Index of the centre's y.
    public static let y = 1
    /// Index of the angle in radians (counter-clockwise); interpolated along the shortest arc.
    public static let angle = 2
    /// Index of the x velocity.
    public static let vx = 3
    /// Index of the y velocity.
    public static let vy = 4
    /// Index of the angular velocity.
    public static let w = 5
    /// The field names, in layout order (a trace header's `fields`).
    public static let fieldNames = ["x", "y", "angle", "vx", "vy", "w"]
}
