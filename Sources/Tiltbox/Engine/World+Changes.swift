internal import CChipmunk

/// Changes to a world between steps (docs/formats.md §8, timeline actions): bodies and
/// joints added and removed, impulses, a body's state set, a joint's parameters changed.
///
/// Every argument must have passed `ScenarioLoader`'s walk of the timeline: the ids name
/// bodies and joints present now, values are in range, an impulse goes to a dynamic body.
/// Nothing here is called during `cpSpaceStep`, so Chipmunk's post-step machinery is not needed.
///
/// Bodies and joints are found by id through `WorldChangeIndex` (built at the first change), and a
/// removal finds a body's or joint's place in the trace-ordered lists by binary search on its
/// sequence number: no change searches the lists linearly.
extension World {
    /// Creates a body from `definition` as at start (body, then its shapes in listed order)
    /// and appends it to `bodies`, after every body present (trace order). A spawned body
    /// has no path (the loader refuses one).
    @discardableResult
    public func addBody(_ definition: BodyDefinition) -> Body {
        precondition(definition.makeDriver == nil, "spawned bodies have no path (validated by the loader)")
        let index = changes
        precondition(index.bodies[definition.id] == nil, "ids are unique over the run (validated by the loader)")
        idsBySerial.append(definition.id)
        let body = Body(definition, space: space, serial: idsBySerial.count)
        body.sequence = index.nextBodySequence
        index.nextBodySequence += 1
        index.bodies[definition.id] = body
        bodies.append(body)
        reaches.append(definition.reach)
        bodyListVersion += 1
        return body
    }

    /// Removes the body `id`: first its joints, in the order they were added, then its shapes
    /// in listed order, then the body (`cpSpaceRemoveConstraint`, `cpSpaceRemoveShape`,
    /// `cpSpaceRemoveBody`), each freed after it is removed. The `separate` calls the removal
    /// makes Chipmunk call are one batch of the rules' queue (`CollisionRecorder.settle()`).
    public func removeBody(id: String) {
        let index = changes
        guard let body = index.bodies.removeValue(forKey: id) else {
            preconditionFailure("a removed body is present (validated by the loader)")
        }
        var removed: [Joint?] = (index.jointsOfBody.removeValue(forKey: id) ?? []).map { $0 }
        for case let joint? in removed { forget(joint, keepingListOf: id) }
        // Each joint's deinit removes and frees its constraint: first added, first freed.
        for i in removed.indices { removed[i] = nil }
        if body.driver != nil { driven.removeAll { $0 === body } }
        let position = World.position(of: body.sequence, in: bodies, \.sequence)
        reaches.remove(at: position)
        // Removed here, whoever else still holds the `Body`, so its separates are settled now.
        body.removeFromSpace()
        collisions?.settle()
        // Released here, held by nothing else (its joints are gone): its deinit frees its shapes,
        // then itself.
        bodies.remove(at: position)
        bodyListVersion += 1
    }

    /// Applies `impulse` to the body `id`: at the world point `at` (`cpBodyApplyImpulseAtWorldPoint`),
    /// or without it at the body's centre of gravity (`cpBodyApplyImpulseAtLocalPoint`). Either wakes it.
    public func applyImpulse(toBody id: String, impulse: Vec2, at point: Vec2?) {
        let body = self.body(id)
        let j = cpv(impulse.x, impulse.y)
        if let point {
            cpBodyApplyImpulseAtWorldPoint(body.body, j, cpv(point.x, point.y))
        } else {
            let c = cpBodyGetCenterOfGravity(body.body)
            cpBodyApplyImpulseAtLocalPoint(body.body, j, c)
        }
    }

    /// Sets what is given of the body `id`'s state in this order: `cpBodySetAngle`,
    /// `cpBodySetPosition` (so the body's origin ends at `position` also with a centre-of-gravity
    /// offset: `cpBodySetAngle` turns the body about its centre of gravity, `cpBodySetPosition`
    /// places the centre of gravity with the angle the body has), `cpBodySetVelocity`,
    /// `cpBodySetAngularVelocity`, `cpBodySetType`; then wakes it (`cpBodyActivate`, which does
    /// nothing to a body that is not dynamic).
    ///
    /// A sleeping body is woken before its type changes: Chipmunk 7.0.3's `cpBodySetType` gives
    /// the body its new type's mass before it calls `cpBodyActivate`, which then takes a body that
    /// is no longer dynamic for one it need not wake: the body stayed in its sleeping component,
    /// out of the space's body list, and the next step crashed (a segmentation fault).
    public func setBody(
        _ id: String, position: Vec2? = nil, angle: Double? = nil, velocity: Vec2? = nil,
        angularVelocity: Double? = nil, type: BodyType? = nil
    ) {
        let body = self.body(id)
        precondition(body.driver == nil, "a set never targets a path-driven body (validated by the loader)")
        if let angle { cpBodySetAngle(body.body, angle) }
        if let position { cpBodySetPosition(body.body, cpv(position.x, position.y)) }
        if let velocity { cpBodySetVelocity(body.body, cpv(velocity.x, velocity.y)) }
        if let angularVelocity { cpBodySetAngularVelocity(body.body, angularVelocity) }
        if let type {
            if type != body.type, body.isSleeping { body.activate() }
            cpBodySetType(body.body, World.chipmunkType(type))
            body.type = type
        }
        body.activate()
    }

    /// Adds a joint (it must have an `id`) after every joint present, between bodies present
    /// now, and returns its outline as the trace describes it (`JointOutline`).
    @discardableResult
    public func addJoint(_ spec: JointSpec) -> JointOutline {
        guard let id = spec.id else { preconditionFailure("timeline joints have ids (validated by the loader)") }
        let index = changes
        precondition(index.joints[id] == nil, "joint ids are unique over the run (validated by the loader)")
        let joint = Joint(spec: spec, a: end(spec.a), b: end(spec.b), space: space)
        joint.sequence = index.nextJointSequence
        index.nextJointSequence += 1
        index.add(joint)
        joints.append(joint)
        return joint.outline
    }

    /// Removes and frees the joint `id` (`cpSpaceRemoveConstraint`, `cpConstraintFree`).
    public func removeJoint(id: String) {
        guard let joint = changes.joints[id] else {
            preconditionFailure("a removed joint is present (validated by the loader)")
        }
        // `joint` is then the last reference: its deinit removes and frees the constraint on return.
        forget(joint, keepingListOf: nil)
    }

    /// Sets one parameter of the joint `id` through its Chipmunk setter (`JointSetter`).
    public func setJoint(_ id: String, _ setter: JointSetter, to value: Double) {
        guard let joint = changes.joints[id] else {
            preconditionFailure("a changed joint is present (validated by the loader)")
        }
        precondition(setter.kinds.contains(joint.parameters.kind), "the joint's kind has the parameter (validated)")
        let c = joint.constraint
        switch (setter, joint.parameters.kind) {
        case (.maxForce, _): cpConstraintSetMaxForce(c, value)
        case (.errorBias, _): cpConstraintSetErrorBias(c, value)
        case (.maxBias, _): cpConstraintSetMaxBias(c, value)
        case (.rate, _): cpSimpleMotorSetRate(c, value)
        case (.restLength, _): cpDampedSpringSetRestLength(c, value)
        case (.restAngle, _): cpDampedRotarySpringSetRestAngle(c, value)
        case (.stiffness, .dampedSpring): cpDampedSpringSetStiffness(c, value)
        case (.stiffness, _): cpDampedRotarySpringSetStiffness(c, value)
        case (.damping, .dampedSpring): cpDampedSpringSetDamping(c, value)
        case (.damping, _): cpDampedRotarySpringSetDamping(c, value)
        case (.min, .slide): cpSlideJointSetMin(c, value)
        case (.min, _): cpRotaryLimitJointSetMin(c, value)
        case (.max, .slide): cpSlideJointSetMax(c, value)
        case (.max, _): cpRotaryLimitJointSetMax(c, value)
        case (.phase, _): cpGearJointSetPhase(c, value)
        case (.ratio, _): cpGearJointSetRatio(c, value)
        }
    }

    /// Whether a body of this id is present now.
    public func hasBody(_ id: String) -> Bool { changes.bodies[id] != nil }

    /// The type the present body `id` has now (a rule or the timeline may have changed it); `nil`
    /// when no such body is present.
    public func bodyType(_ id: String) -> BodyType? { changes.bodies[id]?.type }

    /// Whether a joint of this id is present now.
    public func hasJoint(_ id: String) -> Bool { changes.joints[id] != nil }

    /// The ids of the bodies present, in trace order.
    public var bodyIDs: [String] { bodies.map(\.id) }

    /// The ids of the joints present that have one, in the order they were added.
    public var jointIDs: [String] { joints.compactMap(\.id) }

    // MARK: - Helpers

    /// The index of bodies and joints by id, built at the first change.
    private var changes: WorldChangeIndex {
        if let changeIndex { return changeIndex }
        let made = WorldChangeIndex(bodies: bodies, joints: joints)
        changeIndex = made
        return made
    }

    private func body(_ id: String) -> Body {
        guard let body = changes.bodies[id] else {
            preconditionFailure("the body is present (validated by the loader)")
        }
        return body
    }

    /// A joint's end: the space's static body, or a body present now.
    private func end(_ end: JointBody) -> JointEnd {
        switch end {
        case .world:
            return JointEnd(body: cpSpaceGetStaticBody(space.pointer), owner: nil, name: "static")
        case .body(let id):
            let body = self.body(id)
            return JointEnd(body: body.body, owner: body, name: body.id)
        }
    }

    /// Takes `joint` out of `joints` and the index (but out of the joint list of the body
    /// `keepingListOf`, which the caller drops whole), leaving the caller the last reference.
    private func forget(_ joint: Joint, keepingListOf bodyID: String?) {
        let index = changes
        if let id = joint.id { index.joints[id] = nil }
        for end in [joint.a.name, joint.b.name] where end != bodyID && end != "static" {
            index.jointsOfBody[end]?.removeAll { $0 === joint }
        }
        joints.remove(at: World.position(of: joint.sequence, in: joints, \.sequence))
    }

    /// The index in `list` (ordered by increasing sequence numbers) of the element whose
    /// sequence number is `sequence`, by binary search; it must be there.
    private static func position<T>(of sequence: Int, in list: [T], _ key: (T) -> Int) -> Int {
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if key(list[middle]) < sequence { low = middle + 1 } else { high = middle }
        }
        precondition(low < list.count && key(list[low]) == sequence, "the element is in the list")
        return low
    }

    private static func chipmunkType(_ type: BodyType) -> cpBodyType {
        switch type {
        case .dynamic: return CP_BODY_TYPE_DYNAMIC
        case .kinematic: return CP_BODY_TYPE_KINEMATIC
        case .static: return CP_BODY_TYPE_STATIC
        }
    }
}

/// A world's bodies and joints by id, and each body's joints in the order they were added: what
/// `World+Changes` looks them up in, so no change between steps searches a list. Built at a
/// world's first change, numbering the bodies and joints present (trace order, creation order);
/// later ones take the next numbers, so both lists stay ordered by sequence number.
final class WorldChangeIndex {
    var bodies: [String: Body] = [:]
    var joints: [String: Joint] = [:]
    /// By body id: the joints holding that body, first added first.
    var jointsOfBody: [String: [Joint]] = [:]
    var nextBodySequence: Int
    var nextJointSequence: Int

    init(bodies list: [Body], joints jointList: [Joint]) {
        bodies.reserveCapacity(list.count)
        for (i, body) in list.enumerated() {
            body.sequence = i
            bodies[body.id] = body
        }
        nextBodySequence = list.count
        nextJointSequence = jointList.count
        for (i, joint) in jointList.enumerated() {
            joint.sequence = i
            add(joint)
        }
    }

    func add(_ joint: Joint) {
        if let id = joint.id { joints[id] = joint }
        for end in [joint.a.name, joint.b.name] where end != "static" {
            // A joint between a body and itself is refused by the loader; listed once either way.
            if jointsOfBody[end]?.last === joint { continue }
            jointsOfBody[end, default: []].append(joint)
        }
    }
}
