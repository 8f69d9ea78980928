import Foundation

/// A film strip of a trace as SVG text: one panel per chosen record, in a grid of
/// `columns`, each showing the segments, every crate as a rotated rectangle, the time
/// beneath and the gravity as an arrow beside it.
///
/// Each panel is a `<g class="panel">` translated to its place in the grid; inside it
/// the world is drawn in **world units** by a group whose transform flips y
/// (`matrix(s 0 0 -s tx ty)`: x' = s·x + tx, y' = −s·y + ty), so a crate's polygon
/// `points` are its four corners in the world, from `SceneOutline.corners`, with
/// two decimals. Crates carry their id in `data-id` and a `<title>` (a tooltip in
/// browsers). Walls and segments are `<line>`s with `stroke-width` 2·radius. The
/// world area is clipped, so a crate thrown out of the box does not spill into the
/// next panel.
///
/// A trace with `shapes` (see `SceneOutline`) draws every shape in world units too,
/// each element carrying its body's id in `data-id` and the body type as a class
/// (`shape dynamic`, `shape kinematic`, `shape static`; a plain crate keeps `crate`):
/// a circle is a `<circle>` plus a `<line class="radius">` from its centre to the rim
/// along the body's x axis; a box or polygon is a `<polygon>` of its corners, or with
/// a radius a `<path>` of the corners grown by the radius (straight edges pushed out,
/// arcs of that radius at the corners); a segment is a `<line class="capsule">`,
/// round-capped, of `stroke-width` 2·radius. Dynamic bodies take the crate fills,
/// kinematic ones a pale fill with a dashed outline, static ones grey. Joints are thin
/// `<line class="joint">`s between their anchors in the world (a groove joint adds a
/// dashed `<line class="groove">`).
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
        let size = Vec2(
            2 * Self.margin + Double(columns) * cell.x + Double(columns - 1) * Self.gap,
            2 * Self.margin + Double(rows) * cell.y + Double(rows - 1) * Self.gap)
        return Layout(scale: scale, panelSize: panelSize, cellSize: cell, columns: columns, rows: rows, size: size)
    }

    /// The SVG document showing `scene.records[i]` for each `i` in `recordIndices`.
    public func svg(scene: RenderScene, recordIndices: [Int]) -> String {
        let layout = layout(scene: scene, panels: recordIndices.count)
        let s = layout.scale
        func n(_ v: Double) -> String { RenderNumber.text(v, decimals: 2) }
        // World → panel pixels: x' = s·x − s·ox, y' = −s·y + s·(oy + height).
        let flip =
            "matrix(\(RenderNumber.text(s, decimals: 6)) 0 0 \(RenderNumber.text(-s, decimals: 6)) "
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
            .gravity{stroke:#c0392b;stroke-width:1.6;fill:none}\(scene.outline.isCratesOnly ? "" : "\n" + Self.shapeStyle)
            </style>
            <defs>
            <clipPath id="world-clip"><rect width="\(n(layout.panelSize.x))" height="\(n(layout.panelSize.y))"/></clipPath>
            <marker id="arrowhead" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="5" markerHeight="5" orient="auto">\
            <path d="M0,0 L8,4 L0,8 z" fill="#c0392b"/></marker>
            </defs>
            <rect width="100%" height="100%" fill="#f6f4ef"/>

            """
        for (panel, recordIndex) in recordIndices.enumerated() {
            let record = scene.record(at: recordIndex)
            let at = layout.panelOrigin(panel)
            out +=
                "<g class=\"panel\" data-step=\"\(record.step)\" data-t=\"\(NumberFormat.shortest(record.t))\" transform=\"translate(\(n(at.x)) \(n(at.y)))\">\n"
            out += "<rect class=\"world\" width=\"\(n(layout.panelSize.x))\" height=\"\(n(layout.panelSize.y))\"/>\n"
            out += "<g clip-path=\"url(#world-clip)\"><g class=\"scene\" transform=\"\(flip)\">\n"
            for segment in scene.segments {
                out +=
                    "<line class=\"segment\" x1=\"\(n(segment.from.x))\" y1=\"\(n(segment.from.y))\" "
                    + "x2=\"\(n(segment.to.x))\" y2=\"\(n(segment.to.y))\" stroke-width=\"\(n(2 * segment.radius))\"/>\n"
            }
            // A body from its spawn to its removal, a joint while it and its bodies are there.
            for body in scene.bodies.indices where scene.isPresent(in: record, body: body) {
                out += bodyElements(scene: scene, record: record, body: body)
            }
            for joint in scene.joints(at: recordIndex) where joint.isDrawn {
                out += jointElements(joint, scene: scene, record: record)
            }
            out += "</g></g>\n"
            out +=
                "<text class=\"time\" x=\"\(n((layout.panelSize.x - layout.cellSize.x) / 2 + 2))\" y=\"\(n(layout.panelSize.y + 15))\">"
                + "t = \(String(format: "%.2f", record.t)) s</text>\n"
            out += gravityArrow(
                record.gravity, centre: Vec2((layout.panelSize.x + layout.cellSize.x) / 2 - 11, layout.panelSize.y + 11)
            )
            out += "</g>\n"
        }
        out += "</svg>\n"
        return out
    }

    // MARK: - Bodies and joints

    /// The style rules for shapes and joints, written only when the trace has any.
    static let shapeStyle = """
        .shape{stroke:#2b2b2b;stroke-width:0.8;vector-effect:non-scaling-stroke;stroke-linejoin:round}
        .shape.kinematic{stroke:#3a4a5c;stroke-dasharray:4 2}
        .capsule{stroke-linecap:round}
        .radius{stroke:#2b2b2b;stroke-width:0.8;vector-effect:non-scaling-stroke}
        .joint{stroke:#7b3fbf;stroke-width:1;vector-effect:non-scaling-stroke}
        .groove{stroke:#7b3fbf;stroke-width:1;vector-effect:non-scaling-stroke;stroke-dasharray:2 2}
        """
    /// The fill of kinematic bodies (with a dashed outline).
    public static let kinematicFill = "#d5dbe3"
    /// The fill of static bodies.
    public static let staticFill = "#9a9a9a"

    /// The fill of body `body` of `type`.
    static func fill(body: Int, type: BodyType) -> String {
        switch type {
        case .dynamic: return crateFills[body % crateFills.count]
        case .kinematic: return kinematicFill
        case .static: return staticFill
        }
    }

    /// The elements of one body in `record`: a crate exactly as crates were always
    /// drawn, any other body shape by shape.
    func bodyElements(scene: RenderScene, record: TraceRecord, body: Int) -> String {
        func n(_ v: Double) -> String { RenderNumber.text(v, decimals: 2) }
        func points(_ list: [Vec2]) -> String { list.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ") }
        let id = Markup.escape(scene.bodies[body])
        let outline = scene.outline.bodies[body]
        let fill = Self.fill(body: body, type: outline.type)
        if outline.isCrate {
            return
                "<polygon class=\"crate\" data-id=\"\(id)\" points=\"\(points(scene.corners(in: record, body: body)))\" "
                + "fill=\"\(fill)\"><title>\(id)</title></polygon>\n"
        }
        let pose = BodyPose(
            position: scene.position(in: record, body: body), angle: scene.angle(in: record, body: body))
        let common = "class=\"shape \(outline.type.rawValue)\" data-id=\"\(id)\""
        var out = ""
        for shape in outline.shapes {
            switch SceneOutline.place(shape, at: pose) {
            case .circle(let centre, let radius, let rim):
                out +=
                    "<circle \(common) cx=\"\(n(centre.x))\" cy=\"\(n(centre.y))\" r=\"\(n(radius))\" fill=\"\(fill)\">"
                    + "<title>\(id)</title></circle>\n"
                out +=
                    "<line class=\"radius\" data-id=\"\(id)\" x1=\"\(n(centre.x))\" y1=\"\(n(centre.y))\" "
                    + "x2=\"\(n(rim.x))\" y2=\"\(n(rim.y))\"/>\n"
            case .polygon(let corners, let radius) where radius > 0:
                out +=
                    "<path \(common) d=\"\(Self.roundedPath(corners: corners, radius: radius))\" fill=\"\(fill)\">"
                    + "<title>\(id)</title></path>\n"
            case .polygon(let corners, _):
                out +=
                    "<polygon \(common) points=\"\(points(corners))\" fill=\"\(fill)\"><title>\(id)</title></polygon>\n"
            case .segment(let from, let to, let radius):
                let width =
                    radius > 0
                    ? "stroke-width=\"\(n(2 * radius))\"" : "stroke-width=\"1.5\" vector-effect=\"non-scaling-stroke\""
                out +=
                    "<line class=\"capsule \(outline.type.rawValue)\" data-id=\"\(id)\" x1=\"\(n(from.x))\" y1=\"\(n(from.y))\" "
                    + "x2=\"\(n(to.x))\" y2=\"\(n(to.y))\" stroke=\"\(outline.type == .kinematic ? "#8a9bb0" : fill)\" \(width)>"
                    + "<title>\(id)</title></line>\n"
            }
        }
        return out
    }

    /// A convex polygon grown by `radius`, as path data in world units: for each
    /// corner an arc of `radius` about it (`A r r 0 0 1`, counter-clockwise in the
    /// world), then the next edge pushed out by `radius` along its outward normal.
    static func roundedPath(corners: [Vec2], radius: Double) -> String {
        func n(_ v: Double) -> String { RenderNumber.text(v, decimals: 2) }
        let ends = SceneOutline.cornerArcs(corners: corners, radius: radius)
        var d = ""
        for (i, arc) in ends.enumerated() {
            d += (i == 0 ? "M" : " L") + "\(n(arc.start.x)),\(n(arc.start.y))"
            d += " A\(n(radius)),\(n(radius)) 0 0 1 \(n(arc.end.x)),\(n(arc.end.y))"
        }
        return d + " Z"
    }

    /// A joint's thin line (and a groove joint's groove) in `record`.
    func jointElements(_ joint: SceneOutline.IndexedJoint, scene: RenderScene, record: TraceRecord) -> String {
        func n(_ v: Double) -> String { RenderNumber.text(v, decimals: 2) }
        let line = SceneOutline.line(of: joint) { body in
            BodyPose(position: scene.position(in: record, body: body), angle: scene.angle(in: record, body: body))
        }
        let kind = Markup.escape(joint.kind)
        var out = ""
        if let groove = line.groove {
            out +=
                "<line class=\"groove\" data-kind=\"\(kind)\" x1=\"\(n(groove.0.x))\" y1=\"\(n(groove.0.y))\" "
                + "x2=\"\(n(groove.1.x))\" y2=\"\(n(groove.1.y))\"/>\n"
        }
        out +=
            "<line class=\"joint\" data-kind=\"\(kind)\" x1=\"\(n(line.from.x))\" y1=\"\(n(line.from.y))\" "
            + "x2=\"\(n(line.to.x))\" y2=\"\(n(line.to.y))\"><title>\(kind)</title></line>\n"
        return out
    }

    /// An arrow 16 px long through `centre` pointing along `gravity` (y flipped for
    /// the screen), with the components in its `<title>`; a dot when gravity is zero.
    func gravityArrow(_ gravity: Vec2, centre: Vec2) -> String {
        func n(_ v: Double) -> String { RenderNumber.text(v, decimals: 2) }
        let title = "<title>gravity (\(NumberFormat.shortest(gravity.x)), \(NumberFormat.shortest(gravity.y)))</title>"
        let length = gravity.length
        guard length > 0, length.isFinite else {
            return
                "<g class=\"gravity\">\(title)<circle cx=\"\(n(centre.x))\" cy=\"\(n(centre.y))\" r=\"2\" fill=\"#c0392b\"/></g>\n"
        }
        let d = Vec2(gravity.x / length * 8, -gravity.y / length * 8)
        return "<g class=\"gravity\">\(title)<line x1=\"\(n(centre.x - d.x))\" y1=\"\(n(centre.y - d.y))\" "
            + "x2=\"\(n(centre.x + d.x))\" y2=\"\(n(centre.y + d.y))\" marker-end=\"url(#arrowhead)\"/></g>\n"
    }
}
