/// The effective settings of a Chipmunk space, read back from the space itself with
/// Chipmunk's getters, so what `validate` and trace headers show is what ran.
///
/// `WorldSettings` holds what a scenario asked for (each optional); this holds what the
/// space has after the asked-for setters ran and the rest kept `cpSpaceNew`'s values.
public struct SpaceSettings: Sendable, Hashable {
    /// `cpSpaceGetIterations`.
    public var iterations: Int
    /// `cpSpaceGetDamping`.
    public var damping: Double
    /// `cpSpaceGetCollisionSlop`.
    public var collisionSlop: Double
    /// `cpSpaceGetCollisionBias`.
    public var collisionBias: Double
    /// `cpSpaceGetCollisionPersistence`.
    public var collisionPersistence: Int
    /// `cpSpaceGetSleepTimeThreshold`; infinity means sleeping is off.
    public var sleepTimeThreshold: Double
    /// `cpSpaceGetIdleSpeedThreshold`; 0 lets Chipmunk estimate it from gravity.
    public var idleSpeedThreshold: Double

    /// Creates settings from values already read from a space (or from a trace header's `space` object).
    /// The values are taken as given; nothing is checked or applied to a space here.
    public init(
        iterations: Int, damping: Double, collisionSlop: Double, collisionBias: Double,
        collisionPersistence: Int, sleepTimeThreshold: Double, idleSpeedThreshold: Double
    ) {
        self.iterations = iterations
        self.damping = damping
        self.collisionSlop = collisionSlop
        self.collisionBias = collisionBias
        self.collisionPersistence = collisionPersistence
        self.sleepTimeThreshold = sleepTimeThreshold
        self.idleSpeedThreshold = idleSpeedThreshold
    }

    /// The settings a space gets from `cpSpaceNew` (read from a fresh space): iterations 10,
    /// damping 1, collision slop `0.1f` (0.10000000149011612), collision bias
    /// `pow(1 − 0.1f, 60)` (0.0017970074436457143), persistence 3, sleep time threshold
    /// infinity (sleeping off), idle speed threshold 0.
    public static var chipmunkDefaults: SpaceSettings { Space().settings }

    /// The settings `world` gives a space: its keys applied, the rest Chipmunk's own.
    public static func effective(for world: WorldSettings) -> SpaceSettings {
        let space = Space()
        space.apply(world)
        return space.settings
    }

    /// The names and values in a fixed order (the trace header's `space` object and
    /// `validate`'s line use it). A sleep threshold of infinity is written as `null`
    /// by the trace writer (JSON has no infinity).
    public var namedValues: [(name: String, value: Double)] {
        [
            ("iterations", Double(iterations)), ("damping", damping), ("collisionSlop", collisionSlop),
            ("collisionBias", collisionBias), ("collisionPersistence", Double(collisionPersistence)),
            ("sleepTimeThreshold", sleepTimeThreshold), ("idleSpeedThreshold", idleSpeedThreshold),
        ]
    }

    /// One line for people: `iterations 10, damping 1, collisionSlop 0.10000000149011612, …`.
    public var summary: String {
        namedValues.map { "\($0.name) \($0.value.isInfinite ? "infinity" : NumberFormat.shortest($0.value))" }
            .joined(separator: ", ")
    }
}
