import Testing

@_spi(Tools) @testable import Tiltbox

/// An emitter cannot spawn into the body it spawned just before (docs/formats.md §8): when
/// two consecutive repetitions are due at the same step or at consecutive steps, the new body
/// at its spawn pose must not overlap the previous one where its spawn velocity has carried it.
@Suite struct EmitterOverlapTests {
    /// A 120 Hz scenario (dt = 1/120) whose timeline (line 9) is one emitter of `count` bodies
    /// of `shapes` at (240, 200) with `velocity`, starting at `t` and `every` apart, after `before`.
    static func text(
        shapes: String = #"[{"circle": {"radius": 8}, "mass": 1}]"#, velocity: String = "[0, 0]", t: String = "0",
        every: String, count: Int = 2, type: String = "dynamic", before: String = ""
    ) -> String {
        TimelineLoaderTests.text(
            #"[\#(before){"t": \#(t), "every": \#(every), "count": \#(count), "spawn": {"id": "ball", "type": "\#(type)", "position": [240, 200], "velocity": \#(velocity), "shapes": \#(shapes)}}]"#
        )
    }

    static let box = #"[{"box": {"size": [20, 20]}, "mass": 1}]"#

    @Test func twoRepetitionsDueAtTheSameStepOverlapEntirely() {
        // t = 0.002 and 0.003 are both due at step 1 (0.24 and 0.36 steps, rounded up).
        let error = loadError(Self.text(t: "0.002", every: "0.001"))
        #expect(
            error?.description
                == #"Scenarios/test.json:9:53: timeline[0].spawn: the emitter spawns "ball#1" into "ball#0" spawned at the same step (they overlap by 16 px): space the spawns out (every) or give them a velocity that clears them"#
        )
    }

    @Test func aBodyDueTheNextStepMayNotOverlapWhereThePreviousOneMoved() {
        // 600 px/s for one step of 1/120 s: 5 px, so two circles of radius 8 still overlap by 11.
        let error = loadError(Self.text(velocity: "[600, 0]", every: "0.008"))
        #expect(
            error?.description
                == #"Scenarios/test.json:9:49: timeline[0].spawn: the emitter spawns "ball#1" into "ball#0" spawned the step before (they overlap by 11 px): space the spawns out (every) or give them a velocity that clears them"#
        )
        // The third of three, at rest: every 0.01 is due at steps 0, 2 and 3 (1.2 and 2.4 rounded
        // up), so only "ball#2" comes the step after the one before it.
        let third = loadError(Self.text(every: "0.01", count: 3))
        #expect(third?.path == "timeline[0].spawn")
        #expect(third?.reason.hasPrefix(#"the emitter spawns "ball#2" into "ball#1" spawned the step before"#) == true)
    }

    @Test func aVelocityThatClearsThePreviousBodyOrTwoStepsApartIsAccepted() throws {
        // every 0.008 is due at steps 0, 1, …, 24 (k · 0.96 rounded up) for k < 25.
        let cleared = try loadScenario(Self.text(velocity: "[2400, 0]", every: "0.008", count: 25))
        #expect(cleared.timeline.entries[0].count == 25)
        // The 26th is due at step 24 with the 25th: the same pose, however fast they go.
        let sameStep = loadError(Self.text(velocity: "[2400, 0]", every: "0.008", count: 26))
        #expect(
            sameStep?.reason.hasPrefix(#"the emitter spawns "ball#25" into "ball#24" spawned at the same step"#)
                == true,
            "\(String(describing: sameStep))")
        // Two steps apart (0 and 2) is not checked: the bodies have had a step to move apart.
        #expect(loadError(Self.text(every: "0.01", count: 2)) == nil)
        // Boxes 10 px wide carried exactly 10 px (1200 px/s): touching is not overlapping.
        #expect(
            loadError(
                Self.text(shapes: #"[{"box": {"size": [10, 10]}, "mass": 1}]"#, velocity: "[1200, 0]", every: "0.008"))
                == nil)
    }

    @Test func boxesAreCheckedWithTheirOwnShape() {
        // Boxes 20 × 20 falling 600 px/s: 5 px apart after one step, so they overlap by 15.
        let error = loadError(Self.text(shapes: Self.box, velocity: "[0, -600]", every: "0.008"))
        #expect(error?.path == "timeline[0].spawn")
        #expect(
            error?.reason
                == #"the emitter spawns "ball#1" into "ball#0" spawned the step before (they overlap by 15 px): space the spawns out (every) or give them a velocity that clears them"#
        )
    }

    @Test func shapePairsChipmunkNeverPushesApartAreNotCounted() throws {
        // The same overlapping emitter, its shapes in one group, sensors, or masked from each other.
        for keys in [#""filter": {"group": 3}"#, #""sensor": true"#, #""filter": {"categories": 1, "mask": 2}"#] {
            let shapes = #"[{"circle": {"radius": 8}, "mass": 1, \#(keys)}]"#
            #expect(loadError(Self.text(shapes: shapes, every: "0.008")) == nil, "\(keys)")
            #expect(loadError(Self.text(shapes: shapes, t: "0.002", every: "0.001")) == nil, "\(keys)")
        }
        // A box and a sensor circle on one body: the boxes still collide, and overlap.
        let mixed = #"[{"circle": {"radius": 30}, "mass": 1, "sensor": true}, {"box": {"size": [20, 20]}, "mass": 1}]"#
        #expect(loadError(Self.text(shapes: mixed, every: "0.008"))?.path == "timeline[0].spawn")
    }

    @Test func aPreviousBodyAlreadyRemovedOrAStaticEmitterIsNotChecked() throws {
        // "ball#0" removed at step 1 before "ball#1" is spawned there (file order).
        _ = try loadScenario(Self.text(every: "0.008", before: #"{"t": 0.008, "remove": "ball#0"}, "#))
        // Static bodies are never pushed apart: a static emitter may stack its bodies.
        _ = try loadScenario(Self.text(shapes: #"[{"circle": {"radius": 8}}]"#, every: "0.008", type: "static"))
    }
}
