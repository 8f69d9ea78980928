/// How Chipmunk finds candidate pairs. The two broad phases give different (each
/// repeatable) results, so the choice is part of the scenario and of the trace header.
public enum SpatialIndex: Sendable, Equatable {
    /// Chipmunk's default bounding-box tree.
    case bbtree
    /// `cpSpaceUseSpatialHash(space, cellSize, count)`.
    case hash(cellSize: Double, count: Int)

    /// The name written in trace headers: `bbtree` or `hash:<cellSize>:<count>`.
    public var traceName: String {
        switch self {
        case .bbtree: return "bbtree"
        case .hash(let cellSize, let count): return "hash:\(NumberFormat.shortest(cellSize)):\(count)"
        }
    }
}

/// World-wide settings (`world` in the scenario file).
///
/// The Chipmunk space settings (`iterations` … `idleSpeedThreshold`) are optional: `nil`
/// means the setter is never called, so the space keeps exactly the value `cpSpaceNew`
/// chose (`SpaceSettings.chipmunkDefaults`). Chipmunk's collision slop, for one, is the
/// float `0.1f`, which is 0.10000000149011612 as a double, not 0.1.
public struct WorldSettings: Sendable, Equatable {
    /// Width and height in world units. Required.
    public var size: Vec2
    /// Gravity in units/s². Default `[0, -980]`.
    public var gravity: Vec2
    /// Solver iterations per step; `nil` keeps Chipmunk's 10. The corresponding Chipmunk call is `cpSpaceSetIterations`.
    public var iterations: Int?
    /// Fraction of velocity kept per second; `nil` keeps Chipmunk's 1 (no damping). `cpSpaceSetDamping`.
    public var damping: Double?
    /// Allowed overlap between shapes, in world units; `nil` keeps Chipmunk's `0.1f`. `cpSpaceSetCollisionSlop`.
    public var collisionSlop: Double?
    /// Fraction of an overlap left uncorrected after one second, in [0, 1]; `nil` keeps
    /// Chipmunk's `pow(1 − 0.1, 60)`. `cpSpaceSetCollisionBias`.
    public var collisionBias: Double?
    /// Steps a contact is kept after the shapes separate; `nil` keeps Chipmunk's 3.
    /// `cpSpaceSetCollisionPersistence`.
    public var collisionPersistence: Int?
    /// Seconds a group of bodies must stay idle before it falls asleep; `nil` keeps
    /// Chipmunk's infinity (sleeping off). `cpSpaceSetSleepTimeThreshold`.
    public var sleepTimeThreshold: Double?
    /// Speed under which a body counts as idle, units/s; `nil` keeps Chipmunk's 0 (Chipmunk
    /// then estimates it from gravity). `cpSpaceSetIdleSpeedThreshold`.
    public var idleSpeedThreshold: Double?
    /// Broad phase. Default `.bbtree`.
    public var spatialIndex: SpatialIndex

    /// Creates world settings; every space setting left `nil` keeps Chipmunk's own value.
    public init(
        size: Vec2, gravity: Vec2 = Vec2(0, -980), iterations: Int? = nil, damping: Double? = nil,
        collisionSlop: Double? = nil, collisionBias: Double? = nil, collisionPersistence: Int? = nil,
        sleepTimeThreshold: Double? = nil, idleSpeedThreshold: Double? = nil,
        spatialIndex: SpatialIndex = .bbtree
    ) {
        self.size = size
        self.gravity = gravity
        self.iterations = iterations
        self.damping = damping
        self.collisionSlop = collisionSlop
        self.collisionBias = collisionBias
        self.collisionPersistence = collisionPersistence
        self.sleepTimeThreshold = sleepTimeThreshold
        self.idleSpeedThreshold = idleSpeedThreshold
        self.spatialIndex = spatialIndex
    }
}
