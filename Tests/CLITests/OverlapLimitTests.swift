import Foundation
import Testing

/// The mass-overlap limit (10 000 pairs of crates overlapping at t = 0) at its edge, a
/// thousand crates at one point refused fast in little memory, and the overlap and
/// angle warnings of `validate` and `run`, through the built binary.
@Suite struct OverlapLimitTests {
    /// 141 crates at one point (141·140/2 = 9 870 pairs) plus `pairs` columns of two
    /// crates at one point (one pair each), far apart from each other.
    static func scenario(extraPairs: Int) -> String {
        """
        {"format":"tiltbox-scenario/1","world":{"size":[20000,1000]},"duration":0.05,
         "grids":[{"idPrefix":"p","origin":[50,500],"columns":141,"rows":1,"spacing":[0,0]},
                  {"idPrefix":"q","origin":[200,500],"columns":\(extraPairs),"rows":2,"spacing":[100,0]}]}
        """
    }

    @Test func tenThousandOverlappingPairsRunWithAWarning() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("edge.json", Self.scenario(extraPairs: 130))
        let validate = try TiltboxBinary.run(["validate", path], in: directory)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(
            validate.stderr.contains("warning") && validate.stderr.contains("10000 pairs of crates overlap"),
            "\(validate.stderr)")
        // At the limit the run goes ahead: time and memory of its six steps.
        let run = try MeasuredRun.run(["run", path, "--view", "none"], in: directory)
        #expect(run.status == 0, "\(run.summary)")
        #expect(run.stderr.contains("10000 pairs of crates overlap"), "run warns too: \(run.summary)")
        #expect(run.peakMiB < MeasuredRun.bound(400), "\(run.summary)")
        #expect(run.seconds < ResourceBoundTests.hangGuard, "\(run.summary)")
    }

    @Test func tenThousandAndOneOverlappingPairsAreRefused() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("over.json", Self.scenario(extraPairs: 131))
        for command in [["validate", path], ["run", path, "--view", "none"]] {
            let result = try TiltboxBinary.run(command, in: directory)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(result.stderr)")
            #expect(
                result.stderr.hasPrefix(path + ":") && result.stderr.contains("grids: more than 10000 pairs"),
                "\(result.stderr)")
        }
    }

    @Test func aThousandCratesAtOnePointAreRefusedFastInLittleMemory() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "pile.json",
            """
            {"format":"tiltbox-scenario/1","world":{"size":[480,320]},
             "grids":[{"origin":[100,100],"columns":1000,"rows":1,"spacing":[0,0]}]}
            """)
        let run = try MeasuredRun.run(["run", path, "--view", "none"], in: directory)
        #expect(run.status == 2, "\(run.summary)")
        #expect(run.stderr.contains("more than 10000 pairs of crates overlap"), "\(run.summary)")
        // Today's main took 99.8 s of CPU and 527 MB for its first 12 steps.
        #expect(run.seconds < 10, "\(run.summary)")
        #expect(run.peakMiB < MeasuredRun.bound(100), "\(run.summary)")
    }

    @Test func tenThousandCratesAtOnePointAreRefusedFastInLittleMemory() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "pile.json",
            """
            {"format":"tiltbox-scenario/1","world":{"size":[480,320]},
             "grids":[{"origin":[100,100],"columns":100,"rows":100,"spacing":[0,0]}]}
            """)
        let run = try MeasuredRun.run(["validate", path], in: directory)
        #expect(run.status == 2, "\(run.summary)")
        #expect(run.seconds < 10, "\(run.summary)")
        #expect(run.peakMiB < MeasuredRun.bound(100), "\(run.summary)")
    }

    @Test func cratesTouchingEdgeToEdgeDoNotWarn() throws {
        let directory = try TemporaryDirectory()
        // A 10 × 10 grid of 32-unit crates 32 apart, resting on the floor wall's top (y = 1 + 16).
        let path = try directory.write(
            "stack.json",
            """
            {"format":"tiltbox-scenario/1","world":{"size":[480,400]},
             "grids":[{"origin":[100,17],"columns":10,"rows":10,"spacing":[32,32]}]}
            """)
        let result = try TiltboxBinary.run(["validate", path], in: directory)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        for scenario in PackageFiles.shippedScenarios {
            let shipped = try TiltboxBinary.run(["validate", scenario], in: directory)
            #expect(!shipped.stderr.contains("warning"), "\(scenario): \(shipped.stderr)")
        }
    }

    @Test func overlapsAndDegreeAnglesAreWarnedAboutButStillRun() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "odd.json",
            """
            {"format":"tiltbox-scenario/1","world":{"size":[480,320]},"duration":0.1,
             "crates":[{"id":"a","position":[100,100],"angle":90},{"id":"b","position":[110,100]},
                       {"id":"c","position":[5,200]},{"id":"d","position":[300,100],"angle":-6.3}]}
            """)
        for command in [["validate", path], ["run", path, "--view", "none"]] {
            let result = try TiltboxBinary.run(command, in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let warnings = result.stderrLines.filter { $0.hasPrefix("tiltbox: warning: \(path): ") }
            #expect(warnings.count == 3, "\(result.stderr)")
            #expect(result.stderr.contains(#"1 pair of crates overlap at t = 0: "a" and "b""#), "\(result.stderr)")
            #expect(result.stderr.contains(#""c" and the left wall"#), "\(result.stderr)")
            #expect(
                result.stderr.contains(#"crate "a" has angle 90"#) && result.stderr.contains("radians expected")
                    && result.stderr.contains("and 1 more"), "\(result.stderr)")
        }
    }
}
