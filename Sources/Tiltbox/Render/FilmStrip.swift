import Foundation

/// A film strip of a trace as SVG text: one panel per chosen record, in a grid of
/// `columns`, each showing the segments, every crate as a rotated rectangle, the time
/// beneath and the gravity as an arrow beside it.
///
/// Each panel is a `<g class="panel">` translated to its place in the grid; inside it
/// the world is drawn in **world units** by a group whose transform flips y
/// (`matrix(s 0 0 -s tx ty)`: x' = s·x + tx, y' = −s·y + ty), so a crate's polygon
/// `points` are its four corners in the world, from `SceneRasterizer.corners`, with
/// two decimals. Crates carry their id in `data-id` and a `<title>` (a tooltip in
/// browsers). Walls and segments are `<line>`s with `stroke-width` 2·radius. The
/// world area is clipped, so a crate thrown out of the box does not spill into the
/// next panel.
@_spi(Tools) public struct FilmStrip: Sendable {
    /// Panels per row.
    public var columns: Int
    /// The widest a panel's world area is drawn, in SVG pixels; a tall world is drawn
    /// narrower so that a panel is never taller than 1.5 times this.
    public var panelWidth: Double

    public static let defaultColumns = 4
    public static let defaultPanelWidth = 240.0

    /// Fill colours of crates by body index (the terminal view's six hues).
    public static let crateFills = ["#e8604c", "#4caf6a", "#e8c13c", "#4a8fd8", "#a66cc4", "#3cb8b0"]

    static let margin = 12.0
    static let gap = 12.0
    static let labelHeight = 22.0
    /// Narrowest cell, so that the time label and the arrow fit under a thin world.
    static let minimumCellWidth = 96.0

    public init(columns: Int = FilmStrip.defaultColumns, panelWidth: Double = FilmStrip.defaultPanelWidth) {
        self.columns = max(1, columns)
        self.panelWidth = panelWidth > 0 && panelWidth.isFinite ? panelWidth : Self.defaultPanelWidth
    }

    /// The geometry shared by every panel.
    public struct Layout: Sendable, Equatable {
        /// SVG pixels per world unit.
        public var scale: Double
        /// The world area's size in SVG pixels.
        public var panelSize: Vec2
        /// The grid cell (world area, label row) in SVG pixels.
        public var cellSize: Vec2
        public var columns: Int
        public var rows: Int
        /// The whole drawing's size in SVG pixels.
        public var size: Vec2

        /// The top-left corner of panel `index`'s world area.
        public func panelOrigin(_ index: Int) -> Vec2 {
            let column = index % columns, row = index / columns
            let x = FilmStrip.margin + Double(column) * (cellSize.x + FilmStrip.gap) + (cellSize.x - panelSize.x) / 2
            let y = FilmStrip.margin + Double(row) * (cellSize.y + FilmStrip.gap)
            return Vec2(x, y)
        }
    }

    /// The layout of a strip of `panels` panels of `scene`.
    public func layout(scene: RenderScene, panels: Int) -> Layout {
        let scale = min(panelWidth / scene.extent.x, 1.5 * panelWidth / scene.extent.y)
        let panelSize = Vec2(scene.extent.x * scale, scene.extent.y * scale)
        let cell = Vec2(max(panelSize.x, Self.minimumCellWidth), panelSize.y + Self.labelHeight)
        let columns = max(1, min(self.columns, panels))
        let rows = max(1, (panels + columns - 1) / columns)
        let size = Vec2(2 * Self.margin + Double(columns) * cell.x + Double(columns - 1) * Self.gap,
                        2 * Self.margin + Double(rows) * cell.y + Double(rows - 1) * Self.gap)
        return Layout(scale: scale, panelSize: panelSize, cellSize: cell, columns: columns, rows: rows, size: size)
    }

    /// The SVG document showing `scene.records[i]` for each `i` in `recordIndices`.
    public func svg(scene: RenderScene, recordIndices: [Int]) -> String {
        let layout = layout(scene: scene, panels: recordIndices.count)
        let s = layout.scale
        func n(_ v: Double) -> String { RenderNumber.text(v, decimals: 2) }
        // World → panel pixels: x' = s·x − s·ox, y' = −s·y + s·(oy + height).
        let flip = "matrix(\(RenderNumber.text(s, decimals: 6)) 0 0 \(RenderNumber.text(-s, decimals: 6)) "
            + "\(n(-s * scene.origin.x)) \(n(s * (scene.origin.y + scene.extent.y))))"
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(layout.size.x))" height="\(n(layout.size.y))" \
            viewBox="0 0 \(n(layout.size.x)) \(n(layout.size.y))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="11">
            <title>\(Markup.escape(scene.title)): \(recordIndices.count) frames</title>
            <style>
            .world{fill:#ffffff;stroke:#9a9a9a;stroke-width:1}
            .segment{stroke:#4a4a4a;stroke-linecap:round}
            .crate{stroke:#2b2b2b;stroke-width:0.8;vector-effect:non-scaling-stroke;stroke-linejoin:round}
            .time{fill:#333333}
            .gravity{stroke:#c0392b;stroke-width:1.6;fill:none}
            </style>
            <defs>
            <clipPath id="world-clip"><rect width="\(n(layout.panelSize.x))" height="\(n(layout.panelSize.y))"/></clipPath>
            <marker id="arrowhead" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="5" markerHeight="5" orient="auto">\
            <path d="M0,0 L8,4 L0,8 z" fill="#c0392b"/></marker>
            </defs>
            <rect width="100%" height="100%" fill="#f6f4ef"/>

            """
        for (panel, recordIndex) in recordIndices.enumerated() {
            let record = scene.records[recordIndex]
            let at = layout.panelOrigin(panel)
            out += "<g class=\"panel\" data-step=\"\(record.step)\" data-t=\"\(NumberFormat.shortest(record.t))\" transform=\"translate(\(n(at.x)) \(n(at.y)))\">\n"
            out += "<rect class=\"world\" width=\"\(n(layout.panelSize.x))\" height=\"\(n(layout.panelSize.y))\"/>\n"
            out += "<g clip-path=\"url(#world-clip)\"><g class=\"scene\" transform=\"\(flip)\">\n"
            for segment in scene.segments {
                out += "<line class=\"segment\" x1=\"\(n(segment.from.x))\" y1=\"\(n(segment.from.y))\" "
                    + "x2=\"\(n(segment.to.x))\" y2=\"\(n(segment.to.y))\" stroke-width=\"\(n(2 * segment.radius))\"/>\n"
            }
            for body in scene.bodies.indices {
                let id = Markup.escape(scene.bodies[body])
                let points = scene.corners(in: record, body: body).map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
                out += "<polygon class=\"crate\" data-id=\"\(id)\" points=\"\(points)\" "
                    + "fill=\"\(Self.crateFills[body % Self.crateFills.count])\"><title>\(id)</title></polygon>\n"
            }
            out += "</g></g>\n"
            out += "<text class=\"time\" x=\"\(n((layout.panelSize.x - layout.cellSize.x) / 2 + 2))\" y=\"\(n(layout.panelSize.y + 15))\">"
                + "t = \(String(format: "%.2f", record.t)) s</text>\n"
            out += gravityArrow(record.gravity, centre: Vec2((layout.panelSize.x + layout.cellSize.x) / 2 - 11, layout.panelSize.y + 11))
            out += "</g>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// An arrow 16 px long through `centre` pointing along `gravity` (y flipped for
    /// the screen), with the components in its `<title>`; a dot when gravity is zero.
    func gravityArrow(_ gravity: Vec2, centre: Vec2) -> String {
        func n(_ v: Double) -> String { RenderNumber.text(v, decimals: 2) }
        let title = "<title>gravity (\(NumberFormat.shortest(gravity.x)), \(NumberFormat.shortest(gravity.y)))</title>"
        let length = gravity.length
        guard length > 0, length.isFinite else {
            return "<g class=\"gravity\">\(title)<circle cx=\"\(n(centre.x))\" cy=\"\(n(centre.y))\" r=\"2\" fill=\"#c0392b\"/></g>\n"
        }
        let d = Vec2(gravity.x / length * 8, -gravity.y / length * 8)
        return "<g class=\"gravity\">\(title)<line x1=\"\(n(centre.x - d.x))\" y1=\"\(n(centre.y - d.y))\" "
            + "x2=\"\(n(centre.x + d.x))\" y2=\"\(n(centre.y + d.y))\" marker-end=\"url(#arrowhead)\"/></g>\n"
    }
}
