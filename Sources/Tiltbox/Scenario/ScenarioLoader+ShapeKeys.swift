/// Reading the shape keys every shape takes (docs/formats.md §8, "Shape keys"): on body
/// shapes, crates (and grid templates), `segments` and `walls`.
///
/// The choices this loader makes, beyond the format's contract:
/// - `filter.group` is an integer 0 ≤ g < 2^63 (a JSON number, read as a double: above 2^53
///   it is the nearest double); `categories` and `mask` are integers 0 … 4294967295.
/// - `sensor` is `true` or `false`; `collisionType` is a non-empty name other than `"*"`
///   (the wildcard of collision rules); `surfaceVelocity` has the bounds of a velocity.
/// - `collisionType` names are numbered 1, 2, 3… in order of first appearance in the file
///   (`collisionTypeNumbers`), after any `--set` override has been applied.
extension ScenarioLoader {
    static let shapeCollisionKeys = ["filter", "sensor", "collisionType", "surfaceVelocity"]
    static let filterKeys = ["group", "categories", "mask"]
    /// 2^63: `filter.group` must be below it (Chipmunk's `cpGroup` is a pointer-sized integer).
    static let groupLimit = 9_223_372_036_854_775_808.0

    /// The shape keys of `object`; `collisionType` is numbered later (`numberCollisionTypes`).
    static func shapeCollision(_ object: ObjectReader) throws(InputError) -> ShapeCollision {
        let reader = object.reader
        var collision = ShapeCollision()
        if let filterObject = try object.object("filter", keys: filterKeys) {
            var group: UInt64 = 0
            if let node = filterObject["group"] {
                let path = filterObject.path("group")
                guard case .number(let value) = node.value else {
                    throw reader.error(at: node, path, "expected an integer, got \(node.value.typeName)")
                }
                guard value.isFinite else { throw reader.error(at: node, path, Bounds.nonFiniteReason(value)) }
                guard value.rounded(.towardZero) == value else {
                    throw reader.error(at: node, path, "expected an integer, got \(NumberFormat.shortest(value))")
                }
                guard value >= 0, value < groupLimit else {
                    throw reader.error(
                        at: node, path,
                        "must be ≥ 0 and < 2^63 = 9223372036854775808 (got \(NumberFormat.shortest(value)), read as a double)"
                    )
                }
                group = UInt64(value)
            }
            let all = Int(UInt32.max)
            collision.filter = try ShapeFilter(
                group: group,
                categories: UInt32(filterObject.integer("categories", default: all, min: 0, max: all)),
                mask: UInt32(filterObject.integer("mask", default: all, min: 0, max: all)))
        }
        collision.sensor = try object.bool("sensor", default: false)
        if let node = object["collisionType"] {
            let name = try reader.string(node, object.path("collisionType"), allowEmpty: false)
            if name == "*" {
                throw reader.error(
                    at: node, object.path("collisionType"),
                    "\"*\" is the wildcard of collision rules, not a collision type; choose a name")
            }
            collision.collisionTypeName = name
        }
        if let node = object["surfaceVelocity"] {
            collision.surfaceVelocity = try reader.vec2(
                node, object.path("surfaceVelocity"), .magnitude(limits.maxSpeed))
        }
        return collision
    }

    /// Every `collisionType` name in the file, in order of first appearance: a walk of the
    /// whole tree in source order (objects keep their members in source order), taking the
    /// string value of each `collisionType` key (only shapes accept that key).
    static func collisionTypeOrder(_ root: JSONNode) -> [String] {
        var order: [String] = []
        var seen = Set<String>()
        func visit(_ node: JSONNode) {
            switch node.value {
            case .object(let members):
                for member in members {
                    if member.key == "collisionType", case .string(let name) = member.node.value {
                        if seen.insert(name).inserted { order.append(name) }
                    } else {
                        visit(member.node)
                    }
                }
            case .array(let elements): for element in elements { visit(element) }
            default: break
            }
        }
        visit(root)
        return order
    }
}

extension ShapeCollision {
    /// The same keys with `collisionType` set to the name's number in `numbers` (0 without a name).
    func numbered(_ numbers: [String: UInt]) -> ShapeCollision {
        var copy = self
        copy.collisionType = collisionTypeName.flatMap { numbers[$0] } ?? 0
        return copy
    }
}

extension Scenario {
    /// Gives every shape's `collisionType` its number: the position (from 1) of its name in `order`.
    mutating func numberCollisionTypes(_ order: [String]) {
        guard !order.isEmpty else { return }
        var numbers: [String: UInt] = [:]
        for (index, name) in order.enumerated() { numbers[name] = UInt(index + 1) }
        walls.collision = walls.collision.numbered(numbers)
        for i in segments.indices { segments[i].collision = segments[i].collision.numbered(numbers) }
        for i in crates.indices { crates[i].collision = crates[i].collision.numbered(numbers) }
        for i in bodies.indices {
            for j in bodies[i].shapes.indices {
                bodies[i].shapes[j].collision = bodies[i].shapes[j].collision.numbered(numbers)
            }
        }
        for i in timeline.entries.indices {
            guard case .spawn(var body) = timeline.entries[i].action else { continue }
            for j in body.shapes.indices { body.shapes[j].collision = body.shapes[j].collision.numbered(numbers) }
            timeline.entries[i].action = .spawn(body)
        }
    }
}
