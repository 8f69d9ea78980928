import ArgumentParser
import Foundation
import Tiltbox

extension TiltboxCommand {
    /// `tiltbox validate`: check scenario and tilt files without running them.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check scenario and tilt files without running them.",
            discussion: """
                A .json file whose format is tiltbox-scenario/1 is checked as a scenario (with its tilt file, if any);
                everything else as a tilt file (CSV, keyframes JSON, phyphox or Sensor Logger export, folder or zip).
                Prints one line per valid file and one error line per invalid file; exits 2 if any file is invalid.
                """)

        @Argument(help: "Scenario or tilt files to check.")
        var files: [String]

        @OptionGroup var tiltOptions: TiltOptions

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one file to validate") }
        }

        func run() throws {
            var failures = 0
            for file in files {
                do {
                    Console.out(try check(file))
                } catch {
                    failures += 1
                    Console.error("\(error)")
                }
            }
            if failures > 0 { throw ExitCode(ExitStatus.badInput) }
        }

        private func check(_ file: String) throws -> String {
            if FileKind.isScenario(file) {
                let scenario = try ScenarioLoader.load(path: file)
                ScenarioSource.printWarnings(for: scenario, label: file)
                var line = "ok: \(file): scenario '\(scenario.name)', \(scenario.crates.count) crates, \(scenario.allSegments.count) static segments, \(scenario.totalSteps) steps of \(NumberFormat.shortest(scenario.timestep.dt)) s, \(scenario.world.spatialIndex.traceName)"
                var input = tiltOptions.gravityInput
                input.file = nil // check the scenario's own tilt file
                if let tilt = try input.resolve(for: scenario).tilt {
                    line += "; tilt \(tilt.source): \(tilt.summary), \(scenario.tilt?.orientation.rawValue ?? "portrait")"
                }
                return line
            }
            let orientation = tiltOptions.orientation ?? .portrait
            let tilt = try TiltFile.load(path: file, orientation: orientation, g: tiltOptions.g ?? 980,
                                         interpolation: tiltOptions.interpolate, convention: tiltOptions.convention)
            return "ok: \(file): tilt \(tilt.summary), from \(NumberFormat.shortest(tilt.startTime)) s to \(NumberFormat.shortest(tilt.endTime)) s, \(orientation.rawValue)"
        }
    }
}

/// Tells scenario files from tilt files by their `format` key.
enum FileKind {
    /// True for a `.json` file that is not a `tiltbox-tilt/...` keyframes file. A file
    /// that fails to parse is treated as a scenario, so its syntax error is reported as one.
    static func isScenario(_ path: String) -> Bool {
        guard path.lowercased().hasSuffix(".json") else { return false }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= ScenarioLoader.limits.maxFileBytes, let data = FileManager.default.contents(atPath: path),
              let node = try? data.withUnsafeBytes({ raw in try JSONParser.parse(utf8: raw.bindMemory(to: UInt8.self)) }),
              let format = node["format"]?.stringValue
        else { return true }
        return !format.hasPrefix("tiltbox-tilt")
    }
}
