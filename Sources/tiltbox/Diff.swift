import ArgumentParser
import Foundation
import Tiltbox

extension TiltboxCommand {
    /// `tiltbox diff`: compare two traces and name the first divergence.
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare two traces; exit 0 when identical (or equal within --tolerance), 1 at the first divergence.",
            discussion: """
                Records are compared in order, bit for bit (or within --tolerance). At the first difference it prints \
                the step, the time, the body id, the field, both values and their distance in ULPs.
                """)

        @Argument(help: "The first trace.")
        var a: String

        @Argument(help: "The second trace.")
        var b: String

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Treat values within X of each other as equal (absolute difference).", valueName: "X"))
        var tolerance: Double = 0

        func validate() throws {
            guard tolerance.isFinite, tolerance >= 0 else { throw ValidationError("--tolerance must be a finite number ≥ 0") }
        }

        func run() throws {
            // Digests are not checked here: a hand-edited trace should show where it
            // differs, not be refused as corrupt.
            // Both traces are read one record at a time: memory for one record per side.
            try TraceVerdict.report(tolerance: tolerance, sides: .files(a, b)) {
                (try TraceStream(path: a, verifyDigest: false), try TraceStream(path: b, verifyDigest: false))
            }
        }
    }
}
