// tiltbox-leakcheck: creates and drops 1 000 worlds (crates, walls and a segment, bodies
// of every shape kind and type, a joint of every kind, some dropped mid-run with live contacts; bodies and
// joints added and removed between steps; worlds dropped with sleeping bodies) under valgrind
// memcheck, `make leakcheck`.
// Any definitely-lost block fails the run.
import Foundation
@_spi(Tools) import Tiltbox

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1000 : 1000
let bodies = [
    BodySpec(
        id: "ball", position: Vec2(100, 250),
        shapes: [
            ShapeSpec(geometry: .circle(radius: 10, offset: Vec2(2, 0)), mass: .mass(1))
        ]),
    BodySpec(
        id: "compound", position: Vec2(220, 250),
        shapes: [
            ShapeSpec(geometry: .box(size: Vec2(30, 10), radius: 1), mass: .density(0.01)),
            ShapeSpec(geometry: .polygon(vertices: [Vec2(0, 0), Vec2(10, 0), Vec2(0, 10)], radius: 0), mass: .mass(1)),
            ShapeSpec(geometry: .segment(from: Vec2(-10, 0), to: Vec2(10, 5), radius: 2), mass: .mass(0.5)),
        ]),
    BodySpec(
        id: "paddle", type: .kinematic, position: Vec2(300, 150), angularVelocity: 1,
        shapes: [
            ShapeSpec(geometry: .box(size: Vec2(60, 6), radius: 0))
        ]),
    BodySpec(
        id: "shelf", type: .static, position: Vec2(400, 100),
        shapes: [
            ShapeSpec(geometry: .segment(from: Vec2(-40, 0), to: Vec2(40, 0), radius: 2))
        ]),
]
// One joint of every kind, to the world and between crates, and joints holding bodies.
let joints: [JointSpec] = [
    JointSpec(parameters: .pivot(.world(Vec2(40, 60))), a: .world, b: .body("c0")),
    JointSpec(parameters: .pin(anchorA: .zero, anchorB: .zero), a: .body("c1"), b: .body("c2")),
    JointSpec(parameters: .slide(anchorA: .zero, anchorB: .zero, min: 20, max: 80), a: .body("c2"), b: .body("c3")),
    JointSpec(
        parameters: .groove(grooveA: Vec2(150, 40), grooveB: Vec2(230, 40), anchorB: .zero), a: .world, b: .body("c3")),
    JointSpec(
        parameters: .dampedSpring(anchorA: .zero, anchorB: .zero, restLength: 40, stiffness: 20, damping: 1),
        a: .body("c3"), b: .body("c4")),
    JointSpec(
        parameters: .dampedRotarySpring(restAngle: 0, stiffness: 100, damping: 1), a: .body("c4"), b: .body("c5")),
    JointSpec(parameters: .rotaryLimit(min: -0.5, max: 0.5), a: .body("c5"), b: .world),
    JointSpec(parameters: .ratchet(phase: 0, ratchet: 0.4), a: .body("c5"), b: .body("c6")),
    JointSpec(parameters: .gear(phase: 0, ratio: 2), a: .body("c6"), b: .body("c7"), maxForce: 1000),
    JointSpec(parameters: .simpleMotor(rate: 1), a: .body("c7"), b: .world, maxForce: 100, collideBodies: false),
    JointSpec(parameters: .pivot(.world(Vec2(100, 270))), a: .world, b: .body("ball")),
    JointSpec(
        parameters: .dampedSpring(anchorA: .zero, anchorB: .zero, restLength: 100, stiffness: 10, damping: 1),
        a: .body("ball"), b: .body("compound")),
    JointSpec(parameters: .pin(anchorA: Vec2(30, 0), anchorB: .zero), a: .body("paddle"), b: .body("c5")),
]
for i in 0..<count {
    let crates = (0..<8).map { c in
        CrateSpec(id: "c\(c)", position: Vec2(40 + Double(c) * 50, 40 + Double(c % 3) * 30), angle: Double(c) * 0.1)
    }
    var scenario = Scenario(
        name: "w\(i)", world: WorldSettings(size: Vec2(480, 320)),
        segments: [SegmentSpec(from: Vec2(0, 120), to: Vec2(240, 60))], crates: crates,
        bodies: bodies, joints: joints)
    if i % 2 == 1 { scenario.world.spatialIndex = .hash(cellSize: 40, count: 500) }
    let world = World(scenario: scenario)
    for _ in 0..<(i % 13) { world.step(dt: 1.0 / 120) }
    // Bodies and joints added and removed between steps (docs/formats.md §8 timeline):
    // a spawned ball pinned to the compound and to the world, the compound removed with
    // its joints, then the ball's pivot removed on its own; half the worlds keep the ball.
    var spawned = bodies[0]
    spawned.id = "ball#\(i)"
    spawned.position = Vec2(300, 280)
    world.addBody(spawned.definition)
    world.addJoint(
        JointSpec(parameters: .pin(anchorA: .zero, anchorB: .zero), a: .body(spawned.id), b: .body("compound"), id: "p")
    )
    world.addJoint(JointSpec(parameters: .pivot(.world(Vec2(300, 290))), a: .world, b: .body(spawned.id), id: "q"))
    world.applyImpulse(toBody: spawned.id, impulse: Vec2(10, 0), at: nil)
    world.step(dt: 1.0 / 120)
    world.removeBody(id: "compound")
    world.removeJoint(id: "q")
    if i % 2 == 0 { world.removeBody(id: spawned.id) }
    world.step(dt: 1.0 / 120)
}
// Worlds dropped with bodies asleep: Chipmunk keeps a sleeping body's contacts in memory of their own,
// given back only when the body wakes (`cpSpaceFree`'s own wake-up misses some: the world wakes them).
for i in 0..<(count / 10) {
    let crates = (0..<6).map { CrateSpec(id: "s\($0)", position: Vec2(40 + Double($0) * 33, 17)) }
    var scenario = Scenario(name: "sleep\(i)", world: WorldSettings(size: Vec2(480, 320)), crates: crates)
    scenario.world.sleepTimeThreshold = 0.05
    scenario.world.idleSpeedThreshold = 20
    let world = World(scenario: scenario)
    for _ in 0..<(30 + i % 7) { world.step(dt: 1.0 / 120) }
    if world.sleepingBodyCount == 0 {
        print("leakcheck: no crate fell asleep in world sleep\(i)")
        exit(1)
    }
}
let live = (EngineCensus.liveSpaces, EngineCensus.liveBodies, EngineCensus.liveShapes, EngineCensus.liveConstraints)
print(
    "leakcheck: \(count) worlds created and dropped; live spaces \(live.0), bodies \(live.1), shapes \(live.2), "
        + "constraints \(live.3)")
if live != (0, 0, 0, 0) { exit(1) }
