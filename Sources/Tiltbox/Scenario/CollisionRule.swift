/// One of the scenario's `rules` (docs/formats.md §8): a Chipmunk collision handler declared in
/// the file, whose actions run after the step in which it fired.
///
/// Values here have passed `ScenarioLoader`'s checks: both names are collision types some shape
/// of the file has, a `set` never reaches a path-driven kinematic body, at most
/// `ScenarioLimits.maxRuleActions` actions.
public struct CollisionRule: Sendable, Equatable {
    /// `begin` or `separate`.
    public var on: CollisionPhase
    /// The collision type name of body `a`.
    public var typeA: String
    /// The collision type name of body `b`; `nil` for `"*"` (any shape).
    public var typeB: String?
    /// What the rule does each time its handler is called, in order.
    public var actions: [RuleAction]
    /// `typeA`'s number (`ShapeCollision.collisionType`), set when the loader numbers the types.
    public var typeNumberA: UInt = 0
    /// `typeB`'s number; `nil` for the wildcard.
    public var typeNumberB: UInt?

    /// A rule on `on` between `typeA` and `typeB` (`nil`: `"*"`).
    public init(on: CollisionPhase, typeA: String, typeB: String?, actions: [RuleAction]) {
        self.on = on
        self.typeA = typeA
        self.typeB = typeB
        self.actions = actions
    }

    /// What the engine registers for this rule.
    public var watch: CollisionWatch { CollisionWatch(phase: on, typeA: typeNumberA, typeB: typeNumberB) }
}

/// Which of a rule's two bodies an action acts on: `a` has the rule's first collision type.
public enum RuleSide: String, Sendable, Equatable, CaseIterable {
    /// The body whose shape has the rule's first collision type.
    case a
    /// The other body.
    case b
}

/// One action of a rule's `do`.
public enum RuleAction: Sendable, Equatable {
    /// Removes the body (its joints, then its shapes, then itself); nothing if this queue removed it already.
    case remove(RuleSide)
    /// An impulse on the body, as the timeline's `impulse` (its `body` is `"a"` or `"b"`).
    case impulse(RuleSide, TimelineImpulse)
    /// Sets parts of the body's state, as the timeline's `set` (its `body` is `"a"` or `"b"`).
    case set(RuleSide, BodySetting)
    /// Adds 1 to the counter of this index in `Scenario.counters`.
    case count(Int)

    /// The action's key (`remove`, `impulse`, `set`, `count`).
    public var key: String {
        switch self {
        case .remove: return "remove"
        case .impulse: return "impulse"
        case .set: return "set"
        case .count: return "count"
        }
    }

    /// Every action key, in documentation order.
    public static let keys = ["remove", "impulse", "set", "count"]
}

extension Scenario {
    /// Whether bodies may join or leave the world during a run: a timeline, collision rules or
    /// culling (docs/formats.md §8). Without them, every record lists the bodies present at start.
    public var bodiesMayChange: Bool { !timeline.isEmpty || !rules.isEmpty || cullMargin != nil }
}
