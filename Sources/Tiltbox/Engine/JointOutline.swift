/// A joint as the trace header describes it and a renderer draws it: a thin line between
/// its two anchors, read back from Chipmunk (`World.jointOutlines`).
public struct JointOutline: Hashable, Sendable {
    /// The joint's scenario key, such as `pin` or `simpleMotor`.
    public var kind: String
    /// Body ids from the header's `bodies`, or `"static"` for the world.
    public var a: String
    /// The second body's id, or `"static"` for the world.
    public var b: String
    /// In body a's coordinates (world coordinates when `a` is `"static"`).
    public var anchorA: Vec2
    /// In body b's coordinates (world coordinates when `b` is `"static"`).
    public var anchorB: Vec2
    /// A groove joint's groove, in body a's coordinates.
    public var groove: [Vec2]?
    /// The joint's `id` (docs/formats.md §8), by which a timeline names it; `nil` when it has none
    /// (then the header's entry has no `id` key, as before joints had ids).
    public var id: String?

    /// Creates an outline; anchors default to `[0,0]`, as written for joints without anchors.
    public init(
        kind: String, a: String, b: String, anchorA: Vec2 = .zero, anchorB: Vec2 = .zero, groove: [Vec2]? = nil,
        id: String? = nil
    ) {
        self.kind = kind
        self.a = a
        self.b = b
        self.anchorA = anchorA
        self.anchorB = anchorB
        self.groove = groove
        self.id = id
    }
}
