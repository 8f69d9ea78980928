/// When a collision handler is called (docs/formats.md §8, rules' `on`).
public enum CollisionPhase: String, Sendable, Equatable, CaseIterable {
    /// Two shapes start touching (a contact, or a sensor's overlap): Chipmunk's `begin`.
    case begin
    /// Two shapes stop touching, or one of them is removed while they touch: Chipmunk's `separate`.
    case separate
}

/// What the engine needs of one collision rule: when it fires and between which collision types.
///
/// `typeA` and `typeB` are collision type numbers (`ShapeCollision.collisionType`, never 0: a rule
/// names its types); `typeB` `nil` is the wildcard `"*"` (`cpSpaceAddWildcardHandler(typeA)`).
/// A rule's index in `WorldDefinition.collisionWatches` is the rule's index in the scenario.
public struct CollisionWatch: Sendable, Equatable {
    /// `begin` or `separate`.
    public var phase: CollisionPhase
    /// The collision type of the rule's body `a`.
    public var typeA: UInt
    /// The collision type of body `b`; `nil`: any shape (the wildcard).
    public var typeB: UInt?

    /// A rule firing at `phase` between shapes of `typeA` and `typeB` (`nil`: any).
    public init(phase: CollisionPhase, typeA: UInt, typeB: UInt?) {
        self.phase = phase
        self.typeA = typeA
        self.typeB = typeB
    }
}

/// One call of a rule's handler, as Chipmunk made it: the rule, and its two bodies in the rule's
/// order, each by its serial number in the world (`World.bodyID(serial:)`; 0 is the space's
/// static body, which holds the walls and segments).
public struct CollisionCall: Sendable, Equatable {
    /// The rule's index in the scenario's `rules`.
    public var rule: Int
    /// `begin` or `separate`.
    public var phase: CollisionPhase
    /// Body `a`'s serial (the shape of the rule's first collision type).
    public var a: Int
    /// Body `b`'s serial.
    public var b: Int

    /// A call of `rule` at `phase` with bodies `a` and `b` (serials).
    public init(rule: Int, phase: CollisionPhase, a: Int, b: Int) {
        self.rule = rule
        self.phase = phase
        self.a = a
        self.b = b
    }
}
