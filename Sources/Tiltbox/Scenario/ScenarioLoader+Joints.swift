#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The caps on `joints` (docs/formats.md §5), beside the other caps in `ScenarioLimits`.
extension ScenarioLimits {
    /// Most entries in `joints`.
    public var maxJoints: Int { 100_000 }
    /// Largest `maxForce` or `maxBias` of a joint (absent keeps Chipmunk's infinity).
    public var maxJointForce: Double { 1e30 }
    /// Largest `stiffness` or `damping` of a spring.
    public var maxSpringConstant: Double { 1e15 }
    /// Smallest and largest `|ratio|` of a gear joint: Chipmunk divides by the ratio
    /// (`ratio_inv = 1/ratio`), so it must stay well away from 0.
    public var minGearRatio: Double { 1e-6 }
    /// Largest `|ratio|` of a gear joint.
    public var maxGearRatio: Double { 1e6 }
    /// Smallest `|ratchet|` of a ratchet joint: Chipmunk divides the relative angle by it.
    public var minRatchet: Double { 1e-6 }
    /// How far out a joint may hold a crate, as `r² · m / I` (r the anchor's distance from
    /// the crate's centre, `I / m = (w² + h²) / 12`): beyond it the crate's mass vanishes
    /// in the rounding of Chipmunk's 2 × 2 joint mass matrix (`k_tensor`) next to its
    /// rotational terms, whose determinant can then round to exactly 0, and Chipmunk
    /// aborts ("Unsolvable constraint."). 1e9 allows 390 000 units on a 30 × 30 crate.
    public var maxAnchorReach: Double { 1e9 }
    /// Largest `stiffness × dt² × k` of a spring, `k` the inverse of the spring's effective
    /// mass (`1/m_a + 1/m_b + r_a²/I_a + r_b²/I_b` for a `dampedSpring`, `1/I_a + 1/I_b` for a
    /// `dampedRotarySpring`). Chipmunk 7.0.3 applies the spring force as an explicit impulse
    /// (`f·dt` in the joint's pre-step, after positions moved): symplectic Euler, stable while
    /// `ω·dt ≤ 2` with `ω² = stiffness · k`, so `stiffness · dt² · k ≤ 4`. Beyond it the
    /// oscillation grows by about that factor each step and ends in a non-finite velocity.
    public var maxSpringStepFactor: Double { 4 }
}

/// Reading `joints` (docs/formats.md §5): each element an object with exactly one key,
/// the joint's kind, holding `a` and `b` (a crate's or body's id, or `"static"` for the
/// world), the kind's parameters by Chipmunk's names, and optionally `maxForce`,
/// `errorBias`, `maxBias` and `collideBodies` (absent: the setter is never called, so the
/// joint keeps Chipmunk's default).
///
/// Everything Chipmunk 7.0.3 would assert on, and everything that would make its solver
/// produce a non-finite state (which its debug build then aborts on in
/// `cpBodySanityCheck`), is refused here with the field path:
/// - an id that names no crate or body (with the nearest id), a joint of a body to itself,
///   or a joint whose two ends are both static or kinematic (Chipmunk: "Unsolvable
///   constraint." / "Unsolvable spring.", and pymunk refuses it too);
/// - `maxForce` or `maxBias` < 0 (`cpConstraintSetMaxForce`, `cpConstraintSetMaxBias`
///   assert it), `errorBias` outside [0, 1] (Chipmunk asserts ≥ 0; above 1 the error grows);
/// - a `pin` whose anchors coincide at creation (Chipmunk: "You created a 0 length pin
///   joint. A pivot joint will be much more stable."), a `groove` of zero length
///   (its direction would be the zero vector), `ratchet` 0 and `gear` `ratio` 0 (both
///   divide by it), `min` > `max` (`slide`, `rotaryLimit`), a negative slide distance,
///   rest length, stiffness or damping.
///
/// A `pivot` given one `anchor` keeps it in world coordinates: the engine passes it to
/// `cpPivotJointNew`, which converts it into each body's coordinates with the poses the
/// bodies have at creation (as pymunk's `PivotJoint(a, b, pivot)` does); `anchorA` and
/// `anchorB` go to `cpPivotJointNew2` as given.
extension ScenarioLoader {
    /// The joint kinds' scenario keys, in documentation order.
    static let jointKinds = JointKind.allCases.map(\.rawValue)
    /// Keys every joint takes.
    static let jointCommonKeys = ["a", "b", "maxForce", "errorBias", "maxBias", "collideBodies"]

    /// The keys of a joint of `kind`, its own parameters first.
    static func jointKeys(_ kind: JointKind) -> [String] { kind.keys + jointCommonKeys }

    /// What a joint may hold: each crate's and body's pose at creation and whether
    /// Chipmunk moves it (dynamic), by id.
    struct JointTargets {
        struct Target {
            var position: Vec2
            var angle: Double
            var type: BodyType
            /// `I / m`, the squared radius of gyration about the centre of gravity, for dynamic
            /// crates and bodies; `nil` for the world and bodies of infinite mass.
            var gyration: Double? = nil
            /// The centre of gravity in the body's own coordinates (a crate's is its origin).
            var centreOfGravity: Vec2 = .zero
            /// `1 / m` (0 for the world and bodies of infinite mass).
            var inverseMass = 0.0
            /// `1 / I` about the centre of gravity (0 for the world and bodies of infinite mass).
            var inverseMoment = 0.0
        }
        private var byID: [String: Target] = [:]
        /// Every id, crates then bodies, for "did you mean".
        private(set) var ids: [String] = []

        /// `bodies` in trace order (crates, then `bodies`): ids and poses as given, masses and
        /// moments as Chipmunk will have them.
        init(bodies: [BodyDefinition]) {
            byID.reserveCapacity(bodies.count)
            for body in bodies {
                var target = Target(position: body.position, angle: body.angle, type: body.type)
                switch body.build {
                case .crate(let mass, let size):
                    let gyration = (size.x * size.x + size.y * size.y) / 12
                    target.gyration = gyration
                    target.inverseMass = 1 / mass
                    target.inverseMoment = 1 / (mass * gyration)
                case .fromShapes where body.type == .dynamic:
                    // Validated by the bodies' reader: positive mass and moment.
                    let properties = body.dynamicMassProperties
                    target.gyration = properties.moment / properties.mass
                    target.centreOfGravity = properties.centreOfGravity
                    target.inverseMass = 1 / properties.mass
                    target.inverseMoment = 1 / properties.moment
                case .fromShapes:
                    break // kinematic or static: infinite mass
                }
                byID[body.id] = target
                ids.append(body.id)
            }
        }

        subscript(end: JointBody) -> Target {
            switch end {
            case .world: return Target(position: .zero, angle: 0, type: .static)
            case .body(let id): return byID[id] ?? Target(position: .zero, angle: 0, type: .static)
            }
        }

        func contains(_ id: String) -> Bool { byID[id] != nil }
    }

    /// Every joint of `top["joints"]`, in listed order, validated against the crates and
    /// bodies they name.
    static func jointSpecs(
        _ top: ObjectReader, crates: [CrateSpec], bodies: [BodySpec],
        dt: Double
    ) throws(InputError) -> [JointSpec] {
        let nodes = try top.array("joints", maxCount: limits.maxJoints)
        guard !nodes.isEmpty else { return [] }
        let targets = JointTargets(bodies: crates.map(\.definition) + bodies.map(\.definition))
        var joints: [JointSpec] = []
        joints.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() {
            joints.append(
                try jointSpec(
                    node, path: FieldReader.element(top.path("joints"), index), top: top,
                    targets: targets, dt: dt))
        }
        return joints
    }

    static func jointSpec(
        _ node: JSONNode, path: String, top: ObjectReader,
        targets: JointTargets, dt: Double
    ) throws(InputError) -> JointSpec {
        let reader = top.reader
        let wrapper = try reader.object(node, path, keys: jointKinds + ["id"])
        let kinds = wrapper.members.filter { $0.key != "id" }
        guard kinds.count == 1, let member = kinds.first else {
            let got = kinds.isEmpty ? "none" : kinds.map { "\"\($0.key)\"" }.joined(separator: ", ")
            throw reader.error(
                at: node, path,
                "a joint is an object with exactly one key naming its kind "
                    + "(\(jointKinds.joined(separator: ", "))); got \(got)")
        }
        guard let kindName = JointKind(rawValue: member.key) else {
            // `reader.object(_:_:keys:)` has refused every other key already.
            throw reader.error(
                at: node, path,
                "a joint is an object with exactly one key naming its kind "
                    + "(\(jointKinds.joined(separator: ", "))); got \"\(member.key)\"")
        }
        let object = try reader.object(
            member.node, FieldReader.member(path, kindName.rawValue), keys: jointKeys(kindName))

        let a = try jointBody(object, "a", targets: targets)
        let b = try jointBody(object, "b", targets: targets)
        try checkEnds(a, b, object: object, targets: targets)
        try checkTurningEnd(kindName, a, b, object: object, targets: targets)

        let parameters = try jointParameters(kindName, object, a: a, b: b, targets: targets)
        try checkSpringStep(parameters, object, a: targets[a], b: targets[b], dt: dt)
        return try JointSpec(
            parameters: parameters, a: a, b: b,
            maxForce: object.optionalNumber("maxForce", .nonNegative(max: limits.maxJointForce)),
            errorBias: object.optionalNumber("errorBias", .closed(0, 1)),
            maxBias: object.optionalNumber("maxBias", .nonNegative(max: limits.maxJointForce)),
            collideBodies: object["collideBodies"] == nil ? nil : object.bool("collideBodies", default: true),
            id: wrapper["id"] == nil ? nil : wrapper.string("id", default: nil, allowEmpty: false))
    }

    /// `a` or `b`: `"static"`, or the id of a crate or body.
    private static func jointBody(_ object: ObjectReader, _ key: String, targets: JointTargets) throws(InputError)
        -> JointBody
    {
        let node = try object.required(key)
        let id = try object.reader.string(node, object.path(key), allowEmpty: false)
        if id == "static" { return .world }
        guard targets.contains(id) else {
            var reason = "no crate or body has the id \"\(id)\""
            if let near = FieldReader.nearest(to: id, in: targets.ids + ["static"]) {
                reason += " (did you mean \"\(near)\"?)"
            }
            throw object.reader.error(at: node, object.path(key), reason + "; \"static\" names the world")
        }
        return .body(id)
    }

    /// A joint holds two different bodies, at least one of them dynamic.
    private static func checkEnds(
        _ a: JointBody, _ b: JointBody, object: ObjectReader,
        targets: JointTargets
    ) throws(InputError) {
        guard let bNode = object["b"] else { return }
        let reader = object.reader
        if a == .world, b == .world {
            throw reader.error(
                at: bNode, object.path("b"), "both ends are \"static\": a joint needs at least one dynamic body")
        }
        if case .body(let id) = a, a == b {
            throw reader.error(
                at: bNode, object.path("b"), "joins \"\(id)\" to itself: a and b must be different bodies")
        }
        let typeA = targets[a].type, typeB = targets[b].type
        if typeA != .dynamic, typeB != .dynamic {
            throw reader.error(
                at: bNode, object.path("b"),
                "neither end is a dynamic body (a is \(describe(a, typeA)), "
                    + "b is \(describe(b, typeB))): Chipmunk cannot solve a joint between two bodies of infinite mass")
        }
    }

    /// A joint on rotation (`JointKind.turnsBodies`) holds a dynamic body of finite moment: with
    /// two ends of infinite moment Chipmunk divides by zero ("Unsolvable spring." for a
    /// `dampedRotarySpring`, a NaN angular velocity for the others).
    private static func checkTurningEnd(
        _ kind: JointKind, _ a: JointBody, _ b: JointBody, object: ObjectReader, targets: JointTargets
    ) throws(InputError) {
        guard kind.turnsBodies, targets[a].inverseMoment == 0, targets[b].inverseMoment == 0,
            let bNode = object["b"]
        else { return }
        throw object.reader.error(
            at: bNode, object.path("b"), turningEndReason(kind, a: describe(a, targets[a]), b: describe(b, targets[b])))
    }

    /// Why a joint on rotation cannot hold two ends of infinite moment (`checkTurningEnd`, and the
    /// timeline's walk with the types bodies have at the joint's step).
    static func turningEndReason(_ kind: JointKind, a: String, b: String) -> String {
        "a \(kind.rawValue) joint acts on rotation, and neither end can turn (a is \(a), b is \(b)): Chipmunk "
            + "cannot solve it between two bodies of infinite moment; join a dynamic body whose moment is not \"infinite\""
    }

    /// An end for a message: `"static"`, or the id with its type (and `moment "infinite"`).
    static func describe(_ end: JointBody, _ target: JointTargets.Target) -> String {
        guard case .body = end, target.type == .dynamic, target.inverseMoment == 0 else {
            return describe(end, target.type)
        }
        return describe(end, target.type).dropLast() + ", moment \"infinite\")"
    }

    static func describe(_ end: JointBody, _ type: BodyType) -> String {
        switch end {
        case .world: return "\"static\""
        case .body(let id): return "\"\(id)\" (\(type.rawValue))"
        }
    }

    // MARK: - Parameters

    private static func jointParameters(
        _ kind: JointKind, _ object: ObjectReader, a: JointBody, b: JointBody,
        targets: JointTargets
    ) throws(InputError) -> JointParameters {
        let point = Bounds.magnitude(limits.maxCoordinate)
        let angle = Bounds.magnitude(limits.maxAngle)
        let spring = Bounds.nonNegative(max: limits.maxSpringConstant)
        switch kind {
        case .pin:
            let anchorA = try object.vec2("anchorA", default: nil, point)
            let anchorB = try object.vec2("anchorB", default: nil, point)
            try checkReach(object, "anchorA", anchorA, on: targets[a])
            try checkReach(object, "anchorB", anchorB, on: targets[b])
            try checkPinLength(object, anchorA: anchorA, anchorB: anchorB, a: targets[a], b: targets[b])
            return .pin(anchorA: anchorA, anchorB: anchorB)
        case .pivot:
            let anchors = try pivotAnchors(object, point)
            switch anchors {
            case .world(let anchor):
                // cpPivotJointNew converts the point into each body's frame.
                for (target, end) in [(targets[a], a), (targets[b], b)] where end != .world {
                    try checkReach(object, "anchor", localPoint(anchor, of: target), on: target)
                }
            case .local(let anchorA, let anchorB):
                try checkReach(object, "anchorA", anchorA, on: targets[a])
                try checkReach(object, "anchorB", anchorB, on: targets[b])
            }
            return .pivot(anchors)
        case .slide:
            let min = try object.number("min", default: nil, .nonNegative(max: limits.maxCoordinate))
            let max = try object.number("max", default: nil, .nonNegative(max: limits.maxCoordinate))
            try checkOrder(object, min: min, max: max)
            let anchorA = try object.vec2("anchorA", default: nil, point)
            let anchorB = try object.vec2("anchorB", default: nil, point)
            try checkReach(object, "anchorA", anchorA, on: targets[a])
            try checkReach(object, "anchorB", anchorB, on: targets[b])
            return .slide(anchorA: anchorA, anchorB: anchorB, min: min, max: max)
        case .groove:
            let grooveA = try object.vec2("grooveA", default: nil, point)
            let grooveB = try object.vec2("grooveB", default: nil, point)
            let scale = Swift.max(1, abs(grooveA.x), abs(grooveA.y), abs(grooveB.x), abs(grooveB.y))
            if (grooveB - grooveA).length <= 1e-9 * scale, let node = object["grooveB"] {
                throw object.reader.error(
                    at: node, object.path("grooveB"),
                    "the groove has no length: grooveB must differ from grooveA")
            }
            let anchorB = try object.vec2("anchorB", default: nil, point)
            try checkReach(object, "grooveA", grooveA, on: targets[a])
            try checkReach(object, "grooveB", grooveB, on: targets[a])
            try checkReach(object, "anchorB", anchorB, on: targets[b])
            return .groove(grooveA: grooveA, grooveB: grooveB, anchorB: anchorB)
        case .dampedSpring:
            let anchorA = try object.vec2("anchorA", default: nil, point)
            let anchorB = try object.vec2("anchorB", default: nil, point)
            try checkReach(object, "anchorA", anchorA, on: targets[a])
            try checkReach(object, "anchorB", anchorB, on: targets[b])
            return try .dampedSpring(
                anchorA: anchorA, anchorB: anchorB,
                restLength: object.number("restLength", default: nil, .nonNegative(max: limits.maxCoordinate)),
                stiffness: object.number("stiffness", default: nil, spring),
                damping: object.number("damping", default: nil, spring))
        case .dampedRotarySpring:
            return try .dampedRotarySpring(
                restAngle: object.number("restAngle", default: nil, angle),
                stiffness: object.number("stiffness", default: nil, spring),
                damping: object.number("damping", default: nil, spring))
        case .rotaryLimit:
            let min = try object.number("min", default: nil, angle)
            let max = try object.number("max", default: nil, angle)
            try checkOrder(object, min: min, max: max)
            return .rotaryLimit(min: min, max: max)
        case .ratchet:
            let phase = try object.number("phase", default: nil, angle)
            let ratchet = try object.number("ratchet", default: nil, angle)
            if abs(ratchet) < limits.minRatchet, let node = object["ratchet"] {
                throw object.reader.error(
                    at: node, object.path("ratchet"),
                    "|ratchet| must be ≥ "
                        + "\(NumberFormat.shortest(limits.minRatchet)) (got \(NumberFormat.shortest(ratchet))): "
                        + "Chipmunk divides the relative angle by it")
            }
            return .ratchet(phase: phase, ratchet: ratchet)
        case .gear:
            let phase = try object.number("phase", default: nil, angle)
            let ratio = try object.number("ratio", default: nil, .magnitude(limits.maxGearRatio))
            if abs(ratio) < limits.minGearRatio, let node = object["ratio"] {
                throw object.reader.error(
                    at: node, object.path("ratio"),
                    "|ratio| must be ≥ "
                        + "\(NumberFormat.shortest(limits.minGearRatio)) (got \(NumberFormat.shortest(ratio))): "
                        + "Chipmunk divides by it")
            }
            return .gear(phase: phase, ratio: ratio)
        case .simpleMotor:
            return try .simpleMotor(rate: object.number("rate", default: nil, .magnitude(limits.maxAngularVelocity)))
        }
    }

    /// `anchor` (world coordinates), or `anchorA` and `anchorB` (each body's), not both.
    private static func pivotAnchors(_ object: ObjectReader, _ point: Bounds) throws(InputError) -> PivotAnchors {
        if let node = object["anchor"] {
            for key in ["anchorA", "anchorB"] {
                guard let other = object[key] else { continue }
                throw object.reader.error(
                    at: other, object.path(key),
                    "give either \"anchor\" (one point in world coordinates) or \"anchorA\" and \"anchorB\", not both")
            }
            return .world(try object.reader.vec2(node, object.path("anchor"), point))
        }
        guard object["anchorA"] != nil || object["anchorB"] != nil else {
            throw object.reader.error(
                at: object.node, object.path("anchor"),
                "missing key \"anchor\" (a point in world coordinates), or \"anchorA\" and \"anchorB\" (in each body's coordinates)"
            )
        }
        return try .local(
            a: object.vec2("anchorA", default: nil, point), b: object.vec2("anchorB", default: nil, point))
    }

    /// An anchor (in the body's coordinates) within `limits.maxAnchorReach` of a dynamic
    /// crate's or body's centre of gravity (`r² · m / I`); the world and bodies of infinite
    /// mass are not checked (their terms vanish from Chipmunk's joint mass).
    private static func checkReach(
        _ object: ObjectReader, _ key: String, _ anchor: Vec2,
        on target: JointTargets.Target
    ) throws(InputError) {
        guard target.type == .dynamic, let gyration = target.gyration, let node = object[key] else { return }
        let offset = anchor - target.centreOfGravity
        let reach = offset.x * offset.x + offset.y * offset.y
        guard reach > limits.maxAnchorReach * gyration else { return }
        let allowed = (limits.maxAnchorReach * gyration).squareRoot()
        throw object.reader.error(
            at: node, object.path(key),
            "lies \(NumberFormat.shortest(reach.squareRoot())) from "
                + "its body's centre of gravity, more than the \(NumberFormat.shortest(allowed)) this body's mass and moment allow "
                + "(Chipmunk's joint solver loses the body's mass in rounding that far out)")
    }

    /// A spring's `stiffness × dt² × k` at most `limits.maxSpringStepFactor` (see there), with
    /// `k` from the bodies' masses and moments; blamed on `stiffness`. `damping` needs no such
    /// bound: Chipmunk applies it implicitly (`1 − exp(−damping·dt·k)` of the relative velocity
    /// removed per step, never more than all of it).
    static func checkSpringStep(
        _ kind: JointParameters, _ object: ObjectReader, a: JointTargets.Target,
        b: JointTargets.Target, dt: Double
    ) throws(InputError) {
        func squaredLength(_ p: Vec2) -> Double { p.x * p.x + p.y * p.y }
        let stiffness: Double, k: Double
        switch kind {
        case .dampedSpring(let anchorA, let anchorB, _, let springStiffness, _):
            stiffness = springStiffness
            // |r × n|² ≤ |r|²: the largest k over every direction the spring can take.
            k =
                a.inverseMass + b.inverseMass + squaredLength(anchorA - a.centreOfGravity) * a.inverseMoment
                + squaredLength(anchorB - b.centreOfGravity) * b.inverseMoment
        case .dampedRotarySpring(_, let springStiffness, _):
            stiffness = springStiffness
            k = a.inverseMoment + b.inverseMoment
        case .pin, .pivot, .slide, .groove, .rotaryLimit, .ratchet, .gear, .simpleMotor:
            return
        }
        let factor = stiffness * dt * dt * k
        guard factor > limits.maxSpringStepFactor, let node = object["stiffness"] else { return }
        let allowed = limits.maxSpringStepFactor / (dt * dt * k)
        throw object.reader.error(
            at: node, object.path("stiffness"),
            "\(NumberFormat.shortest(stiffness)) is stiffer than one step can integrate: stiffness × dt² × k = "
                + "\(NumberFormat.shortest(factor)) > \(NumberFormat.shortest(limits.maxSpringStepFactor)) (k = "
                + "\(NumberFormat.shortest(k)), the inverse of the spring's effective mass; Chipmunk's explicit spring "
                + "force grows without bound beyond it): at most \(NumberFormat.shortest(allowed)) with these bodies "
                + "at this timestep.hz, or raise timestep.hz or the masses")
    }

    /// `min` ≤ `max`, blamed on `max`.
    private static func checkOrder(_ object: ObjectReader, min: Double, max: Double) throws(InputError) {
        guard min > max, let node = object["max"] else { return }
        throw object.reader.error(
            at: node, object.path("max"),
            "must be ≥ min (min \(NumberFormat.shortest(min)), "
                + "max \(NumberFormat.shortest(max)))")
    }

    /// A pin keeps its anchors at the distance they have at creation; at (nearly) zero
    /// distance it has no direction, and Chipmunk warns "You created a 0 length pin
    /// joint. A pivot joint will be much more stable." Refused, pointing to `pivot`.
    /// The points are in world coordinates from each body's pose as given in the file.
    private static func checkPinLength(
        _ object: ObjectReader, anchorA: Vec2, anchorB: Vec2,
        a: JointTargets.Target, b: JointTargets.Target
    ) throws(InputError) {
        let p = worldPoint(anchorA, of: a), q = worldPoint(anchorB, of: b)
        let scale = Swift.max(1, abs(p.x), abs(p.y), abs(q.x), abs(q.y))
        let distance = (q - p).length
        guard distance <= 1e-9 * scale, let node = object["anchorB"] else { return }
        throw object.reader.error(
            at: node, object.path("anchorB"),
            "the pin's anchors coincide at creation "
                + "(both at \(showPoint(p))), so it has no length: use a \"pivot\" joint to hold two bodies at one point"
        )
    }

    /// A world point in a body's coordinates at the body's initial pose.
    private static func localPoint(_ point: Vec2, of target: JointTargets.Target) -> Vec2 {
        let c = cos(target.angle), s = sin(target.angle), d = point - target.position
        return Vec2(c * d.x + s * d.y, -s * d.x + c * d.y)
    }

    /// `anchor` in a body's coordinates, in world coordinates at the body's initial pose.
    private static func worldPoint(_ anchor: Vec2, of target: JointTargets.Target) -> Vec2 {
        let c = cos(target.angle), s = sin(target.angle)
        return Vec2(
            target.position.x + (c * anchor.x - s * anchor.y), target.position.y + (s * anchor.x + c * anchor.y))
    }

    private static func showPoint(_ p: Vec2) -> String {
        "[\(NumberFormat.shortest(p.x)), \(NumberFormat.shortest(p.y))]"
    }
}
