/// A dynamic body's mass given directly (docs/formats.md §8, "Body mass given directly"):
/// the body is made with `cpBodyNew(mass, moment)` and its centre of gravity set with
/// `cpBodySetCenterOfGravity` before its pose and shapes; its shapes then carry no mass.
public struct GivenMass: Sendable, Equatable {
    /// `cpBodyNew`'s mass: finite, at least `ScenarioLimits.minMass`.
    public var mass: Double
    /// `cpBodyNew`'s moment of inertia: finite and positive, or `.infinity` (the body never rotates
    /// under forces or contacts).
    public var moment: Double
    /// In body coordinates (`cpBodySetCenterOfGravity`). Default `[0, 0]`.
    public var centreOfGravity: Vec2

    /// Creates the given mass properties; the centre of gravity defaults to the body's origin.
    public init(mass: Double, moment: Double, centreOfGravity: Vec2 = .zero) {
        self.mass = mass
        self.moment = moment
        self.centreOfGravity = centreOfGravity
    }
}
