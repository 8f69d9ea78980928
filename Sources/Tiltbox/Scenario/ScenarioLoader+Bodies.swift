/// Reading the scenario's `bodies` (docs/formats.md §5): any Chipmunk body with one or
/// more shapes, checked so that nothing Chipmunk asserts on, and nothing meaningless,
/// reaches it.
///
/// The choices this loader makes, beyond the format's contract:
/// - `type` defaults to `dynamic`; `position` is required; `angle`, `velocity` and
///   `angularVelocity` default to 0, with the crates' bounds. A dynamic body must start
///   inside the world, as a crate must; a static body cannot have a velocity.
/// - Each shape has exactly one of `circle`, `box`, `polygon`, `segment`. Radii default to 0
///   (a circle's `radius` is required and ≥ `minCrateSize`), `offset` to `[0, 0]`.
/// - `mass` (`cpShapeSetMass`) or `density` (`cpShapeSetDensity`, mass per unit area), not
///   both, and only on a dynamic body's shapes: Chipmunk ignores them on kinematic and
///   static bodies, so giving one there is refused rather than silently dropped. A shape of
///   a dynamic body may have neither (it then adds no mass, as in Chipmunk), but the body's
///   total mass and moment of inertia, accumulated over its shapes as Chipmunk 7.0.3's
///   `cpBodyAccumulateMassFromShapes` does, must be positive.
/// - A polygon has at least 3 distinct vertices, listed counter-clockwise, strictly convex
///   (no vertex on the line through its neighbours), winding once; Chipmunk would otherwise
///   silently replace it by its convex hull.
/// - `path` is read only on a kinematic body (`FieldReader.kinematicPath`).
extension ScenarioLoader {
    static let bodyKeys = [
        "id", "type", "position", "angle", "velocity", "angularVelocity", "shapes", "path", "mass", "moment",
        "centerOfGravity",
    ]
    /// The largest finite `moment` a body may give (any larger moment is as good as `"infinite"`).
    static let maxGivenMoment = 1e30
    static let shapeKeys =
        ["circle", "box", "polygon", "segment", "mass", "density", "friction", "elasticity"] + shapeCollisionKeys
    static let shapeKinds = ["circle", "box", "polygon", "segment"]
    static let circleKeys = ["radius", "offset"]
    static let boxKeys = ["size", "radius"]
    static let polygonKeys = ["vertices", "radius"]
    static let segmentGeometryKeys = ["from", "to", "radius"]

    /// The listed bodies, with ids unique across `crates` and bodies.
    static func bodySpecs(_ top: ObjectReader, crates: [CrateSpec], world: WorldSettings) throws(InputError)
        -> [BodySpec]
    {
        let reader = top.reader
        let room = max(0, limits.maxCrates - crates.count)
        guard let listNode = top["bodies"] else { return [] }
        guard case .array(let all) = listNode.value else {
            throw reader.error(at: listNode, "bodies", "expected an array, got \(listNode.value.typeName)")
        }
        guard all.count <= room else {
            throw reader.error(
                at: listNode, "bodies",
                "\(all.count) bodies with \(crates.count) crates is more than "
                    + "the limit of \(limits.maxCrates) bodies (crates included)")
        }
        var crateIDs = Set<String>()
        crateIDs.reserveCapacity(crates.count)
        for crate in crates { crateIDs.insert(crate.id) }
        var seen: [String: String] = [:]
        var bodies: [BodySpec] = []
        bodies.reserveCapacity(all.count)
        for (index, node) in all.enumerated() {
            let path = FieldReader.element("bodies", index)
            let object = try reader.object(node, path, keys: bodyKeys)
            let idNode = try object.required("id")
            let id = try reader.string(idNode, object.path("id"), allowEmpty: false)
            if id == "static" {
                throw reader.error(
                    at: idNode, object.path("id"),
                    "\"static\" names the world's static body in joints; choose another id")
            }
            if crateIDs.contains(id) {
                throw reader.error(
                    at: idNode, object.path("id"),
                    "duplicate id \"\(id)\": a crate has it (ids are unique across crates and bodies)")
            }
            if let first = seen[id] {
                throw reader.error(at: idNode, object.path("id"), "duplicate id \"\(id)\" (first used at \(first))")
            }
            seen[id] = object.path("id")
            bodies.append(try body(object, id: id, world: world))
        }
        return bodies
    }

    static func body(_ object: ObjectReader, id: String, world: WorldSettings) throws(InputError) -> BodySpec {
        let reader = object.reader
        var type = BodyType.dynamic
        if let typeNode = object["type"] {
            type = try reader.enumeration(typeNode, object.path("type"), as: BodyType.self)
        }
        let positionNode = try object.required("position")
        let position = try reader.vec2(positionNode, object.path("position"), .magnitude(limits.maxCoordinate))
        if type == .dynamic && !inside(position, world) {
            throw reader.error(
                at: positionNode, object.path("position"),
                "body \"\(id)\" at \(show(position)) lies outside the world \(showBounds(world))")
        }
        let angle = try object.number("angle", default: 0, .magnitude(limits.maxAngle))
        let velocity = try object.vec2("velocity", default: .zero, .magnitude(limits.maxSpeed))
        let angularVelocity = try object.number("angularVelocity", default: 0, .magnitude(limits.maxAngularVelocity))
        if type == .static {
            for key in ["velocity", "angularVelocity"] {
                if let node = object[key], velocity != .zero || angularVelocity != 0 {
                    throw reader.error(
                        at: node, object.path(key),
                        "a static body never moves: remove \"\(key)\" or make the body kinematic")
                }
            }
        }

        let givenMass = try self.givenMass(object, type: type, id: id)
        let shapesNode = try object.required("shapes")
        let shapeNodes = try reader.array(shapesNode, object.path("shapes"), maxCount: limits.maxShapesPerBody)
        guard !shapeNodes.isEmpty else {
            throw reader.error(at: shapesNode, object.path("shapes"), "a body needs at least one shape")
        }
        var shapes: [ShapeSpec] = []
        for (index, node) in shapeNodes.enumerated() {
            let shapeObject = try reader.object(
                node, FieldReader.element(object.path("shapes"), index), keys: shapeKeys)
            shapes.append(try shape(shapeObject, bodyType: type, massGiven: givenMass != nil))
        }
        if type == .dynamic {
            try checkMass(shapes, given: givenMass, object: object, shapesNode: shapesNode, id: id)
        }

        var path: KinematicPath?
        if let pathNode = object["path"] {
            guard type == .kinematic else {
                throw reader.error(
                    at: pathNode, object.path("path"),
                    "only a kinematic body follows a path (this body is \(type.rawValue)): add \"type\": \"kinematic\"")
            }
            path = try reader.kinematicPath(pathNode, object.path("path"))
        }
        return BodySpec(
            id: id, type: type, position: position, angle: angle, velocity: velocity,
            angularVelocity: angularVelocity, shapes: shapes, path: path, givenMass: givenMass)
    }

    /// A body's own `mass`, `moment` (a number or `"infinite"`) and `centerOfGravity`: only on
    /// a dynamic body, `mass` and `moment` together, `centerOfGravity` only with them.
    private static func givenMass(_ object: ObjectReader, type: BodyType, id: String) throws(InputError)
        -> GivenMass?
    {
        let reader = object.reader
        let keys = ["mass", "moment", "centerOfGravity"]
        if type != .dynamic, let key = keys.first(where: { object[$0] != nil }), let node = object[key] {
            throw reader.error(
                at: node, object.path(key),
                "a \(type.rawValue) body has no mass (Chipmunk ignores it): remove \"\(key)\"")
        }
        guard let massNode = object["mass"] else {
            if let key = keys.dropFirst().first(where: { object[$0] != nil }), let node = object[key] {
                throw reader.error(
                    at: node, object.path(key),
                    "\"\(key)\" needs the body's \"mass\" too (or leave both to the shapes' mass and density)")
            }
            return nil
        }
        let mass = try reader.number(massNode, object.path("mass"), .closed(limits.minMass, limits.maxMass))
        guard let momentNode = object["moment"] else {
            throw reader.error(
                at: massNode, object.path("mass"),
                "a body that gives its \"mass\" gives its \"moment\" too (a number, or \"infinite\" for no rotation)")
        }
        let moment: Double
        if case .string(let text) = momentNode.value {
            guard text == "infinite" else {
                throw reader.error(
                    at: momentNode, object.path("moment"), "expected a number or \"infinite\", got another string")
            }
            moment = .infinity
        } else {
            guard case .number = momentNode.value else {
                throw reader.error(
                    at: momentNode, object.path("moment"),
                    "expected a number or \"infinite\", got \(momentNode.value.typeName)")
            }
            moment = try reader.number(momentNode, object.path("moment"), .positive(max: maxGivenMoment))
        }
        let centre = try object.vec2("centerOfGravity", default: .zero, .magnitude(limits.maxLocalCoordinate))
        return GivenMass(mass: mass, moment: moment, centreOfGravity: centre)
    }

    // MARK: - Shapes

    private static func shape(_ object: ObjectReader, bodyType: BodyType, massGiven: Bool) throws(InputError)
        -> ShapeSpec
    {
        let reader = object.reader
        let given = shapeKinds.filter { object[$0] != nil }
        guard given.count == 1, let kind = given.first, let geometryNode = object[kind] else {
            let reason =
                given.isEmpty
                ? "missing the shape: give one of \"circle\", \"box\", \"polygon\", \"segment\""
                : "a shape is one of \"circle\", \"box\", \"polygon\", \"segment\", not several (got \(given.joined(separator: ", ")))"
            throw reader.error(at: object.node, object.path, reason)
        }
        let geometry = try shapeGeometry(kind, geometryNode, object.path(kind), reader: reader)

        var mass: ShapeMass?
        let massNode = object["mass"], densityNode = object["density"]
        if bodyType != .dynamic, let node = massNode ?? densityNode {
            let key = massNode != nil ? "mass" : "density"
            throw reader.error(
                at: node, object.path(key),
                "a \(bodyType.rawValue) body has no mass (Chipmunk ignores it): remove \"\(key)\"")
        }
        if massGiven, let node = massNode ?? densityNode {
            let key = massNode != nil ? "mass" : "density"
            throw reader.error(
                at: node, object.path(key),
                "the body gives its own \"mass\" and \"moment\": its shapes carry neither \"mass\" nor \"density\"; "
                    + "remove \"\(key)\"")
        }
        if let massNode, let densityNode {
            _ = massNode
            throw reader.error(at: densityNode, object.path("density"), "give \"mass\" or \"density\", not both")
        }
        if let value = try object.optionalNumber("mass", .closed(limits.minMass, limits.maxMass)) {
            mass = .mass(value)
        } else if let value = try object.optionalNumber("density", .positive(max: limits.maxDensity)) {
            mass = .density(value)
        }
        let defaults = ShapeSpec(geometry: geometry)
        return try ShapeSpec(
            geometry: geometry, mass: mass,
            friction: object.number("friction", default: defaults.friction, .nonNegative(max: limits.maxMaterial)),
            elasticity: object.number(
                "elasticity", default: defaults.elasticity, .nonNegative(max: limits.maxMaterial)),
            collision: shapeCollision(object)
        )
    }

    private static func shapeGeometry(
        _ kind: String, _ node: JSONNode, _ path: String,
        reader: FieldReader
    ) throws(InputError) -> ShapeGeometry {
        let local = Bounds.magnitude(limits.maxLocalCoordinate)
        let radiusBounds = Bounds.nonNegative(max: limits.maxRadius)
        switch kind {
        case "circle":
            let object = try reader.object(node, path, keys: circleKeys)
            return try .circle(
                radius: object.number("radius", default: nil, .closed(limits.minCrateSize, limits.maxRadius)),
                offset: object.vec2("offset", default: .zero, local))
        case "box":
            let object = try reader.object(node, path, keys: boxKeys)
            return try .box(
                size: object.vec2(
                    "size", default: nil,
                    Bounds(
                        min: limits.minCrateSize, minInclusive: true,
                        max: limits.maxCrateSize)),
                radius: object.number("radius", default: 0, radiusBounds))
        case "segment":
            let object = try reader.object(node, path, keys: segmentGeometryKeys)
            let from = try object.vec2("from", default: nil, local)
            let to = try object.vec2("to", default: nil, local)
            if from == to, let toNode = object["to"] {
                throw reader.error(at: toNode, object.path("to"), "a segment's \"to\" must differ from its \"from\"")
            }
            return try .segment(from: from, to: to, radius: object.number("radius", default: 0, radiusBounds))
        default:
            let object = try reader.object(node, path, keys: polygonKeys)
            let verticesNode = try object.required("vertices")
            let verticesPath = object.path("vertices")
            let nodes = try reader.array(verticesNode, verticesPath, maxCount: limits.maxPolygonVertices)
            var vertices: [Vec2] = []
            for (index, vertexNode) in nodes.enumerated() {
                vertices.append(try reader.vec2(vertexNode, FieldReader.element(verticesPath, index), local))
            }
            let geometry = ShapeGeometry.polygon(
                vertices: vertices, radius: try object.number("radius", default: 0, radiusBounds))
            if let problem = ConvexPolygonCheck.problem(vertices) {
                let at = problem.vertex.map { nodes[$0] } ?? verticesNode
                let atPath = problem.vertex.map { FieldReader.element(verticesPath, $0) } ?? verticesPath
                throw reader.error(at: at, atPath, problem.reason)
            }
            // The polygon is strictly convex in exact terms; Chipmunk's own hull (tolerance 0)
            // must keep every vertex too, or it would build another shape than the one drawn.
            let kept = ShapeMassInfo(geometry).vertexCount ?? vertices.count
            if kept != vertices.count {
                throw reader.error(
                    at: verticesNode, verticesPath,
                    "Chipmunk's convex hull keeps \(kept) of the \(vertices.count) "
                        + "vertices: some vertex lies almost on the line through its neighbours; remove it")
            }
            return geometry
        }
    }

    /// A dynamic body's mass and moment, as Chipmunk will accumulate them, must be positive.
    private static func checkMass(
        _ shapes: [ShapeSpec], given: GivenMass?, object: ObjectReader, shapesNode: JSONNode, id: String
    ) throws(InputError) {
        if let given {
            // The mass and moment were read in range; the same r² · m / I bound as below, with the given moment.
            let reach = BodySpec(id: id, position: .zero, shapes: shapes).reach(around: given.centreOfGravity)
            let ratio = reach * reach * given.mass / given.moment
            if ratio <= limits.maxAnchorReach { return }
            throw object.reader.error(
                at: object["moment"] ?? shapesNode, object.path("moment"),
                "dynamic body \"\(id)\" has too small a moment of inertia for its size: its shapes reach "
                    + "\(NumberFormat.shortest(reach)) from its centre of gravity, and reach² · mass / moment = "
                    + "\(NumberFormat.shortest(ratio)) is more than \(NumberFormat.shortest(limits.maxAnchorReach)) (Chipmunk's "
                    + "solver loses the body's mass in rounding next to its rotation): raise \"moment\"")
        }
        let total = BodySpec(id: id, position: .zero, shapes: shapes).massProperties
        guard total.mass > 0, total.mass.isFinite else {
            throw object.reader.error(
                at: shapesNode, object.path("shapes"),
                "dynamic body \"\(id)\" has no mass (its shapes' mass, or density × area, adds up to 0): "
                    + "give a shape a \"mass\" or a \"density\", or make the body static or kinematic")
        }
        // The same floor as a crate's and a shape's `mass`: density × a tiny area must not get under it.
        guard total.mass >= limits.minMass else {
            throw object.reader.error(
                at: shapesNode, object.path("shapes"),
                "dynamic body \"\(id)\" would have a mass of \(NumberFormat.shortest(total.mass)) (its shapes' mass and "
                    + "density × area), less than \(NumberFormat.shortest(limits.minMass)): Chipmunk's solver divides by it, and "
                    + "a contact or joint on so light a body gives it a non-finite velocity; raise the density or give a \"mass\""
            )
        }
        guard total.moment.isNormal, total.moment > 0 else {
            throw object.reader.error(
                at: shapesNode, object.path("shapes"),
                "dynamic body \"\(id)\" would have a moment of inertia of \(NumberFormat.shortest(total.moment)): "
                    + "Chipmunk needs it positive; make its shapes larger")
        }
        // A contact can touch the body anywhere on its shapes: the same r² · m / I bound as a joint anchor's.
        let reach = BodySpec(id: id, position: .zero, shapes: shapes).reach(around: total.centreOfGravity)
        let ratio = reach * reach * total.mass / total.moment
        guard ratio <= limits.maxAnchorReach else {
            throw object.reader.error(
                at: shapesNode, object.path("shapes"),
                "dynamic body \"\(id)\" has too small a moment of inertia for its size: its shapes reach "
                    + "\(NumberFormat.shortest(reach)) from its centre of gravity, and reach² · mass / moment = "
                    + "\(NumberFormat.shortest(ratio)) is more than \(NumberFormat.shortest(limits.maxAnchorReach)) (Chipmunk's "
                    + "solver loses the body's mass in rounding next to its rotation): spread its mass out (a thicker shape, "
                    + "or density on the outer shapes)")
        }
    }
}

/// Why a polygon's vertex list is not what Chipmunk takes as is (convex, counter-clockwise,
/// at least 3 distinct vertices, no three in a line, winding once), naming the vertex.
enum ConvexPolygonCheck {
    struct Problem {
        /// The vertex at fault, or `nil` for the polygon as a whole.
        var vertex: Int?
        var reason: String
    }

    static func problem(_ v: [Vec2]) -> Problem? {
        let n = v.count
        guard n >= 3 else { return Problem(vertex: nil, reason: "a polygon needs at least 3 vertices, got \(n)") }
        for j in 1..<n {
            if let i = v[..<j].firstIndex(of: v[j]) {
                return Problem(vertex: j, reason: "repeats vertex \(i); a polygon's vertices must be distinct")
            }
        }
        var twiceArea = 0.0
        for i in 0..<n {
            let a = v[i], b = v[(i + 1) % n]
            twiceArea += a.x * b.y - b.x * a.y
        }
        if twiceArea == 0 {
            return Problem(vertex: nil, reason: "the vertices are collinear (the polygon has no area)")
        }
        var turning = 0.0
        for i in 0..<n {
            let previous = v[(i + n - 1) % n], here = v[i], next = v[(i + 1) % n]
            let d1 = here - previous, d2 = next - here
            let cross = d1.x * d2.y - d1.y * d2.x
            if cross == 0 {
                return Problem(
                    vertex: i,
                    reason: "lies on the line through its neighbours (vertices \((i + n - 1) % n) and "
                        + "\((i + 1) % n)); remove it")
            }
            if cross < 0 {
                let reason =
                    twiceArea < 0
                    ? "the vertices run clockwise (turning right at this vertex); Chipmunk needs them counter-clockwise: reverse the list"
                    : "the polygon is not convex at this vertex (it turns right); Chipmunk would take the convex hull instead"
                return Problem(vertex: i, reason: reason)
            }
            turning += atan2(cross, d1.x * d2.x + d1.y * d2.y)
        }
        // Every turn is to the left: a simple convex polygon turns once (2π); a star turns more.
        if turning > 3 * Double.pi {
            return Problem(
                vertex: nil, reason: "the vertices wind around more than once (a star, not a convex polygon)")
        }
        return nil
    }
}

extension BodySpec {
    /// The bounding box of the body's shapes in its own coordinates (radii included),
    /// as `(min, max)` corners.
    public var localBounds: (min: Vec2, max: Vec2) { ShapeSpec.bounds(of: shapes) }

    /// The width and height of `localBounds` (the trace header's `sizes` entry for a body).
    public var localSize: Vec2 {
        let b = localBounds
        return Vec2(b.max.x - b.min.x, b.max.y - b.min.y)
    }

    /// The distance from the body's origin to the farthest point of its shapes: any
    /// rotation of the body fits in a circle of this radius around its position.
    var reach: Double { reach(around: .zero) }

    /// The distance from `centre` (in the body's coordinates) to the farthest point of its shapes.
    func reach(around centre: Vec2) -> Double { ShapeSpec.reach(of: shapes, around: centre) }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
