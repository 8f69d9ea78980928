// `tiltbox-bench --only scenes`: what users run (`tiltbox run`'s session, sinks and metrics)
// beside the raw C loop on Debian's Chipmunk and pymunk's own step loop, on small scenes
// and the piles.
//
// Each scene is described once (`BenchScene`) and built three ways from that description:
// as a Tiltbox scenario (its JSON text, read by the scenario loader, as `tiltbox run` reads a
// file), as raw Chipmunk calls (CReferenceScene, in the order Tiltbox's `World` makes them,
// so both end in the same state hash) and as a pymunk space (`scripts/bench-pymunk.py`, given
// the same description as JSON). One "round" runs C, Tiltbox and pymunk one after another;
// ratios are per round, then the median is taken.

import CReferenceScene
@_spi(Tools) import Tiltbox

#if canImport(Glibc)
    import Glibc
#endif

/// One scene of static segments, dynamic bodies (crates and balls) and world pivots.
struct BenchScene {
    struct Segment {
        var from: (Double, Double), to: (Double, Double)
        var radius = 1.0, friction = 0.7, elasticity = 0.2
    }
    struct Body {
        /// A crate of `size`, or a ball of radius `size.0` when `circle`.
        var circle = false
        var position: (Double, Double)
        var size: (Double, Double)
        var mass = 1.0, friction = 0.7, elasticity = 0.2
    }
    struct Pivot {
        /// Body indices; -1 is the space's static body.
        var a: Int, b: Int
        var anchor: (Double, Double)
        var collideBodies = true
    }

    var name: String
    var worldSize: (Double, Double)
    var gravity: (Double, Double)
    /// Solver iterations; `nil` keeps Chipmunk's 10.
    var iterations: Int?
    var hz = 120.0
    var segments: [Segment] = []
    var bodies: [Body] = []
    var pivots: [Pivot] = []

    var dt: Double { 1 / hz }

    // MARK: - The scenes

    /// The scenes `make bench` times, smallest first.
    static let all: [BenchScene] = [stack(20), chain(50), cradle(), pyramid(30), pile(100), pile(1_000)]

    /// `named` for `--scene NAME` and `--write-scene NAME`.
    static func named(_ name: String) -> BenchScene? { all.first { $0.name == name } }

    /// A column of `count` crates of 28 × 28 standing on a floor, 30 iterations.
    static func stack(_ count: Int) -> BenchScene {
        var scene = BenchScene(
            name: "stack-\(count)", worldSize: (480, 40 + 28 * Double(count)), gravity: (0, -980), iterations: 30)
        scene.segments = [Segment(from: (0, 0), to: (480, 0), friction: 0.8, elasticity: 0)]
        scene.bodies = (0..<count).map { i in
            Body(position: (240, 15 + 28 * Double(i)), size: (28, 28), friction: 0.8, elasticity: 0)
        }
        return scene
    }

    /// `links` planks of 20 × 6 in a horizontal line, joined end to end by pivots (the links of a
    /// pair do not collide), the first pinned to the world; released, it swings down.
    static func chain(_ links: Int) -> BenchScene {
        let length = 20 * Double(links)
        let top = length + 100
        var scene = BenchScene(
            name: "chain-\(links)", worldSize: (2 * length + 200, top + 50), gravity: (0, -980), iterations: nil)
        scene.segments = [Segment(from: (0, 0), to: (2 * length + 200, 0))]
        let x0 = length + 100
        scene.bodies = (0..<links).map { i in
            Body(position: (x0 + 10 + 20 * Double(i), top), size: (20, 6))
        }
        scene.pivots = (0..<links).map { i in
            Pivot(a: i - 1, b: i, anchor: (x0 + 20 * Double(i), top), collideBodies: i == 0)
        }
        return scene
    }

    /// Five balls of radius 15 hung 130 below a frame by world pivots, the first pulled out
    /// (Scenarios/newtons-cradle.json without its walls), 30 iterations.
    static func cradle() -> BenchScene {
        var scene = BenchScene(name: "cradle", worldSize: (480, 320), gravity: (0, -980), iterations: 30)
        let xs = [230, 260.5, 291, 321.5]
        scene.bodies =
            [
                Body(
                    circle: true, position: (99.91422239453286, 196.4376107407499), size: (15, 0), friction: 0,
                    elasticity: 1)
            ]
            + xs.map { Body(circle: true, position: ($0, 150), size: (15, 0), friction: 0, elasticity: 1) }
        scene.pivots = zip([199.5] + xs, 0...).map { x, i in Pivot(a: -1, b: i, anchor: (x, 280)) }
        return scene
    }

    /// A pyramid of crates 20 × 20 with `base` crates in its bottom row (base·(base+1)/2 in all),
    /// 1 apart, on a floor.
    static func pyramid(_ base: Int) -> BenchScene {
        let width = 21 * Double(base) + 200
        var scene = BenchScene(
            name: "pyramid-\(base)", worldSize: (width, 21 * Double(base) + 100), gravity: (0, -980), iterations: nil)
        scene.segments = [Segment(from: (0, 0), to: (width, 0))]
        for row in 0..<base {
            let count = base - row
            let x0 = width / 2 - 21 * Double(count - 1) / 2
            for i in 0..<count {
                scene.bodies.append(
                    Body(position: (x0 + 21 * Double(i), 11 + 20 * Double(row)), size: (20, 20), elasticity: 0))
            }
        }
        return scene
    }

    /// The benchmark pile (`BenchmarkPile`): its box as four segments, bottom, right, top,
    /// left, as `Scenario.allSegments` makes them, and its jittered grid of crates.
    static func pile(_ n: Int) -> BenchScene {
        let w = BenchmarkPile.worldSize(n: n)
        var scene = BenchScene(name: "pile-\(n)", worldSize: (w, w), gravity: (0, -500), iterations: nil)
        let corners = [(0.0, 0.0), (w, 0), (w, w), (0, w)]
        scene.segments = (0..<4).map { Segment(from: corners[$0], to: corners[($0 + 1) % 4]) }
        scene.bodies = BenchmarkPile.positions(n: n).map { Body(position: ($0.x, $0.y), size: (20, 20)) }
        return scene
    }

    // MARK: - Three builds of one description

    /// The scene as a `tiltbox-scenario/1` file: no box walls, the segments, the crates,
    /// the balls as `bodies` with one circle shape, the pivots as `joints`.
    var scenarioJSON: String {
        let f = NumberFormat.shortest
        func pair(_ p: (Double, Double)) -> String { "[\(f(p.0)), \(f(p.1))]" }
        var world = "\"size\": \(pair(worldSize)), \"gravity\": \(pair(gravity))"
        if let iterations { world += ", \"iterations\": \(iterations)" }
        let segments = segments.map {
            "{ \"from\": \(pair($0.from)), \"to\": \(pair($0.to)), \"radius\": \(f($0.radius)), \"friction\": \(f($0.friction)), \"elasticity\": \(f($0.elasticity)) }"
        }
        var crates: [String] = [], balls: [String] = []
        for (i, b) in bodies.enumerated() {
            if b.circle {
                balls.append(
                    "{ \"id\": \"b\(i)\", \"position\": \(pair(b.position)), \"shapes\": [ { \"circle\": { \"radius\": \(f(b.size.0)) }, \"mass\": \(f(b.mass)), \"friction\": \(f(b.friction)), \"elasticity\": \(f(b.elasticity)) } ] }"
                )
            } else {
                crates.append(
                    "{ \"id\": \"b\(i)\", \"position\": \(pair(b.position)), \"size\": \(pair(b.size)), \"mass\": \(f(b.mass)), \"friction\": \(f(b.friction)), \"elasticity\": \(f(b.elasticity)) }"
                )
            }
        }
        let joints = pivots.map { p in
            let a = p.a < 0 ? "static" : "b\(p.a)"
            let collide = p.collideBodies ? "" : ", \"collideBodies\": false"
            return "{ \"pivot\": { \"a\": \"\(a)\", \"b\": \"b\(p.b)\", \"anchor\": \(pair(p.anchor))\(collide) } }"
        }
        func list(_ items: [String]) -> String { "[\n    " + items.joined(separator: ",\n    ") + "\n  ]" }
        var lines = [
            "{\n  \"format\": \"tiltbox-scenario/1\", \"name\": \"\(name)\",",
            "  \"world\": { \(world) },",
            "  \"timestep\": { \"hz\": \(f(hz)) }, \"duration\": 10,",
            "  \"walls\": { \"box\": false },",
            "  \"segments\": \(list(segments)),",
        ]
        if !crates.isEmpty { lines.append("  \"crates\": \(list(crates)),") }
        if !balls.isEmpty { lines.append("  \"bodies\": \(list(balls)),") }
        if !joints.isEmpty { lines.append("  \"joints\": \(list(joints)),") }
        lines[lines.count - 1].removeLast() // the last comma
        return lines.joined(separator: "\n") + "\n}\n"
    }

    /// The scenario Tiltbox runs, read from `scenarioJSON` by the scenario loader.
    func scenario() throws -> Scenario {
        try ScenarioLoader.parse(text: scenarioJSON, file: "\(name).json", baseDirectory: nil)
    }

    /// Crates come before balls in a scenario's trace order (crates, then bodies): the order
    /// in which the C twin and pymunk must make them to match. Pivots name bodies by index
    /// in this order.
    private var traceOrder: [Int] {
        bodies.indices.filter { !bodies[$0].circle } + bodies.indices.filter { bodies[$0].circle }
    }

    /// Builds the C twin.
    func makeReference() -> OpaquePointer? {
        let order = traceOrder
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        let segs = segments.map {
            reference_scene_segment(
                ax: $0.from.0, ay: $0.from.1, bx: $0.to.0, by: $0.to.1, radius: $0.radius, friction: $0.friction,
                elasticity: $0.elasticity)
        }
        let bods = order.map { i in
            let b = bodies[i]
            return reference_scene_body(
                circle: b.circle ? 1 : 0, x: b.position.0, y: b.position.1, width: b.size.0, height: b.size.1,
                mass: b.mass, friction: b.friction, elasticity: b.elasticity)
        }
        let pivs = pivots.map { p in
            reference_scene_pivot(
                a: Int32(p.a < 0 ? -1 : position[p.a]!), b: Int32(position[p.b]!), x: p.anchor.0, y: p.anchor.1,
                collide_bodies: p.collideBodies ? 1 : 0)
        }
        return reference_scene_new(
            gravity.0, gravity.1, Int32(iterations ?? 0), segs, Int32(segs.count), bods, Int32(bods.count), pivs,
            Int32(pivs.count))
    }

    /// The description as the JSON `scripts/bench-pymunk.py` reads (bodies in trace order).
    var pymunkJSON: String {
        let order = traceOrder
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        let f = NumberFormat.shortest
        let segs = segments.map {
            "[\(f($0.from.0)),\(f($0.from.1)),\(f($0.to.0)),\(f($0.to.1)),\(f($0.radius)),\(f($0.friction)),\(f($0.elasticity))]"
        }
        let bods = order.map { i in
            let b = bodies[i]
            return
                "[\(b.circle ? 1 : 0),\(f(b.position.0)),\(f(b.position.1)),\(f(b.size.0)),\(f(b.size.1)),\(f(b.mass)),\(f(b.friction)),\(f(b.elasticity))]"
        }
        let pivs = pivots.map { p in
            "[\(p.a < 0 ? -1 : position[p.a]!),\(position[p.b]!),\(f(p.anchor.0)),\(f(p.anchor.1)),\(p.collideBodies ? 1 : 0)]"
        }
        return
            "{\"gravity\":[\(f(gravity.0)),\(f(gravity.1))],\"iterations\":\(iterations ?? 0),\"dt\":\(f(dt)),"
            + "\"segments\":[\(segs.joined(separator: ","))],\"bodies\":[\(bods.joined(separator: ","))],"
            + "\"pivots\":[\(pivs.joined(separator: ","))]}"
    }
}

// MARK: - Runs

/// The raw C loop on Debian's Chipmunk: `steps` calls of `cpSpaceStep` (building the scene
/// is not timed).
func runSceneC(_ scene: BenchScene, steps: Int) -> RunResult {
    guard let reference = scene.makeReference() else { fatalError("out of memory") }
    defer { reference_scene_free(reference) }
    let start = nowNanoseconds()
    reference_scene_step(reference, scene.dt, Int32(steps))
    let elapsed = nowNanoseconds() - start
    return RunResult(
        nanosecondsPerStep: Double(elapsed) / Double(steps), hash: reference_scene_state_hash(reference))
}

/// What a `tiltbox run` of a scene writes.
enum SceneOutput: String, CaseIterable {
    /// `tiltbox run scene.json` headless: the summary, its metrics and digest, no file.
    case none
    /// `--trace FILE`: every step.
    case full
    /// `--trace FILE --hashes`.
    case hashes
}

/// What `tiltbox run` does with a scenario, headless: a `RunSession` fed by the default
/// `steady:60` frame clock, recording every step, with the metrics sink (`RunMetricsSink`)
/// and, for `full` and `hashes`, a trace; then the summary's metrics. Like the C loop's and
/// pymunk's, the timing starts once the world is built (and the trace's header written).
func runSceneTiltbox(_ scenario: Scenario, steps: Int, output: SceneOutput, tracePath: String) throws -> RunResult {
    let track = ConstantGravity(scenario.world.gravity)
    let metrics = RunMetricsSink(scenario: scenario)
    let session =
        output == .none
        ? RunSession(scenario: scenario, track: track, totalSteps: steps, sinks: [metrics])
        : try RunSession(
            scenario: scenario, track: track, totalSteps: steps,
            trace: .init(path: tracePath, hashes: output == .hashes), sinks: [metrics])
    var clock = SteadyClock(hz: 60)
    let start = nowNanoseconds()
    let outcome = try session.run(clock: &clock, shouldStop: { false })
    let summary = try session.finish()
    let figures = metrics.metrics(digest: summary.digest)
    let elapsed = nowNanoseconds() - start
    guard outcome == .complete, !figures.digest.isEmpty else { fatalError("bench run ended \(outcome)") }
    return RunResult(
        nanosecondsPerStep: Double(elapsed) / Double(steps), hash: stateHash(session),
        traceBytes: summary.traceBytes ?? 0)
}

/// pymunk's step loop on `scene` (`scripts/bench-pymunk.py` at `script`, in a child
/// process; only its loop is timed); `nil` with a note when python3 or pymunk is missing.
func runScenePymunk(_ scene: BenchScene, steps: Int, script: String) -> (nanosecondsPerStep: Double, hash: String)? {
    let input = "/tmp/tiltbox-bench-scene-\(getpid()).json"
    defer { unlink(input) }
    guard let file = fopen(input, "w") else { return nil }
    var json = scene.pymunkJSON
    json.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
    guard let pipe = popen("python3 '\(script)' \(steps) < \(input) 2>/dev/null", "r") else { return nil }
    var line = [CChar](repeating: 0, count: 256)
    let read = fgets(&line, 256, pipe) != nil
    let status = pclose(pipe)
    guard read, status == 0 else { return nil }
    let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        .split(separator: " ")
    guard fields.count == 2, let seconds = Double(fields[0]) else { return nil }
    return (seconds * 1e9 / Double(steps), String(fields[1].prefix { $0 != "\n" }))
}

/// One scene's timings over the rounds.
struct SceneReport {
    var scene: BenchScene
    var c: [Double] = [], none: [Double] = [], full: [Double] = [], pymunk: [Double] = []
    var rNone: [Double] = [], rFull: [Double] = [], rPymunk: [Double] = []
    var hashC: UInt64 = 0
    var hashesAgree = true
    var pymunkHash: String?
    /// Callgrind's figures (`scripts/step-cost.py`), when asked for.
    var cost: StepCost?
}

/// Per extra step, from two callgrind runs of different lengths (`scripts/step-cost.py`).
struct StepCost {
    /// Instructions outside libchipmunk and libm per body per step, no output.
    var ownPerBody: Double
    /// All instructions of `tiltbox run` (every thread) over the raw C loop's, no output and full trace.
    var ratioNone: Double, ratioFull: Double
    /// `malloc`-family calls per step: no output, full trace, hash trace.
    var mallocsNone: Double, mallocsFull: Double, mallocsHashes: Double
}

/// `scripts/step-cost.py --row` for one scene: its one line of figures.
func stepCost(script: String, tiltbox: String, bench: String, scene: String) -> StepCost? {
    let command = "python3 '\(script)' --tiltbox '\(tiltbox)' --bench '\(bench)' --scene \(scene) --row 2>/dev/null"
    guard let pipe = popen(command, "r") else { return nil }
    var line = [CChar](repeating: 0, count: 512)
    let read = fgets(&line, 512, pipe) != nil
    guard pclose(pipe) == 0, read else {
        warn("tiltbox-bench: \(command) failed; callgrind figures n/a\n")
        return nil
    }
    let v = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        .split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
    guard v.count == 6 else { return nil }
    return StepCost(
        ownPerBody: v[0], ratioNone: v[1], ratioFull: v[2], mallocsNone: v[3], mallocsFull: v[4], mallocsHashes: v[5])
}

/// `rounds` interleaved rounds of C, Tiltbox (no output, full trace) and pymunk per scene.
func benchScenes(
    _ scenes: [BenchScene], steps: Int, rounds: Int, tracePath: String, pymunkScript: String
) throws -> [SceneReport] {
    try scenes.map { scene in
        var report = SceneReport(scene: scene)
        let scenario = try scene.scenario()
        for round in 0..<rounds {
            let c = runSceneC(scene, steps: steps)
            let none = try runSceneTiltbox(scenario, steps: steps, output: .none, tracePath: tracePath)
            let full = try runSceneTiltbox(scenario, steps: steps, output: .full, tracePath: tracePath)
            let py = runScenePymunk(scene, steps: steps, script: pymunkScript)
            report.hashC = c.hash
            if none.hash != c.hash || full.hash != c.hash { report.hashesAgree = false }
            report.c.append(c.nanosecondsPerStep)
            report.none.append(none.nanosecondsPerStep)
            report.full.append(full.nanosecondsPerStep)
            report.rNone.append(none.nanosecondsPerStep / c.nanosecondsPerStep)
            report.rFull.append(full.nanosecondsPerStep / c.nanosecondsPerStep)
            var line =
                "  \(scene.name) round \(round + 1)/\(rounds): C \(fmt(c.nanosecondsPerStep)) ns/step, run \(fmt(report.rNone.last!, 3)) run --trace \(fmt(report.rFull.last!, 3))"
            if let py {
                report.pymunk.append(py.nanosecondsPerStep)
                report.rPymunk.append(py.nanosecondsPerStep / c.nanosecondsPerStep)
                report.pymunkHash = py.hash
                line += " pymunk \(fmt(report.rPymunk.last!, 3))"
            }
            warn(line + "\n")
        }
        unlink(tracePath)
        return report
    }
}

/// The scenes' table: median times per step, ratios to the raw C loop, and callgrind's figures.
func printScenesTable(_ reports: [SceneReport], rounds: Int, steps: Int) {
    func ms(_ values: [Double]) -> String { values.isEmpty ? "n/a" : fmt(median(values) / 1e3, 1) }
    func ratio(_ values: [Double]) -> String { values.isEmpty ? "n/a" : "\(fmt(median(values), 3))×" }
    print(
        "Scenes: `tiltbox run` (its session, sinks and metrics) beside the raw C loop on Debian's Chipmunk and pymunk's step loop"
    )
    print(
        "(µs per step, medians of \(rounds) interleaved rounds of \(steps) steps; ratios to C; callgrind per extra step, 300 vs 600 steps)"
    )
    print("")
    print(
        "| scene | bodies | C | run | run --trace | pymunk | run/C | run --trace/C | pymunk/C | own instr/body (run) | instr ratio run, --trace | mallocs/step run, --trace, --hashes | state hash = C |"
    )
    print("|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|")
    for r in reports {
        let cost =
            r.cost.map {
                "\(fmt($0.ownPerBody, 0)) | \(fmt($0.ratioNone, 3))×, \(fmt($0.ratioFull, 3))× | \(fmt($0.mallocsNone, 2)), \(fmt($0.mallocsFull, 2)), \(fmt($0.mallocsHashes, 2))"
            } ?? "n/a | n/a | n/a"
        print(
            "| \(r.scene.name) | \(r.scene.bodies.count) | \(ms(r.c)) | \(ms(r.none)) | \(ms(r.full)) | \(ms(r.pymunk)) | \(ratio(r.rNone)) | \(ratio(r.rFull)) | \(ratio(r.rPymunk)) | \(cost) | \(r.hashesAgree ? "yes" : "NO") `\(String(r.hashC, radix: 16))` |"
        )
    }
    printSceneTargets(reports)
}

/// The step loop's targets, from callgrind's figures (instruction counts hold on a busy machine):
/// own work ≤ 200 instructions per body per step with no output on the 100-crate pile, the
/// 50-link chain and the 20-box stack; a full trace of the 100-crate pile ≤ 1.15× the raw C
/// loop's instructions, all threads; no allocation per step (a step that allocated would count
/// at least one, so below 0.5 a step is none: the longer run's writer thread may allocate a few
/// times fewer than the shorter's).
func printSceneTargets(_ reports: [SceneReport]) {
    func cost(_ name: String) -> StepCost? { reports.first { $0.scene.name == name }?.cost }
    print("")
    print("Step loop targets (callgrind, per extra step):")
    for name in ["pile-100", "chain-50", "stack-20"] {
        print(target("\(name) own instructions per body, no output", cost(name)?.ownPerBody, 200, unit: "", digits: 0))
    }
    print(target("pile-100 full trace, instructions over raw C", cost("pile-100")?.ratioFull, 1.15))
    for r in reports {
        guard let c = r.cost else { continue }
        let most = max(c.mallocsNone, c.mallocsFull, c.mallocsHashes)
        print(target("\(r.scene.name) allocations per step (run, --trace, --hashes)", most, 0.5, unit: "", digits: 2))
    }
}
