/// The optional header keys that let a renderer draw a scene with more than crates
/// (docs/formats.md §3 and §5). A trace of a scenario without `bodies` and `joints`
/// has none of them, so it is byte for byte what it was before bodies existed.
///
/// - `types`: each body's type (`"dynamic"`, `"kinematic"`, `"static"`), in header body order;
/// - `shapes`: each body's shapes in its own coordinates, in header body order: a list of
///   `{"circle":{"radius":r,"offset":[x,y]}}`, `{"box":{"size":[w,h],"radius":r}}`,
///   `{"polygon":{"vertices":[[x,y],...],"radius":r}}` or
///   `{"segment":{"from":[x,y],"to":[x,y],"radius":r}}` (a crate is one box of radius 0);
/// - `joints`: `{"kind":K,"a":ID,"b":ID,"anchorA":[x,y],"anchorB":[x,y]}`, with `"static"`
///   for the world, each anchor in its body's coordinates (the world's for `"static"`),
///   `[0,0]` for joints without anchors, and `"groove":[[x,y],[x,y]]` (body a's
///   coordinates) for a groove joint.
extension TraceHeader {
    /// A joint as a renderer draws it (the engine's `JointOutline`).
    public typealias JointOutline = Tiltbox.JointOutline

    /// Appends `types`, `shapes` and `joints` when present (called by `append(to:)`).
    func appendBodyOutlines(to out: inout JSONLineBuffer) {
        if let types {
            out.append(",\"types\":")
            out.append(strings: types.map(\.rawValue))
        }
        if let shapes {
            out.append(",\"shapes\":[")
            for (i, bodyShapes) in shapes.enumerated() {
                if i > 0 { out.append(",") }
                out.append("[")
                for (j, shape) in bodyShapes.enumerated() {
                    if j > 0 { out.append(",") }
                    Self.append(shape: shape, to: &out)
                }
                out.append("]")
            }
            out.append("]")
        }
        if let joints {
            out.append(",\"joints\":[")
            for (i, joint) in joints.enumerated() {
                if i > 0 { out.append(",") }
                out.append("{\"kind\":")
                out.append(string: joint.kind)
                out.append(",\"a\":")
                out.append(string: joint.a)
                out.append(",\"b\":")
                out.append(string: joint.b)
                out.append(",\"anchorA\":")
                out.append(pair: joint.anchorA)
                out.append(",\"anchorB\":")
                out.append(pair: joint.anchorB)
                if let groove = joint.groove {
                    out.append(",\"groove\":")
                    appendPairs(groove, to: &out)
                }
                out.append("}")
            }
            out.append("]")
        }
    }

    private static func append(shape: ShapeGeometry, to out: inout JSONLineBuffer) {
        switch shape {
        case .circle(let radius, let offset):
            out.append("{\"circle\":{\"radius\":")
            out.append(number: radius)
            out.append(",\"offset\":")
            out.append(pair: offset)
        case .box(let size, let radius):
            out.append("{\"box\":{\"size\":")
            out.append(pair: size)
            out.append(",\"radius\":")
            out.append(number: radius)
        case .polygon(let vertices, let radius):
            out.append("{\"polygon\":{\"vertices\":")
            appendPairs(vertices, to: &out)
            out.append(",\"radius\":")
            out.append(number: radius)
        case .segment(let from, let to, let radius):
            out.append("{\"segment\":{\"from\":")
            out.append(pair: from)
            out.append(",\"to\":")
            out.append(pair: to)
            out.append(",\"radius\":")
            out.append(number: radius)
        }
        out.append("}}")
    }

    private func appendPairs(_ points: [Vec2], to out: inout JSONLineBuffer) {
        Self.appendPairs(points, to: &out)
    }

    private static func appendPairs(_ points: [Vec2], to out: inout JSONLineBuffer) {
        out.append("[")
        for (i, point) in points.enumerated() {
            if i > 0 { out.append(",") }
            out.append(pair: point)
        }
        out.append("]")
    }
}
