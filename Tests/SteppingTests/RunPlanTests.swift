import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// `RunPlan`: a scenario loaded once (its bytes read once and hashed, one overlap census)
/// and the orientation/g rule (`TiltFrame`) in one place.
@Suite struct RunPlanTests {
    static func scenario(name: String, crates: String, tilt: String = "") -> String {
        #"{"format": "tiltbox-scenario/1", "name": "\#(name)", "world": {"size": [400, 400], "gravity": [0, -300]}, "#
            + #""duration": 0.5, "crates": [\#(crates)]\#(tilt)}"#
    }

    static func write(_ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltbox-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("plan.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The trace header records the hash of the bytes the run loaded, even when the file
    /// changes between the load and the run: the file is read once.
    @Test func theSourceRecordsTheHashOfTheBytesLoadedNotOfTheFileLater() throws {
        let first = Self.scenario(name: "first", crates: #"{"id": "a", "position": [100, 100]}"#)
        let path = try Self.write(first)
        let plan = try RunPlan.load(scenarioPath: path)
        try Data(Self.scenario(name: "second", crates: "").utf8).write(to: URL(fileURLWithPath: path))
        let source = plan.source(try plan.resolve())
        #expect(source.scenarioSHA256 == SHA256.hex(of: Array(first.utf8)))
        #expect(source.scenarioSHA256 != SHA256.hex(ofFileAt: path))
        #expect(plan.scenario.name == "first")
    }

    @Test func thePlansWarningsAreTheLoadersFromTheOneCensus() throws {
        let crates =
            #"{"id": "a", "position": [100, 100]}, {"id": "b", "position": [105, 100]}, {"id": "c", "position": [300, 300], "angle": 90}"#
        let plan = try RunPlan.load(scenarioPath: try Self.write(Self.scenario(name: "overlap", crates: crates)))
        #expect(plan.warnings.count == 2, "\(plan.warnings)")
        #expect(plan.warnings == ScenarioLoader.warnings(for: plan.scenario))
    }

    @Test func theBuiltInDefaultHasNoPathNoHashAndItsLabel() throws {
        let plan = try RunPlan.load(scenarioPath: nil)
        #expect(plan.scenarioPath == nil && plan.scenarioSHA256 == nil)
        #expect(plan.label == "built-in default (book)")
        #expect(plan.source(try plan.resolve()).scenarioSHA256 == nil)
    }

    @Test func theTiltFrameIsTheOptionElseTheScenariosElsePortraitAndTheLengthOfGravity() throws {
        let plain = try RunPlan.load(scenarioPath: try Self.write(Self.scenario(name: "plain", crates: "")))
        #expect(plain.tiltFrame == TiltFrame(orientation: .portrait, g: 300))
        #expect(
            TiltFrame.resolve(orientation: .landscapeLeft, g: 5, for: plain.scenario)
                == TiltFrame(orientation: .landscapeLeft, g: 5))
        let tilted = Self.scenario(
            name: "tilted", crates: "",
            tilt: #", "tilt": {"file": "t.csv", "orientation": "landscapeRight", "g": 50}"#)
        let scenario = try ScenarioLoader.parse(text: tilted, file: "tilted.json", baseDirectory: nil)
        #expect(
            TiltFrame.resolve(orientation: nil, g: nil, for: scenario) == TiltFrame(orientation: .landscapeRight, g: 50)
        )
        #expect(
            TiltFrame.resolve(orientation: .portraitUpsideDown, g: nil, for: scenario)
                == TiltFrame(orientation: .portraitUpsideDown, g: 50))
        #expect(TiltFrame.standalone(orientation: nil, g: nil) == TiltFrame(orientation: .portrait, g: 980))
    }
}
