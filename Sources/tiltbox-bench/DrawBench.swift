// `--only draw`: the live view's drawing cost per frame, without the terminal write.
//
// Runs the pile for `--steps` steps (not timed), then draws the frame between the last
// two steps as the live view's drawing thread does (`LiveFrameRenderer`: blend,
// rasterise the braille canvas, compose the terminal text with a HUD line) `frames`
// times on a terminal of `columns`×`rows`, and reports the median nanoseconds per frame.

@_spi(Tools) import Tiltbox

/// A terminal of the size a full-screen live view typically has.
let drawColumns = 200, drawRows = 60

/// The median nanoseconds to draw one live-view frame of the pile of `n` crates after `steps` steps.
func benchDraw(n: Int, steps: Int, frames: Int) throws -> (bytes: Int, nanosecondsPerFrame: Double) {
    let scenario = BenchmarkPile.scenario(n: n)
    let session = RunSession(
        scenario: scenario, track: ConstantGravity(scenario.world.gravity), totalSteps: steps,
        every: max(steps, 1))
    var clock = SteadyClock(hz: 60)
    guard try session.run(clock: &clock, shouldStop: { false }) == .complete else {
        fatalError("pile run did not complete")
    }
    _ = try session.finish()
    let previous = session.withPreviousStates { Array($0) }
    let current = session.withCurrentStates { Array($0) }
    let hud = String(repeating: "·", count: 110)
    var renderer = LiveFrameRenderer(scenario: scenario)
    var times: [Double] = []
    var bytes = 0
    for _ in 0..<frames {
        let start = nowNanoseconds()
        let text = renderer.frame(
            previous: previous, current: current, alpha: 0.5, hud: hud,
            columns: drawColumns, terminalRows: drawRows, clear: false)
        times.append(Double(nowNanoseconds() - start))
        bytes = text.utf8.count
    }
    return (bytes, median(times))
}
