/// One joint parameter a timeline's `setJoint` may change (docs/formats.md §8), each through its Chipmunk setter.
public enum JointSetter: String, Sendable, CaseIterable {
    /// `cpConstraintSetMaxForce` (any joint).
    case maxForce
    /// `cpConstraintSetErrorBias` (any joint).
    case errorBias
    /// `cpConstraintSetMaxBias` (any joint).
    case maxBias
    /// `cpSimpleMotorSetRate`.
    case rate
    /// `cpDampedSpringSetRestLength`.
    case restLength
    /// `cpDampedRotarySpringSetRestAngle`.
    case restAngle
    /// `cpDampedSpringSetStiffness` or `cpDampedRotarySpringSetStiffness`.
    case stiffness
    /// `cpDampedSpringSetDamping` or `cpDampedRotarySpringSetDamping`.
    case damping
    /// `cpSlideJointSetMin` or `cpRotaryLimitJointSetMin`.
    case min
    /// `cpSlideJointSetMax` or `cpRotaryLimitJointSetMax`.
    case max
    /// `cpGearJointSetPhase`.
    case phase
    /// `cpGearJointSetRatio`.
    case ratio

    /// The joint kinds that have this parameter (every kind for the common three).
    public var kinds: [JointKind] {
        switch self {
        case .maxForce, .errorBias, .maxBias: return JointKind.allCases
        case .rate: return [.simpleMotor]
        case .restLength: return [.dampedSpring]
        case .restAngle: return [.dampedRotarySpring]
        case .stiffness, .damping: return [.dampedSpring, .dampedRotarySpring]
        case .min, .max: return [.slide, .rotaryLimit]
        case .phase, .ratio: return [.gear]
        }
    }
}
