import ArgumentParser
import Foundation
import Tiltbox

extension TiltboxCommand {
    /// `tiltbox tilt`: print the world gravity a tilt file gives over time, as CSV.
    struct Tilt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the world gravity of a tilt file over time as CSV (t,gx,gy), to check a recording before running it.")

        @Argument(help: "Tilt file: Tiltbox CSV, keyframes JSON, phyphox or Sensor Logger export (file, folder or zip).")
        var file: String

        @Option(name: .long, help: ArgumentHelp("How the device was held.", valueName: "O"))
        var orientation: Orientation = .portrait

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("World units per 1 g.", valueName: "G"))
        var g: Double = 980

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds between printed rows.", valueName: "S"))
        var every: Double = 0.1

        @Option(name: .long, help: ArgumentHelp("Between recorded samples: hold or linear.", valueName: "MODE"))
        var interpolate: Interpolation = .hold

        @Option(name: .long, help: ArgumentHelp("Sign convention of a Sensor Logger export (ios or android).", valueName: "C"))
        var convention: SensorConvention?

        /// The most rows printed, so a tiny --every cannot flood the terminal for hours.
        static let maxRows = 10_000_000

        func validate() throws {
            guard every.isFinite, every > 0 else { throw ValidationError("--every must be a positive number of seconds") }
            guard g.isFinite, g > 0, g <= ScenarioLoader.limits.maxGravity else { throw ValidationError("--g must be a number in (0, 1000000]") }
        }

        func run() throws {
            let loaded = try TiltFile.load(path: file, orientation: orientation, g: g, interpolation: interpolate, convention: convention)
            if let keyframes = loaded.track as? KeyframeGravityTrack {
                for short in keyframes.shortSprings {
                    try Console.error("tiltbox: warning: \(file): keyframes[\(short.keyframe)]: the spring segment lasts "
                        + "\(NumberFormat.shortest(short.segmentSeconds)) s but settles (|1 − s| < 0.001) only after "
                        + "\(String(format: "%.3f", short.settlingSeconds)) s; it is cut off at the keyframe")
                }
            }
            let end = max(loaded.endTime, 0)
            // Counted as a Double first: 1e303 s of samples at --every 1e-300 is no Int.
            let rowCount = (end / every).rounded(.down) + 1
            guard rowCount <= Double(Self.maxRows) else {
                // The file's span is what makes the rows too many: a located input error (exit 2),
                // not a usage error.
                throw InputError(file: file, reason: "spans \(NumberFormat.shortest(end)) s, which at --every \(NumberFormat.shortest(every)) gives \(NumberFormat.shortest(rowCount)) rows; the limit is \(Self.maxRows) (use a larger --every)")
            }
            let rows = Int(rowCount)
            var out = "t,gx,gy\n"
            for n in 0..<rows {
                let t = Double(n) * every
                let gravity = loaded.track.gravity(at: t)
                out += "\(NumberFormat.shortest(t)),\(NumberFormat.shortest(gravity.x)),\(NumberFormat.shortest(gravity.y))\n"
                if out.utf8.count > 1 << 16 {
                    try Console.write(out, to: .output)
                    out = ""
                }
            }
            try Console.write(out, to: .output)
        }
    }
}
