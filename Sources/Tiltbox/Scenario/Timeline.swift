/// The scenario's `timeline` (docs/formats.md §8): actions that change the world during a run.
///
/// Entries are kept in file order. Each is due at one or more steps (`TimelineEntry.steps(dt:)`),
/// and `occurrences(dt:)` lists every action the run takes, in the order it takes them: by
/// step, then file order, then repetition. Values here have passed `ScenarioLoader`'s checks:
/// every id an action names is present at its step and spawned ids are unique over the run.
public struct Timeline: Sendable, Equatable {
    /// The `timeline` entries, in file order.
    public var entries: [TimelineEntry]

    /// Creates a timeline of `entries` (file order).
    public init(entries: [TimelineEntry] = []) {
        self.entries = entries
    }

    /// Whether the scenario has no timeline (the world only changes by physics).
    public var isEmpty: Bool { entries.isEmpty }

    /// Every action of the run in the order it is applied: ascending step, then file order,
    /// then repetition `k`.
    public func occurrences(dt: Double) -> [TimelineOccurrence] {
        var all: [TimelineOccurrence] = []
        for (index, entry) in entries.enumerated() {
            for k in 0..<entry.count {
                all.append(TimelineOccurrence(entry: index, repetition: k, step: entry.step(k, dt: dt)))
            }
        }
        // Stable sort: entries were appended in file order and repetition order.
        return all.enumerated().sorted { lhs, rhs in
            lhs.element.step != rhs.element.step ? lhs.element.step < rhs.element.step : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The step an action at time `t` is due: `ceil(t / dt − 1e-9)` (docs/formats.md §8).
    public static func dueStep(time t: Double, dt: Double) -> Int {
        Int((t / dt - 1e-9).rounded(.up))
    }
}

/// One `timeline` entry: an action at time `t`, repeated `count` times `every` seconds apart.
public struct TimelineEntry: Sendable, Equatable {
    /// Seconds from the start of the run, finite and ≥ 0.
    public var t: Double
    /// Seconds between repetitions (> 0); `nil` when the action happens once.
    public var every: Double?
    /// How many times the action happens (≥ 1, default 1).
    public var count: Int
    /// What happens.
    public var action: TimelineAction

    /// Creates an entry; `count` > 1 needs `every`.
    public init(t: Double, every: Double? = nil, count: Int = 1, action: TimelineAction) {
        self.t = t
        self.every = every
        self.count = count
        self.action = action
    }

    /// The time of repetition `k`: `t + k · every`, computed from `t`, never accumulated.
    public func time(_ k: Int) -> Double {
        guard let every, k > 0 else { return t }
        return t + Double(k) * every
    }

    /// The step repetition `k` is due (`Timeline.dueStep(time:dt:)`).
    public func step(_ k: Int, dt: Double) -> Int { Timeline.dueStep(time: time(k), dt: dt) }

    /// Whether a spawn names its bodies `ID#k` (it happens more than once) rather than `ID`.
    public var isRepeated: Bool { count > 1 }

    /// The id of the body repetition `k` of a spawn creates: `ID#k` when repeated, else `ID`;
    /// `nil` for other actions.
    public func spawnedID(_ k: Int) -> String? {
        guard case .spawn(let body) = action else { return nil }
        return isRepeated ? "\(body.id)#\(k)" : body.id
    }
}

/// One action of the run: repetition `repetition` of `timeline[entry]`, due at `step`.
public struct TimelineOccurrence: Sendable, Equatable {
    /// The entry's index in the file's `timeline`.
    public var entry: Int
    /// `k`, from 0 to `count − 1`.
    public var repetition: Int
    /// The step it is applied before (docs/formats.md §8 step order).
    public var step: Int
}

/// What a timeline entry does (docs/formats.md §8).
public enum TimelineAction: Sendable, Equatable {
    /// Creates a body (with its shapes) as at start; a repeated spawn's ids are `ID#k`.
    case spawn(BodySpec)
    /// Removes bodies, each with its joints (in the order they were added), then its shapes, then itself.
    case remove([String])
    /// Applies an impulse to a body.
    case impulse(TimelineImpulse)
    /// Sets parts of a body's state, then wakes it.
    case set(BodySetting)
    /// Adds a joint; its `id` is required.
    case joint(JointSpec)
    /// Removes the joint of this id.
    case removeJoint(String)
    /// Changes a joint's parameters through Chipmunk's setters.
    case setJoint(JointSetting)

    /// The action's scenario key (`spawn`, `remove`, ...).
    public var key: String {
        switch self {
        case .spawn: return "spawn"
        case .remove: return "remove"
        case .impulse: return "impulse"
        case .set: return "set"
        case .joint: return "joint"
        case .removeJoint: return "removeJoint"
        case .setJoint: return "setJoint"
        }
    }

    /// Every action key, in documentation order.
    public static let keys = ["spawn", "remove", "impulse", "set", "joint", "removeJoint", "setJoint"]
}

/// `impulse`: `cpBodyApplyImpulseAtWorldPoint` at `at`, or without it
/// `cpBodyApplyImpulseAtLocalPoint` at the body's centre of gravity.
public struct TimelineImpulse: Sendable, Equatable {
    /// The body's id.
    public var body: String
    /// The impulse, world coordinates (mass × velocity).
    public var impulse: Vec2
    /// The world point it acts at; `nil`: the centre of gravity.
    public var at: Vec2?

    /// Creates an impulse on `body`.
    public init(body: String, impulse: Vec2, at: Vec2? = nil) {
        self.body = body
        self.impulse = impulse
        self.at = at
    }
}

/// `set`: each given value is applied in this order — angle, position (so the origin ends at
/// `position` also with a centre-of-gravity offset), velocity, angular velocity, type — then the
/// body is woken.
public struct BodySetting: Sendable, Equatable {
    /// The body's id.
    public var body: String
    /// `cpBodySetPosition`.
    public var position: Vec2?
    /// `cpBodySetAngle`, radians.
    public var angle: Double?
    /// `cpBodySetVelocity`.
    public var velocity: Vec2?
    /// `cpBodySetAngularVelocity`, radians per second.
    public var angularVelocity: Double?
    /// `cpBodySetType`.
    public var type: BodyType?

    /// Creates a setting of `body`; `nil` values are left as they are.
    public init(
        body: String, position: Vec2? = nil, angle: Double? = nil, velocity: Vec2? = nil,
        angularVelocity: Double? = nil, type: BodyType? = nil
    ) {
        self.body = body
        self.position = position
        self.angle = angle
        self.velocity = velocity
        self.angularVelocity = angularVelocity
        self.type = type
    }
}

/// `setJoint`: new values for a joint's parameters, each through its Chipmunk setter.
public struct JointSetting: Sendable, Equatable {
    /// One parameter a `setJoint` may change (`JointSetter`).
    public typealias Parameter = JointSetter

    /// The joint's id.
    public var joint: String
    /// The new values, in the order the file gives them.
    public var values: [(parameter: Parameter, value: Double)]

    /// Creates a setting of `joint`.
    public init(joint: String, values: [(parameter: Parameter, value: Double)]) {
        self.joint = joint
        self.values = values
    }

    /// Equal when the joint and every parameter and value, in order, are equal.
    public static func == (a: JointSetting, b: JointSetting) -> Bool {
        a.joint == b.joint && a.values.count == b.values.count
            && zip(a.values, b.values).allSatisfy { $0.parameter == $1.parameter && $0.value == $1.value }
    }
}
