import Foundation
@_spi(Tools) import Tiltbox

/// `--pictures DIR` of `run` and `test`: for each failing expectation, an SVG film strip
/// around its failing step (`ExpectationPicture`). The run is made again with a temporary
/// trace of every step (the same run: physics does not depend on what is recorded), drawn
/// and deleted.
enum FailurePictures {
    /// Writes one picture per failure into `folder` and returns their paths.
    static func write(
        _ failures: [ExpectationResult], plan: RunPlan, gravity: RunPlan.Resolved, options: RunOptions,
        folder: String
    ) throws -> [String] {
        guard !failures.isEmpty else { return [] }
        try PictureFolder.prepare(folder)
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tiltbox-pictures-\(getpid())-\(UUID().uuidString).jsonl"
        ).path
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        var again = options
        again.every = 1
        again.hashes = false
        again.realtime = false
        _ = try plan.runHeadless(gravity, options: again, tracePath: temporary, source: nil)
        let scene = try RenderScene(trace: try TraceReader.read(path: temporary, verifyDigest: false), file: temporary)
        var written: [String] = []
        for result in failures {
            guard let failure = result.failure, result.index < plan.scenario.expectations.count else { continue }
            let picture = ExpectationPicture(
                expectation: plan.scenario.expectations[result.index], failure: failure,
                worldSize: plan.scenario.world.size)
            let path = Self.path(folder: folder, label: plan.label, index: result.index)
            try OutputFile.write(Array(picture.svg(scene: scene).utf8), to: path)
            written.append(path)
        }
        return written
    }

    /// The picture of expectation `index` of the scenario `label` in `folder`
    /// (`DIR/Scenarios-crate-stack-expect2.svg`): what `run` and `test` check before anything runs.
    static func path(folder: String, label: String, index: Int) -> String {
        (folder.hasSuffix("/") ? folder : folder + "/") + "\(stem(label))-expect\(index).svg"
    }

    /// The file name part for a scenario: its path without `.json`, folders joined by `-`
    /// (`Scenarios/crate-stack.json` → `Scenarios-crate-stack`), so scenarios of different
    /// folders get different pictures.
    static func stem(_ label: String) -> String {
        var path = Substring(label)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        while path.hasPrefix("/") { path = path.dropFirst() }
        if path.hasSuffix(".json") { path = path.dropLast(5) }
        let parts = path.split(separator: "/").filter { $0 != "." && $0 != ".." }
        let joined = parts.joined(separator: "-")
        return joined.isEmpty
            ? "scenario"
            : String(joined.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
    }
}
