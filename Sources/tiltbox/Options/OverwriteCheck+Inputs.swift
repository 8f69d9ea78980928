@_spi(Tools) import Tiltbox

extension OverwriteCheck {
    /// Notes what a run reads: the scenario file (none for the built-in default), every
    /// file its tilt input reads (the file, or an export folder and the recording chosen
    /// in it), and a `file:` frame profile's file.
    mutating func runInputs(
        scenarioPath: String?, scenario: Scenario, gravity: GravityInput, frames: FrameProfile? = nil
    ) {
        input(scenarioPath, as: "the scenario")
        if let tilt = gravity.path(for: scenario) {
            for file in TiltFile.inputFiles(path: tilt) { input(file, as: "the tilt input") }
        }
        if case .file(let path, _) = frames { input(path, as: "the frame file") }
    }
}

extension OverwriteCheck {
    /// Notes everything a batch job's child will read: the job's own files (golden or
    /// scenario, `tilt`), for a verify job the scenario and tilt input its golden's header
    /// names (resolved against the golden's folder; only the header line is read, through
    /// the trace reader's bounded line reader), and each scenario's own `tilt.file`.
    /// A file that cannot be read is passed over here: the job reports it when it runs.
    mutating func batchInputs(of job: BatchJob) {
        for input in job.inputs { self.input(input, as: "an input of job \(job.name)") }
        var scenarios: [String] = []
        switch job.kind {
        case .run(let scenario):
            scenarios.append(scenario)
        case .verify(let golden):
            guard let source = (try? TraceStream.header(path: golden))?.source else { break }
            if let scenario = source.scenario {
                let path = TraceHeader.Source.resolvedPath(scenario, forTrace: golden)
                scenarios.append(path)
                input(path, as: "the scenario of job \(job.name) (named by its golden's header)")
            }
            if let tilt = source.tilt {
                let path = TraceHeader.Source.resolvedPath(tilt, forTrace: golden)
                for file in TiltFile.inputFiles(path: path) {
                    input(file, as: "the tilt input of job \(job.name) (named by its golden's header)")
                }
            }
        }
        for scenario in scenarios {
            guard let tilt = (try? ScenarioLoader.load(path: scenario))?.tilt?.file else { continue }
            for file in TiltFile.inputFiles(path: tilt) {
                input(file, as: "the tilt file of job \(job.name)'s scenario")
            }
        }
    }
}

extension OutputFileError: OutputFailure {
    var message: String { description }
}
