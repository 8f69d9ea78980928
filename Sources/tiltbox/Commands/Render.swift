import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

extension TiltboxCommand {
    /// `tiltbox render`: draw a trace as an SVG film strip and/or a self-contained HTML player.
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw a trace: an SVG film strip (--svg) or a self-contained HTML player (--html).",
            discussion: """
                --svg draws one panel per chosen time: 8 evenly spaced by default, or --at T,T,... (the record nearest \
                each time) or --interval S seconds (--every S, its old name, still works for one release), in a grid of --columns. --html writes one page with the data inline \
                (no network) that plays the run at real speed; traces longer than --max-body-frames (frames × bodies, \
                default \(TraceDecimation.defaultMaxBodyFrames)) are decimated, keeping the last record.
                A trace without "world.size" (older or hand-made) is drawn in the bounding box of its crate positions, \
                and one without "sizes" with 32×32 crates; a note on standard error says so.
                """)

        @Argument(help: "The trace to draw (JSON lines, tiltbox-trace/1).")
        var trace: String

        @Option(name: .long, help: ArgumentHelp("Write an SVG film strip to FILE.", valueName: "FILE"))
        var svg: String?

        @Option(name: .long, help: ArgumentHelp("Write a self-contained HTML player to FILE.", valueName: "FILE"))
        var html: String?

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp(
                "Film strip times in seconds, comma separated; each panel shows the record nearest its time.",
                valueName: "T,T,..."))
        var at: String?

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("Film strip: a panel every S seconds from the first record to the last.", valueName: "S")
        )
        var interval: Double?

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp(
                "Deprecated name of --interval, kept for one release (a warning says so).", valueName: "S"))
        var every: Double?

        private var intervalOption: IntervalOption { IntervalOption(interval: interval, every: every) }

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Film strip panels per row.", valueName: "C"))
        var columns: Int = FilmStrip.defaultColumns

        @Option(
            name: .customLong("panel-width"), parsing: .unconditional,
            help: ArgumentHelp("Film strip: the widest a panel's world is drawn, in pixels.", valueName: "PX"))
        var panelWidth: Double = FilmStrip.defaultPanelWidth

        @Option(
            name: .customLong("max-body-frames"), parsing: .unconditional,
            help: ArgumentHelp("HTML player: decimate so that kept frames × bodies stays at most N.", valueName: "N"))
        var maxBodyFrames: Int = TraceDecimation.defaultMaxBodyFrames

        func validate() throws {
            guard svg != nil || html != nil else { throw ValidationError("give --svg FILE, --html FILE or both") }
            let intervalName = every != nil ? "--every" : "--interval"
            let hasInterval = interval != nil || every != nil
            guard at == nil || !hasInterval else {
                throw ValidationError("--at and \(intervalName) are alternatives: give one")
            }
            if svg == nil, at != nil || hasInterval {
                throw ValidationError("--at and --interval choose film strip panels: they need --svg")
            }
            _ = try atTimes()
            _ = try intervalOption.seconds()
            guard columns >= 1, columns <= RenderFrameSelection.maxPanels else {
                throw ValidationError("--columns must be a whole number from 1 to \(RenderFrameSelection.maxPanels)")
            }
            guard panelWidth.isFinite, panelWidth >= 16, panelWidth <= 4096 else {
                throw ValidationError("--panel-width must be a number of pixels from 16 to 4096")
            }
            guard maxBodyFrames >= 1 else { throw ValidationError("--max-body-frames must be a whole number ≥ 1") }
        }

        /// `--at` parsed: finite numbers separated by commas.
        func atTimes() throws -> [Double]? {
            guard let at else { return nil }
            let pieces = at.split(separator: ",", omittingEmptySubsequences: false)
            var times: [Double] = []
            for piece in pieces {
                let text = piece.trimmingCharacters(in: .whitespaces)
                guard let t = Double(text), t.isFinite else {
                    throw ValidationError(
                        "--at: \"\(text)\" is not a time in seconds (expected numbers separated by commas, like 0,1.5,3)"
                    )
                }
                times.append(t)
            }
            return times
        }

        var selection: RenderFrameSelection {
            get throws {
                if let times = try atTimes() { return .at(times) }
                if let seconds = try intervalOption.seconds() { return .every(seconds: seconds) }
                return .evenly(count: RenderFrameSelection.defaultPanelCount)
            }
        }

        func run() throws {
            try intervalOption.warnIfDeprecated()
            try OutputFolder.require(svg, option: "--svg")
            try OutputFolder.require(html, option: "--html")
            var overwrite = OverwriteCheck()
            overwrite.input(trace, as: "the trace")
            try overwrite.output(svg, as: "--svg")
            try overwrite.output(html, as: "--html")
            InterruptSignal.install()
            let scene = try TraceRendering.scene(tracePath: trace)
            if let svg {
                let indices = try selection.recordIndices(times: scene.records.map(\.t))
                let text = FilmStrip(columns: columns, panelWidth: panelWidth).svg(scene: scene, recordIndices: indices)
                try TraceRendering.write(Array(text.utf8), to: svg)
                let times = indices.map { PeopleText.number(scene.records[$0].t) }.joined(separator: ", ")
                try Console.out("svg: \(svg): \(PeopleText.count(indices.count, "panel")) at t = \(times) s")
            }
            if let html {
                try TraceRendering.writeHTML(scene: scene, to: html, maxBodyFrames: maxBodyFrames)
            }
        }
    }
}

/// Reading a trace for drawing and writing what is drawn; shared by `render` and `run --html`.
///
/// SIGINT and SIGTERM (once `InterruptSignal` is installed) are honoured between the steps
/// and before a file is put in place: the command exits with the interrupt status and
/// leaves no file, whole or partial, behind.
enum TraceRendering {
    /// The scene of the trace at `tracePath`, its fallback notes printed on standard error.
    ///
    /// The digest is not checked: drawing a hand-edited trace is useful, and its
    /// records are validated all the same.
    static func scene(tracePath: String) throws -> RenderScene {
        try stopIfInterrupted()
        let trace = try TraceReader.read(path: tracePath, verifyDigest: false)
        try stopIfInterrupted()
        let scene = try RenderScene(trace: trace, file: tracePath)
        for note in scene.notes { try Console.error("tiltbox: note: \(tracePath): \(note)") }
        return scene
    }

    /// Writes the HTML player of `scene` to `path` and prints a one-line summary.
    static func writeHTML(
        scene: RenderScene, to path: String, maxBodyFrames: Int = TraceDecimation.defaultMaxBodyFrames
    ) throws {
        let player = HTMLPlayer(maxBodyFrames: maxBodyFrames)
        let decimation = player.decimation(for: scene)
        try stopIfInterrupted()
        let bytes = player.html(scene: scene)
        try write(bytes, to: path)
        let kept =
            decimation.stride == 1
            ? "all \(scene.records.count) records"
            : "\(decimation.indices.count) of \(scene.records.count) records (every \(PeopleText.ordinal(decimation.stride)), and the last)"
        try Console.out(
            "html: \(path): \(kept), \(PeopleText.count(scene.bodies.count, "body", plural: "bodies")), \(PeopleText.count(bytes.count, "byte"))"
        )
    }

    /// Writes `bytes` to `path` whole (through a temporary file and a rename), unless a
    /// signal arrived before it could be put in place. A write failure is thrown as
    /// `OutputFileError` (exit 1 with its message).
    static func write(_ bytes: [UInt8], to path: String) throws {
        try stopIfInterrupted()
        let published = try OutputFile.write(bytes, to: path, shouldPublish: { !InterruptSignal.isRaised })
        if !published { try stopIfInterrupted() }
    }

    /// Ends the command with the interrupt status once SIGINT or SIGTERM has arrived.
    static func stopIfInterrupted() throws {
        if InterruptSignal.isRaised { throw ExitCode(ExitStatus.interrupted) }
    }
}
