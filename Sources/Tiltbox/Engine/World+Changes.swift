internal import CChipmunk

/// Changes to a world between steps (docs/formats.md §8, timeline actions): bodies and
/// joints added and removed, impulses, a body's state set, a joint's parameters changed.
///
/// Every argument must have passed `ScenarioLoader`'s walk of the timeline: the ids name
/// bodies and joints present now, values are in range, an impulse goes to a dynamic body.
/// Nothing here is called during `cpSpaceStep`, so Chipmunk's post-step machinery is not needed.
extension World {
    /// Creates a body from `definition` as at start (body, then its shapes in listed order)
    /// and appends it to `bodies`, after every body present (trace order). A spawned body
    /// has no path (the loader refuses one).
    public func addBody(_ definition: BodyDefinition) {
        precondition(definition.makeDriver == nil, "spawned bodies have no path (validated by the loader)")
        precondition(index(ofBody: definition.id) == nil, "ids are unique over the run (validated by the loader)")
        idsBySerial.append(definition.id)
        bodies.append(Body(definition, space: space, serial: idsBySerial.count))
        reaches.append(definition.reach)
    }

    /// Removes the body `id`: first its joints, in the order they were added, then its shapes
    /// in listed order, then the body (`cpSpaceRemoveConstraint`, `cpSpaceRemoveShape`,
    /// `cpSpaceRemoveBody`), each freed after it is removed.
    public func removeBody(id: String) {
        guard let index = index(ofBody: id) else {
            preconditionFailure("a removed body is present (validated by the loader)")
        }
        removeJoints { $0.a.name == id || $0.b.name == id }
        driven.removeAll { $0.id == id }
        reaches.remove(at: index)
        // Released here, held by nothing else (its joints are gone): its deinit removes and
        // frees its shapes, then itself.
        bodies.remove(at: index)
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

    /// Sets what is given of the body `id`'s state in this order: `cpBodySetPosition`,
    /// `cpBodySetAngle`, `cpBodySetVelocity`, `cpBodySetAngularVelocity`, `cpBodySetType`;
    /// then wakes it (`cpBodyActivate`, which does nothing to a body that is not dynamic).
    public func setBody(
        _ id: String, position: Vec2? = nil, angle: Double? = nil, velocity: Vec2? = nil,
        angularVelocity: Double? = nil, type: BodyType? = nil
    ) {
        let body = self.body(id)
        precondition(body.driver == nil, "a set never targets a path-driven body (validated by the loader)")
        if let position { cpBodySetPosition(body.body, cpv(position.x, position.y)) }
        if let angle { cpBodySetAngle(body.body, angle) }
        if let velocity { cpBodySetVelocity(body.body, cpv(velocity.x, velocity.y)) }
        if let angularVelocity { cpBodySetAngularVelocity(body.body, angularVelocity) }
        if let type {
            cpBodySetType(body.body, World.chipmunkType(type))
            body.type = type
        }
        body.activate()
    }

    /// Adds a joint (it must have an `id`) after every joint present, between bodies present now.
    public func addJoint(_ spec: JointSpec) {
        precondition(spec.id != nil, "timeline joints have ids (validated by the loader)")
        let ends = JointEnds(space: space, bodies: bodies)
        joints.append(Joint(spec: spec, a: ends[spec.a], b: ends[spec.b], space: space))
    }

    /// Removes and frees the joint `id` (`cpSpaceRemoveConstraint`, `cpConstraintFree`).
    public func removeJoint(id: String) {
        precondition(joints.contains { $0.id == id }, "a removed joint is present (validated by the loader)")
        removeJoints { $0.id == id }
    }

    /// Sets one parameter of the joint `id` through its Chipmunk setter (`JointSetter`).
    public func setJoint(_ id: String, _ setter: JointSetter, to value: Double) {
        guard let joint = joints.first(where: { $0.id == id }) else {
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

    /// The ids of the bodies present, in trace order.
    public var bodyIDs: [String] { bodies.map(\.id) }

    /// The ids of the joints present that have one, in the order they were added.
    public var jointIDs: [String] { joints.compactMap(\.id) }

    // MARK: - Helpers

    private func index(ofBody id: String) -> Int? { bodies.firstIndex { $0.id == id } }

    private func body(_ id: String) -> Body {
        guard let index = index(ofBody: id) else {
            preconditionFailure("the body is present (validated by the loader)")
        }
        return bodies[index]
    }

    /// Removes the joints matching `condition`, releasing them one by one in the order they were added.
    private func removeJoints(where condition: (Joint) -> Bool) {
        var removed: [Joint] = []
        joints.removeAll { joint in
            guard condition(joint) else { return false }
            removed.append(joint)
            return true
        }
        // Each joint's deinit removes and frees its constraint: first added, first freed.
        while !removed.isEmpty { removed.removeFirst() }
    }

    private static func chipmunkType(_ type: BodyType) -> cpBodyType {
        switch type {
        case .dynamic: return CP_BODY_TYPE_DYNAMIC
        case .kinematic: return CP_BODY_TYPE_KINEMATIC
        case .static: return CP_BODY_TYPE_STATIC
        }
    }
}
