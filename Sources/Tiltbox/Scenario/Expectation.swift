/// One entry of a scenario's `expect` list: what should hold, and when, checked on every
/// step of its window while the run steps (docs/formats.md, "Expectations").
public struct Expectation: Sendable, Equatable {
    /// The entry's index in `expect`, as failures name it (`expect[2]`).
    public var index: Int
    /// The optional `name`, quoted in failures.
    public var name: String?
    /// When it is checked.
    public var window: ExpectationWindow
    /// What is checked.
    public var check: ExpectationCheck

    /// An expectation as the loader builds it.
    public init(index: Int, name: String? = nil, window: ExpectationWindow, check: ExpectationCheck) {
        self.index = index
        self.name = name
        self.window = window
        self.check = check
    }
}

/// The steps an expectation covers. A time `t` stands for the step `ceil(t/dt − 1e-9)`, the
/// rule the timeline uses for its actions.
public enum ExpectationWindow: Sendable, Equatable {
    /// `"at": t`: the one step of `t`.
    case at(Double)
    /// `"from": t`: every step from `t`'s to the last.
    case from(Double)
    /// `"between": [t0, t1]`: every step from `t0`'s to `t1`'s, both included.
    case between(Double, Double)
    /// `"always": true`: every step, step 0 included.
    case always

    /// The step of time `t` for steps of `dt` seconds: `ceil(t/dt − 1e-9)`.
    public static func step(of t: Double, dt: Double) -> Int {
        Int((t / dt - 1e-9).rounded(.up).clamped(0, 1e15))
    }

    /// The first and last step of the window in a run of `totalSteps` steps (the last may lie
    /// beyond the run, when the run was made shorter than the scenario's duration).
    public func steps(dt: Double, totalSteps: Int) -> ClosedRange<Int> {
        switch self {
        case .at(let t):
            let n = Self.step(of: t, dt: dt)
            return n...n
        case .from(let t): return min(Self.step(of: t, dt: dt), totalSteps)...totalSteps
        case .between(let t0, let t1): return Self.step(of: t0, dt: dt)...Self.step(of: t1, dt: dt)
        case .always: return 0...totalSteps
        }
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}

/// Which bodies a body expectation is about.
public enum BodySelector: Sendable, Equatable, CustomStringConvertible {
    /// One body, by id.
    case id(String)
    /// Every body whose id starts with the prefix (`"g*"`), present at the step.
    case prefix(String)
    /// `"*"`: every dynamic body present at the step.
    case everyDynamic

    /// As written in the file: `ball`, `g*` or `*`.
    public var description: String {
        switch self {
        case .id(let id): return id
        case .prefix(let prefix): return prefix + "*"
        case .everyDynamic: return "*"
        }
    }
}

/// A box, or the world's own rectangle, that bodies must stay inside.
public enum ExpectationRegion: Sendable, Equatable {
    /// `[[x0, y0], [x1, y1]]`, with `x0 ≤ x1` and `y0 ≤ y1`.
    case box(Vec2, Vec2)
    /// `"world"`: `[[0, 0], world.size]`.
    case world
}

/// What a body expectation checks of each selected body's position and velocities.
public enum BodyCondition: Sendable, Equatable {
    /// Its position inside the region (edges included).
    case inside(ExpectationRegion)
    /// Its position at most `within` from the point.
    case near(Vec2, within: Double)
    /// Its speed `|v|` below the bound.
    case speedBelow(Double)
    /// Its speed `|v|` above the bound.
    case speedAbove(Double)
    /// Its angle in `[min, max]` (radians, as the trace writes it: not wrapped).
    case angle(Double, Double)
    /// Its y above the bound.
    case yAbove(Double)
    /// Its y below the bound.
    case yBelow(Double)
}

/// One side of a contact expectation.
public enum ContactParty: Sendable, Equatable, CustomStringConvertible {
    /// A body, by id.
    case body(String)
    /// Every shape of a collision type, by name, with its number (`cpShapeSetCollisionType`).
    case collisionType(String, UInt)
    /// `"*"`: any shape, walls and segments included.
    case any

    /// As written in the file.
    public var description: String {
        switch self {
        case .body(let id): return id
        case .collisionType(let name, _): return name
        case .any: return "*"
        }
    }
}

/// The bound a counter expectation puts on a counter (each part optional, at least one given).
public struct CounterBound: Sendable, Equatable {
    /// `equals`.
    public var equals: Int?
    /// `atLeast`.
    public var atLeast: Int?
    /// `atMost`.
    public var atMost: Int?

    /// A bound of the parts given.
    public init(equals: Int? = nil, atLeast: Int? = nil, atMost: Int? = nil) {
        self.equals = equals
        self.atLeast = atLeast
        self.atMost = atMost
    }

    /// Why `value` breaks the bound (`"not at least 3"`), or `nil` when it keeps it.
    public func problem(with value: Int) -> String? {
        if let equals, value != equals { return "not \(equals)" }
        if let atLeast, value < atLeast { return "not at least \(atLeast)" }
        if let atMost, value > atMost { return "not at most \(atMost)" }
        return nil
    }
}

/// What an expectation checks.
public enum ExpectationCheck: Sendable, Equatable {
    /// A condition on each body the selector picks.
    case body(BodySelector, BodyCondition)
    /// `contact` (`expected` true: a begin between the two parties happens in the window) or
    /// `noContact` (`expected` false: none does). A begin is a pair of shapes touching at a
    /// step that did not touch at the step before.
    case contact(ContactParty, ContactParty, expected: Bool)
    /// A collision rule's counter (the run's counters table) against a bound.
    case counter(String, CounterBound)
    /// The kinetic energy of the dynamic bodies, `½mv² + ½Iω²` summed, below the bound.
    case kineticEnergyBelow(Double)
}
