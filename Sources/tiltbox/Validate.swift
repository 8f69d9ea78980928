import ArgumentParser
import Foundation
import Tiltbox

extension TiltboxCommand {
    /// `tiltbox validate`: check files without running them.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check scenario files without running them.",
            discussion: "Prints one line per valid file and one error line per invalid file; exits 2 if any file is invalid.")

        @Argument(help: "Scenario files to check.")
        var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one file to validate") }
        }

        func run() throws {
            var failures = 0
            for file in files {
                do {
                    let scenario = try ScenarioLoader.load(path: file)
                    Console.out("ok: \(file): scenario '\(scenario.name)', \(scenario.crates.count) crates, \(scenario.allSegments.count) static segments, \(scenario.totalSteps) steps of \(NumberFormat.shortest(scenario.timestep.dt)) s, \(scenario.world.spatialIndex.traceName)")
                } catch {
                    failures += 1
                    Console.error(error.description)
                }
            }
            if failures > 0 { throw ExitCode(ExitStatus.badInput) }
        }
    }
}
