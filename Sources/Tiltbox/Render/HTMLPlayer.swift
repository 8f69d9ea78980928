import Foundation

/// A self-contained HTML page that plays a trace: a canvas animated at real speed
/// with play/pause, a time slider, ¼×/1×/4× speeds, crate ids on hover, and a chart
/// of gravity (x, y) and total kinetic energy over time.
///
/// Nothing is loaded from the network: the style, the script and the data are inline.
/// Bodies are drawn from the trace's shapes when it has them (see `FilmStrip` for what
/// each shape looks like; the canvas draws the same). The world view zooms and pans:
/// the mouse wheel zooms about the pointer, dragging pans, `+`/`−` (keys or buttons)
/// zoom about the centre and `0` (or the "fit" button) goes back to the whole world,
/// the view the page opens with.
///
/// The data is one JSON object in a `<script type="application/json">` element,
/// quantised for size: positions to 2 decimals of a world unit, angles (wrapped to
/// (−π, π]) to 4 decimals, gravity and energy to 3, times in shortest round-trip form.
/// Long traces are decimated (`TraceDecimation`) so that kept frames × bodies stays
/// under `maxBodyFrames`; the last record is always kept.
///
/// For tests and scripting the page exposes `window.tiltbox`: `errors` (messages
/// caught by `window.onerror`), `seek(t)`, `frameIndex`, `drawnCrates()` (the centres
/// and angles the canvas last drew, in world units), `crateAt(x, y)` (the id under a
/// world point), `nonBackgroundPixels()`, `view()` (zoom, pan and pixels per world
/// unit), `zoomBy(factor, x, y)`, `resetView()`, `worldToScreen(x, y)` and
/// `pixelAt(x, y)` (the canvas colour at a world point). Opened with `#test` it plays briefly,
/// seeks to the end and writes a base64 JSON summary of those into `<pre id="test-output">`
/// (with `?probe=x,y,x,y...` in the address, the colours at those world points and the
/// body ids there, as `crateAt` finds them; and the
/// view after a `+` key, a wheel turn, a drag and a `0` key);
/// with `#paused` it does not start playing.
@_spi(Tools) public struct HTMLPlayer: Sendable {
    /// The cap on kept frames × bodies.
    public var maxBodyFrames: Int

    public init(maxBodyFrames: Int = TraceDecimation.defaultMaxBodyFrames) {
        self.maxBodyFrames = max(1, maxBodyFrames)
    }

    /// The records kept for `scene`.
    public func decimation(for scene: RenderScene) -> TraceDecimation {
        TraceDecimation(recordCount: scene.records.count, bodies: scene.bodies.count, maxBodyFrames: maxBodyFrames)
    }

    /// The page as UTF-8 bytes.
    public func html(scene: RenderScene) -> [UInt8] {
        var bytes: [UInt8] = []
        let data = dataJSON(scene: scene, decimation: decimation(for: scene))
        bytes.reserveCapacity(data.count + HTMLPlayerPage.head.utf8.count + HTMLPlayerPage.tail.utf8.count + 256)
        bytes.append(
            contentsOf: HTMLPlayerPage.head.replacingOccurrences(of: "{{TITLE}}", with: Markup.escape(scene.title)).utf8
        )
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: HTMLPlayerPage.tail.utf8)
        return bytes
    }

    /// The embedded data object: `title`, `bodies`, `sizes` (flat w, h), `segments`
    /// (flat x1, y1, x2, y2, radius), `origin`, `extent`, `energy` (the chart's label
    /// for `ke`, or null), `stride` and `records` (the decimation), then per kept frame
    /// `t`, `g` (flat gx, gy), `ke` (or null) and `s` (one flat x, y, angle array per frame).
    public func dataJSON(scene: RenderScene, decimation: TraceDecimation) -> [UInt8] {
        var out: [UInt8] = []
        func raw(_ text: String) { out.append(contentsOf: text.utf8) }
        func number(_ value: Double, _ decimals: Int) { RenderNumber.append(value, decimals: decimals, to: &out) }
        func numbers(_ values: [Double], _ decimals: Int) {
            out.append(UInt8(ascii: "["))
            for (i, v) in values.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                number(v, decimals)
            }
            out.append(UInt8(ascii: "]"))
        }
        raw("{\"title\":")
        Markup.appendScriptJSONString(scene.title, to: &out)
        raw(",\n\"bodies\":[")
        for (i, id) in scene.bodies.enumerated() {
            if i > 0 { raw(",") }
            Markup.appendScriptJSONString(id, to: &out)
        }
        raw("],\n\"sizes\":")
        numbers(scene.sizes.flatMap { [$0.x, $0.y] }, 3)
        raw(",\n\"segments\":")
        numbers(scene.segments.flatMap { [$0.from.x, $0.from.y, $0.to.x, $0.to.y, $0.radius] }, 3)
        if !scene.outline.isCratesOnly {
            appendOutline(scene.outline, to: &out)
            appendJointFrames(scene: scene, decimation: decimation, to: &out)
        }
        raw(",\n\"origin\":")
        numbers([scene.origin.x, scene.origin.y], 3)
        raw(",\"extent\":")
        numbers([scene.extent.x, scene.extent.y], 3)
        let kept = decimation.indices.map { scene.record(at: $0) }
        let energies = kept.map { scene.kineticEnergy(of: $0) }
        let hasEnergy = !kept.isEmpty && energies.allSatisfy { $0 != nil }
        raw(",\"energy\":")
        if hasEnergy {
            Markup.appendScriptJSONString(
                scene.energyIsPerUnitMass ? "kinetic energy per unit mass" : "kinetic energy", to: &out)
        } else {
            raw("null")
        }
        raw(",\"stride\":\(decimation.stride),\"records\":\(scene.records.count)")
        raw(",\n\"t\":[")
        for (i, record) in kept.enumerated() {
            if i > 0 { raw(",") }
            raw(record.t.isFinite ? NumberFormat.shortest(record.t) : "0")
        }
        raw("],\n\"g\":")
        numbers(kept.flatMap { [$0.gravity.x, $0.gravity.y] }, 3)
        raw(",\n\"ke\":")
        if hasEnergy { numbers(energies.map { $0 ?? 0 }, 3) } else { raw("null") }
        raw(",\n\"s\":[")
        for (f, record) in kept.enumerated() {
            raw(f > 0 ? ",\n[" : "[")
            for body in scene.bodies.indices {
                if body > 0 { out.append(UInt8(ascii: ",")) }
                guard scene.isPresent(in: record, body: body) else {
                    // Not spawned yet, or removed: not drawn in this frame.
                    raw("null,null,null")
                    continue
                }
                let p = scene.position(in: record, body: body)
                number(p.x, 2)
                out.append(UInt8(ascii: ","))
                number(p.y, 2)
                out.append(UInt8(ascii: ","))
                number(Self.wrapped(scene.angle(in: record, body: body)), 4)
            }
            raw("]")
        }
        raw("]}")
        return out
    }

    /// Appends `"types"`, `"shapes"` and `"joints"` for a scene with more than crates.
    /// Each body's shapes are arrays led by a letter: `["c", r, ox, oy]`,
    /// `["b", w, h, r]`, `["p", r, x1, y1, x2, y2, ...]`, `["s", r, x1, y1, x2, y2]`;
    /// each joint is `[kind, a, b, ax, ay, bx, by]` (body indices, −1 for the world),
    /// with a groove's ends `gx1, gy1, gx2, gy2` appended. Three decimals.
    func appendOutline(_ outline: SceneOutline, to out: inout [UInt8]) {
        func raw(_ text: String) { out.append(contentsOf: text.utf8) }
        func numbers(_ values: [Double]) {
            for v in values {
                out.append(UInt8(ascii: ","))
                RenderNumber.append(v, decimals: 3, to: &out)
            }
        }
        raw(",\n\"types\":[")
        raw(outline.bodies.map { "\"\($0.type.rawValue)\"" }.joined(separator: ","))
        raw("],\n\"shapes\":[")
        for (i, body) in outline.bodies.enumerated() {
            raw(i > 0 ? ",[" : "[")
            for (j, shape) in body.shapes.enumerated() {
                if j > 0 { raw(",") }
                switch shape {
                case .circle(let radius, let offset): raw("[\"c\""); numbers([radius, offset.x, offset.y])
                case .box(let size, let radius): raw("[\"b\""); numbers([size.x, size.y, radius])
                case .polygon(let vertices, let radius):
                    raw("[\"p\""); numbers([radius] + vertices.flatMap { [$0.x, $0.y] })
                case .segment(let from, let to, let radius):
                    raw("[\"s\""); numbers([radius, from.x, from.y, to.x, to.y])
                }
                raw("]")
            }
            raw("]")
        }
        raw("],\n\"joints\":[")
        for (i, joint) in outline.joints.filter(\.isDrawn).enumerated() {
            raw(i > 0 ? ",[" : "[")
            Markup.appendScriptJSONString(joint.kind, to: &out)
            raw(",\(joint.a ?? -1),\(joint.b ?? -1)")
            numbers(
                [joint.anchorA.x, joint.anchorA.y, joint.anchorB.x, joint.anchorB.y]
                    + (joint.groove ?? []).flatMap { [$0.x, $0.y] })
            raw("]")
        }
        raw("]")
    }

    /// Appends `"jointFrames"` for a trace with events: per joint of `"joints"`, the first and
    /// last kept frame it is present in (`[-1,-1]` for none); without events every joint is
    /// present throughout and the key is left out.
    func appendJointFrames(scene: RenderScene, decimation: TraceDecimation, to out: inout [UInt8]) {
        guard scene.followsEvents else { return }
        var first = [Int](repeating: -1, count: scene.outline.joints.count)
        var last = first
        for (frame, recordIndex) in decimation.indices.enumerated() {
            for j in scene.jointIndices(at: recordIndex) {
                if first[j] < 0 { first[j] = frame }
                last[j] = frame
            }
        }
        out.append(contentsOf: ",\n\"jointFrames\":[".utf8)
        for (i, j) in scene.outline.joints.indices.filter({ scene.outline.joints[$0].isDrawn }).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: "[\(first[j]),\(last[j])]".utf8)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `angle` in (−π, π] (the same rotation, fewer digits).
    static func wrapped(_ angle: Double) -> Double {
        guard angle.isFinite else { return 0 }
        let r = remainder(angle, 2 * Double.pi)
        return r == -Double.pi ? Double.pi : r
    }
}
