import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The live tilt track and its CSV, without a terminal: a run steered by turns at step
/// times, replayed from the written CSV, must give the same records bit for bit.
@Suite struct LiveTiltRecordingTests {
    final class Collector: RecordSink {
        var lines: [[UInt64]] = []
        func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
            lines.append(
                [UInt64(step), time.bitPattern, gravity.x.bitPattern, gravity.y.bitPattern] + states.map(\.bitPattern))
        }
    }

    static func scenario() -> Scenario {
        let crates = (0..<12).map { i in
            CrateSpec(id: "c\(i)", position: Vec2(60 + Double(i % 6) * 60, 40 + Double(i / 6) * 40), size: Vec2(30, 30))
        }
        return Scenario(name: "live", world: WorldSettings(size: Vec2(480, 320)), duration: 3, crates: crates)
    }

    @Test(arguments: Orientation.allCases)
    func recordedTiltReplaysBitForBit(orientation: Orientation) throws {
        let scenario = Self.scenario()
        let live = LiveTiltTrack(initialGravity: scenario.world.gravity, orientation: orientation, g: 980)
        let collector = Collector()
        let simulation = RunSession(scenario: scenario, track: live, sinks: [collector])
        // Frames of 1/60 s with turns at a few frame boundaries, as the live view does them.
        let script: [Int: Int] = [10: 1, 11: 1, 30: -3, 31: 2, 90: 5, 91: -1, 150: -4]
        var frame = 0
        while simulation.outcome == nil {
            if let turn = script[frame] {
                simulation.scheduleGravityChange { live.turn(by: turn, at: $0) }
            }
            try simulation.advance(frameDuration: 1.0 / 60)
            frame += 1
        }
        let csvPath = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString).csv")
            .path
        defer { try? FileManager.default.removeItem(atPath: csvPath) }
        try live.csv(comment: "test").write(toFile: csvPath, atomically: true, encoding: .utf8)

        let loaded = try TiltFile.load(path: csvPath, orientation: orientation, g: 980)
        let replayed = Collector()
        let replay = RunSession(scenario: scenario, track: loaded.track, sinks: [replayed])
        var clock = JitterClock(hz: 50, seed: 3) // different frames, same physics
        _ = try replay.run(clock: &clock)
        #expect(collector.lines.count == 361)
        #expect(replayed.lines == collector.lines)
        // The turns really changed gravity.
        #expect(Set(collector.lines.map { $0[2] }).count >= 5)
    }

    @Test func aTurnAppliesFromTheNextStepTime() {
        let live = LiveTiltTrack(initialGravity: Vec2(0, -980), orientation: .portrait, g: 980)
        live.turn(by: 18, at: 0.5) // 18 × 5° = 90°: gravity pulls towards +x
        #expect(live.gravity(at: 0.49) == Vec2(0, -980))
        let g = live.gravity(at: 0.5)
        #expect(abs(g.x - 980) < 1e-9 && abs(g.y) < 1e-9)
        live.turn(by: -18, at: 0.5) // a second change at the same time replaces the first
        #expect(live.samples.count == 2)
        #expect(live.gravity(at: 1) == Vec2(0, -980))
    }
}
