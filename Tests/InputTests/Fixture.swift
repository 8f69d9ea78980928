import Foundation
import Testing

/// Paths to the committed fixtures and scratch files for error cases.
enum Fixture {
    static let folder: String = {
        if let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) { return url.path }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
    }()

    static func path(_ name: String) -> String { folder + "/" + name }

    /// Writes `text` to a fresh file called `name` in a new temporary folder.
    static func scratch(_ name: String, _ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("tiltbox-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }
}

/// `|a − b| ≤ tolerance` on both components.
func close(_ a: Vec2Like, _ b: Vec2Like, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance
}

typealias Vec2Like = (Double, Double)
