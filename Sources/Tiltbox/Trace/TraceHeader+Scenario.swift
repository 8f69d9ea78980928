extension TraceHeader {
    /// The header of a trace of `scenario`: body ids in trace order (`Scenario.bodyDefinitions`), the step length,
    /// the broad phase, what a renderer needs to draw the world, the effective space
    /// settings (`space`, read back from the run's own world, or when `nil` from a space
    /// set up exactly as `World` sets up its own), and the self-describing keys: this
    /// version, `source` (when given) and this machine's platform fingerprint. A scenario
    /// with joints adds `joints`: `jointOutlines` (the run's `World.jointOutlines`), or when
    /// `nil` those of a world built from the scenario; a scenario without joints has no
    /// `joints` key, so its trace is what it was before joints existed.
    public init(
        scenario: Scenario, every: Int, duration: Double, tilt: String? = nil, space: SpaceSettings? = nil,
        jointOutlines: [JointOutline]? = nil, source: Source? = nil
    ) {
        let bodies = scenario.bodyDefinitions
        self.init(
            scenario: scenario.name,
            spatialIndex: scenario.world.spatialIndex.traceName,
            dt: scenario.timestep.dt,
            every: every,
            bodies: bodies.map(\.id),
            worldSize: scenario.world.size,
            segments: scenario.allSegments.map { Segment(from: $0.from, to: $0.to, radius: $0.radius) },
            sizes: bodies.map(\.localSize),
            hz: scenario.timestep.hz,
            duration: duration,
            tilt: tilt,
            masses: bodies.map(Self.headerMass),
            space: space ?? SpaceSettings.effective(for: scenario.world),
            tiltbox: TiltboxVersion.current,
            source: source,
            platform: .current)
        if !scenario.joints.isEmpty { joints = jointOutlines ?? World(scenario: scenario).jointOutlines }
        if !scenario.bodies.isEmpty || !scenario.joints.isEmpty {
            types = bodies.map(\.type)
            shapes = bodies.map { $0.shapes.map(\.geometry) }
        }
    }

    /// A body's `masses` entry: its mass (`BodyDefinition.mass`) for a dynamic body; 0 for
    /// kinematic and static bodies, whose mass is infinite to Chipmunk (JSON has no infinity).
    static func headerMass(_ body: BodyDefinition) -> Double {
        body.type == .dynamic ? body.mass : 0
    }
}

extension TraceHeader.Source.Override {
    /// The override as a trace header records it (`source.overrides`).
    public init(_ override: ScenarioOverride) {
        self.init(path: override.path, json: override.json)
    }
}
