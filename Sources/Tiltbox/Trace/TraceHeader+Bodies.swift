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
///
/// The keys are declared with the header's others in TraceHeader+Keys.swift; this file holds
/// the joint outline, and how a shape is written and read.
extension TraceHeader {
    /// A joint as a renderer draws it (the engine's `JointOutline`).
    public typealias JointOutline = Tiltbox.JointOutline

    fileprivate static func append(shape: ShapeGeometry, to out: inout JSONLineBuffer) {
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

    private static func appendPairs(_ points: [Vec2], to out: inout JSONLineBuffer) {
        out.append("[")
        for (i, point) in points.enumerated() {
            if i > 0 { out.append(",") }
            out.append(pair: point)
        }
        out.append("]")
    }
}

// MARK: - Values of the body outline keys

extension TraceHeaderValue where V == BodyType {
    /// `"dynamic"`, `"kinematic"` or `"static"`.
    static var bodyType: Self {
        .rawValue { "unknown body type \"\($0)\" (expected dynamic, kinematic or static)" }
    }
}

extension TraceHeaderValue where V == ShapeGeometry {
    /// One shape of `shapes`: an object with exactly one of `circle`, `box`, `polygon` or
    /// `segment`, its geometry finite.
    static var shapeGeometry: Self {
        Self(
            write: { shape, out in TraceHeader.append(shape: shape, to: &out) },
            read: { node, path, lines throws(InputError) in try lines.shapeGeometry(node, path) })
    }
}

extension TraceHeaderValue where V == String {
    /// A joint end: one of `bodies` or `"static"` for the world.
    static func bodyID(among bodies: Set<String>) -> Self {
        string.checked { id in
            id == "static" || bodies.contains(id) ? nil : "\"\(id)\" is not a body of this trace (nor \"static\")"
        }
    }
}

extension TraceLineReader {
    /// One shape of the header's `shapes`: an object with exactly one of `circle`, `box`,
    /// `polygon` or `segment`, its geometry finite.
    func shapeGeometry(_ node: JSONNode, _ path: String) throws(InputError) -> ShapeGeometry {
        guard let members = node.objectMembers, members.count == 1, let kindName = members.first?.key,
            let body = node[kindName], body.objectMembers != nil
        else {
            throw error(
                at: node, path: path,
                reason: "expected an object with one of \"circle\", \"box\", \"polygon\" or \"segment\"")
        }
        let inner = path + "." + kindName
        func finite(_ key: String) throws(InputError) -> Double {
            let value = try number(try member(body, key), inner + "." + key)
            guard value.isFinite else { throw error(at: body[key], path: inner + "." + key, reason: "must be finite") }
            return value
        }
        func point(_ key: String) throws(InputError) -> Vec2 {
            try pair(try member(body, key), inner + "." + key)
        }
        switch kindName {
        case "circle":
            try reader.refuseMisspeltKeys(body, inner, keys: ["radius", "offset"])
            return .circle(radius: try finite("radius"), offset: body["offset"] == nil ? .zero : try point("offset"))
        case "box":
            try reader.refuseMisspeltKeys(body, inner, keys: ["size", "radius"])
            return .box(size: try point("size"), radius: body["radius"] == nil ? 0 : try finite("radius"))
        case "polygon":
            try reader.refuseMisspeltKeys(body, inner, keys: ["vertices", "radius"])
            var vertices: [Vec2] = []
            for (k, v) in try array(try member(body, "vertices"), inner + ".vertices").enumerated() {
                vertices.append(try pair(v, inner + ".vertices[\(k)]"))
            }
            return .polygon(vertices: vertices, radius: body["radius"] == nil ? 0 : try finite("radius"))
        case "segment":
            try reader.refuseMisspeltKeys(body, inner, keys: ["from", "to", "radius"])
            return .segment(
                from: try point("from"), to: try point("to"), radius: body["radius"] == nil ? 0 : try finite("radius"))
        default:
            throw error(
                at: node, path: path, reason: "unknown shape \"\(kindName)\" (expected circle, box, polygon or segment)"
            )
        }
    }
}
