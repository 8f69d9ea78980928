/// Which body a joint end holds: a body or crate by id, or the world's static body.
public enum JointBody: Sendable, Equatable {
    /// A crate's or a body's `id`.
    case body(String)
    /// `"static"`: the space's static body.
    case world
}

/// Where a pivot joint's anchors are given (`pivot.anchor`, or `anchorA` and `anchorB`).
public enum PivotAnchors: Sendable, Equatable {
    /// One point in world coordinates (`cpPivotJointNew`).
    case world(Vec2)
    /// One point in each body's coordinates (`cpPivotJointNew2`).
    case local(a: Vec2, b: Vec2)
}

/// The kind of a joint: its raw value is its scenario key and its trace header `kind`
/// (docs/formats.md §5). Each case says which keys it takes and whether it is angular, so
/// a new kind is a compile error everywhere it needs handling (no `default:` on kinds).
public enum JointKind: String, Sendable, Hashable, CaseIterable {
    /// `cpPinJointNew`: keeps the anchors at their distance at creation.
    case pin
    /// `cpPivotJointNew` (one world anchor) or `cpPivotJointNew2` (one anchor on each body).
    case pivot
    /// `cpSlideJointNew`: the anchors' distance stays in [min, max].
    case slide
    /// `cpGrooveJointNew`: body b's anchor slides along a groove on body a.
    case groove
    /// `cpDampedSpringNew`.
    case dampedSpring
    /// `cpDampedRotarySpringNew`.
    case dampedRotarySpring
    /// `cpRotaryLimitJointNew`: the relative angle stays in [min, max].
    case rotaryLimit
    /// `cpRatchetJointNew`.
    case ratchet
    /// `cpGearJointNew`.
    case gear
    /// `cpSimpleMotorNew`: a constant relative angular velocity.
    case simpleMotor

    /// Whether the joint acts on the bodies' rotation alone (`dampedRotarySpring`, `rotaryLimit`,
    /// `ratchet`, `gear`, `simpleMotor`): Chipmunk divides by the sum of its ends' inverse moments
    /// (`1 / (i_inv_a + i_inv_b)`), so one end must be a dynamic body of finite moment. With two
    /// ends of infinite moment a `dampedRotarySpring` aborts ("Unsolvable spring.") and the others
    /// turn the bodies' angular velocity into NaN.
    public var turnsBodies: Bool {
        switch self {
        case .dampedRotarySpring, .rotaryLimit, .ratchet, .gear, .simpleMotor: return true
        case .pin, .pivot, .slide, .groove, .dampedSpring: return false
        }
    }

    /// The kind's own parameter keys in a scenario, in documentation order (the keys every
    /// joint takes, `a`, `b`, `maxForce`, ..., come on top).
    public var keys: [String] {
        switch self {
        case .pin: return ["anchorA", "anchorB"]
        case .pivot: return ["anchor", "anchorA", "anchorB"]
        case .slide: return ["anchorA", "anchorB", "min", "max"]
        case .groove: return ["grooveA", "grooveB", "anchorB"]
        case .dampedSpring: return ["anchorA", "anchorB", "restLength", "stiffness", "damping"]
        case .dampedRotarySpring: return ["restAngle", "stiffness", "damping"]
        case .rotaryLimit: return ["min", "max"]
        case .ratchet: return ["phase", "ratchet"]
        case .gear: return ["phase", "ratio"]
        case .simpleMotor: return ["rate"]
        }
    }

    /// Whether the joint keeps angles, not points: it has no anchors (its "anchors" are the
    /// bodies' origins), so an angular joint to the world is not drawn.
    public var isAngular: Bool {
        switch self {
        case .pin, .pivot, .slide, .groove, .dampedSpring: return false
        case .dampedRotarySpring, .rotaryLimit, .ratchet, .gear, .simpleMotor: return true
        }
    }
}

/// Where a joint's anchors are, as its parameters give them (`JointParameters.anchors`): the
/// one mapping from parameters to anchors that the engine's outline and the views both use.
public enum JointAnchors: Sendable, Equatable {
    /// An angular joint: no anchors.
    case none
    /// One point in each body's coordinates, which Chipmunk keeps as given.
    case local(a: Vec2, b: Vec2)
    /// One point in world coordinates, which `cpPivotJointNew` converts into each body's
    /// coordinates with their poses at creation.
    case world(Vec2)
    /// A groove from `grooveA` to `grooveB` on body a, and `anchorB` on body b.
    case groove(grooveA: Vec2, grooveB: Vec2, anchorB: Vec2)
}

/// A joint's kind with its Chipmunk parameters (docs/formats.md §5).
/// Anchors are in each body's own coordinates unless said otherwise.
public enum JointParameters: Sendable, Equatable {
    /// `cpPinJointNew`: keeps the anchors at their distance at creation.
    case pin(anchorA: Vec2, anchorB: Vec2)
    /// `cpPivotJointNew` / `cpPivotJointNew2`.
    case pivot(PivotAnchors)
    /// `cpSlideJointNew`: the anchors' distance stays in [min, max].
    case slide(anchorA: Vec2, anchorB: Vec2, min: Double, max: Double)
    /// `cpGrooveJointNew`: `anchorB` slides along the groove from `grooveA` to `grooveB` on body a.
    case groove(grooveA: Vec2, grooveB: Vec2, anchorB: Vec2)
    /// `cpDampedSpringNew`.
    case dampedSpring(anchorA: Vec2, anchorB: Vec2, restLength: Double, stiffness: Double, damping: Double)
    /// `cpDampedRotarySpringNew`.
    case dampedRotarySpring(restAngle: Double, stiffness: Double, damping: Double)
    /// `cpRotaryLimitJointNew`: the relative angle stays in [min, max].
    case rotaryLimit(min: Double, max: Double)
    /// `cpRatchetJointNew`.
    case ratchet(phase: Double, ratchet: Double)
    /// `cpGearJointNew`.
    case gear(phase: Double, ratio: Double)
    /// `cpSimpleMotorNew`: a constant relative angular velocity.
    case simpleMotor(rate: Double)

    /// The joint's kind (its scenario key).
    public var kind: JointKind {
        switch self {
        case .pin: return .pin
        case .pivot: return .pivot
        case .slide: return .slide
        case .groove: return .groove
        case .dampedSpring: return .dampedSpring
        case .dampedRotarySpring: return .dampedRotarySpring
        case .rotaryLimit: return .rotaryLimit
        case .ratchet: return .ratchet
        case .gear: return .gear
        case .simpleMotor: return .simpleMotor
        }
    }

    /// Where the joint's anchors are.
    public var anchors: JointAnchors {
        switch self {
        case .pin(let anchorA, let anchorB), .slide(let anchorA, let anchorB, _, _),
            .dampedSpring(let anchorA, let anchorB, _, _, _), .pivot(.local(let anchorA, let anchorB)):
            return .local(a: anchorA, b: anchorB)
        case .pivot(.world(let anchor)):
            return .world(anchor)
        case .groove(let grooveA, let grooveB, let anchorB):
            return .groove(grooveA: grooveA, grooveB: grooveB, anchorB: anchorB)
        case .dampedRotarySpring, .rotaryLimit, .ratchet, .gear, .simpleMotor:
            return .none
        }
    }
}

/// One joint of the scenario's `joints` list, created in listed order after every body.
public struct JointSpec: Sendable, Equatable {
    /// The joint's kind and its parameters (the key naming it, such as `pin`).
    public var parameters: JointParameters
    /// The first body (`a`): the one whose coordinates `anchorA` and a groove are in.
    public var a: JointBody
    /// The second body (`b`): the one whose coordinates `anchorB` is in.
    public var b: JointBody
    /// `cpConstraintSetMaxForce`; `nil` keeps Chipmunk's infinity.
    public var maxForce: Double?
    /// `cpConstraintSetErrorBias`; `nil` keeps Chipmunk's `pow(1 − 0.1, 60)`.
    public var errorBias: Double?
    /// `cpConstraintSetMaxBias`; `nil` keeps Chipmunk's infinity.
    public var maxBias: Double?
    /// `cpConstraintSetCollideBodies`; `nil` keeps Chipmunk's true.
    public var collideBodies: Bool?
    /// The joint's `id` (docs/formats.md §8), by which timeline actions name it; `nil` when not given.
    public var id: String?

    /// Creates a joint; each `nil` keeps the Chipmunk default of its `cpConstraintSet…` setter.
    public init(
        parameters: JointParameters, a: JointBody, b: JointBody, maxForce: Double? = nil, errorBias: Double? = nil,
        maxBias: Double? = nil, collideBodies: Bool? = nil, id: String? = nil
    ) {
        self.id = id
        self.parameters = parameters
        self.a = a
        self.b = b
        self.maxForce = maxForce
        self.errorBias = errorBias
        self.maxBias = maxBias
        self.collideBodies = collideBodies
    }
}

extension JointSpec {
    /// The joint's kind (its scenario key), from its parameters.
    public var kind: JointKind { parameters.kind }
}
