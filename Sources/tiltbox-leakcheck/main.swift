// tiltbox-leakcheck: creates and drops 1 000 worlds (crates, walls, a segment and a joint
// of every kind, some dropped mid-run with live contacts) under valgrind memcheck, `make leakcheck`.
// Any definitely-lost block fails the run.
import Foundation
@_spi(Tools) import Tiltbox

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1000 : 1000
// One joint of every kind, to the world and between crates.
let joints: [JointSpec] = [
    JointSpec(kind: .pivot(.world(Vec2(40, 60))), a: .world, b: .body("c0")),
    JointSpec(kind: .pin(anchorA: .zero, anchorB: .zero), a: .body("c1"), b: .body("c2")),
    JointSpec(kind: .slide(anchorA: .zero, anchorB: .zero, min: 20, max: 80), a: .body("c2"), b: .body("c3")),
    JointSpec(kind: .groove(grooveA: Vec2(150, 40), grooveB: Vec2(230, 40), anchorB: .zero), a: .world, b: .body("c3")),
    JointSpec(kind: .dampedSpring(anchorA: .zero, anchorB: .zero, restLength: 40, stiffness: 20, damping: 1),
              a: .body("c3"), b: .body("c4")),
    JointSpec(kind: .dampedRotarySpring(restAngle: 0, stiffness: 100, damping: 1), a: .body("c4"), b: .body("c5")),
    JointSpec(kind: .rotaryLimit(min: -0.5, max: 0.5), a: .body("c5"), b: .world),
    JointSpec(kind: .ratchet(phase: 0, ratchet: 0.4), a: .body("c5"), b: .body("c6")),
    JointSpec(kind: .gear(phase: 0, ratio: 2), a: .body("c6"), b: .body("c7"), maxForce: 1000),
    JointSpec(kind: .simpleMotor(rate: 1), a: .body("c7"), b: .world, maxForce: 100, collideBodies: false),
]
for i in 0..<count {
    let crates = (0..<8).map { c in
        CrateSpec(id: "c\(c)", position: Vec2(40 + Double(c) * 50, 40 + Double(c % 3) * 30), angle: Double(c) * 0.1)
    }
    var scenario = Scenario(name: "w\(i)", world: WorldSettings(size: Vec2(480, 320)),
                            segments: [SegmentSpec(from: Vec2(0, 120), to: Vec2(240, 60))], crates: crates,
                            joints: joints)
    if i % 2 == 1 { scenario.world.spatialIndex = .hash(cellSize: 40, count: 500) }
    let world = World(scenario: scenario)
    for _ in 0..<(i % 13) { world.step(dt: 1.0 / 120) }
}
let live = (EngineCensus.liveSpaces, EngineCensus.liveBodies, EngineCensus.liveShapes, EngineCensus.liveConstraints)
print("leakcheck: \(count) worlds created and dropped; live spaces \(live.0), bodies \(live.1), shapes \(live.2), "
      + "constraints \(live.3)")
if live != (0, 0, 0, 0) { exit(1) }
