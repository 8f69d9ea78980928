/// A cheat sheet of timing curves as one SVG: a grid of small labelled plots, like the
/// easing charts users know. Eased curves are drawn as value against progress (0 to 1);
/// springs against seconds, up to a little past their settling time. Dashed lines mark
/// the values 0 and 1, so overshoot (back, elastic, springs) shows.
@_spi(Tools) public struct CurveSheet {
    /// One plot: a label and its curve.
    public struct Entry {
        public var label: String
        public var curve: TimingCurve

        public init(label: String, curve: TimingCurve) {
            self.label = label
            self.curve = curve
        }
    }

    public var entries: [Entry]
    /// Plots per row.
    public var columns: Int

    /// Cell and plot sizes in SVG user units, and samples per curve.
    static let cellWidth = 170.0, cellHeight = 140.0, plotWidth = 140.0, plotHeight = 80.0
    static let samples = 120

    public init(entries: [Entry], columns: Int = 6) {
        precondition(columns >= 1)
        self.entries = entries
        self.columns = columns
    }

    /// The span of the horizontal axis: 1 (progress) for eased curves, seconds for a spring.
    static func span(of curve: TimingCurve) -> Double {
        guard case .spring(let spring) = curve else { return 1 }
        return max(spring.settlingTime() * 1.15, 0.1)
    }

    /// The whole sheet as SVG text.
    public var svg: String {
        let rows = (entries.count + columns - 1) / columns
        let width = Double(min(columns, max(entries.count, 1))) * Self.cellWidth
        let height = Double(max(rows, 1)) * Self.cellHeight
        let n = { (x: Double) in RenderNumber.text(x, decimals: 1) }
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
            + "viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"Helvetica, Arial, sans-serif\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        for (index, entry) in entries.enumerated() {
            let left = Double(index % columns) * Self.cellWidth + 15
            let top = Double(index / columns) * Self.cellHeight + 28
            let span = Self.span(of: entry.curve)
            var values: [Double] = []
            for i in 0...Self.samples {
                let x = Double(i) / Double(Self.samples) * span
                values.append(entry.curve.value(progress: x / span, seconds: x))
            }
            if case .spring = entry.curve {
                values[values.count - 1] = entry.curve.value(progress: 0.999999, seconds: span)
            }
            let low = min(values.min() ?? 0, 0), high = max(values.max() ?? 1, 1)
            let scale = Self.plotHeight / (high - low)
            func y(_ v: Double) -> Double { top + (high - v) * scale }
            out +=
                "<g>\n<text x=\"\(n(left))\" y=\"\(n(top - 10))\" font-size=\"11\" fill=\"#222\">\(Markup.escape(entry.label))</text>\n"
            out +=
                "<rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(Self.plotWidth))\" height=\"\(n(Self.plotHeight))\" fill=\"#f6f7f9\" stroke=\"#d0d4da\" stroke-width=\"0.5\"/>\n"
            for level in [0.0, 1.0] {
                out +=
                    "<line x1=\"\(n(left))\" y1=\"\(n(y(level)))\" x2=\"\(n(left + Self.plotWidth))\" y2=\"\(n(y(level)))\" stroke=\"#9aa3ad\" stroke-width=\"0.5\" stroke-dasharray=\"3 2\"/>\n"
            }
            var points: [String] = []
            for (i, v) in values.enumerated() {
                points.append("\(n(left + Double(i) / Double(Self.samples) * Self.plotWidth)),\(n(y(v)))")
            }
            out +=
                "<polyline fill=\"none\" stroke=\"#d9480f\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
            let axis = span == 1 ? "progress" : "seconds, 0 to \(RenderNumber.text(span, decimals: 2))"
            out +=
                "<text x=\"\(n(left))\" y=\"\(n(top + Self.plotHeight + 13))\" font-size=\"9\" fill=\"#666\">\(axis)</text>\n</g>\n"
        }
        out += "</svg>\n"
        return out
    }
}
