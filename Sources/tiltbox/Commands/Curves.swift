import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

extension TiltboxCommand {
    /// `tiltbox curves`: draw timing curves as a grid of small labelled plots.
    struct Curves: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Draw timing curves (value against progress; springs against seconds) as a grid of labelled plots in one SVG.",
            discussion: """
                NAME is any keyframe curve name (linear, easeIn, ..., the AHEasing names such as bounceEaseOut, the \
                easings.net names such as easeOutBounce) or a curve written as in a tilt file, such as \
                '{"spring": {"stiffness": 200, "damping": 8}}' or '{"cubicBezier": [0.68, -0.55, 0.27, 1.55]}'. \
                Without names, every named curve is drawn, then CASpringAnimation's default spring.
                """)

        @Option(name: .long, help: ArgumentHelp("Where to write the SVG.", valueName: "FILE"))
        var svg: String

        @Option(name: .long, help: ArgumentHelp("Plots per row.", valueName: "N"))
        var columns: Int = 6

        @Argument(help: "Curves to draw (default: all named curves and the default spring).")
        var names: [String] = []

        func validate() throws {
            guard (1...100).contains(columns) else {
                throw ValidationError("--columns must be a whole number from 1 to 100")
            }
        }

        func run() throws {
            try OutputFolder.require(svg, option: "--svg")
            InterruptSignal.install()
            var entries: [CurveSheet.Entry] = []
            if names.isEmpty {
                for name in TimingCurve.names { entries.append(.init(label: name, curve: try TimingCurve(name: name))) }
                let spring = TimingCurve.spring(SpringCurve())
                entries.append(.init(label: "spring (CA defaults)", curve: spring))
            } else {
                for (index, name) in names.enumerated() {
                    entries.append(
                        .init(
                            label: name,
                            curve: try TimingCurve.parse(argument: name, file: "curves argument \(index + 1)")))
                }
            }
            try TraceRendering.write(Array(CurveSheet(entries: entries, columns: columns).svg.utf8), to: svg)
            try Console.error("tiltbox: drew \(PeopleText.count(entries.count, "curve")) to \(svg)")
        }
    }
}
