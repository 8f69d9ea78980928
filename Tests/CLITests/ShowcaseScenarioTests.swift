import Foundation
import Testing

/// The shipped scenarios of a world that changes after t = 0 show what their description says:
/// each is validated, run through the binary, and its trace checked for that outcome.
@Suite struct ShowcaseScenarioTests {
    /// A run's trace read back: each record with the ids of the bodies it lists, and the events.
    struct Replay {
        /// One record: its time and each present body's `[x, y, angle, vx, vy, w]` by id.
        struct Record {
            var t: Double
            var states: [(id: String, state: [Double])]
        }
        var records: [Record] = []
        /// Event lines, parsed, in file order.
        var events: [[String: Any]] = []
        /// The end line's counters.
        var counters: [String: Int] = [:]

        /// Runs `scenario` (a shipped file name) after validating it, and reads its trace.
        static func run(_ scenario: String) throws -> Replay {
            let directory = try TemporaryDirectory()
            let file = PackageFiles.scenario(scenario)
            let validate = try TiltboxBinary.run(["validate", file], in: directory)
            #expect(validate.status == 0, "validate: \(validate.stderr)")
            let trace = directory.path("out.jsonl")
            let run = try TiltboxBinary.run(["run", file, "--view", "none", "--trace", trace, "-q"], in: directory)
            #expect(run.status == 0, "run exited \(run.status): \(run.stderr)")
            var replay = Replay()
            var present: [String] = []
            for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                if let bodies = object["bodies"] as? [String], object["format"] != nil {
                    present = bodies
                } else if let event = object["event"] as? String {
                    replay.events.append(object)
                    let body = object["body"] as? String
                    if event == "spawn", let body { present.append(body) }
                    if event == "remove", let body { present.removeAll { $0 == body } }
                } else if let states = object["s"] as? [[Double]] {
                    #expect(states.count == present.count, "record lists the bodies present: \(line.prefix(80))")
                    let t = try #require(object["t"] as? Double)
                    replay.records.append(Record(t: t, states: Array(zip(present, states)).map { ($0, $1) }))
                } else if object["end"] != nil {
                    replay.counters = object["counters"] as? [String: Int] ?? [:]
                    #expect(object["end"] as? String == "complete")
                }
            }
            return replay
        }

        /// The bodies removed for `reason`, in event order.
        func removed(_ reason: String) -> [String] {
            events.filter { $0["event"] as? String == "remove" && $0["reason"] as? String == reason }
                .compactMap { $0["body"] as? String }
        }

        /// The ids spawned, in event order.
        var spawned: [String] {
            events.filter { $0["event"] as? String == "spawn" }.compactMap { $0["body"] as? String }
        }

        /// The last record that lists `id`.
        func lastState(of id: String) -> [Double]? {
            for record in records.reversed() {
                if let found = record.states.first(where: { $0.id == id }) { return found.state }
            }
            return nil
        }
    }

    @Test func theEmitterLeavesInTheBoxEveryBallItDidNotTakeOut() throws {
        let replay = try Replay.run("emitter.json")
        #expect(replay.spawned.count == 36)
        #expect(replay.removed("timeline") == (0..<10).map { "ball#\($0)" })
        let last = try #require(replay.records.last)
        let balls = last.states.filter { $0.id.hasPrefix("ball#") }
        #expect(balls.map(\.id) == (10..<36).map { "ball#\($0)" })
        // The box's floor is at y = 10 between its walls at x = 150 and 330, 140 high.
        for ball in balls {
            let (x, y) = (ball.state[0], ball.state[1])
            #expect(x > 150 && x < 330 && y > 10 && y < 150, "\(ball.id) at (\(x), \(y)) is outside the box")
        }
    }

    @Test func theConveyorCarriesEveryCrateAlongBothBeltsAndCullingRemovesItBelowTheWorld() throws {
        let replay = try Replay.run("conveyor-drop.json")
        let crates = (0..<10).map { "crate#\($0)" }
        #expect(replay.spawned == crates)
        #expect(replay.removed("cull") == crates, "every crate culled, in the order it came")
        #expect(replay.removed("timeline").isEmpty && replay.removed("rule").isEmpty)
        for crate in crates {
            let track = replay.records.compactMap { record in record.states.first { $0.id == crate }?.state }
            // The upper belt ends at x = 300: the crate was carried past it, then fell onto the
            // lower belt (y 90), which carried it left beyond its end at x = 140.
            #expect(track.contains { $0[0] > 300 }, "\(crate) never reached the upper belt's end")
            #expect(track.contains { $0[0] > 300 && $0[1] < 120 }, "\(crate) never landed on the lower belt")
            let last = try #require(track.last)
            #expect(last[0] < 140 && last[1] < 0, "\(crate) last seen at (\(last[0]), \(last[1]))")
        }
        #expect(replay.records.last?.states.isEmpty == true, "no crate is left at the end")
    }

    @Test func theGoalCounterEqualsTheBallsThatEnteredAndTheStraysStayShortOfTheGoal() throws {
        let replay = try Replay.run("goal-sensor.json")
        let entered = replay.removed("rule")
        let begins = replay.events.filter { $0["event"] as? String == "begin" && $0["b"] as? String == "goal" }
        #expect(replay.counters["goals"] == entered.count)
        #expect(begins.compactMap { $0["a"] as? String } == entered, "each ball entering is counted once")
        #expect(Set(entered) == Set((0..<16).map { "ball#\($0)" }))
        let last = try #require(replay.records.last)
        let strays = last.states.filter { $0.id.hasPrefix("stray#") }
        #expect(strays.count == 5)
        // Dropped under the ramp, short of the goal (x 355 … 445), they pile up where they fell.
        for stray in strays {
            let (x, y) = (stray.state[0], stray.state[1])
            #expect(x < 300 && y < 100, "\(stray.id) at (\(x), \(y)) left the foot of the ramp")
        }
    }

    @Test func breakoutRemovesEachBrickItCountsAndNothingElse() throws {
        let replay = try Replay.run("breakout.json")
        let removed = replay.removed("rule")
        #expect(!removed.isEmpty)
        #expect(replay.counters["bricks"] == removed.count)
        #expect(removed.allSatisfy { $0.hasPrefix("brick") } && Set(removed).count == removed.count)
        let last = try #require(replay.records.last)
        let bricksLeft = last.states.filter { $0.id.hasPrefix("brick") }.map(\.id)
        #expect(bricksLeft.count == 24 - removed.count)
        #expect(Set(bricksLeft).isDisjoint(with: removed))
        #expect(last.states.contains { $0.id == "ball" } && last.states.contains { $0.id == "paddle" })
    }
}
