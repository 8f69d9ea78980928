import Foundation
import Testing

/// An output path that is the same file as an input (scenario, tilt input, trace, frame
/// file), by any name — the path itself, a hard link, a symbolic link — or as another
/// output of the same command is refused with exit 2 before anything is written.
@Suite struct OverwriteRefusalTests {
    /// How the output names the input.
    enum Alias: String, CaseIterable, Sendable {
        case samePath, dotSlash, hardLink, symbolicLink

        /// A path naming the file at `path` (made in `directory` when a link is needed).
        func name(for path: String, in directory: TemporaryDirectory) throws -> String {
            switch self {
            case .samePath: return path
            case .dotSlash:
                let url = URL(fileURLWithPath: path)
                return url.deletingLastPathComponent().path + "/./" + url.lastPathComponent
            case .hardLink:
                let link = directory.path("hard-\(UUID().uuidString)")
                try FileManager.default.linkItem(atPath: path, toPath: link)
                return link
            case .symbolicLink:
                let link = directory.path("soft-\(UUID().uuidString)")
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
                return link
            }
        }
    }

    /// Copies a shipped scenario (and its tilt folder) into `directory`.
    static func copyScenarios(_ directory: TemporaryDirectory) throws -> URL {
        let folder = directory.url.appendingPathComponent("Scenarios")
        try FileManager.default.copyItem(at: PackageFiles.root.appendingPathComponent("Scenarios"), to: folder)
        return folder
    }

    /// Runs `arguments` and checks the refusal: status 2, one line naming the output
    /// option, and `protected` byte for byte as before.
    static func expectRefused(
        _ arguments: [String], option: String, protected: [String], in directory: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try protected.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let run = try TiltboxBinary.run(arguments, in: directory)
        #expect(run.status == 2, "status \(run.status): \(run.stderr)", sourceLocation: sourceLocation)
        #expect(
            run.stderrLines.count == 1 && run.stderr.contains(option) && run.stderr.contains("same file"),
            "one line naming \(option): \(run.stderr)", sourceLocation: sourceLocation)
        #expect(!run.stderr.contains("Usage"), sourceLocation: sourceLocation)
        for (path, data) in zip(protected, before) {
            #expect(
                (try? Data(contentsOf: URL(fileURLWithPath: path))) == data, "\(path) changed",
                sourceLocation: sourceLocation)
        }
        let leftovers = (try FileManager.default.subpathsOfDirectory(atPath: directory.url.path)).filter {
            $0.contains(".tiltbox-")
        }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)", sourceLocation: sourceLocation)
    }

    @Test(arguments: Alias.allCases)
    func runRefusesATraceThatIsItsScenario(_ alias: Alias) throws {
        let directory = try TemporaryDirectory()
        let scenario = try copyScenariosAndPick(directory, "crate-stack.json")
        let output = try alias.name(for: scenario, in: directory)
        try Self.expectRefused(
            ["run", scenario, "--trace", output, "--view", "none"], option: "--trace",
            protected: [scenario], in: directory)
    }

    @Test(arguments: Alias.allCases)
    func runRefusesAnHTMLPageThatIsTheScenariosTiltFile(_ alias: Alias) throws {
        let directory = try TemporaryDirectory()
        let scenario = try copyScenariosAndPick(directory, "rocking.json")
        let tilt = directory.url.appendingPathComponent("Scenarios/tilt/rock.json").path
        let output = try alias.name(for: tilt, in: directory)
        try Self.expectRefused(
            ["run", scenario, "--html", output, "--view", "none"], option: "--html",
            protected: [tilt, scenario], in: directory)
    }

    @Test func runRefusesATraceThatIsTheTiltFileGiven() throws {
        let directory = try TemporaryDirectory()
        let scenario = try copyScenariosAndPick(directory, "crate-stack.json")
        let tilt = directory.url.appendingPathComponent("Scenarios/tilt/book-landscape.csv").path
        try Self.expectRefused(
            ["run", scenario, "--tilt", tilt, "--trace", tilt, "--view", "none"], option: "--trace",
            protected: [tilt], in: directory)
    }

    @Test func runRefusesATraceThatIsTheRecordingInsideATiltFolder() throws {
        let directory = try TemporaryDirectory()
        let export = directory.url.appendingPathComponent("export")
        try FileManager.default.createDirectory(at: export, withIntermediateDirectories: true)
        let gravity = try directory.write(
            "export/Gravity.csv", "time,seconds_elapsed,z,y,x\n0,0,0,-9.8,0\n1,1,0,-9.8,0.5\n")
        try directory.write("export/Metadata.csv", "platform\nios\n")
        try Self.expectRefused(
            [
                "run", PackageFiles.scenario("crate-stack.json"), "--tilt", export.path, "--trace", gravity,
                "--view", "none",
            ], option: "--trace", protected: [gravity], in: directory)
    }

    @Test func runRefusesATraceThatIsItsFrameFile() throws {
        let directory = try TemporaryDirectory()
        let frames = try directory.write("frames.txt", "0.016\n0.017\n")
        try Self.expectRefused(
            [
                "run", PackageFiles.scenario("crate-stack.json"), "--frames", "file:\(frames)", "--trace", frames,
                "--view", "none",
            ], option: "--trace", protected: [frames], in: directory)
    }

    @Test func runRefusesATraceAndAPageInOneFile() throws {
        let directory = try TemporaryDirectory()
        // Not there yet, named two ways: still one file.
        let output = directory.path("out.jsonl")
        try Self.expectRefused(
            [
                "run", PackageFiles.scenario("crate-stack.json"), "--trace", output,
                "--html", directory.url.path + "/./out.jsonl", "--view", "none",
            ],
            option: "--html", protected: [], in: directory)
        #expect(!FileManager.default.fileExists(atPath: output), "nothing was written")
    }

    @Test(arguments: Alias.allCases)
    func renderRefusesAnSVGThatIsItsTrace(_ alias: Alias) throws {
        let directory = try TemporaryDirectory()
        let trace = try OutputFailureTests.trace(directory)
        let output = try alias.name(for: trace, in: directory)
        try Self.expectRefused(["render", trace, "--svg", output], option: "--svg", protected: [trace], in: directory)
        try Self.expectRefused(
            ["render", trace, "--html", output], option: "--html", protected: [trace], in: directory)
    }

    @Test func renderRefusesAnSVGAndAPageInOneFile() throws {
        let directory = try TemporaryDirectory()
        let trace = try OutputFailureTests.trace(directory)
        let existing = try directory.write("picture", "keep me")
        try Self.expectRefused(
            ["render", trace, "--svg", existing, "--html", existing], option: "--html",
            protected: [existing, trace], in: directory)
    }

    @Test func recordRefusesATiltOutputThatIsItsScenario() throws {
        let directory = try TemporaryDirectory()
        let scenario = try copyScenariosAndPick(directory, "crate-stack.json")
        try Self.expectRefused(
            ["record", scenario, "--out", scenario], option: "--out", protected: [scenario], in: directory)
        try Self.expectRefused(
            ["record", scenario, "--out", directory.path("t.csv"), "--trace", directory.path("t.csv")],
            option: "--trace", protected: [scenario], in: directory)
    }

    @Test func devicesAreNotOutputsToProtect() throws {
        // /dev/null for both outputs is not "one file written twice": nothing is kept there.
        let directory = try TemporaryDirectory()
        let trace = try OutputFailureTests.trace(directory)
        let run = try TiltboxBinary.run(["render", trace, "--svg", "/dev/null", "--html", "/dev/null"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
    }

    private func copyScenariosAndPick(_ directory: TemporaryDirectory, _ name: String) throws -> String {
        try Self.copyScenarios(directory).appendingPathComponent(name).path
    }
}
