import Foundation
import Testing

/// `scripts/check-layers.py`, which `make lint` (part of `make test`) runs: the library's
/// folders are layers, and no folder may use a type declared in a folder above it.
@Suite struct LayerCheckTests {
    private static let script = PackageFiles.root.appendingPathComponent("scripts/check-layers.py").path

    private static func check(_ sources: String) throws -> TiltboxBinary.Result {
        let python = try ExternalCommand.executable("python3", package: "python3")
        return try ExternalCommand.run(python, [script, sources], timeout: Patience.generous)
    }

    /// Writes `files` (path relative to a scratch Sources folder → text) and returns that folder.
    private static func sources(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tiltbox-layers-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    @Test func theLibraryAsShippedHasNoFolderUsingOneAboveIt() throws {
        let result = try Self.check(PackageFiles.root.appendingPathComponent("Sources/Tiltbox").path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func anEngineFileNamingARunTypeIsReportedWithBothFolders() throws {
        let root = try Self.sources([
            "Engine/World.swift": "final class World {\n    var plan: RunPlan?\n}\n",
            "Run/RunPlan.swift": "/// Uses World, which is below.\nstruct RunPlan {\n    var world: World\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.check(root.path)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("Engine/World.swift: Engine/ uses RunPlan, declared in Run/ above it"),
            "\(result.stdout)")
        #expect(!result.stdout.contains("Run/RunPlan.swift"), "a use of a lower folder is allowed: \(result.stdout)")
    }

    @Test func aTypeNamedOnlyInACommentOrAStringIsNotAUse() throws {
        let root = try Self.sources([
            "Engine/World.swift": "/// Not a RunPlan.\nfinal class World {\n    let name = \"RunPlan\"\n}\n",
            "Run/RunPlan.swift": "struct RunPlan {}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.check(root.path).status == 0)
    }

    @Test func chipmunkImportedOutsideTheEngineIsReported() throws {
        let root = try Self.sources(["Trace/Writer.swift": "internal import CChipmunk\nstruct Writer {}\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.check(root.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("Trace/Writer.swift: imports CChipmunk outside Engine/"), "\(result.stdout)")
    }

    @Test func aFolderThatIsNoLayerIsReported() throws {
        let root = try Self.sources(["Misc/Thing.swift": "struct Thing {}\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try Self.check(root.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("folder 'Misc' is not a layer"), "\(result.stdout)")
    }
}
