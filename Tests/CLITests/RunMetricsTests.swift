import Foundation
import Testing

/// `run --summary-json` reports the run's physics metrics (kinetic energy, largest speed,
/// time to rest, bounding box, digest), checked on scenarios whose answer is known.
@Suite struct RunMetricsTests {
    /// Runs `scenario` headless and returns its summary's `metrics` object and digest.
    private func metrics(_ scenario: String, _ extra: [String] = []) throws -> (metrics: [String: Any], digest: String?)
    {
        let directory = try TemporaryDirectory()
        let path = try directory.write("s.json", scenario)
        let run = try TiltboxBinary.run(
            ["run", path, "--view", "none", "--quiet", "--summary-json", directory.path("summary.json")] + extra,
            in: directory)
        try #require(run.status == 0, "run: \(run.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.path("summary.json")))
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (
            try #require(summary["metrics"] as? [String: Any], "no metrics in \(summary)"), summary["digest"] as? String
        )
    }

    @Test func aFallingCrateHasSpeedGTimesTAndEnergyHalfMSpeedSquared() throws {
        // One 2-unit crate falling freely for 1 s under g = 100 in a world too tall to reach the floor.
        let (metrics, digest) = try metrics(
            #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [1000, 100000], "gravity": [0, -100]}, "duration": 1,
             "crates": [{"id": "a", "position": [500, 50000], "size": [10, 20], "mass": 2}]}
            """#)
        let g = 100.0, t = 1.0, m = 2.0
        let speed = try #require(metrics["maxSpeed"] as? Double)
        let energy = try #require(metrics["kineticEnergy"] as? Double)
        #expect(abs(speed - g * t) < 1e-9, "max speed \(speed) is g·t")
        #expect(abs(energy - 0.5 * m * (g * t) * (g * t)) < 1e-6, "kinetic energy \(energy) is ½m(gt)²")
        #expect(metrics["restTime"] is NSNull, "a crate still falling never rested")
        let bounds = try #require(metrics["bounds"] as? [Double])
        #expect(bounds.count == 4)
        #expect(bounds[0] == 495 && bounds[2] == 505, "x stays 500 ± 5: \(bounds)")
        #expect(abs(bounds[3] - bounds[1] - 20) < 1e-9, "the box is 20 tall: \(bounds)")
        let fallen = 50000 - (bounds[1] + bounds[3]) / 2
        #expect(abs(fallen - 0.5 * g * t * t) < 0.01 * 0.5 * g * t * t, "fell \(fallen), about ½gt²")
        #expect(metrics["digest"] as? String == digest)
    }

    @Test func aSpinningCrateCountsItsBoxMomentAndItsRotatedBounds() throws {
        // No gravity: a crate spinning at 2 rad/s keeps ½Iω² with I = m(w² + h²)/12.
        let (metrics, _) = try metrics(
            #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [400, 400], "gravity": [0, 0]}, "duration": 0.5,
             "crates": [{"id": "a", "position": [200, 200], "size": [30, 40], "mass": 3, "angularVelocity": 2}]}
            """#)
        let inertia = 3.0 * (30.0 * 30.0 + 40.0 * 40.0) / 12
        let energy = try #require(metrics["kineticEnergy"] as? Double)
        #expect(abs(energy - 0.5 * inertia * 4) < 1e-6, "kinetic energy \(energy) is ½Iω²")
        #expect(metrics["maxSpeed"] as? Double == 0)
        #expect(metrics["restTime"] as? Double == 0, "the centre never moved")
        // After 0.5 s at 2 rad/s the crate is turned 1 rad: its box is wider than 30.
        let bounds = try #require(metrics["bounds"] as? [Double])
        let c = cos(1.0), s = sin(1.0)
        #expect(abs((bounds[2] - bounds[0]) - (30 * c + 40 * s)) < 1e-6, "rotated width: \(bounds)")
        #expect(abs((bounds[3] - bounds[1]) - (30 * s + 40 * c)) < 1e-6, "rotated height: \(bounds)")
    }

    @Test func aCrateDroppedOnTheFloorComesToRestAtARecordedTime() throws {
        let (metrics, _) = try metrics(
            #"""
            {"format": "tiltbox-scenario/1", "world": {"size": [400, 400], "gravity": [0, -980]}, "duration": 3,
             "walls": {"box": true}, "crates": [{"id": "a", "position": [200, 100], "size": [30, 30], "elasticity": 0}]}
            """#)
        let rest = try #require(metrics["restTime"] as? Double, "the crate came to rest: \(metrics)")
        #expect(rest > 0.2 && rest < 3, "rest after the fall, before the end: \(rest)")
        #expect(try #require(metrics["maxSpeed"] as? Double) > 100)
        #expect(try #require(metrics["kineticEnergy"] as? Double) < 0.5 * 1 * 1)
    }
}
