/// A validated scenario: everything needed to build a `World` and run it.
///
/// Values here have passed `ScenarioLoader`'s checks, so every number is finite and
/// in range and nothing can trip a Chipmunk assertion. Crates are already expanded:
/// listed crates first, then each grid row by row (row 0 at the bottom), which is
/// also the body order in traces.
public struct Scenario: Sendable, Equatable {
    /// Short name, recorded in trace headers. Defaults to the file name without extension.
    public var name: String
    /// One-line description shown by `tiltbox validate`.
    public var description: String
    /// The `world` key: size, gravity, and the Chipmunk space settings the scenario sets.
    public var world: WorldSettings
    /// The `timestep` key: steps per second and the step cap per frame.
    public var timestep: TimestepSettings
    /// Simulated seconds to run. Default 10.
    public var duration: Double
    /// Static segments: the box walls (when enabled) first, then the listed segments.
    public var segments: [SegmentSpec]
    /// The box walls' settings, kept so a renderer can tell walls from segments.
    public var walls: WallSettings
    /// Every crate in trace order: the listed `crates`, then each of `grids` row by row.
    public var crates: [CrateSpec]
    /// Any other bodies (docs/formats.md §5), after every crate in trace order.
    public var bodies: [BodySpec]
    /// Joints between bodies, crates and the world, created in listed order after every body.
    public var joints: [JointSpec]
    /// Optional tilt input driving gravity; `nil` means constant `world.gravity`.
    public var tilt: TiltSettings?
    /// The `timeline` (docs/formats.md §8): actions that change the world during the run. Default: none.
    public var timeline: Timeline = Timeline()

    /// Creates a scenario with the file format's defaults: a 10-second run at 120 Hz in a
    /// box of walls, no other segments, bodies or joints, and constant `world.gravity`.
    ///
    /// No check is made here: `ScenarioLoader` validates the files it reads, and values
    /// built in code must respect the same ranges before they reach `World`.
    public init(
        name: String, description: String = "", world: WorldSettings,
        timestep: TimestepSettings = TimestepSettings(), duration: Double = 10,
        walls: WallSettings = WallSettings(), segments: [SegmentSpec] = [],
        crates: [CrateSpec] = [], bodies: [BodySpec] = [], joints: [JointSpec] = [], tilt: TiltSettings? = nil
    ) {
        self.name = name
        self.description = description
        self.world = world
        self.timestep = timestep
        self.duration = duration
        self.walls = walls
        self.segments = segments
        self.crates = crates
        self.bodies = bodies
        self.joints = joints
        self.tilt = tilt
    }

    /// The number of fixed steps the run takes: `duration × hz` (or `duration / dt` for a
    /// `timestep.dt` given exactly), rounded to the nearest step.
    public var totalSteps: Int { Int(timestep.steps(in: duration)) }

    /// The static segments of the world: the four box walls when `walls.box` is on
    /// (bottom, right, top, left), then the listed segments.
    public var allSegments: [SegmentSpec] {
        guard walls.box else { return segments }
        let w = world.size.x, h = world.size.y
        let corners = [Vec2(0, 0), Vec2(w, 0), Vec2(w, h), Vec2(0, h)]
        let box = (0..<4).map { i in
            SegmentSpec(
                from: corners[i], to: corners[(i + 1) % 4], radius: walls.radius,
                friction: walls.friction, elasticity: walls.elasticity, collision: walls.collision)
        }
        return box + segments
    }
}

/// The fixed timestep (`timestep` in the scenario file): `hz`, or `dt` given exactly.
public struct TimestepSettings: Sendable, Equatable {
    /// Physics steps per simulated second. Default 120; `1 / dt` when `dt` was given.
    public var hz: Double
    /// `timestep.dt` as the scenario gave it (docs/formats.md §8), used as is; `nil` when the
    /// step is `1 / hz`.
    public var givenDT: Double?
    /// The most steps one frame may take before time is dropped. Default 8.
    public var maxStepsPerFrame: Int

    /// Creates timestep settings; the defaults are 120 steps per second and 8 steps per frame.
    public init(hz: Double = 120, maxStepsPerFrame: Int = 8) {
        self.hz = hz
        self.givenDT = nil
        self.maxStepsPerFrame = maxStepsPerFrame
    }

    /// Timestep settings with the step length `dt` used exactly as given (`timestep.dt`);
    /// `hz` is then `1 / dt`, for what paces and reports steps per second.
    public init(dt: Double, maxStepsPerFrame: Int = 8) {
        self.hz = 1 / dt
        self.givenDT = dt
        self.maxStepsPerFrame = maxStepsPerFrame
    }

    /// The step length in seconds: `timestep.dt` when given, else `1 / hz`.
    public var dt: Double { givenDT ?? 1 / hz }

    /// The steps `duration` seconds take, rounded to the nearest whole step (not clamped):
    /// `duration × hz`, or `duration / dt` when `dt` was given.
    public func steps(in duration: Double) -> Double {
        if let givenDT { return (duration / givenDT).rounded() }
        return (duration * hz).rounded()
    }
}

/// The automatic box of four walls along the world's edges (`walls`).
public struct WallSettings: Sendable, Equatable {
    /// Whether to put four static segments on the edges of the world. Default true.
    public var box: Bool
    /// Half thickness of each wall, world units (`cpSegmentShapeNew`'s radius). Default 1.
    public var radius: Double
    /// The walls' friction (`cpShapeSetFriction`). Default 0.8.
    public var friction: Double
    /// The walls' elasticity (`cpShapeSetElasticity`). Default 0.3.
    public var elasticity: Double
    /// The four walls' filter, sensor, collision type and surface velocity (docs/formats.md §8). Default: none.
    public var collision: ShapeCollision

    /// Creates wall settings with the scenario defaults: walls on, radius 1, friction 0.8, elasticity 0.3.
    public init(
        box: Bool = true, radius: Double = 1, friction: Double = 0.8, elasticity: Double = 0.3,
        collision: ShapeCollision = .none
    ) {
        self.collision = collision
        self.box = box
        self.radius = radius
        self.friction = friction
        self.elasticity = elasticity
    }
}

/// One crate: a box-shaped dynamic body.
public struct CrateSpec: Sendable, Equatable {
    /// Unique, non-empty; names the crate in trace headers and diffs.
    public var id: String
    /// Centre of the box in world units.
    public var position: Vec2
    /// Width and height. Default `[32, 32]`.
    public var size: Vec2
    /// Radians, counter-clockwise. Default 0.
    public var angle: Double
    /// Default 1. The moment of inertia follows from the box formula (`cpMomentForBox`).
    public var mass: Double
    /// `cpShapeSetFriction`; Chipmunk multiplies the two shapes' values at a contact. Default 0.7.
    public var friction: Double
    /// `cpShapeSetElasticity`; Chipmunk multiplies the two shapes' values at a contact. Default 0.3.
    public var elasticity: Double
    /// Initial linear velocity, world units per second (`cpBodySetVelocity`). Default zero.
    public var velocity: Vec2
    /// Initial angular velocity, radians per second, counter-clockwise (`cpBodySetAngularVelocity`). Default 0.
    public var angularVelocity: Double
    /// Filter, sensor, collision type and surface velocity of its box (docs/formats.md §8). Default: none.
    public var collision: ShapeCollision

    /// Creates a crate with the scenario defaults: a 32 × 32 box of mass 1, friction 0.7,
    /// elasticity 0.3, at angle 0 and at rest.
    public init(
        id: String, position: Vec2, size: Vec2 = Vec2(32, 32), angle: Double = 0, mass: Double = 1,
        friction: Double = 0.7, elasticity: Double = 0.3, velocity: Vec2 = .zero,
        angularVelocity: Double = 0, collision: ShapeCollision = .none
    ) {
        self.collision = collision
        self.id = id
        self.position = position
        self.size = size
        self.angle = angle
        self.mass = mass
        self.friction = friction
        self.elasticity = elasticity
        self.velocity = velocity
        self.angularVelocity = angularVelocity
    }
}

/// The scenario's optional `tilt` key: a gravity input file and how to read it.
public struct TiltSettings: Sendable, Equatable {
    /// The tilt file, already resolved against the scenario file's folder.
    public var file: String
    /// Default `portrait`.
    public var orientation: Orientation
    /// World units per 1 g; `nil` means the length of `world.gravity`.
    public var g: Double?
    /// Where `tilt.file` is written (the scenario file, line and column), so that a tilt
    /// file that is not there can be reported at the place that names it. Not part of
    /// equality: it says where the settings came from, not what they are.
    public var fileDeclaration: InputError?

    /// Creates tilt settings; `file` is used as given (the loader resolves a relative
    /// path against the scenario's folder before it gets here).
    public init(
        file: String, orientation: Orientation = .portrait, g: Double? = nil, fileDeclaration: InputError? = nil
    ) {
        self.file = file
        self.orientation = orientation
        self.g = g
        self.fileDeclaration = fileDeclaration
    }

    /// Equal when file, orientation and g are equal; `fileDeclaration` is ignored.
    public static func == (a: TiltSettings, b: TiltSettings) -> Bool {
        a.file == b.file && a.orientation == b.orientation && a.g == b.g
    }
}

extension CrateSpec {
    /// The engine's definition of this crate: a body built the crate way (`BodyDefinition.Build.crate`).
    public var definition: BodyDefinition {
        BodyDefinition(
            crate: id, position: position, size: size, angle: angle, mass: mass, friction: friction,
            elasticity: elasticity, velocity: velocity, angularVelocity: angularVelocity, collision: collision)
    }
}

extension Scenario {
    /// Every body as the engine builds it, in trace order: the crates, then `bodies`.
    public var bodyDefinitions: [BodyDefinition] { crates.map(\.definition) + bodies.map(\.definition) }

    /// What `World` is built from: the space settings, `allSegments`, `bodyDefinitions`,
    /// the joints and the step length.
    public var worldDefinition: WorldDefinition {
        WorldDefinition(
            settings: world, segments: allSegments, bodies: bodyDefinitions, joints: joints, dt: timestep.dt)
    }
}

extension World {
    /// Builds the world of a validated scenario (`Scenario.worldDefinition`).
    public convenience init(scenario: Scenario) {
        self.init(definition: scenario.worldDefinition)
    }
}
