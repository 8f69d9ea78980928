internal import CChipmunk

/// One body a joint holds: its `cpBody` and the `Body` that owns it,
/// or the space's embedded static body, which nothing owns.
struct JointEnd {
    let body: UnsafeMutablePointer<cpBody>
    /// Kept alive by the joint, so the body outlives the constraint that points at it.
    let owner: AnyObject?
    /// The id written in the trace header: the body's id, or `"static"`.
    let name: String
}

/// The bodies of a world that joints may name, by id (only looked up, never iterated).
struct JointEnds {
    private let staticEnd: JointEnd
    private var byID: [String: JointEnd] = [:]

    init(space: Space, bodies: [Body]) {
        staticEnd = JointEnd(body: cpSpaceGetStaticBody(space.pointer), owner: nil, name: "static")
        byID.reserveCapacity(bodies.count)
        for body in bodies { byID[body.id] = JointEnd(body: body.body, owner: body, name: body.id) }
    }

    subscript(end: JointBody) -> JointEnd {
        switch end {
        case .world:
            return staticEnd
        case .body(let id):
            guard let found = byID[id] else {
                preconditionFailure("joint ids are validated before they reach the engine")
            }
            return found
        }
    }
}

/// One joint in a `World`: owns its `cpConstraint`.
///
/// A joint keeps its space and the owners of both its bodies alive; its `deinit`
/// removes the constraint from the space (unless the world freed the space first,
/// `Space.free()`) and frees it, and only then lets go of the bodies, so a constraint
/// never points at a freed body whatever order a world's properties are released in.
final class Joint {
    /// The joint's kind and parameters, as the scenario gave them.
    let parameters: JointParameters
    /// The joint's `id` (docs/formats.md §8), `nil` when the scenario gave none.
    let id: String?
    let a: JointEnd
    let b: JointEnd
    let space: Space
    let constraint: UnsafeMutablePointer<cpConstraint>
    /// The joint's place among the joints a world ever held, increasing in the order they
    /// were added (`WorldChangeIndex`): a removal finds its index by binary search on it.
    var sequence = 0

    /// Creates the constraint from a validated spec, calls the setters of the optional
    /// settings the spec gives (and no others, so the rest keep Chipmunk's defaults), in
    /// the order `maxForce`, `errorBias`, `maxBias`, `collideBodies`, then adds it to
    /// the space. Bodies must already have their initial poses: `cpPinJointNew` measures
    /// the distance and `cpPivotJointNew` converts the world anchor with them.
    init(spec: JointSpec, a: JointEnd, b: JointEnd, space: Space) {
        self.parameters = spec.parameters
        self.id = spec.id
        self.a = a
        self.b = b
        self.space = space
        constraint = Joint.make(spec.parameters, a.body, b.body)
        EngineCensus.constraintCreated()
        if let maxForce = spec.maxForce {
            precondition(maxForce >= 0, "joint settings are validated before they reach the engine")
            cpConstraintSetMaxForce(constraint, maxForce)
        }
        if let errorBias = spec.errorBias {
            precondition(errorBias >= 0 && errorBias <= 1, "joint settings are validated before they reach the engine")
            cpConstraintSetErrorBias(constraint, errorBias)
        }
        if let maxBias = spec.maxBias {
            precondition(maxBias >= 0, "joint settings are validated before they reach the engine")
            cpConstraintSetMaxBias(constraint, maxBias)
        }
        if let collide = spec.collideBodies { cpConstraintSetCollideBodies(constraint, collide ? 1 : 0) }
        cpSpaceAddConstraint(space.pointer, constraint)
    }

    deinit {
        if !space.isFreed { cpSpaceRemoveConstraint(space.pointer, constraint) }
        cpConstraintFree(constraint)
        EngineCensus.constraintFreed()
    }

    private static func v(_ p: Vec2) -> cpVect { cpv(p.x, p.y) }

    /// The Chipmunk constructor of each kind.
    private static func make(
        _ kind: JointParameters, _ a: UnsafeMutablePointer<cpBody>,
        _ b: UnsafeMutablePointer<cpBody>
    ) -> UnsafeMutablePointer<cpConstraint> {
        let made: UnsafeMutablePointer<cpConstraint>?
        switch kind {
        case .pin(let anchorA, let anchorB):
            made = cpPinJointNew(a, b, v(anchorA), v(anchorB))
        case .pivot(.world(let anchor)):
            made = cpPivotJointNew(a, b, v(anchor))
        case .pivot(.local(let anchorA, let anchorB)):
            made = cpPivotJointNew2(a, b, v(anchorA), v(anchorB))
        case .slide(let anchorA, let anchorB, let min, let max):
            precondition(min <= max)
            made = cpSlideJointNew(a, b, v(anchorA), v(anchorB), min, max)
        case .groove(let grooveA, let grooveB, let anchorB):
            made = cpGrooveJointNew(a, b, v(grooveA), v(grooveB), v(anchorB))
        case .dampedSpring(let anchorA, let anchorB, let restLength, let stiffness, let damping):
            made = cpDampedSpringNew(a, b, v(anchorA), v(anchorB), restLength, stiffness, damping)
        case .dampedRotarySpring(let restAngle, let stiffness, let damping):
            made = cpDampedRotarySpringNew(a, b, restAngle, stiffness, damping)
        case .rotaryLimit(let min, let max):
            precondition(min <= max)
            made = cpRotaryLimitJointNew(a, b, min, max)
        case .ratchet(let phase, let ratchet):
            precondition(ratchet != 0, "joint settings are validated before they reach the engine")
            made = cpRatchetJointNew(a, b, phase, ratchet)
        case .gear(let phase, let ratio):
            precondition(ratio != 0, "joint settings are validated before they reach the engine")
            made = cpGearJointNew(a, b, phase, ratio)
        case .simpleMotor(let rate):
            made = cpSimpleMotorNew(a, b, rate)
        }
        guard let made else { preconditionFailure("Chipmunk could not allocate a constraint") }
        return made
    }

    /// The joint as the trace header describes it: anchors in each body's coordinates as
    /// `JointParameters.anchors` gives them (Chipmunk keeps local anchors and grooves as
    /// given), a world pivot as `cpPivotJointNew` converted it (`cpPivotJointGetAnchorA`,
    /// `cpPivotJointGetAnchorB`), `[0, 0]` for kinds without anchors and for a groove's
    /// anchor A, and a groove's two ends on body a.
    var outline: JointOutline {
        var anchorA = Vec2.zero, anchorB = Vec2.zero
        var groove: [Vec2]?
        switch parameters.anchors {
        case .local(let localA, let localB):
            anchorA = localA
            anchorB = localB
        case .world:
            let convertedA = cpPivotJointGetAnchorA(constraint), convertedB = cpPivotJointGetAnchorB(constraint)
            anchorA = Vec2(convertedA.x, convertedA.y)
            anchorB = Vec2(convertedB.x, convertedB.y)
        case .groove(let grooveA, let grooveB, let grooveAnchorB):
            anchorB = grooveAnchorB
            groove = [grooveA, grooveB]
        case .none:
            break
        }
        return JointOutline(
            kind: parameters.kind.rawValue, a: a.name, b: b.name, anchorA: anchorA, anchorB: anchorB,
            groove: groove, id: id)
    }

    /// The constraint's effective settings, read back (`cpConstraintGetMaxForce`, ...).
    var settings: JointSettings {
        JointSettings(
            maxForce: cpConstraintGetMaxForce(constraint), errorBias: cpConstraintGetErrorBias(constraint),
            maxBias: cpConstraintGetMaxBias(constraint),
            collideBodies: cpConstraintGetCollideBodies(constraint) != 0)
    }
}

/// A joint's settings as Chipmunk holds them: the given ones, the rest Chipmunk's own
/// (`maxForce` and `maxBias` infinity, `errorBias` `pow(1 − 0.1, 60)`, `collideBodies` true).
public struct JointSettings: Sendable, Equatable {
    /// The most force the joint applies (`cpConstraintGetMaxForce`).
    public var maxForce: Double
    /// The fraction of the joint's error left after one second (`cpConstraintGetErrorBias`).
    public var errorBias: Double
    /// The fastest the joint corrects its error, units/s (`cpConstraintGetMaxBias`).
    public var maxBias: Double
    /// Whether the two bodies still collide with each other (`cpConstraintGetCollideBodies`).
    public var collideBodies: Bool
}
