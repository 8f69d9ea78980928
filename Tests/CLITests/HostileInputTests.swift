import Foundation
import Testing

/// Hostile or broken inputs through the built binary: huge files refused by their size
/// before they are read, huge grids refused before they are expanded, a full disk
/// reported rather than crashed on.
@Suite struct HostileInputTests {
    /// Makes a sparse file of `bytes` (no disk space used) whose first bytes are `head`.
    static func sparseFile(_ directory: TemporaryDirectory, _ name: String, bytes: Int, head: String) throws -> String {
        let path = try directory.write(name, head)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(bytes))
        try handle.close()
        return path
    }

    static let gigabyte = 1 << 30

    @Test func oneGigabyteScenarioIsRefusedByItsSize() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.sparseFile(
            directory, "huge.json", bytes: Self.gigabyte, head: #"{"format":"tiltbox-scenario/1","#)
        let run = try MeasuredRun.run(["validate", path], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("16777216"), "names the 16 MiB limit: \(run.stderr)")
        // Refused from the file's size, not by reading a gigabyte: the process never holds
        // more than a small part of it (measured by its peak memory, not the clock).
        #expect(run.peakMiB < MeasuredRun.bound(200), "\(run.summary)")
    }

    @Test func oneGigabyteTiltFileIsRefusedByItsSize() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.sparseFile(directory, "huge.csv", bytes: Self.gigabyte, head: "t,x,y\n0,0,-1\n")
        let run = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("free-fall.json"), "--tilt", path], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(path) && run.stderr.contains("67108864"), "\(run.stderr)")
    }

    @Test func oneGigabyteFrameFileIsRefusedByItsSize() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.sparseFile(directory, "frames.txt", bytes: Self.gigabyte, head: "0.016\n")
        let run = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("free-fall.json"), "--frames", "file:\(path)"], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("67108864"), "\(run.stderr)")
    }

    @Test func aBillionCrateGridIsRefusedBeforeItIsExpanded() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "grid.json",
            """
            {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]},
             "grids": [{"origin": [10, 10], "columns": 100000, "rows": 10000, "spacing": [0.001, 0.001]}]}
            """)
        let run = try TiltboxBinary.run(["run", path], in: directory)
        #expect(run.status == 2)
        #expect(
            run.stderr.contains("grids[0]") && run.stderr.contains("100000"),
            "names the grid and the crate cap: \(run.stderr)")
    }

    @Test(arguments: [
        ("steady:1e9", "HZ"), ("jitter:1e300:1", "HZ"), ("stall:60:1:1e300", "SECONDS"), ("stall:60:-1:0.5", "AT"),
    ])
    func absurdFrameProfilesAreRefused(profile: String, field: String) throws {
        let directory = try TemporaryDirectory()
        let run = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("free-fall.json"), "--frames", profile], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains(field), "\(run.stderr)")
    }

    @Test func aFullDiskEndsTheRunWithExitOneAndAClearMessage() throws {
        let directory = try TemporaryDirectory()
        let run = try TiltboxBinary.run(
            ["run", PackageFiles.scenario("pile-100.json"), "--trace", "/dev/full"], in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains("/dev/full") && run.stderr.contains("No space left on device"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one message: \(run.stderr)")
        // The device itself is still the device: no temporary file was renamed over it.
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }
}
