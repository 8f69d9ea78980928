// tiltbox-emitter-bench: what a world that changes costs per step.
//
// Two scenes of the same balls, zero gravity, stepped at dt = 1/120 s, in one process and
// interleaved (one "pair" is one run of each; the median of the pairs' ratios is printed):
//
// - emitter: a timeline spawns one ball per step (`count` = SPAWNS, `every` = dt) and removes
//   each one LIFE steps after its spawn (SPAWNS `remove` entries), so from step LIFE on there
//   are LIFE balls present, one arriving and one leaving each step;
// - static: the same LIFE balls present from the start (`bodies`), moving as the emitter's do,
//   none added or removed.
//
// Both run SPAWNS + LIFE steps with no output (only step 0 and the last are recorded, as
// tiltbox-bench's "none"); building the world and loading the file (the timeline's checks
// before the run) are not timed. The emitter holds fewer balls during its first LIFE steps,
// so its figure is at most LIFE / (SPAWNS + LIFE) below the same work.
//
//   tiltbox-emitter-bench [--spawns 10000] [--life 100] [--pairs 5]

import Foundation
@_spi(Tools) import Tiltbox

struct Options {
    var spawns = 10_000
    var life = 100
    var pairs = 5

    static func parse() -> Options {
        var options = Options()
        var args = CommandLine.arguments.dropFirst()
        while let flag = args.popFirst() {
            guard let text = args.popFirst(), let value = Int(text), value > 0 else {
                fail("\(flag) needs a positive integer")
            }
            switch flag {
            case "--spawns": options.spawns = value
            case "--life": options.life = value
            case "--pairs": options.pairs = value
            default: fail("unknown option \(flag); usage: tiltbox-emitter-bench [--spawns N] [--life N] [--pairs N]")
            }
        }
        return options
    }
}

func fail(_ message: String) -> Never {
    // A throwing write: a closed or full standard error never traps.
    try? DescriptorOutput.writeAll(STDERR_FILENO, "tiltbox-emitter-bench: \(message)\n")
    exit(2)
}

/// The step both scenes take, exactly.
let dt = 1.0 / 120.0
/// A ball: radius 2, mass 1, no friction needed (nothing touches).
let ballShapes = #"[{"circle": {"radius": 2}, "mass": 1}]"#

/// The emitter scene: ball k spawned at step k at the left, moving right 5 px a step (so it
/// never overlaps the one spawned before it), and removed at step k + life.
func emitterScenario(_ options: Options) -> String {
    var timeline = [
        #"{"t": 0, "every": \#(dt), "count": \#(options.spawns), "spawn": {"id": "ball", "position": [10, 500], "#
            + #""velocity": [600, 0], "shapes": \#(ballShapes)}}"#
    ]
    for k in 0..<options.spawns {
        timeline.append(#"{"t": \#(Double(k + options.life) * dt), "remove": "ball#\#(k)"}"#)
    }
    return scene(
        name: "emitter", width: 10 + Double(options.life + 2) * 5 + 10, bodies: "[]",
        timeline: timeline.joined(separator: ",\n "), options: options)
}

/// The static scene: `life` balls present from the start, laid out and moving as the emitter's
/// are once it holds `life` (a row 5 px apart at y = 500, moving right at 600 px/s), so both
/// scenes give the spatial index and the solver the same work; only the spawns and removals differ.
func staticScenario(_ options: Options) -> String {
    let bodies = (0..<options.life).map { i in
        #"{"id": "b\#(i)", "position": [\#(10 + Double(i) * 5), 500], "velocity": [600, 0], "shapes": \#(ballShapes)}"#
    }
    return scene(
        name: "static", width: 10 + Double(options.life + 2) * 5 + 10,
        bodies: "[" + bodies.joined(separator: ",\n ") + "]",
        timeline: "", options: options)
}

func scene(name: String, width: Double, bodies: String, timeline: String, options: Options) -> String {
    let steps = options.spawns + options.life
    let height = max(1000, 20 + Double(options.life / 100 + 1) * 6)
    return """
        {"format": "tiltbox-scenario/1", "name": "\(name)", "world": {"size": [\(max(width, 100)), \(height)],
         "gravity": [0, 0]}, "walls": {"box": false}, "timestep": {"dt": \(dt)}, "duration": \(Double(steps) * dt),
         "bodies": \(bodies),
         "timeline": [\(timeline)]}
        """
}

func load(_ text: String, _ name: String) -> Scenario {
    do {
        return try ScenarioLoader.parse(text: text, file: name, baseDirectory: nil)
    } catch {
        fail("\(name): \(error)")
    }
}

/// Nanoseconds per step of one run of `scenario` for `steps` steps, no output.
func timePerStep(_ scenario: Scenario, steps: Int) -> Double {
    let session = RunSession(
        scenario: scenario, track: ConstantGravity(scenario.world.gravity), totalSteps: steps, every: steps)
    var clock = SteadyClock(hz: 60)
    let start = DispatchTime.now().uptimeNanoseconds
    do {
        let outcome = try session.run(clock: &clock, shouldStop: { false })
        _ = try session.finish()
        guard outcome == .complete else { fail("run ended \(outcome)") }
    } catch {
        fail("run failed: \(error)")
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(steps)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

let options = Options.parse()
let steps = options.spawns + options.life
let emitter = load(emitterScenario(options), "emitter.json")
let still = load(staticScenario(options), "static.json")
var emitterTimes: [Double] = []
var staticTimes: [Double] = []
var ratios: [Double] = []
for _ in 0..<options.pairs {
    let e = timePerStep(emitter, steps: steps)
    let s = timePerStep(still, steps: steps)
    emitterTimes.append(e)
    staticTimes.append(s)
    ratios.append(e / s)
}
print(
    "emitter bench: \(options.spawns) spawns and removals, \(options.life) balls present, \(steps) steps, "
        + "\(options.pairs) pairs")
print(String(format: "  emitter (spawn + remove each step): %8.0f ns/step (median)", median(emitterTimes)))
print(String(format: "  same balls present from the start:  %8.0f ns/step (median)", median(staticTimes)))
print(String(format: "  emitter / static: %.3f (median of pairs; target ≤ 1.05)", median(ratios)))
