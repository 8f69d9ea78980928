extension TraceHeader {
    /// The header of a trace of `scenario`: body ids in crate order, the step length,
    /// the broad phase, what a renderer needs to draw the world, and the effective space
    /// settings: `space`, read back from the run's own world, or when `nil` from a space
    /// set up exactly as `World` sets up its own.
    public init(scenario: Scenario, every: Int, duration: Double, tilt: String? = nil, space: SpaceSettings? = nil) {
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
            space: space ?? SpaceSettings.effective(for: scenario.world))
    }
}
