import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Tiltbox adds no physics: scenes that set no space setting, built the same way in
/// pymunk 7.3.1 (Chipmunk 7.0.3 underneath, `make test` installs it), end in the same
/// states bit for bit, with either broad phase, and with sleeping on under a recorded
/// tilt whose gravity changes while every crate sleeps.
@Suite struct PymunkAgreementTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = packageRoot.appendingPathComponent("Tests/pymunk/pymunk_scene.py").path

    /// One comparison: how many values were compared, how many were bit-identical.
    struct Tally: CustomStringConvertible {
        var compared = 0
        var identical = 0
        var firstDifference: String?
        var description: String {
            "\(identical) of \(compared) values bit-identical"
                + (firstDifference.map { "; first difference \($0)" } ?? "")
        }
    }

    static func hex(_ x: Double) -> String { String(format: "%a", x) }

    /// Runs `scenario` for `steps` steps under `track` in Tiltbox (the `World` stepped as
    /// `Simulation` steps it) and in pymunk, and compares every recorded value's bits.
    /// `beforeStep` sees the world before each step (for checks on sleeping).
    static func compare(
        _ scenario: Scenario, track: any GravityTrack, steps: Int, every: Int,
        beforeStep: (Int, World) -> Void = { _, _ in }, extra: [String: Any] = [:]
    ) throws -> Tally {
        let dt = scenario.timestep.dt
        var gravities: [Vec2] = []
        for n in 0..<steps { gravities.append(track.gravity(at: Double(n) * dt)) }

        // Tiltbox.
        let world = World(scenario: scenario)
        world.setGravity(track.gravity(at: 0))
        var ours: [Int: [Double]] = [0: world.states.flatMap(\.fields)]
        for n in 0..<steps {
            beforeStep(n, world)
            world.setGravity(gravities[n])
            world.step(dt: dt)
            let reached = n + 1
            if reached % every == 0 || reached == steps { ours[reached] = world.states.flatMap(\.fields) }
        }

        // pymunk.
        let w = scenario.world
        var space: [String: String] = [:]
        if let v = w.iterations { space["iterations"] = hex(Double(v)) }
        if let v = w.damping { space["damping"] = hex(v) }
        if let v = w.collisionSlop { space["collisionSlop"] = hex(v) }
        if let v = w.collisionBias { space["collisionBias"] = hex(v) }
        if let v = w.collisionPersistence { space["collisionPersistence"] = hex(Double(v)) }
        if let v = w.sleepTimeThreshold { space["sleepTimeThreshold"] = hex(v) }
        if let v = w.idleSpeedThreshold { space["idleSpeedThreshold"] = hex(v) }
        var index: Any = NSNull()
        if case .hash(let cellSize, let count) = w.spatialIndex { index = [hex(cellSize), hex(Double(count))] }
        var scene: [String: Any] = [
            "spatialIndex": index, "space": space,
            "gravity": [hex(w.gravity.x), hex(w.gravity.y)], "dt": hex(dt), "every": hex(Double(every)),
            "segments": scenario.allSegments.map { s in
                [s.from.x, s.from.y, s.to.x, s.to.y, s.radius, s.friction, s.elasticity].map(hex)
            },
            "crates": scenario.crates.map { c in
                [
                    c.position.x, c.position.y, c.size.x, c.size.y, c.angle, c.mass, c.friction, c.elasticity,
                    c.velocity.x, c.velocity.y, c.angularVelocity,
                ].map(hex)
            },
            "gravityAtStep": gravities.map { [hex($0.x), hex($0.y)] },
            "bodies": scenario.bodies.map(pymunkBody),
            "joints": try PymunkJoints.encode(scenario),
            "segmentKeys": scenario.allSegments.map { pymunkKeys($0.collision) },
            "crateKeys": scenario.crates.map { pymunkKeys($0.collision) },
        ]
        scene.merge(extra) { _, new in new }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tiltbox-pymunk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("scene.json")
        try JSONSerialization.data(withJSONObject: scene).write(to: input)
        let output = folder.appendingPathComponent("states.txt")
        try #require(FileManager.default.createFile(atPath: output.path, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, input.path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        let errors = folder.appendingPathComponent("stderr.txt")
        try #require(FileManager.default.createFile(atPath: errors.path, contents: nil))
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        try #require(
            process.terminationStatus == 0, "pymunk script failed (make test installs pymunk==7.3.1): \(stderr)")

        var tally = Tally()
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == ours.count, "pymunk wrote \(lines.count) records, Tiltbox \(ours.count)")
        for line in lines {
            let words = line.split(separator: " ")
            guard let step = Int(words[0]), let mine = ours[step] else {
                Issue.record("unexpected pymunk record: \(line.prefix(80))")
                continue
            }
            let theirs = words.dropFirst().map { Double(String($0)) }
            #expect(theirs.count == mine.count)
            for (i, (a, b)) in zip(mine, theirs).enumerated() {
                tally.compared += 1
                if let b, a.bitPattern == b.bitPattern {
                    tally.identical += 1
                } else if tally.firstDifference == nil {
                    tally.firstDifference =
                        "step \(step), body \(world.bodyID(at: i / 6)) \(BodyState.fieldNames[i % 6]): Tiltbox \(a), pymunk \(b.map { "\($0)" } ?? "?")"
                }
            }
        }
        return tally
    }

    /// A shape's collision keys as the pymunk script reads them (`NSNull` for none).
    static func pymunkKeys(_ collision: ShapeCollision) -> Any {
        guard collision != .none else { return NSNull() }
        var keys: [String: Any] = [:]
        if let filter = collision.filter {
            keys["filter"] = ["\(filter.group)", "\(filter.categories)", "\(filter.mask)"]
        }
        if collision.sensor { keys["sensor"] = true }
        if collision.collisionType != 0 { keys["collisionType"] = "\(collision.collisionType)" }
        if let v = collision.surfaceVelocity { keys["surfaceVelocity"] = [hex(v.x), hex(v.y)] }
        return keys
    }

    /// A body as the pymunk script reads it (every number a hex float).
    static func pymunkBody(_ body: BodySpec) -> [String: Any] {
        var entry = pymunkBodyPoseAndShapes(body)
        if let given = body.givenMass {
            entry["given"] = [given.mass, given.moment, given.centreOfGravity.x, given.centreOfGravity.y].map(hex)
        }
        return entry
    }

    /// A body's type, pose and shapes as the pymunk script reads them.
    static func pymunkBodyPoseAndShapes(_ body: BodySpec) -> [String: Any] {
        [
            "type": body.type.rawValue,
            "pose": [
                body.position.x, body.position.y, body.angle, body.velocity.x, body.velocity.y,
                body.angularVelocity,
            ].map(hex),
            "shapes": body.shapes.map { shape -> [String: Any] in
                var entry: [String: Any] = [
                    "kind": shape.geometry.kind,
                    "friction": hex(shape.friction), "elasticity": hex(shape.elasticity),
                ]
                switch shape.geometry {
                case .circle(let r, let offset): entry["params"] = [r, offset.x, offset.y].map(hex)
                case .box(let size, let r): entry["params"] = [size.x, size.y, r].map(hex)
                case .polygon(let vertices, let r):
                    entry["params"] = ([r] + vertices.flatMap { [$0.x, $0.y] }).map(hex)
                case .segment(let a, let b, let r): entry["params"] = [a.x, a.y, b.x, b.y, r].map(hex)
                }
                switch shape.mass {
                case .mass(let m)?: entry["mass"] = hex(m)
                case .density(let d)?: entry["density"] = hex(d)
                case nil: break
                }
                entry["keys"] = pymunkKeys(shape.collision)
                return entry
            },
        ]
    }

    /// 60 crates dropped as a 12 × 5 grid into a 480 × 320 box, nothing but the scene set.
    static func pile(spatialIndex: SpatialIndex, sleep: Double? = nil) -> Scenario {
        let crates = (0..<60).map { (i: Int) -> CrateSpec in
            let column = Double(i % 12), row = Double(i / 12)
            let x: Double = 40 + column * 36 + row * 3
            let y: Double = 40 + row * 40
            return CrateSpec(id: "c\(i)", position: Vec2(x, y), size: Vec2(30, 30), angle: Double(i % 5) * 0.1)
        }
        return Scenario(
            name: "pile-60",
            world: WorldSettings(
                size: Vec2(480, 320), sleepTimeThreshold: sleep,
                spatialIndex: spatialIndex),
            duration: 10, crates: crates)
    }

    /// Where counts are printed for the record (`swift test` shows them).
    static func report(_ name: String, _ tally: Tally) {
        print("pymunk agreement: \(name): \(tally)")
    }

    @Test func pileWithTheBoundingBoxTreeMatchesPymunkBitForBit() throws {
        let scenario = Self.pile(spatialIndex: .bbtree)
        let tally = try Self.compare(scenario, track: ConstantGravity(scenario.world.gravity), steps: 600, every: 10)
        Self.report("pile-60 bbtree, 600 steps", tally)
        #expect(tally.compared == 61 * 360)
        #expect(tally.identical == tally.compared, "\(tally)")
    }

    @Test func pileWithTheSpatialHashMatchesPymunkBitForBit() throws {
        let scenario = Self.pile(spatialIndex: .hash(cellSize: 40, count: 1000))
        let tally = try Self.compare(scenario, track: ConstantGravity(scenario.world.gravity), steps: 600, every: 10)
        Self.report("pile-60 hash(40, 1000), 600 steps", tally)
        #expect(tally.compared == 61 * 360)
        #expect(tally.identical == tally.compared, "\(tally)")
    }

    @Test func benchmarkPileMatchesPymunkBitForBit() throws {
        let scenario = BenchmarkPile.scenario(n: 100)
        let tally = try Self.compare(scenario, track: ConstantGravity(scenario.world.gravity), steps: 480, every: 40)
        Self.report("bench-pile-100, 480 steps", tally)
        #expect(tally.compared == 13 * 600)
        #expect(tally.identical == tally.compared, "\(tally)")
    }

    /// A row of crates falls asleep; a recorded tilt then turns gravity twice while they
    /// sleep. Tiltbox wakes every crate still asleep after `cpSpaceSetGravity`, in order,
    /// and pymunk does the same: the states agree bit for bit and the crates slide.
    @Test func sleepingCratesWakeUnderARecordedTiltAsInPymunk() throws {
        let crates = (0..<12).map { i in
            CrateSpec(id: "s\(i)", position: Vec2(40 + Double(i) * 36, 17.5), size: Vec2(30, 30))
        }
        let scenario = Scenario(
            name: "sleepers", world: WorldSettings(size: Vec2(480, 320), sleepTimeThreshold: 0.5),
            duration: 8, crates: crates)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltbox-tilt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("tilt.csv").path
        try "t,x,y\n0,0,-1\n3,0.7071067811865476,-0.7071067811865476\n5,-0.5,-0.8660254037844386\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let track = try TiltFile.load(path: csv, g: 980).track
        let dt = scenario.timestep.dt
        let changes = [Int((3 / dt).rounded()), Int((5 / dt).rounded())]
        var asleepBeforeChange: [Int] = []
        var awakeAfterChange: [Int] = []
        var previousStep: Int?
        let tally = try Self.compare(scenario, track: track, steps: 960, every: 10) { n, world in
            if changes.contains(n) { asleepBeforeChange.append(world.sleepingBodyCount); previousStep = n }
            if let p = previousStep, n == p + 1 {
                awakeAfterChange.append(world.bodies.count - world.sleepingBodyCount)
            }
        }
        Self.report("sleepers-12 with a two-turn tilt, 960 steps", tally)
        #expect(asleepBeforeChange.first == 12, "every crate sleeps when gravity first turns: \(asleepBeforeChange)")
        #expect(awakeAfterChange.first == 12, "every crate is awake after the turn: \(awakeAfterChange)")
        #expect(tally.compared == 97 * 72)
        #expect(tally.identical == tally.compared, "\(tally)")
    }
}

/// The space settings a scenario leaves out are Chipmunk's own, read back from the space.
@Suite struct SpaceSettingsTests {
    @Test func absentKeysLeaveChipmunksOwnDefaults() {
        let effective = SpaceSettings.effective(for: WorldSettings(size: Vec2(100, 100)))
        #expect(effective.iterations == 10)
        #expect(effective.damping == 1)
        // Chipmunk's default slop is the float 0.1f, not the double 0.1.
        #expect(effective.collisionSlop.bitPattern == Double(Float(0.1)).bitPattern)
        #expect(effective.collisionSlop == 0.10000000149011612)
        #expect(effective.collisionBias.bitPattern == pow(Double(Float(1) - Float(0.1)), 60).bitPattern)
        #expect(effective.collisionPersistence == 3)
        #expect(effective.sleepTimeThreshold == .infinity)
        #expect(effective.idleSpeedThreshold == 0)
        #expect(effective == SpaceSettings.chipmunkDefaults)
    }

    @Test func givenKeysReachTheSpaceExactly() {
        let world = WorldSettings(
            size: Vec2(100, 100), iterations: 7, damping: 0.5, collisionSlop: 0.1,
            collisionBias: 0.25, collisionPersistence: 5, sleepTimeThreshold: 0.75,
            idleSpeedThreshold: 2.5)
        let effective = World(scenario: Scenario(name: "s", world: world)).spaceSettings
        #expect(
            effective
                == SpaceSettings(
                    iterations: 7, damping: 0.5, collisionSlop: 0.1, collisionBias: 0.25,
                    collisionPersistence: 5, sleepTimeThreshold: 0.75, idleSpeedThreshold: 2.5))
        #expect(SpaceSettings.effective(for: world) == effective)
    }

    @Test func theDefaultSlopAndAnExplicitPointOneGiveDifferentRuns() {
        // The reason absent keys must stay absent: 0.1f and 0.1 are different physics.
        func run(_ slop: Double?) -> [BodyState] {
            let crates = (0..<20).map {
                CrateSpec(id: "c\($0)", position: Vec2(40 + Double($0 % 10) * 40, 40 + Double($0 / 10) * 40))
            }
            let world = World(
                scenario: Scenario(
                    name: "s", world: WorldSettings(size: Vec2(480, 320), collisionSlop: slop), crates: crates))
            for _ in 0..<240 { world.step(dt: 1.0 / 120) }
            return world.states
        }
        #expect(run(nil) != run(0.1))
        #expect(run(nil) == run(Double(Float(0.1))))
    }
}
