@_spi(Tools) import Tiltbox

extension OverwriteCheck {
    /// Notes what a run reads: the scenario file (none for the built-in default), every
    /// file its tilt input reads (the file, or an export folder and the recording chosen
    /// in it), and a `file:` frame profile's file.
    mutating func runInputs(scenarioPath: String?, scenario: Scenario, gravity: GravityInput, frames: FrameProfile? = nil) {
        input(scenarioPath, as: "the scenario")
        if let tilt = gravity.path(for: scenario) {
            for file in TiltFile.inputFiles(path: tilt) { input(file, as: "the tilt input") }
        }
        if case .file(let path, _) = frames { input(path, as: "the frame file") }
    }
}

extension OutputFileError: OutputFailure {
    var message: String { description }
}
