import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// A timeline (docs/formats.md §8) applied by `TimelinePlayer` gives the same states bit for bit
/// as pymunk 7.3.1 doing the same between its steps: an emitter's spawns, impulses with and
/// without `at`, a `set`, removals (the records list the bodies present at each step), and joints added,
/// changed (`setJoint`, a start joint's too), removed on their own and with their body. (No damped spring:
/// pymunk replaces Chipmunk's spring force function, a documented difference.)
@Suite struct TimelinePymunkAgreementTests {
    static let text = #"""
        {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "duration": 5,
         "crates": [{"id": "c0", "position": [100, 40]}, {"id": "c1", "position": [300, 40]}],
         "bodies": [{"id": "paddle", "position": [240, 150], "mass": 2, "moment": 50, "centerOfGravity": [3, 0],
                     "shapes": [{"box": {"size": [60, 10]}}]}],
         "joints": [{"id": "m", "simpleMotor": {"a": "paddle", "b": "static", "rate": 1, "maxForce": 1000}}],
         "timeline": [
           {"t": 0.5, "every": 0.25, "count": 8,
            "spawn": {"id": "ball", "position": [240, 290], "velocity": [20, 0],
                      "shapes": [{"circle": {"radius": 8}, "mass": 1, "friction": 0.5}]}},
           {"t": 1, "impulse": {"body": "paddle", "impulse": [0, 400]}},
           {"t": 1.5, "impulse": {"body": "c1", "impulse": [30, 60], "at": [310, 50]}},
           {"t": 2, "set": {"body": "paddle", "position": [200, 100], "angle": 0.25, "velocity": [5, 0],
                            "angularVelocity": 1}},
           {"t": 2.5, "remove": ["ball#1", "c0"]},
           {"t": 3, "set": {"body": "c1", "type": "kinematic", "velocity": [10, 0]}},
           {"t": 0.8, "joint": {"id": "tether", "slide": {"a": "ball#0", "b": "static", "anchorA": [0, 0],
                                 "anchorB": [240, 300], "min": 0, "max": 80}}},
           {"t": 1.2, "setJoint": {"joint": "tether", "min": 10, "max": 60, "maxForce": 5000}},
           {"t": 1.7, "setJoint": {"joint": "m", "rate": -2, "maxForce": 20000}},
           {"t": 1.8, "joint": {"id": "link", "pin": {"a": "ball#2", "b": "ball#3", "anchorA": [0, 0], "anchorB": [5, 0]}}},
           {"t": 2.2, "removeJoint": "tether"},
           {"t": 3.5, "remove": "ball#3"},
           {"t": 4, "remove": "paddle"}
         ]}
        """#

    static func name(_ end: JointBody) -> String {
        switch end {
        case .world: return "static"
        case .body(let id): return id
        }
    }

    /// The timeline's actions as the pymunk script reads them, in the order they are applied.
    static func pymunkActions(_ scenario: Scenario) throws -> [[String: Any]] {
        let dt = scenario.timestep.dt
        var actions: [[String: Any]] = []
        for occurrence in scenario.timeline.occurrences(dt: dt) {
            let entry = scenario.timeline.entries[occurrence.entry]
            var action: [String: Any] = ["step": occurrence.step, "entry": occurrence.entry]
            let hex = PymunkAgreementTests.hex
            switch entry.action {
            case .spawn(var body):
                body.id = entry.spawnedID(occurrence.repetition) ?? body.id
                action["spawn"] = PymunkAgreementTests.pymunkBody(body)
                action["id"] = body.id
            case .remove(let ids):
                action["remove"] = ids
            case .impulse(let impulse):
                action["body"] = impulse.body
                action["impulse"] = [hex(impulse.impulse.x), hex(impulse.impulse.y)]
                action["at"] = impulse.at.map { [hex($0.x), hex($0.y)] } ?? NSNull()
            case .set(let s):
                var change: [String: Any] = ["body": s.body]
                if let p = s.position { change["position"] = [hex(p.x), hex(p.y)] }
                if let a = s.angle { change["angle"] = hex(a) }
                if let v = s.velocity { change["velocity"] = [hex(v.x), hex(v.y)] }
                if let w = s.angularVelocity { change["angularVelocity"] = hex(w) }
                if let type = s.type { change["type"] = type.rawValue }
                action["set"] = change
            case .joint(let joint):
                // Encoded with both ends the world (the scene's ids are not the encoder's), then named.
                var ends = joint
                (ends.a, ends.b) = (.world, .world)
                var encoded = try PymunkJoints.encode(Scenario(name: "one", world: scenario.world, joints: [ends]))[0]
                encoded["a"] = Self.name(joint.a)
                encoded["b"] = Self.name(joint.b)
                action["joint"] = encoded
                action["id"] = joint.id ?? ""
            case .removeJoint(let id):
                action["removeJoint"] = id
            case .setJoint(let setting):
                action["setJoint"] = setting.joint
                action["values"] = setting.values.map { [$0.parameter.rawValue, hex($0.value)] }
            }
            actions.append(action)
        }
        return actions
    }

    /// Runs `text`'s scenario with its timeline beside pymunk doing the same (a record every
    /// `every` steps), calling `observe` after each step's actions; expects the timeline played
    /// to its end, and returns the tally.
    static func runAgainstPymunk(
        _ text: String, file: String, every: Int, label: String, extra: [String: Any] = [:],
        observe: (World) -> Void = { _ in }
    ) throws -> PymunkAgreementTests.Tally {
        let scenario = try ScenarioLoader.parse(text: text, file: file, baseDirectory: nil)
        var player = TimelinePlayer(timeline: scenario.timeline, dt: scenario.timestep.dt)
        let steps = scenario.totalSteps
        let tally = try PymunkAgreementTests.compare(
            scenario, track: ConstantGravity(scenario.world.gravity), steps: steps, every: every,
            beforeStep: { n, world in
                player.apply(step: n, to: world)
                observe(world)
            },
            extra: ["ids": scenario.bodyDefinitions.map(\.id), "timeline": try pymunkActions(scenario)]
                .merging(extra) { _, given in given })
        PymunkAgreementTests.report("timeline: \(label), \(steps) steps", tally)
        #expect(player.isFinished)
        return tally
    }

    @Test func spawnsImpulsesSetRemovalsAndJointsAgreeWithPymunkBitForBit() throws {
        let scenario = try ScenarioLoader.parse(text: Self.text, file: "timeline.json", baseDirectory: nil)
        let tally = try Self.runAgainstPymunk(
            Self.text, file: "timeline.json", every: 10, label: "emitter, impulses, set, removals, joints",
            extra: ["jointIDs": scenario.joints.map { $0.id.map { $0 as Any } ?? NSNull() }])
        // 61 records of the bodies present at each (3 at start, up to 11): 441 bodies × 6 values.
        #expect(tally.compared == 2646)
        #expect(tally.identical == tally.compared, "\(tally)")
    }

    /// `set` with `type` every way the loader allows (docs/formats.md §8; `cpBodySetType` after the
    /// other setters, then `cpBodyActivate`): a dynamic body made static under falling balls and made
    /// dynamic again, a dynamic body made kinematic, moved by a set, then dynamic again, a static
    /// body made kinematic and moved, and a crate made static for good.
    static let typesText = #"""
        {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "duration": 3,
         "crates": [{"id": "c0", "position": [400, 60]}],
         "bodies": [
           {"id": "lid", "position": [200, 120], "shapes": [{"box": {"size": [140, 10]}, "mass": 3, "friction": 0.6}]},
           {"id": "wheel", "position": [330, 200], "velocity": [-20, 0],
            "shapes": [{"circle": {"radius": 12}, "mass": 2, "friction": 0.9}]},
           {"id": "gate", "type": "static", "position": [60, 150], "shapes": [{"box": {"size": [50, 10]}}]}],
         "timeline": [
           {"t": 0.05, "every": 0.2, "count": 10,
            "spawn": {"id": "ball", "position": [190, 290], "velocity": [8, 0],
                      "shapes": [{"circle": {"radius": 7}, "mass": 1, "friction": 0.5}]}},
           {"t": 0.1, "set": {"body": "lid", "type": "static"}},
           {"t": 0.3, "set": {"body": "wheel", "velocity": [5, 5], "type": "kinematic"}},
           {"t": 0.5, "set": {"body": "wheel", "velocity": [-40, 0], "angularVelocity": 3}},
           {"t": 0.7, "set": {"body": "gate", "type": "kinematic"}},
           {"t": 0.8, "set": {"body": "gate", "velocity": [30, -20], "angularVelocity": -0.5}},
           {"t": 1.2, "set": {"body": "lid", "angularVelocity": 0.5, "type": "dynamic"}},
           {"t": 1.4, "set": {"body": "wheel", "velocity": [0, 60], "type": "dynamic"}},
           {"t": 1.6, "set": {"body": "c0", "velocity": [0, 100], "type": "static"}},
           {"t": 2.0, "set": {"body": "gate", "type": "static"}}
         ]}
        """#

    @Test func typeChangesToStaticKinematicAndDynamicAgreeWithPymunkBitForBit() throws {
        var types: [String: Set<BodyType>] = [:]
        let tally = try Self.runAgainstPymunk(
            Self.typesText, file: "types.json", every: 5, label: "set type static, kinematic, dynamic"
        ) { world in
            for body in world.bodies { types[body.id, default: []].insert(body.type) }
        }
        // Every change happened (none skipped): each body took each type the timeline gives it.
        #expect(types["lid"] == [.dynamic, .static])
        #expect(types["wheel"] == [.dynamic, .kinematic])
        #expect(types["gate"] == [.static, .kinematic])
        #expect(types["c0"] == [.dynamic, .static])
        // 73 records of the bodies present at each (4 at start, up to 14): 788 bodies × 6 values.
        #expect(tally.compared == 4728)
        #expect(tally.identical == tally.compared, "\(tally)")
    }
}
