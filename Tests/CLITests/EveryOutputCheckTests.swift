import Foundation
import Testing

/// The round-three output check (device and inode, `OverwriteCheck`) in the commands that lacked
/// it: `test --junit/--json/--pictures` and a live run's tilt CSV. One line, exit 2, before anything
/// runs, and the file named is left as it was.
@Suite struct EveryOutputCheckTests {
    /// A copy of the shipped crate stack (it has expectations) in `directory`.
    static func scenario(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("s.json")
        try FileManager.default.copyItem(atPath: PackageFiles.scenario("crate-stack.json"), toPath: path)
        return path
    }

    /// Before: `tiltbox test s.json --junit s.json` (and `--json`) replaced the scenario it
    /// tested with its results, exit 0.
    @Test(
        arguments: ["--junit", "--json"],
        [OverwriteRefusalTests.Alias.samePath, .hardLink])
    func testRefusesAResultFileThatIsTheScenarioItTests(_ option: String, _ alias: OverwriteRefusalTests.Alias)
        throws
    {
        let directory = try TemporaryDirectory()
        let scenario = try Self.scenario(directory)
        let output = try alias.name(for: scenario, in: directory)
        try OverwriteRefusalTests.expectRefused(
            ["test", scenario, option, output], option: option, protected: [scenario], in: directory)
    }

    /// Before: `--junit X --json X` wrote both into X, the second replacing the first.
    @Test func testRefusesTheSameFileForJUnitAndJSON() throws {
        let directory = try TemporaryDirectory()
        let scenario = try Self.scenario(directory)
        let results = directory.path("results")
        try OverwriteRefusalTests.expectRefused(
            ["test", scenario, "--junit", results, "--json", directory.url.path + "/./results"], option: "--json",
            protected: [scenario], in: directory)
        #expect(!FileManager.default.fileExists(atPath: results))
    }

    /// A picture `--pictures` would write is an output too: here it would be the tilt file of
    /// the scenario tested (`/tmp/d/s.json` → `tmp-d-s-expect0.svg` in the pictures' folder).
    @Test func testRefusesAPictureThatIsAnInput() throws {
        let directory = try TemporaryDirectory()
        let scenarioPath = directory.path("s.json")
        let pictureName =
            String(scenarioPath.dropFirst().dropLast(5)).replacingOccurrences(of: "/", with: "-")
            + "-expect0.svg"
        let tilt = try directory.write(pictureName, "t,x,y\n0,0,-1\n")
        try directory.write(
            "s.json",
            #"{"format": "tiltbox-scenario/1", "world": {"size": [100, 100]}, "duration": 0.1, "#
                + #""tilt": {"file": "\#(pictureName)"}, "crates": [{"id": "a", "position": [50, 50]}], "#
                + #""expect": [{"at": 0.1, "body": "a", "yAbove": 1000}]}"#)
        try OverwriteRefusalTests.expectRefused(
            ["test", scenarioPath, "--pictures", directory.url.path], option: "--pictures",
            protected: [tilt, scenarioPath], in: directory)
    }

    /// Before: a live run's default tilt CSV (`NAME-tilt.csv` beside `--trace NAME.jsonl`) and a
    /// `--summary-json` of that name were one file: the summary replaced the CSV while the run
    /// said it had written the tilt there.
    @Test func aLiveRunRefusesASummaryJSONNamedAsItsTiltCSV() throws {
        let directory = try TemporaryDirectory()
        let scenario = try Self.scenario(directory)
        try OverwriteRefusalTests.expectRefused(
            [
                "run", scenario, "--tilt", "-", "--realtime", "--duration", "0.1", "--trace",
                directory.path("r.jsonl"), "--summary-json", directory.path("r-tilt.csv"),
            ], option: "--summary-json", protected: [scenario], in: directory)
        #expect(!FileManager.default.fileExists(atPath: directory.path("r-tilt.csv")))
        #expect(!FileManager.default.fileExists(atPath: directory.path("r.jsonl")))
    }
}
