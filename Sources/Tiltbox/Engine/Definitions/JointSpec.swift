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

/// The kind of a joint and its Chipmunk parameters, by name (docs/formats.md §5).
/// Anchors are in each body's own coordinates unless said otherwise.
public enum JointKind: Sendable, Equatable {
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

    /// The joint's scenario key: `pin`, `pivot`, `slide`, `groove`, `dampedSpring`,
    /// `dampedRotarySpring`, `rotaryLimit`, `ratchet`, `gear` or `simpleMotor`.
    public var name: String {
        switch self {
        case .pin: return "pin"
        case .pivot: return "pivot"
        case .slide: return "slide"
        case .groove: return "groove"
        case .dampedSpring: return "dampedSpring"
        case .dampedRotarySpring: return "dampedRotarySpring"
        case .rotaryLimit: return "rotaryLimit"
        case .ratchet: return "ratchet"
        case .gear: return "gear"
        case .simpleMotor: return "simpleMotor"
        }
    }
}

/// One joint of the scenario's `joints` list, created in listed order after every body.
public struct JointSpec: Sendable, Equatable {
    /// The joint's kind and its parameters (the key naming it, such as `pin`).
    public var kind: JointKind
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

    /// Creates a joint; each `nil` keeps the Chipmunk default of its `cpConstraintSet…` setter.
    public init(kind: JointKind, a: JointBody, b: JointBody, maxForce: Double? = nil, errorBias: Double? = nil,
                maxBias: Double? = nil, collideBodies: Bool? = nil) {
        self.kind = kind
        self.a = a
        self.b = b
        self.maxForce = maxForce
        self.errorBias = errorBias
        self.maxBias = maxBias
        self.collideBodies = collideBodies
    }
}
