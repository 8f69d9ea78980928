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

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Also write one HTML page that plays both traces over each other (B over a pale A), starting at the first divergence, with a chart of the largest position difference per step.",
                valueName: "FILE"))
        var html: String?

        func validate() throws {
            guard html != "-" else { throw ValidationError("--html needs a file name") }
            guard tolerance.isFinite, tolerance >= 0 else {
                throw ValidationError("--tolerance must be a finite number ≥ 0")
            }
        }

        func run() throws {
            if let html { try writePage(html) }
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
        /// Writes the diff page of the two traces (read whole) to `path`, before the verdict.
        private func writePage(_ path: String) throws {
            try OutputFolder.require(path, option: "--html")
            var overwrite = OverwriteCheck()
            overwrite.input(a, as: "the first trace")
            overwrite.input(b, as: "the second trace")
            try overwrite.output(path, as: "--html")
            let sceneA = try RenderScene(trace: try TraceReader.read(path: a, verifyDigest: false), file: a)
            let sceneB = try RenderScene(trace: try TraceReader.read(path: b, verifyDigest: false), file: b)
            let page = try DiffPage(a: sceneA, b: sceneB, fileB: b)
            try TraceRendering.write(page.html(), to: path)
            try Console.error(
                "html: \(path): \(PeopleText.count(page.keptIndices.count, "record pair")), "
                    + (page.firstDivergence.map { "starting at step \(sceneA.records[$0].step)" } ?? "no divergence"))
        }

        static func stem(_ path: String) -> String {
            var name = path.split(separator: "/").last.map(String.init) ?? path
            if name.hasSuffix(".zst") { name = String(name.dropLast(4)) }
            return name.hasSuffix(".jsonl") ? String(name.dropLast(6)) : name
        }
    }
}
