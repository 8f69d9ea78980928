internal import CChipmunk

/// What the collision rules (docs/formats.md §8, "Rules" and "Culling") need of a world:
/// the calls their handlers made, bodies by serial number, and the bodies that left the world.
///
/// A body's serial is its number in creation order from 1 (`Body.serial`), never reused, so a
/// call recorded before a body was removed still names it; 0 is the space's static body (the
/// walls and segments), named `"static"`.
extension World {
    /// The next handler call not yet taken (made during `cpSpaceStep`, or while a body touching
    /// another was removed), in Chipmunk's order but for each step's and each removal's `separate`
    /// calls, put in the order of their shapes (`CollisionRecorder.settle()`); `nil` when there is none.
    public func takeCollisionCall() -> CollisionCall? { collisions?.take() }

    /// The id of the body with serial `serial`, present or removed; `"static"` for 0.
    public func bodyID(serial: Int) -> String {
        guard serial > 0, serial <= idsBySerial.count else { return "static" }
        return idsBySerial[serial - 1]
    }

    /// The body of serial `serial` if it is present, else `nil` (removed, or the static body).
    public func body(serial: Int) -> Body? {
        index(ofSerial: serial).map { bodies[$0] }
    }

    /// Removes the present body of serial `serial` as `removeBody(id:)` does.
    public func removeBody(serial: Int) {
        guard let body = body(serial: serial) else { preconditionFailure("a removed body is present") }
        removeBody(id: body.id)
    }

    /// The serials of the dynamic bodies whose position (`cpBodyGetPosition`) lies farther than
    /// `margin` outside the rectangle `[0, size.x] × [0, size.y]`, in trace order.
    public func serialsOutside(size: Vec2, margin: Double) -> [Int] {
        var outside: [Int] = []
        for body in bodies where body.type == .dynamic {
            let p = body.state.position
            if p.x < -margin || p.x > size.x + margin || p.y < -margin || p.y > size.y + margin {
                outside.append(body.serial)
            }
        }
        return outside
    }

    /// Whether changing the present body `id`'s type to `type` (`cpBodySetType`) leaves every joint
    /// solvable and the body simulable, so Chipmunk's debug build does not abort at the next step:
    /// a body becoming dynamic needs a shape with mass (Chipmunk takes its mass and moment from its
    /// shapes: a crate's box and the shapes of a body with a given mass carry none), and a body
    /// leaving dynamic must not be held by a joint whose other end is not dynamic ("Unsolvable
    /// constraint"), nor by a joint on rotation (`JointKind.turnsBodies`) whose other end is not a
    /// dynamic body of finite moment ("Unsolvable spring."). `false` for an absent body.
    public func canSetType(of id: String, to type: BodyType) -> Bool {
        guard let body = bodies.first(where: { $0.id == id }) else { return false }
        if type == body.type { return true }
        if type == .dynamic { return body.shapes.contains { cpShapeGetMass($0) > 0 } }
        guard body.type == .dynamic else { return true }
        for joint in joints where joint.a.name == id || joint.b.name == id {
            let other = joint.a.name == id ? joint.b : joint.a
            if cpBodyGetType(other.body) != CP_BODY_TYPE_DYNAMIC { return false }
            if joint.parameters.kind.turnsBodies, !cpBodyGetMoment(other.body).isFinite { return false }
        }
        return true
    }

    /// Whether a joint of `kind` between `a` and `b` (ids, `"static"` for the world) has a dynamic end
    /// now, as Chipmunk needs to solve it, and for a joint on rotation (`JointKind.turnsBodies`) a
    /// dynamic end of finite moment; `false` when an end is absent.
    public func canJoin(_ a: String, _ b: String, kind: JointKind) -> Bool {
        var dynamic: [Body] = []
        for id in [a, b] where id != "static" {
            guard let body = bodies.first(where: { $0.id == id }) else { return false }
            if body.type == .dynamic { dynamic.append(body) }
        }
        guard kind.turnsBodies else { return !dynamic.isEmpty }
        return dynamic.contains { cpBodyGetMoment($0.body).isFinite }
    }

    /// The index in `bodies` of the present body of serial `serial`: `bodies` is in creation
    /// order (spawned bodies are appended), so by ascending serial, and a binary search finds it.
    func index(ofSerial serial: Int) -> Int? {
        var low = 0, high = bodies.count
        while low < high {
            let middle = (low + high) / 2
            if bodies[middle].serial < serial { low = middle + 1 } else { high = middle }
        }
        return low < bodies.count && bodies[low].serial == serial ? low : nil
    }
}
