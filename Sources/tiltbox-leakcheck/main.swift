// tiltbox-leakcheck: creates and drops 1 000 worlds (crates, walls and a segment, some
// dropped mid-run with live contacts) under valgrind memcheck, `make leakcheck`.
// Any definitely-lost block fails the run.
import Foundation
@_spi(Tools) import Tiltbox

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1000 : 1000
for i in 0..<count {
    let crates = (0..<8).map { c in
        CrateSpec(id: "c\(c)", position: Vec2(40 + Double(c) * 50, 40 + Double(c % 3) * 30), angle: Double(c) * 0.1)
    }
    var scenario = Scenario(name: "w\(i)", world: WorldSettings(size: Vec2(480, 320)),
                            segments: [SegmentSpec(from: Vec2(0, 120), to: Vec2(240, 60))], crates: crates)
    if i % 2 == 1 { scenario.world.spatialIndex = .hash(cellSize: 40, count: 500) }
    let world = World(scenario: scenario)
    for _ in 0..<(i % 13) { world.step(dt: 1.0 / 120) }
}
let live = (EngineCensus.liveSpaces, EngineCensus.liveBodies, EngineCensus.liveShapes)
print("leakcheck: \(count) worlds created and dropped; live spaces \(live.0), bodies \(live.1), shapes \(live.2)")
if live != (0, 0, 0) { exit(1) }
