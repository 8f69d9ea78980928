import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// `render --svg` and `--html` of a trace with event lines (docs/formats.md §8) draw each body
/// from its spawn to its removal and each joint from its addition to its removal.
@Suite struct TimelineRenderTests {
    static let text = #"""
        {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "timestep": {"hz": 10}, "duration": 1,
         "crates": [{"id": "c", "position": [100, 100]}],
         "timeline": [
           {"t": 0, "every": 0.2, "count": 3,
            "spawn": {"id": "ball", "position": [240, 300], "shapes": [{"circle": {"radius": 8}, "mass": 1}]}},
           {"t": 0.3, "joint": {"id": "p", "pivot": {"a": "ball#0", "b": "static", "anchor": [240, 300]}}},
           {"t": 0.5, "removeJoint": "p"},
           {"t": 0.6, "remove": ["ball#0", "c"]}
         ]}
        """#

    /// The scene of a run of `text`, read back from its trace (11 records, one per step).
    static func scene() throws -> RenderScene {
        let scenario = try ScenarioLoader.parse(text: text, file: "t.json", baseDirectory: nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tiltbox-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.jsonl").path
        let session = try RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity),
            trace: RunSession.TraceOutput(path: path))
        while session.outcome == nil { try session.advance(frameDuration: 0.25) }
        _ = try session.finish()
        return try RenderScene(trace: TraceReader.read(path: path), file: "t.jsonl")
    }

    @Test func aFilmStripDrawsEachBodyFromItsSpawnToItsRemoval() throws {
        let scene = try Self.scene()
        #expect(scene.bodies == ["c", "ball#0", "ball#1", "ball#2"])
        let svg = FilmStrip(columns: 5).svg(scene: scene, recordIndices: [0, 3, 4, 6, 10])
        let panels = svg.components(separatedBy: "<g class=\"panel\"").dropFirst()
        #expect(panels.count == 5)
        func ids(_ panel: String) -> [String] {
            panel.components(separatedBy: "data-id=\"").dropFirst().compactMap { $0.split(separator: "\"").first }
                .map(String.init).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        }
        let drawn = panels.map(ids)
        #expect(drawn[0] == ["c", "ball#0"])
        #expect(drawn[1] == ["c", "ball#0", "ball#1"])
        #expect(drawn[2] == ["c", "ball#0", "ball#1", "ball#2"])
        #expect(drawn[3] == ["ball#1", "ball#2"])
        #expect(drawn[4] == ["ball#1", "ball#2"])
        // The pivot, added at step 3 and removed at step 5, is drawn at steps 3 and 4 only.
        #expect(panels.map { $0.contains("class=\"joint\"") } == [false, true, true, false, false])
    }

    @Test func theHTMLPlayerLeavesBodiesOutOfTheFramesTheyAreAbsentFrom() throws {
        let scene = try Self.scene()
        let player = HTMLPlayer()
        let data = String(
            decoding: player.dataJSON(scene: scene, decimation: player.decimation(for: scene)), as: UTF8.self)
        #expect(data.contains("\"s\":[[100,100,0,240,300,0,null,null,null,null,null,null]"))
        #expect(data.contains("\"jointFrames\":[[3,4]]"))
        // Frame 6 on: c and ball#0 removed.
        let frames = data.components(separatedBy: "\n[")
        #expect(frames.count == 11)
        #expect(frames[6].hasPrefix("null,null,null,null,null,null,"))
    }
}
