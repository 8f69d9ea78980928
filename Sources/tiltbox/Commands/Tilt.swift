import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

extension TiltboxCommand {
    /// `tiltbox tilt`: print the world gravity a tilt file gives over time, as CSV.
    struct Tilt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Print the world gravity of a tilt file over time as CSV (t,gx,gy), to check a recording before running it."
        )

        @Argument(help: "Tilt file: \(TiltFormat.helpList) (file, folder or zip).")
        var file: String

        @OptionGroup var shape: TiltShapeOptions

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("Seconds between printed rows (default 0.1).", valueName: "S"))
        var interval: Double?

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp(
                "Deprecated name of --interval, kept for one release (a warning says so).", valueName: "S"))
        var every: Double?

        /// Seconds between rows when neither --interval nor --every is given.
        static let defaultInterval = 0.1

        /// The most rows printed, so a tiny --interval cannot flood the terminal for hours.
        static let maxRows = 10_000_000

        private var intervalOption: IntervalOption { IntervalOption(interval: interval, every: every) }

        func validate() throws {
            _ = try intervalOption.seconds()
            if file == "-" || file.lowercased().hasPrefix("phyphox://") {
                throw ValidationError(
                    "\(file) is a live source, for run --realtime, the live view and record; tilt prints a file's gravity (give it the CSV a live run wrote)"
                )
            }
        }

        func run() throws {
            try intervalOption.warnIfDeprecated()
            let seconds = try intervalOption.seconds() ?? Self.defaultInterval
            let option = self.every != nil ? "--every" : "--interval"
            let frame = TiltFrame.standalone(orientation: shape.orientation, g: shape.g)
            let loaded = try TiltFile.load(
                path: file, orientation: frame.orientation, g: frame.g,
                interpolation: shape.interpolate ?? .hold, convention: shape.convention)
            if let keyframes = loaded.track as? KeyframeGravityTrack {
                for short in keyframes.shortSprings {
                    try Console.error(
                        "tiltbox: warning: \(file): keyframes[\(short.keyframe)]: the spring segment lasts "
                            + "\(NumberFormat.shortest(short.segmentSeconds)) s but settles (|1 − s| < 0.001) only after "
                            + "\(String(format: "%.3f", short.settlingSeconds)) s; it is cut off at the keyframe")
                }
            }
            let end = max(loaded.endTime, 0)
            // Counted as a Double first: 1e303 s of samples at --interval 1e-300 is no Int.
            let rowCount = (end / seconds).rounded(.down) + 1
            guard rowCount <= Double(Self.maxRows) else {
                // The file's span is what makes the rows too many: a located input error (exit 2),
                // not a usage error.
                throw InputError(
                    file: file,
                    reason:
                        "spans \(NumberFormat.shortest(end)) s, which at \(option) \(NumberFormat.shortest(seconds)) gives \(NumberFormat.shortest(rowCount)) rows; the limit is \(Self.maxRows) (use a larger \(option))"
                )
            }
            let rows = Int(rowCount)
            var out = "t,gx,gy\n"
            for n in 0..<rows {
                let t = Double(n) * seconds
                let gravity = loaded.track.gravity(at: t)
                out +=
                    "\(NumberFormat.shortest(t)),\(NumberFormat.shortest(gravity.x)),\(NumberFormat.shortest(gravity.y))\n"
                if out.utf8.count > 1 << 16 {
                    try Console.write(out, to: .output)
                    out = ""
                }
            }
            try Console.write(out, to: .output)
        }
    }
}
