import Foundation

/// One shape placed in the world, ready to draw.
public enum PlacedShape: Sendable, Equatable {
    /// A circle and the end of its radius line: the point of the rim along the body's
    /// own x axis, so the line turns with the body.
    case circle(centre: Vec2, radius: Double, rim: Vec2)
    /// A box's or a polygon's corners in the world, in the shape's order
    /// (counter-clockwise), and the radius that rounds them: Chipmunk's shape is the
    /// polygon grown by `radius` in every direction.
    case polygon(corners: [Vec2], radius: Double)
    /// A segment and its radius: Chipmunk's shape is the capsule of all points within
    /// `radius` of it.
    case segment(from: Vec2, to: Vec2, radius: Double)
}

/// What the three views draw for each body and joint, whatever the trace or scenario
/// it came from: each body's type and shapes in its own coordinates, and each joint's
/// ends and anchors.
///
/// Built from a trace header (`types`, `shapes` and `joints` when present; otherwise
/// every body is a crate, a box of its `sizes` entry) or from a scenario (crates as
/// boxes, then `bodies`' shapes; a `pivot` given by one world anchor gets each body's
/// local anchor from the bodies' initial poses, as `cpPivotJointNew` computes them).
/// Shapes are placed in the world by the body's `x`, `y` (its origin) and `angle`.
@_spi(Tools) public struct SceneOutline: Sendable, Equatable {
    /// What the views draw of a body: its engine type and shapes (not the engine's `Body`,
    /// which owns Chipmunk objects).
    public struct BodyOutline: Sendable, Equatable {
        public var type: BodyType
        /// In the body's own coordinates; a crate is one box of radius 0.
        public var shapes: [ShapeGeometry]

        public init(type: BodyType = .dynamic, shapes: [ShapeGeometry]) {
            self.type = type
            self.shapes = shapes
        }

        /// The farthest any point of the body's shapes is from its origin.
        public var reach: Double {
            shapes.map { shape -> Double in
                switch shape {
                case .circle(let radius, let offset): return offset.length + radius
                case .box(let size, let radius): return size.length / 2 + radius
                case .polygon(let vertices, let radius): return (vertices.map(\.length).max() ?? 0) + radius
                case .segment(let from, let to, let radius): return max(from.length, to.length) + radius
                }
            }.max() ?? 0
        }

        /// The smallest box, centred on the origin, that holds every shape (a crate's is its size).
        public var boundingSize: Vec2 {
            var half = Vec2.zero
            func include(_ p: Vec2, _ r: Double) { half = Vec2(max(half.x, abs(p.x) + r), max(half.y, abs(p.y) + r)) }
            for shape in shapes {
                switch shape {
                case .circle(let radius, let offset): include(offset, radius)
                case .box(let size, let radius): include(size * 0.5, radius)
                case .polygon(let vertices, let radius): vertices.forEach { include($0, radius) }
                case .segment(let from, let to, let radius): include(from, radius); include(to, radius)
                }
            }
            return half * 2
        }

        /// True for a dynamic body that is one plain box: a crate, drawn as crates always were.
        public var isCrate: Bool {
            guard type == .dynamic, shapes.count == 1, case .box(_, let radius) = shapes[0] else { return false }
            return radius == 0
        }
    }

    /// The engine's `JointOutline` with its ends resolved to body indices: `nil` is the
    /// world's static body.
    public struct IndexedJoint: Sendable, Equatable {
        /// The joint as the trace header (or the scenario) describes it.
        public var outline: JointOutline
        /// Body a's index in trace order; `nil` for the world.
        public var a: Int?
        /// Body b's index in trace order; `nil` for the world.
        public var b: Int?

        /// The trace header's `kind`: a `JointKind`'s raw value (a trace may name another).
        public var kind: String { outline.kind }
        /// In body a's coordinates (the world's when `a` is `nil`).
        public var anchorA: Vec2 { outline.anchorA }
        /// In body b's coordinates (the world's when `b` is `nil`).
        public var anchorB: Vec2 { outline.anchorB }
        /// A groove joint's groove ends, in body a's coordinates.
        public var groove: [Vec2]? { outline.groove }

        /// Whether the views draw the joint: all but an angular joint (`JointKind.isAngular`)
        /// to the world, whose "anchor" would be the world's origin.
        public var isDrawn: Bool { !(JointKind(rawValue: kind)?.isAngular == true && (a == nil || b == nil)) }

        public init(_ outline: JointOutline, a: Int?, b: Int?) {
            self.outline = outline
            self.a = a
            self.b = b
        }

        /// A joint between bodies `a` and `b` (`nil`: the world), its outline's ids the indices.
        public init(kind: String, a: Int?, b: Int?, anchorA: Vec2 = .zero, anchorB: Vec2 = .zero, groove: [Vec2]? = nil)
        {
            self.init(
                JointOutline(
                    kind: kind, a: a.map(String.init) ?? "static", b: b.map(String.init) ?? "static",
                    anchorA: anchorA, anchorB: anchorB, groove: groove), a: a, b: b)
        }
    }

    /// In trace body order.
    public var bodies: [BodyOutline]
    /// In creation order.
    public var joints: [IndexedJoint]

    public init(bodies: [BodyOutline], joints: [IndexedJoint] = []) {
        self.bodies = bodies
        self.joints = joints
    }

    /// Every body a crate of the given size, no joints.
    public static func crates(sizes: [Vec2]) -> SceneOutline {
        SceneOutline(bodies: sizes.map { BodyOutline(shapes: [.box(size: $0, radius: 0)]) })
    }

    /// True when every body is a crate and there are no joints: the drawings are then
    /// exactly those of a trace written before bodies existed.
    public var isCratesOnly: Bool { joints.isEmpty && bodies.allSatisfy(\.isCrate) }

    /// The outline a trace header describes: its `shapes` (and `types`, else dynamic)
    /// when present for every body, else crates of `sizes` (`defaultSize` for each body
    /// when the header has no `sizes` either); its `joints`, those naming an unknown id
    /// left out (the reader refuses them anyway).
    public init(header: TraceHeader, defaultSize: Vec2 = RenderScene.defaultCrateSize) {
        let count = header.bodies.count
        if let shapes = header.shapes, shapes.count == count {
            let types = header.types?.count == count ? header.types : nil
            bodies = shapes.enumerated().map { BodyOutline(type: types?[$0.offset] ?? .dynamic, shapes: $0.element) }
        } else {
            let sizes = header.sizes?.count == count ? header.sizes ?? [] : Array(repeating: defaultSize, count: count)
            bodies = sizes.map { BodyOutline(shapes: [.box(size: $0, radius: 0)]) }
            if let types = header.types, types.count == count {
                for i in bodies.indices { bodies[i].type = types[i] }
            }
        }
        var index: [String: Int] = [:]
        for (i, id) in header.bodies.enumerated() where index[id] == nil { index[id] = i }
        joints = (header.joints ?? []).compactMap { joint in
            func end(_ id: String) -> Int?? { id == "static" ? .some(nil) : index[id].map { .some($0) } }
            guard let a = end(joint.a), let b = end(joint.b) else { return nil }
            return IndexedJoint(joint, a: a, b: b)
        }
    }

    /// The outline of a scenario: its bodies in trace order (`Scenario.bodyDefinitions`:
    /// crates, listed then grids, as boxes, then `bodies`);
    /// joints with their anchors in each body's coordinates.
    public init(scenario: Scenario) {
        let definitions = scenario.bodyDefinitions
        bodies = definitions.map { BodyOutline(type: $0.type, shapes: $0.shapes.map(\.geometry)) }
        let poses = definitions.map { BodyPose(position: $0.position, angle: $0.angle) }
        var index: [String: Int] = [:]
        for (i, body) in definitions.enumerated() where index[body.id] == nil { index[body.id] = i }
        joints = scenario.joints.compactMap { spec in
            func end(_ body: JointBody) -> Int?? {
                switch body {
                case .world: return .some(nil)
                case .body(let id): return index[id].map { .some($0) }
                }
            }
            guard let a = end(spec.a), let b = end(spec.b) else { return nil }
            func id(_ body: JointBody) -> String {
                switch body {
                case .world: return "static"
                case .body(let id): return id
                }
            }
            var joint = JointOutline(kind: spec.kind.rawValue, a: id(spec.a), b: id(spec.b))
            switch spec.parameters.anchors {
            case .local(let anchorA, let anchorB):
                joint.anchorA = anchorA
                joint.anchorB = anchorB
            case .world(let pivot):
                // cpPivotJointNew: anchorA = cpBodyWorldToLocal(a, pivot), the same for b.
                func local(_ end: Int?) -> Vec2 { end.map { poses[$0].local(pivot) } ?? pivot }
                joint.anchorA = local(a)
                joint.anchorB = local(b)
            case .groove(let grooveA, let grooveB, let anchorB):
                joint.groove = [grooveA, grooveB]
                joint.anchorA = grooveA
                joint.anchorB = anchorB
            case .none:
                break
            }
            return IndexedJoint(joint, a: a, b: b)
        }
    }

    // MARK: - Placing in the world

    /// `shape` of a body at `pose`, in world coordinates. A box's corners run
    /// (−w/2, −h/2), (w/2, −h/2), (w/2, h/2), (−w/2, h/2), as crates' always have.
    public static func place(_ shape: ShapeGeometry, at pose: BodyPose) -> PlacedShape {
        switch shape {
        case .circle(let radius, let offset):
            return .circle(
                centre: pose.world(offset), radius: radius, rim: pose.world(Vec2(offset.x + radius, offset.y)))
        case .box(let size, let radius):
            let hw = size.x / 2, hh = size.y / 2
            return .polygon(
                corners: [Vec2(-hw, -hh), Vec2(hw, -hh), Vec2(hw, hh), Vec2(-hw, hh)].map(pose.world), radius: radius)
        case .polygon(let vertices, let radius):
            return .polygon(corners: vertices.map(pose.world), radius: radius)
        case .segment(let from, let to, let radius):
            return .segment(from: pose.world(from), to: pose.world(to), radius: radius)
        }
    }

    /// A joint's thin line in the world: from anchor A to anchor B, each placed by its
    /// body's pose (`pose(nil)` is never asked: the world's anchors are world points).
    /// For a groove joint the line runs from anchor B to the nearest point of the
    /// groove, and `groove` gives the groove's ends in the world.
    public static func line(of joint: IndexedJoint, pose: (Int) -> BodyPose) -> (
        from: Vec2, to: Vec2, groove: (Vec2, Vec2)?
    ) {
        func world(_ end: Int?, _ p: Vec2) -> Vec2 { end.map { pose($0).world(p) } ?? p }
        let b = world(joint.b, joint.anchorB)
        guard let groove = joint.groove, groove.count == 2 else {
            return (world(joint.a, joint.anchorA), b, nil)
        }
        let g0 = world(joint.a, groove[0]), g1 = world(joint.a, groove[1])
        let d = g1 - g0
        let length2 = d.x * d.x + d.y * d.y
        let t = length2 > 0 ? min(1, max(0, ((b.x - g0.x) * d.x + (b.y - g0.y) * d.y) / length2)) : 0
        return (g0 + d * t, b, (g0, g1))
    }

    /// The outline of a convex polygon grown by `radius` (a rounded box, a rounded
    /// polygon, or with two corners a capsule), as a closed polyline: each edge pushed
    /// out by `radius`, each corner an arc of `chordsPerCorner` chords (a corner turning
    /// by more than a quarter turn gets proportionally more). Corners may be in either
    /// winding; with `radius` 0 they are returned as given.
    public static func roundedOutline(corners: [Vec2], radius: Double, chordsPerCorner: Int) -> [Vec2] {
        guard radius > 0, corners.count >= 2 else { return corners }
        var out: [Vec2] = []
        for arc in cornerArcs(corners: corners, radius: radius) {
            let from = atan2(arc.start.y - arc.corner.y, arc.start.x - arc.corner.x)
            var sweep = atan2(arc.end.y - arc.corner.y, arc.end.x - arc.corner.x) - from
            while sweep < 0 { sweep += 2 * .pi }
            let chords = max(1, Int((Double(chordsPerCorner) * sweep / (.pi / 2)).rounded(.up)))
            for k in 0...chords {
                let a = from + sweep * Double(k) / Double(chords)
                out.append(Vec2(arc.corner.x + radius * cos(a), arc.corner.y + radius * sin(a)))
            }
        }
        return out
    }

    /// For each corner of a convex polygon (taken counter-clockwise: corners given
    /// clockwise are reversed), where the arc that rounds it by `radius` starts (the
    /// corner pushed out along the incoming edge's outward normal) and ends (along the
    /// outgoing edge's). With two corners (a segment) the arcs are the capsule's ends.
    public static func cornerArcs(corners: [Vec2], radius: Double) -> [(corner: Vec2, start: Vec2, end: Vec2)] {
        var area = 0.0
        for i in corners.indices {
            let p = corners[i], q = corners[(i + 1) % corners.count]
            area += p.x * q.y - q.x * p.y
        }
        let points = area < 0 ? Array(corners.reversed()) : corners
        let count = points.count
        // Outward normal of edge i (points[i] → points[i + 1]) of a counter-clockwise polygon.
        let normals: [Vec2] = (0..<count).map { i in
            let d = points[(i + 1) % count] - points[i]
            let length = d.length
            return length > 0 ? Vec2(d.y / length, -d.x / length) : Vec2(0, -1)
        }
        return (0..<count).map { i in
            (points[i], points[i] + normals[(i + count - 1) % count] * radius, points[i] + normals[i] * radius)
        }
    }

    /// The corners of a circle as a closed polyline of `chords` chords (a multiple of 4
    /// puts one on the rim's top, bottom, left and right), starting at angle 0.
    public static func circleOutline(centre: Vec2, radius: Double, chords: Int) -> [Vec2] {
        (0..<chords).map { k in
            let a = 2 * Double.pi * Double(k) / Double(chords)
            return Vec2(centre.x + radius * cos(a), centre.y + radius * sin(a))
        }
    }
}

extension SceneOutline {
    /// The four corners of a crate of `size` centred at `position` and turned by `angle`
    /// (counter-clockwise), in world coordinates.
    static func corners(position: Vec2, size: Vec2, angle: Double) -> [Vec2] {
        guard
            case .polygon(let corners, _) = SceneOutline.place(
                .box(size: size, radius: 0),
                at: BodyPose(position: position, angle: angle))
        else { return [] }
        return corners
    }
}
