import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Chipmunk makes its `separate` calls (after a step, and while a touching shape is removed) by
/// walking its arbiter cache, a hash set keyed by the two shapes' addresses, and the contact probe
/// reads touching pairs from that same set: the order changes with the heap's layout. The world
/// settles each batch of calls (one step, one removal) by the shapes' numbers, the order they
/// joined the world (docs/formats.md §8, "Step order"), so runs agree whatever the heap.
@Suite struct CallOrderTests {
    /// Tests/Scenes/separate-order.json: 25 single-shape bodies, no walls, so shape number i is
    /// body i's shape (floor, plate, shelf, zone, up0 … up8, rest0 … rest5, bomb, ground0 … ground4).
    static func scenario() throws -> Scenario {
        let path = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenes").appendingPathComponent("separate-order.json").path
        return try ScenarioLoader.load(path: path)
    }

    /// Keeps a run's events and the bit patterns of every recorded state.
    final class RunCollector: RecordSink {
        var events: [TraceEvent] = []
        var states: [UInt64] = []

        func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
            self.states += states.map(\.bitPattern)
        }

        func event(_ event: TraceEvent) throws { events.append(event) }
    }

    static func run(_ scenario: Scenario) throws -> RunCollector {
        let collector = RunCollector()
        let session = RunSession(scenario: scenario, track: ConstantGravity(scenario.world.gravity), sinks: [collector])
        var clock = FrameProfile.steady(hz: 60).makeClock()
        #expect(try session.run(clock: &clock) == .complete)
        return collector
    }

    static func changes(atStep step: Int, _ events: [TraceEvent]) -> [TraceEvent.Change] {
        events.filter { $0.step == step }.map(\.change)
    }

    @Test func theSeparatesOfOneStepComeInTheOrderTheirShapesJoinedTheWorld() throws {
        // up0 … up8 leave the plate together in step 2. Their rules do not commute (an impulse
        // on the plate, a set of its velocity, an impulse at a point): the order is the physics.
        let events = try Self.run(Self.scenario()).events
        let expected: [TraceEvent.Change] = (0..<9).map { i in
            i % 3 == 2
                ? .collision(.separate, a: "up\(i)", b: "plate", rule: 2)
                : .collision(.separate, a: "plate", b: "up\(i)", rule: i % 3)
        }
        #expect(Self.changes(atStep: 2, events) == expected)
    }

    @Test func theSeparatesOfOneRemovalComeInTheOrderTheirShapesJoinedTheWorld() throws {
        let events = try Self.run(Self.scenario()).events
        // The timeline removes the shelf under rest0 … rest5 before step 30; its separates are
        // drained after step 31.
        #expect(
            Self.changes(atStep: 31, events)
                == (0..<6).map { .collision(.separate, a: "rest\($0)", b: "shelf", rule: 3) })
        // The bomb's rule removes the floor in the drain of step 54: its separates follow in the
        // same drain, plate, bomb, then ground0 … ground4.
        let separates: [TraceEvent.Change] = ["plate", "bomb", "ground0", "ground1", "ground2", "ground3", "ground4"]
            .map { .collision(.separate, a: "floor", b: $0, rule: 6) }
        #expect(
            Self.changes(atStep: 54, events)
                == [.collision(.begin, a: "bomb", b: "floor", rule: 5), .remove(body: "floor", reason: .rule)]
                + separates)
    }

    @Test func theSeparatesOfASensorComeInTheOrderTheirShapesJoinedTheWorld() throws {
        let events = try Self.run(Self.scenario()).events
        // rest0 … rest5 fall through the sensor side by side and leave it in one step.
        #expect(
            Self.changes(atStep: 88, events)
                == (0..<6).map { .collision(.separate, a: "zone", b: "rest\($0)", rule: 4) })
    }

    @Test func aRunGivesTheSameEventsAndStatesWhateverTheHeapLayout() throws {
        let scenario = try Self.scenario()
        let first = try Self.run(scenario)
        #expect(first.events.count == 31)
        for blocks in [1, 5, 23, 97, 301] {
            // Blocks of the sizes Chipmunk allocates bodies and shapes in, held while the world is
            // built, move where its shapes land, and so the order of their addresses' hashes.
            let held = (0..<blocks).map {
                UnsafeMutableRawPointer.allocate(byteCount: 48 + 32 * ($0 % 9), alignment: 16)
            }
            defer { for block in held { block.deallocate() } }
            let again = try Self.run(scenario)
            #expect(again.events == first.events, "after \(blocks) blocks")
            // As a Bool: a failing `#expect` of two arrays diffs them, quadratic in 18 000 values.
            let sameStates = again.states == first.states
            #expect(sameStates, "after \(blocks) blocks")
        }
    }

    @Test func touchingPairsComeInTheOrderTheirShapesJoinedTheWorld() throws {
        let scenario = try Self.scenario()
        let world = World(scenario: scenario)
        let probe = ContactProbe(world: world)
        for _ in 0..<24 { world.step(dt: scenario.timestep.dt) }
        let pairs = probe.touching()
        // The plate on the floor, the balls on the shelf and on the floor, some balls side by side.
        #expect(pairs.count >= 12)
        #expect(pairs.map(\.key) == pairs.map(\.key).sorted())
        // Shape number i is body i's only shape: the keys are the bodies' places in trace order.
        for pair in pairs {
            let ends = [pair.a.bodyIndex, pair.b.bodyIndex].compactMap { $0 }.sorted()
            #expect(ends == [Int(pair.key.low), Int(pair.key.high)], "\(pair)")
        }
    }

    @Test func aShapeAddedAfterAnotherWasRemovedTakesANewNumber() throws {
        let scenario = try Self.scenario()
        let world = World(scenario: scenario)
        let probe = ContactProbe(world: world)
        for _ in 0..<3 { world.step(dt: scenario.timestep.dt) }
        let before = probe.touching().filter { $0.a.bodyIndex == 0 || $0.b.bodyIndex == 0 }.map(\.key)
        // ground4 (shape 24) leaves; a ball of its size takes its place: a new pair, shape 25,
        // even where the heap gives the new shape the freed one's address.
        world.removeBody(id: "ground4")
        world.addBody(
            BodySpec(
                id: "again", position: Vec2(116, 25.5),
                shapes: [ShapeSpec(geometry: .circle(radius: 6, offset: .zero), mass: .mass(1))]
            ).definition)
        world.step(dt: scenario.timestep.dt)
        let after = probe.touching().filter { $0.a.bodyIndex == 0 || $0.b.bodyIndex == 0 }.map(\.key)
        #expect(before.contains(ShapePairKey(0, 24)))
        #expect(!after.contains(ShapePairKey(0, 24)))
        #expect(after.contains(ShapePairKey(0, 25)))
    }
}
