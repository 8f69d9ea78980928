// tiltbox-soak: the 100-crate pile rocked by a looping keyframe tilt for a long
// simulated time, headless, `make soak`. Passes when every state stays finite and memory
// stays flat:
// - peak RSS growth after the first simulated minute, less the growth of Chipmunk's own
//   contact and arbiter pools (blocks a space keeps at their high-water mark, reported
//   beside it), is under 1 %; and
// - the second half of the run adds nothing to peak RSS beyond the pools' growth (a leak
//   grows steadily; a pool or an allocator reaching its high-water mark does not).
// The raw peak-RSS growth is printed too, and so is resident anonymous memory (heap,
// stacks), which unlike RSS leaves out code pages touched for the first time.
import Foundation
@_spi(Tools) import Tiltbox

let arguments = CommandLine.arguments
func option(_ name: String, default value: String) -> String {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return value }
    return arguments[i + 1]
}
let root = option("--root", default: ".")
let minutes = Int(option("--minutes", default: "60")) ?? 60
let scenarioPath = option("--scenario", default: "\(root)/Scenarios/pile-100.json")
let tiltPath = option("--tilt", default: "\(root)/Scenarios/tilt/rock.json")

do {
    let scenario = try ScenarioLoader.load(path: scenarioPath)
    let tilt = try TiltFile.load(path: tiltPath, g: TiltFrame.resolve(orientation: nil, g: nil, for: scenario).g)
    let track = LoopingGravityTrack(base: tilt.track, period: max(tilt.endTime, scenario.timestep.dt))
    let stepsPerMinute = Int(scenario.timestep.steps(in: 60))
    final class MinuteReport: RecordSink {
        var world: World?
        var baseline: (peak: Int, pool: Int, heap: Int)?
        var worstHeapGrowthBeyondPool = Int.min
        var worstGrowth = 0.0
        var worstGrowthBeyondPool = 0.0
        var minutes = 0
        var atHalf: (peak: Int, pool: Int)?
        var final = (peak: 0, pool: 0)
        let halfMinute: Int
        init(totalMinutes: Int) {
            halfMinute = max(totalMinutes / 2, 1)
        }
        func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
            precondition(states.allSatisfy(\.isFinite) && gravity.isFinite, "a non-finite state reached a record")
            let peak = ProcessMemory.peakResidentKiB ?? 0
            let pool = (world?.enginePoolBytes ?? 0) / 1024
            let heap = ProcessMemory.residentAnonymousKiB ?? 0
            if step > 0 {
                minutes += 1
                if baseline == nil { baseline = (peak, pool, heap) }
                let base = baseline ?? (peak, pool, heap)
                let heapBeyondPool = heap - base.heap - (pool - base.pool)
                worstHeapGrowthBeyondPool = max(worstHeapGrowthBeyondPool, heapBeyondPool)
                let growth = Double(peak - base.peak) / Double(max(base.peak, 1))
                let beyondPool = Double(peak - base.peak - (pool - base.pool)) / Double(max(base.peak, 1))
                worstGrowth = max(worstGrowth, growth)
                worstGrowthBeyondPool = max(worstGrowthBeyondPool, beyondPool)
                if minutes == halfMinute { atHalf = (peak, pool) }
                final = (peak, pool)
                print(
                    String(
                        format:
                            "minute %3d  t = %6.0f s  rss %6d KiB  peak %6d KiB  anon %6d KiB  chipmunk pools %5d KiB  peak growth since minute 1: %+.3f%% (%+.3f%% beyond chipmunk's pools)",
                        minutes, time, ProcessMemory.residentKiB ?? 0, peak, heap, pool, growth * 100, beyondPool * 100)
                )
                fflush(nil)
            }
        }
    }
    let report = MinuteReport(totalMinutes: minutes)
    let session = RunSession(
        scenario: scenario, track: track, totalSteps: stepsPerMinute * minutes,
        every: stepsPerMinute, sinks: [report])
    report.world = session.world
    var clock = SteadyClock(hz: 60)
    let started = RealTimeClock.now()
    InterruptSignal.install()
    let outcome = try session.run(clock: &clock, shouldStop: { InterruptSignal.isRaised })
    let summary = try session.finish()
    let wall = RealTimeClock.now() - started
    print(
        String(
            format:
                "soak: %@ after %d simulated minutes (%d steps) in %.1f s wall; worst peak-RSS growth after minute 1: %.3f%% (%.3f%% beyond chipmunk's pools)",
            "\(outcome)", report.minutes, summary.steps, wall, report.worstGrowth * 100,
            report.worstGrowthBeyondPool * 100))
    if outcome == .interrupted { exit(InterruptSignal.exitStatus) } // 130 after Ctrl-C, 143 after SIGTERM
    guard outcome == .complete else { print("soak: FAILED: the run did not complete"); exit(1) }
    print(
        "soak: resident anonymous memory (RssAnon) grew by at most \(report.worstHeapGrowthBeyondPool) KiB beyond Chipmunk's pools after minute 1"
    )
    let half = report.atHalf ?? report.final
    let secondHalf = (report.final.peak - half.peak) - (report.final.pool - half.pool)
    print(
        "soak: peak RSS growth over the second half (minute \(report.halfMinute) to \(report.minutes)): \(report.final.peak - half.peak) KiB, \(secondHalf) KiB beyond Chipmunk's pools"
    )
    guard report.worstGrowthBeyondPool < 0.01 else {
        print("soak: FAILED: memory beyond Chipmunk's pools grew by 1 % or more after the first minute")
        exit(1)
    }
    guard minutes < 4 || secondHalf <= 0 else {
        print("soak: FAILED: memory still grew in the second half of the run"); exit(1)
    }
    print("soak: passed")
} catch {
    // Nothing more to do if standard error cannot take the message: the status tells.
    try? DescriptorOutput.writeAll(STDERR_FILENO, "tiltbox-soak: \(error)\n")
    exit(2)
}
