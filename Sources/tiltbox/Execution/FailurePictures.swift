import Foundation
@_spi(Tools) import Tiltbox

/// `--pictures DIR` of `run` and `test`: for each failing expectation, an SVG film strip
/// around its failing step (`ExpectationPicture`), drawn from the states the run kept for it
/// (`ExpectationFrames`): no second run and no temporary trace.
///
/// SIGINT and SIGTERM are honoured before each picture and before it is put in place: the
/// command then exits with the interrupt status, and no picture is left half written.
enum FailurePictures {
    /// Writes one picture per failure into `folder` and returns their paths.
    static func write(
        _ failures: [ExpectationResult], plan: RunPlan, frames: ExpectationFrames, folder: String
    ) throws -> [String] {
        guard !failures.isEmpty, let trace = frames.trace() else { return [] }
        try TraceRendering.stopIfInterrupted()
        try PictureFolder.prepare(folder)
        let scene = try RenderScene(trace: trace, file: plan.label)
        var written: [String] = []
        for result in failures {
            guard let failure = result.failure, result.index < plan.scenario.expectations.count else { continue }
            let picture = ExpectationPicture(
                expectation: plan.scenario.expectations[result.index], failure: failure,
                worldSize: plan.scenario.world.size)
            let path = Self.path(folder: folder, label: plan.label, index: result.index)
            try TraceRendering.write(Array(picture.svg(scene: scene).utf8), to: path)
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
