extension TraceHeader {
    /// The header of a trace of `scenario`: body ids in crate order, the step length,
    /// the broad phase, what a renderer needs to draw the world, and the self-describing
    /// keys: this version, `source` (when given) and this machine's platform fingerprint.
    public init(scenario: Scenario, every: Int, duration: Double, tilt: String? = nil, source: Source? = nil) {
        self.init(
            scenario: scenario.name,
            spatialIndex: scenario.world.spatialIndex.traceName,
            dt: scenario.timestep.dt,
            every: every,
            bodies: scenario.crates.map(\.id),
            worldSize: scenario.world.size,
            segments: scenario.allSegments.map { Segment(from: $0.from, to: $0.to, radius: $0.radius) },
            sizes: scenario.crates.map(\.size),
            hz: scenario.timestep.hz,
            duration: duration,
            tilt: tilt,
            masses: scenario.crates.map(\.mass),
            tiltbox: TiltboxVersion.current,
            source: source,
            platform: .current)
    }
}
