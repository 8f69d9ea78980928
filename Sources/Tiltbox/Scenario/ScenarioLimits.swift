/// The caps `ScenarioLoader` enforces on hostile or mistaken input, in one place.
///
/// Every bound here is checked before anything is allocated from it (a 10⁹-crate grid
/// fails at once, not after filling memory) and before any value reaches Chipmunk,
/// whose Debian build is a debug build that `abort()`s the process on a failed
/// assertion (a negative friction, a NaN velocity, a zero moment of inertia, ...).
/// The numbers are generous for real scenes and small enough that no product of them
/// (`duration × hz`, `mass × size²`, `position + velocity·dt`) leaves the finite range.
public struct ScenarioLimits: Sendable, Equatable {
    /// Largest scenario file read, in bytes (16 MiB). Checked from the file's attributes
    /// before reading, and again on the bytes read.
    public let maxFileBytes = 16 * 1024 * 1024

    /// Most crates in a scenario, listed crates and grid crates together; also the most
    /// bodies, crates and the entries of `bodies` together.
    public let maxCrates = 100_000
    /// Most shapes on one body of `bodies` (the bodies count against `maxCrates` with the crates).
    public let maxShapesPerBody = 1_000
    /// Most vertices of one polygon shape.
    public let maxPolygonVertices = 1_000
    /// Largest `|x|` or `|y|` of a point in a body's own coordinates (a circle's offset,
    /// a polygon's vertex, a segment's end).
    public let maxLocalCoordinate = 1e5
    /// Largest shape `density` (mass per unit area; it must also be > 0).
    public let maxDensity = 1e12
    /// Most entries in `segments` (the four box walls are not counted).
    public let maxSegments = 100_000

    /// Largest `world.size` component, in world units (each must also be > 0).
    public let maxWorldSize = 1e6
    /// Largest `|world.gravity|` component, in units/s². Also the cap on `tilt.g`.
    public let maxGravity = GravityBound.maxComponent
    /// Largest `|x|` or `|y|` of a segment end point, a grid origin or a grid spacing.
    public let maxCoordinate = 1e7

    /// Longest `duration`, in simulated seconds (it must also be > 0).
    public let maxDuration = 1e6
    /// Most physics steps in a run (`duration × hz`, rounded); a run takes at least one.
    public let maxTotalSteps = 1_000_000_000
    /// Highest `timestep.hz` (it must also be > 0).
    public let maxHz = 100_000.0
    /// Most solver iterations per step (`world.iterations`, at least 1).
    public let maxIterations = 1_000
    /// Most steps a contact is kept after separation (`world.collisionPersistence`, at least 0).
    /// Chipmunk keeps the contact buffers of the last `collisionPersistence` steps (a ring it
    /// recycles only once its oldest buffer is that many steps old), each at least one 32 KiB
    /// block: 1 000 steps hold at least 32 MiB, 10 000 held 326 MB on the 100-crate pile.
    public let maxCollisionPersistence = 1_000
    /// Largest `collisionPersistence × dynamic shapes` (crates and the shapes of dynamic
    /// bodies) when `collisionPersistence` is above Chipmunk's default 3: each step's buffer
    /// holds the contacts of that step, about 260 bytes per resting crate (measured on a
    /// 2 000-crate pile: 503 KiB a step), so this keeps the ring near 256 MiB at most for
    /// resting piles. 2 000 crates at 10 000 grew 140 MB/s until Chipmunk crashed.
    public let maxPersistentShapeSteps = 1_000_000
    /// Highest `timestep.maxStepsPerFrame` (at least 1).
    public let maxStepsPerFrame = 10_000

    /// Lightest crate. A positive floor keeps the moment of inertia (`cpMomentForBox`)
    /// positive: Chipmunk refuses to simulate a body with zero mass or moment.
    public let minMass = 1e-9
    /// Heaviest crate.
    public let maxMass = 1e12
    /// Smallest crate width or height, in world units; a floor for the same reason as `minMass`.
    public let minCrateSize = 1e-3
    /// Largest crate width or height, in world units.
    public let maxCrateSize = 1e5
    /// Largest `|velocity|` component of a crate, in units/s.
    public let maxSpeed = 1e7
    /// Largest `|angularVelocity|` of a crate, in radians/s.
    public let maxAngularVelocity = 1e6
    /// Largest `|angle|` of a crate, in radians.
    public let maxAngle = 1e6
    /// Largest friction or elasticity (both must be ≥ 0, Chipmunk asserts it).
    public let maxMaterial = 1e3
    /// Largest segment or wall radius, and largest `world.collisionSlop`, in world units.
    public let maxRadius = 1e5

    /// Largest spatial hash `cellSize`, in world units (it must also be > 0).
    public let maxHashCellSize = 1e6
    /// Largest spatial hash `count` (at least 1).
    public let maxHashCount = 1_000_000
    /// Most hash cells one shape's bounding box may cover. Chipmunk's spatial hash visits
    /// every cell under a shape when it inserts or queries it, so a tiny `cellSize` under
    /// a big wall or crate would stall the run (or exhaust memory) rather than fail.
    public let maxHashCellsPerShape = 1_000_000
    /// Most hash cells all shapes together may cover (the sum over every crate and
    /// segment of the cells under its bounding box). Chipmunk visits each of them for
    /// every shape on every step, so twenty crates of a million cells each would stall
    /// the run as surely as one of twenty million.
    public let maxHashCellsTotal = 4_000_000

    /// Most pairs of crates that may overlap at t = 0 (`OverlapCensus`, checked before
    /// the world is built). Chipmunk resolves every overlapping pair on every step, so a
    /// thousand crates at one point (499 500 pairs) would take minutes per simulated
    /// second and gigabytes of contact memory; real scenes overlap in a handful at most.
    public let maxOverlappingPairs = 10_000
    /// Most entries in `expect`: each is checked on every step of its window, so the cost of
    /// a run grows with their number; a scenario states its intent in a handful.
    public let maxExpectations = 1_000

    /// Most bodies a `timeline` may spawn over a run, counts included (docs/formats.md §8):
    /// as many as a scenario may hold at start.
    public let maxSpawns = 100_000
    /// Most shapes a scenario may make over a run: crates, the shapes of `bodies`, segments and
    /// walls, and each spawn's shapes times its `count` (a spawn's `count` multiplies what the file
    /// writes: 100 000 spawns of 1 000 shapes would be 10⁸ shapes from a 46 KB file). Checked
    /// before the run; the file-size cap keeps a file that writes every shape far below it.
    public let maxShapes = 1_000_000
    /// Most polygon vertices a scenario may make over a run, counted as `maxShapes` counts shapes.
    public let maxShapeVertices = 10_000_000
    /// Most actions a `timeline` may take over a run, counts included: each is walked before
    /// the run (`ScenarioLoader.timeline`), so this bounds that walk's time and memory.
    public let maxTimelineActions = 1_000_000
    /// Most collision `rules` a scenario may have (docs/formats.md §8): each is a Chipmunk
    /// handler call per contact, so this bounds the work a begin or separate costs.
    public let maxRules = 10_000
    /// Most actions in one rule's `do`.
    public let maxRuleActions = 64
    /// Most bytes the rules' counters may take on a trace's end line (docs/formats.md §8):
    /// `"NAME":COUNT,` for each, the name as the writer escapes it and the count at its widest
    /// (20 digits). The trace readers accept an end line of `maxEndLineBytes`; this leaves
    /// 64 KiB of it for the rest of the line (kind, totals, digest and an error's message), so
    /// every end line a run writes is one every reader reads. About 39 000 counters of short
    /// names, or 64 of 15 000 characters.
    public let maxCounterBytes = (1 << 20) - (64 << 10)
    /// The longest end line the trace readers accept (`TraceStream.maxEndLineBytes`): 1 MiB.
    public let maxEndLineBytes = 1 << 20
    /// Largest `world.cull.margin`, world units (the largest coordinate).
    public var maxCullMargin: Double { maxCoordinate }
    /// Largest impulse component, mass × velocity (`maxMass` × 1 unit/s).
    public let maxImpulse = 1e12

    /// The limits Tiltbox enforces; every value is a fixed constant.
    public init() {}
}
