/// The benchmark's canonical "crate pile" as a Tiltbox scenario: `n` square crates
/// (side 20, mass 1, friction 0.7, elasticity 0.2) on a grid of pitch 22 just above the
/// floor of a square box of side `40·√n + 200` (walls of radius 1, friction 0.7,
/// elasticity 0.2), `ceil(√n)` columns centred in the box, each crate's x jittered by
/// up to ±1 from SplitMix64; gravity (0, −500), 120 Hz, 10 s, and no space setting:
/// Chipmunk's own defaults (10 solver iterations, collision slop `0.1f`, ...).
///
/// `Sources/CReferencePile` builds the same scene with raw Chipmunk calls; every
/// formula here has a twin there, and a test checks both give the same positions and
/// the same state hash after 120 steps.
@_spi(Tools) public enum BenchmarkPile {
    /// The jitter generator's seed unless told otherwise.
    public static let defaultSeed: UInt64 = 5
    /// Crate side, grid pitch and the centre height of the bottom row
    /// (wall radius 1 + gap 1 + half side 10).
    public static let crateSide = 20.0, pitch = 22.0, floorGap = 12.0

    /// The side of the square world for `n` crates: `40·√n + 200`.
    public static func worldSize(n: Int) -> Double {
        40 * Double(n).squareRoot() + 200
    }

    /// Grid columns: `ceil(√n)`.
    public static func columns(n: Int) -> Int {
        Int(Double(n).squareRoot().rounded(.up))
    }

    /// Every crate's centre, in crate order (row by row from the bottom, left to right).
    public static func positions(n: Int, seed: UInt64 = defaultSeed) -> [Vec2] {
        precondition(n >= 1)
        let cols = columns(n: n)
        let x0 = (worldSize(n: n) - Double(cols) * pitch) / 2 + pitch / 2
        var generator = SplitMix64(seed: seed)
        return (0..<n).map { i in
            let row = i / cols, col = i % cols
            let jitter = 2 * generator.nextUnitInterval() - 1
            return Vec2(x0 + Double(col) * pitch + jitter, floorGap + Double(row) * pitch)
        }
    }

    /// The pile as a scenario named `bench-pile-<n>`, crates `c0`, `c1`, ...
    public static func scenario(n: Int, seed: UInt64 = defaultSeed) -> Scenario {
        let w = worldSize(n: n)
        let crates = positions(n: n, seed: seed).enumerated().map { i, p in
            CrateSpec(
                id: "c\(i)", position: p, size: Vec2(crateSide, crateSide), mass: 1,
                friction: 0.7, elasticity: 0.2)
        }
        return Scenario(
            name: "bench-pile-\(n)",
            description: "\(n) crates dropped as a block into a box (the benchmark pile)",
            world: WorldSettings(size: Vec2(w, w), gravity: Vec2(0, -500), spatialIndex: .bbtree),
            timestep: TimestepSettings(hz: 120, maxStepsPerFrame: 8),
            duration: 10,
            walls: WallSettings(box: true, radius: 1, friction: 0.7, elasticity: 0.2),
            crates: crates)
    }

    /// The pile as a `tiltbox-scenario/1` file that sets no space setting, numbers in
    /// shortest round-trip form, so `tiltbox run` reads back bit-identical positions.
    public static func scenarioJSON(n: Int, seed: UInt64 = defaultSeed) -> String {
        let s = scenario(n: n, seed: seed)
        let f = NumberFormat.shortest
        var lines: [String] = []
        lines.append(
            "{\n  \"format\": \"tiltbox-scenario/1\",\n  \"name\": \"\(s.name)\",\n  \"description\": \"\(s.description)\","
        )
        lines.append(
            "  \"world\": { \"size\": [\(f(s.world.size.x)), \(f(s.world.size.y))], \"gravity\": [\(f(s.world.gravity.x)), \(f(s.world.gravity.y))], \"spatialIndex\": \"bbtree\" },"
        )
        lines.append("  \"timestep\": { \"hz\": 120, \"maxStepsPerFrame\": 8 },\n  \"duration\": 10,")
        lines.append("  \"walls\": { \"box\": true, \"radius\": 1, \"friction\": 0.7, \"elasticity\": 0.2 },")
        lines.append("  \"crates\": [")
        let crates = s.crates.map { c in
            "    { \"id\": \"\(c.id)\", \"position\": [\(f(c.position.x)), \(f(c.position.y))], \"size\": [20, 20], \"mass\": 1, \"friction\": 0.7, \"elasticity\": 0.2 }"
        }
        lines.append(crates.joined(separator: ",\n"))
        lines.append("  ]\n}")
        return lines.joined(separator: "\n") + "\n"
    }
}
