import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

extension TiltboxCommand {
    /// `tiltbox diff`: compare two traces and name the first divergence.
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Compare two traces; exit 0 when identical (or equal within --tolerance), 1 at the first divergence.",
            discussion: """
                Records are compared in order, bit for bit (or within --tolerance). At the first difference it prints \
                the step, the time, the body id, the field, both values and their distance in ULPs.
                A hash trace (run --hashes) on either side is compared on record hashes (a trace with states gives its \
                records' hashes): at the first record whose hash differs it prints the step and time, and the commands \
                that record both runs in full up to that step and diff them.
                """)

        @Argument(help: "The first trace.")
        var a: String

        @Argument(help: "The second trace.")
        var b: String

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("Treat values within X of each other as equal (absolute difference).", valueName: "X"))
        var tolerance: Double = 0

        func validate() throws {
            guard tolerance.isFinite, tolerance >= 0 else {
                throw ValidationError("--tolerance must be a finite number ≥ 0")
            }
        }

        func run() throws {
            // Digests are not checked here: a hand-edited trace should show where it
            // differs, not be refused as corrupt.
            // Both traces are read one record at a time: memory for one record per side.
            let streams = {
                (try TraceStream(path: a, verifyDigest: false), try TraceStream(path: b, verifyDigest: false))
            }
            let (headerA, headerB) = try streams()
            try TraceVerdict.report(
                tolerance: tolerance, sides: .files(a, b),
                hashNotes: { step, time in
                    FieldsHint.lines(
                        step: step, time: time, dt: headerA.header.dt,
                        a: .recorded(in: headerA.header, tracePath: a), b: .recorded(in: headerB.header, tracePath: b),
                        aName: Self.stem(a), bName: Self.stem(b) + (Self.stem(a) == Self.stem(b) ? "-2" : ""))
                }, open: streams)
        }

        /// `dir/golden.jsonl` (or `dir/golden.jsonl.zst`) → `golden`.
        static func stem(_ path: String) -> String {
            var name = path.split(separator: "/").last.map(String.init) ?? path
            if name.hasSuffix(".zst") { name = String(name.dropLast(4)) }
            return name.hasSuffix(".jsonl") ? String(name.dropLast(6)) : name
        }
    }
}
