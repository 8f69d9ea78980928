import Testing

@_spi(Tools) @testable import Tiltbox

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Freeing a world costs time linear in what it holds: the world frees its space first, with
/// everything in it, then its bodies, shapes and joints without removing them one by one. (Each
/// `cpSpaceRemoveShape` walks every bin of the space's arbiter cache, so removing the shapes of a
/// world of touching crates one by one costs shapes × arbiters: 36 to 80 s for 25 600 crates.)
@Suite struct WorldTeardownTests {
    /// CPU time this thread has used, in seconds: unlike the wall clock, it does not grow while
    /// other work on a loaded machine has the cores.
    static func threadCPUTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
    }

    /// `columns × rows` crates 10 wide in a grid with no gaps, each touching its neighbours, on
    /// the floor of a box just wide enough.
    static func grid(columns: Int, rows: Int) -> Scenario {
        var crates: [CrateSpec] = []
        for row in 0..<rows {
            for column in 0..<columns {
                crates.append(
                    CrateSpec(
                        id: "c\(row)_\(column)", position: Vec2(10 + 10 * Double(column), 5 + 10 * Double(row)),
                        size: Vec2(10, 10)))
            }
        }
        return Scenario(
            name: "grid", world: WorldSettings(size: Vec2(10 * Double(columns) + 20, 10 * Double(rows) + 20)),
            crates: crates)
    }

    @Test func freeingAWorldOfSixThousandTouchingCratesCostsLessThanThreeOfItsSteps() {
        let scenario = Self.grid(columns: 80, rows: 75)
        var world: World? = World(scenario: scenario)
        // Three steps fill the arbiter cache with every pair of neighbours (about 12 000).
        for _ in 0..<3 { world?.step(dt: scenario.timestep.dt) }
        let stepStart = Self.threadCPUTime()
        for _ in 0..<2 { world?.step(dt: scenario.timestep.dt) }
        let step = (Self.threadCPUTime() - stepStart) / 2
        let freeStart = Self.threadCPUTime()
        world = nil
        let free = Self.threadCPUTime() - freeStart
        // Measured in a debug build on a loaded 2-core machine: freeing took a fifth of a step
        // (6 to 9 ms, a step 26 to 44 ms); removing the shapes one by one took 17 steps (0.45 s).
        // The bound leaves room both ways, for frees made dearer (AddressSanitizer intercepts
        // Chipmunk's too) as for a machine that steps faster.
        #expect(free < 3 * step, "freeing took \(free) s of CPU, one step \(step) s")
    }

    @Test func spawningTenThousandBodiesInOneStepCostsAboutWhatBuildingThemAtStartDoes() {
        let count = 10_000
        // The same crates, far apart in a column so that none touch: built at start, then spawned.
        let positions = (0..<count).map { Vec2(5, 30 + 20 * Double($0)) }
        let atStart = Scenario(
            name: "column", world: WorldSettings(size: Vec2(30, 30)),
            crates: positions.enumerated().map { CrateSpec(id: "s\($0)", position: $1, size: Vec2(10, 10)) })
        let buildStart = Self.threadCPUTime()
        let built = World(scenario: atStart)
        built.step(dt: atStart.timestep.dt)
        let build = Self.threadCPUTime() - buildStart

        let scenario = Self.grid(columns: 1, rows: 1)
        let world = World(scenario: scenario)
        let spawnStart = Self.threadCPUTime()
        for (i, position) in positions.enumerated() {
            world.addBody(
                BodyDefinition(
                    crate: "s\(i)", position: position, size: Vec2(10, 10), angle: 0, mass: 1, friction: 0.7,
                    elasticity: 0, velocity: Vec2(0, 0), angularVelocity: 0))
        }
        world.step(dt: scenario.timestep.dt)
        let spawn = Self.threadCPUTime() - spawnStart
        // Rebuilding the per-step read at each body added cost the square of their number: 8.6 s
        // of CPU for these 10 000 in a debug build, against 0.6 s now (the first read after the
        // spawns rebuilds it once). Both sides make the same Chipmunk calls.
        #expect(spawn < 3 * build + 0.1, "spawning took \(spawn) s of CPU, building them at start \(build) s")
        #expect(world.bodyCount == count + 1)
    }
}
