import Foundation
import Testing

/// Issue 23's reproducers, through the built binary: what a scenario says can no longer make
/// Debian's debug Chipmunk abort (134), crash (139) or hang. Each is refused before the run
/// (exit 2, one located line, `validate` and `run` alike), stopped during it (exit 1, naming
/// the step, the time and the body), or runs as Chipmunk means it to.
@Suite struct EngineLimitTests {
    static func scenario(_ body: String) -> String { #"{"format": "tiltbox-scenario/1", \#(body)}"# }

    /// `validate` and `run` both exit 2 with one line naming the file, `path` and `says`.
    static func expectRefused(
        _ text: String, path: String, says: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("s.json", text)
        for command in [["validate", file], ["run", file, "--view", "none"]] {
            let result = try TiltboxBinary.run(command, in: directory)
            #expect(
                result.status == 2, "\(command[0]): \(result.status) \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderrLines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
            #expect(
                result.stderr.hasPrefix(file + ":") && result.stderr.contains(": \(path): ")
                    && result.stderr.contains(says), "\(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test func aKinematicBodyWithSleepTimeThresholdZeroIsRefusedInsteadOfAborting() throws {
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.scenario("moving-platform.json")
        let result = try TiltboxBinary.run(
            ["run", scenario, "--set", "world.sleepTimeThreshold=0", "--view", "none"],
            in: directory)
        #expect(result.status == 2, "\(result.status) \(result.stderr)")
        #expect(
            result.stderrLines == [
                "--set world.sleepTimeThreshold=0: world.sleepTimeThreshold: 0 cannot be used "
                    + "with a kinematic body (\"platform\"): Chipmunk 7.0.3 would try to put the kinematic body to sleep once "
                    + "it touches a dynamic one and abort (\"Attempting to deactivate a non-dynamic body\"); use a threshold "
                    + "above 0"
            ], "\(result.stderr)")
        // The smallest positive threshold runs to the end. Its crates fall asleep at once and stay
        // where they start, so the platform does not carry them: the scenario's expectations say so
        // (exit 1 after a complete run).
        let positive = try TiltboxBinary.run(
            ["run", scenario, "--set", "world.sleepTimeThreshold=5e-324", "--view", "none"],
            in: directory)
        #expect(positive.status == 1, "\(positive.status) \(positive.stderr)")
        #expect(positive.stdout.contains("outcome:        complete"), "\(positive.stdout)")
        #expect(positive.stdout.contains("expect[2] (\"carried to the far end\")"), "\(positive.stdout)")
        // The generated scene the fuzzer found: a crate inside a kinematic circle, in the file itself.
        try Self.expectRefused(
            Self.scenario(
                #"""
                "world": {"size": [480, 320], "sleepTimeThreshold": 0}, "walls": {"box": false},
                "crates": [{"id": "c", "position": [240, 240], "size": [30, 30]}],
                "bodies": [{"id": "k", "type": "kinematic", "position": [240, 160], "shapes": [{"circle": {"radius": 1000}}]}]
                """#), path: "world.sleepTimeThreshold", says: "0 cannot be used with a kinematic body (\"k\")")
    }

    @Test func aBodyOfNearZeroMassIsRefused() throws {
        let text = Self.scenario(
            #"""
            "world": {"size": [100, 100]}, "duration": 1,
            "bodies": [{"id": "tiny", "position": [50, 50],
              "shapes": [{"segment": {"from": [0, 0], "to": [1, 0], "radius": 1e-300}, "density": 1}]}],
            "joints": [{"pivot": {"a": "tiny", "b": "static", "anchor": [50, 50]}}]
            """#)
        try Self.expectRefused(text, path: "bodies[0].shapes", says: "would have a mass of 2e-300")
    }

    @Test func aRotarySpringStifferThanTheStepCanIntegrateIsRefused() throws {
        let text = Self.scenario(
            #"""
            "world": {"size": [100, 100]}, "duration": 1,
            "crates": [{"id": "c", "position": [50, 50], "size": [2, 2], "angularVelocity": 1}],
            "joints": [{"dampedRotarySpring": {"a": "c", "b": "static", "restAngle": 0, "stiffness": 1e15, "damping": 0}}]
            """#)
        try Self.expectRefused(text, path: "joints[0].dampedRotarySpring.stiffness", says: "at most 38400")
    }

    @Test func aBodyWhoseMassSitsInAPointFarFromItsShapesIsRefused() throws {
        let text = Self.scenario(
            #"""
            "world": {"size": [100, 100]}, "duration": 1,
            "bodies": [{"id": "whip", "position": [50, 50], "shapes": [
              {"circle": {"radius": 0.001}, "mass": 1},
              {"segment": {"from": [0, 0], "to": [40, 0], "radius": 0}}]}]
            """#)
        try Self.expectRefused(text, path: "bodies[0].shapes", says: "too small a moment of inertia")
    }

    @Test func aCollisionPersistenceOfTenThousandIsRefused() throws {
        let text = Self.scenario(#""world": {"size": [100, 100], "collisionPersistence": 10000}"#)
        try Self.expectRefused(text, path: "world.collisionPersistence", says: "must be ≤ 1000")
    }

    @Test func persistenceTimesTwoThousandRestingCratesIsBoundedAndTheLimitRunsInBoundedMemory() throws {
        func pile(_ persistence: Int) -> String {
            Self.scenario(
                """
                "world": {"size": [2100, 2100], "collisionPersistence": \(persistence)}, "duration": 3,
                "grids": [{"origin": [21, 21], "columns": 40, "rows": 50, "spacing": [41, 41], "crate": {"size": [40, 40]}}]
                """)
        }
        try Self.expectRefused(
            pile(501), path: "world.collisionPersistence", says: "at most 500 with 2000 dynamic shapes")
        // At the limit, 2 000 crates settle for 3 s (360 steps, most of the ring) in bounded memory.
        let directory = try TemporaryDirectory()
        let file = try directory.write("pile.json", pile(500))
        let run = try MeasuredRun.run(["run", file, "--view", "none"], in: directory)
        #expect(run.status == 0, "\(run.summary)")
        #expect(run.peakMiB < MeasuredRun.bound(400), "\(run.summary)")
    }

    @Test func aCrateFallingOutOfTheSpatialHashsRangeStopsTheRunBeforeChipmunkHangs() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "hash.json",
            Self.scenario(
                #"""
                "world": {"size": [100, 100], "gravity": [-1e6, 0], "spatialIndex": {"hash": {"cellSize": 1, "count": 100}}},
                "walls": {"box": false}, "duration": 100,
                "crates": [{"id": "c", "position": [50, 50], "size": [2, 2]}]
                """#))
        let trace = directory.path("hash.jsonl")
        let run = try MeasuredRun.run(["run", file, "--view", "none", "--trace", trace], in: directory)
        #expect(run.status == 1, "\(run.summary)")
        #expect(run.seconds < ResourceBoundTests.hangGuard, "\(run.summary)")
        #expect(
            run.stderr.contains("simulation failed at step 5561 (t = 46.342 s): crate 'c' x = -1073581894.4444323")
                && run.stderr.contains("spatial hash"), "\(run.summary)")
        let end = try #require(JSONLines.objects(try JSONLines.text(file: trace), source: trace).last)
        #expect(end["end"] as? String == "error", "\(end)")
    }

    @Test func aStaticSegmentBeyondTheSpatialHashsRangeIsRefused() throws {
        let text = Self.scenario(
            #"""
            "world": {"size": [100, 100], "spatialIndex": {"hash": {"cellSize": 0.001, "count": 100}}},
            "walls": {"box": false}, "segments": [{"from": [-1e7, 0], "to": [-1e7, 0.01], "radius": 0}], "duration": 1
            """#)
        try Self.expectRefused(text, path: "world.spatialIndex.hash.cellSize", says: "beyond 2^30 cells")
    }

    @Test func chipmunksWarningsArePrintedOnceSummarised() throws {
        // Four 200-gons overlapping deeply: Chipmunk warns "High EPA iterations" 8 times.
        var vertices: [String] = []
        for i in 0..<200 {
            let a = 2 * Double.pi * Double(i) / 200
            vertices.append("[\((40 * cos(a) * 1e6).rounded() / 1e6), \((40 * sin(a) * 1e6).rounded() / 1e6)]")
        }
        let polygon = #"{"polygon": {"vertices": [\#(vertices.joined(separator: ", "))]}, "density": 1}"#
        let bodies = (0..<4).map { k in
            #"{"id": "p\#(k)", "position": [\#(200 + 3 * k), \#(200 + 2 * k)], "shapes": [\#(polygon)]}"#
        }
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "epa.json",
            Self.scenario(
                #"""
                "world": {"size": [400, 400]}, "duration": 1, "bodies": [\#(bodies.joined(separator: ", "))]
                """#))
        let result = try TiltboxBinary.run(["run", file, "--view", "none"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            !result.stderrLines.contains { $0.hasPrefix("Chipmunk warning") || $0.hasPrefix("\t") }, "\(result.stderr)")
        let notes = result.stderrLines.filter { $0.contains("Chipmunk printed") }
        #expect(
            notes == [
                "tiltbox: note: Chipmunk printed 8 diagnostic messages; the first during step 1: "
                    + "Chipmunk warning: High EPA iterations: 26; Failed condition: iteration < WARN_EPA_ITERATIONS; "
                    + "Source:./src/cpCollision.c:329"
            ], "\(result.stderr)")
    }

    @Test func validatePrintsNoRawChipmunkWarningsFromTheLoadersOverlapChecks() throws {
        // An emitter of 200-gons into its last body: the loader's `cpShapesCollide` warns "High EPA iterations".
        var vertices: [String] = []
        for i in 0..<200 {
            let a = 2 * Double.pi * Double(i) / 200
            vertices.append("[\((40 * cos(a) * 1e6).rounded() / 1e6), \((40 * sin(a) * 1e6).rounded() / 1e6)]")
        }
        let body =
            #"{"id": "p", "position": [200, 200], "velocity": [30, 20], "shapes": [{"polygon": {"vertices": ["#
            + vertices.joined(separator: ", ") + #"]}, "density": 1}]}"#
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "epa.json",
            Self.scenario(
                #""world": {"size": [400, 400]}, "duration": 1, "timeline": [{"t": 0, "every": 0.01, "count": 3, "spawn": "#
                    + body + "}]"))
        let result = try TiltboxBinary.run(["validate", file], in: directory)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("timeline[0].spawn: the emitter spawns"), "\(result.stderr)")
    }
}
