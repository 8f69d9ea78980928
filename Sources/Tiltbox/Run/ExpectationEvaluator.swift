/// Checks a scenario's expectations on every step of a run, from the world's state: the
/// states the session read (positions, angles, velocities) and, for `contact` and
/// `noContact`, which shapes touch (`ContactProbe`, read from Chipmunk's arbiters without a
/// collision handler, so the physics is the same with or without it).
///
/// The session gives it every step, whatever `every` says (`ExpectationSink`). Each
/// expectation keeps its first failure; `results()` closes the windows the run never
/// reached or in which an expected contact never began.
public final class ExpectationEvaluator {
    /// The expectations checked.
    public let expectations: [Expectation]
    private let world: World
    private let worldSize: Vec2
    private let dt: Double
    private let totalSteps: Int
    private let windows: [ClosedRange<Int>]
    private var failures: [ExpectationFailure?] {
        didSet { failureCount = failures.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }
    }
    /// For `contact`: whether a begin was seen in the window.
    private var began: [Bool]
    private let probe: ContactProbe?
    private var touchingBefore: Set<ShapePairKey> = []
    /// The contacts that began in the last `cpSpaceStep`, read by `stepTaken()` before the
    /// post-step changes (a rule may remove a body on its begin), checked by the next `observe`.
    private var pendingBegins: [NamedContact] = []
    private var lastStep = -1
    private let counters: () -> [String: Int]
    /// Body indices each selector picks, rebuilt when the world's bodies change
    /// (`World.bodyListVersion`).
    private var selections: [[Int]]
    private var selectedForVersion = -1

    /// An evaluator of `scenario`'s expectations on `world` (built from it), for a run of
    /// `totalSteps` steps of `dt`. `counters` gives the collision rules' counters at the
    /// step being checked (none yet: an empty table).
    public init(
        scenario: Scenario, world: World, totalSteps: Int, counters: @escaping () -> [String: Int] = { [:] }
    ) {
        expectations = scenario.expectations
        self.world = world
        worldSize = scenario.world.size
        dt = scenario.timestep.dt
        self.totalSteps = totalSteps
        // Windows are the scenario's, whatever the run's length: a shorter run leaves the rest unreached.
        windows = expectations.map { $0.window.steps(dt: scenario.timestep.dt, totalSteps: scenario.totalSteps) }
        failures = Array(repeating: nil, count: expectations.count)
        began = Array(repeating: false, count: expectations.count)
        selections = Array(repeating: [], count: expectations.count)
        let needsContacts = expectations.contains {
            if case .contact = $0.check { return true }
            return false
        }
        probe = needsContacts ? ContactProbe(world: world) : nil
        self.counters = counters
    }

    /// Checks step `step` (time `time`), whose states (`BodyStateLayout.count` per body in
    /// trace order) are `states`. Steps come in order, each once.
    public func observe(step: Int, time: Double, states: UnsafeBufferPointer<Double>) {
        lastStep = step
        let begins = pendingBegins
        pendingBegins = []
        if selectedForVersion != world.bodyListVersion { select() }
        var counterTable: [String: Int]?
        for (i, expectation) in expectations.enumerated() where failures[i] == nil && windows[i].contains(step) {
            switch expectation.check {
            case .body(let selector, let condition):
                if case .id(let id) = selector, selections[i].isEmpty {
                    // An id names one body: not present (not yet spawned, or removed) is a failure, not a pass.
                    failures[i] = ExpectationFailure(
                        step: step, time: time, detail: "body '\(id)' is not present (not yet spawned, or removed)")
                    continue
                }
                for index in selections[i] {
                    if let failure = check(condition, body: index, step: step, time: time, states: states) {
                        failures[i] = failure
                        break
                    }
                }
            case .contact(let a, let b, let expected):
                guard let begin = begins.first(where: { matches(a, b, $0) }) else {
                    // A contact that never began fails at the window's last step, known as it passes.
                    if expected, !began[i], step == windows[i].upperBound {
                        failures[i] = neverBegan(a, b, window: windows[i])
                    }
                    continue
                }
                if expected {
                    began[i] = true
                } else {
                    failures[i] = ExpectationFailure(
                        step: step, time: time,
                        detail:
                            "a contact between '\(a)' and '\(b)' began (\(describe(begin.a)) and \(describe(begin.b)))")
                }
            case .counter(let name, let bound):
                if counterTable == nil { counterTable = counters() }
                let value = counterTable?[name] ?? 0
                if let problem = bound.problem(with: value) {
                    failures[i] = ExpectationFailure(
                        step: step, time: time, detail: "counter '\(name)' is \(value), \(problem)")
                }
            case .kineticEnergyBelow(let bound):
                let energy = kineticEnergy(states)
                if !(energy < bound) {
                    failures[i] = ExpectationFailure(
                        step: step, time: time,
                        detail:
                            "kinetic energy is \(ExpectationText.number(energy)), not below \(ExpectationText.number(bound))"
                    )
                }
            }
        }
    }

    /// The results, in `expect` order: the first failure of each; a `contact` whose window
    /// passed without a begin fails at the window's last step. An expectation that has not
    /// failed on the steps run but whose window ends after the run's last step (a run made
    /// shorter than the scenario's duration) is `notReached`: neither holding nor failing.
    public func results() -> [ExpectationResult] {
        expectations.enumerated().map { i, expectation in
            let failure = failures[i]
            if failure == nil, lastStep < windows[i].upperBound {
                return ExpectationResult(
                    index: expectation.index, name: expectation.name, failure: nil, notReached: true)
            }
            return ExpectationResult(index: expectation.index, name: expectation.name, failure: failure)
        }
    }

    /// The first failure of each expectation on the steps checked so far (`nil`: none yet),
    /// in `expect` order: a failure is known at its step, as the run passes it.
    public var failuresSoFar: [ExpectationFailure?] { failures }

    /// How many expectations have failed on the steps checked so far.
    public private(set) var failureCount = 0

    /// The failure of a `contact` whose `window` passed without a begin: at the window's last step.
    private func neverBegan(_ a: ContactParty, _ b: ContactParty, window: ClosedRange<Int>) -> ExpectationFailure {
        ExpectationFailure(
            step: window.upperBound, time: Double(window.upperBound) * dt,
            detail: "no contact between '\(a)' and '\(b)' began "
                + "from t = \(ExpectationText.number(Double(window.lowerBound) * dt)) s (step \(window.lowerBound))")
    }

    // MARK: - Bodies

    private func select() {
        selectedForVersion = world.bodyListVersion
        for (i, expectation) in expectations.enumerated() {
            guard case .body(let selector, _) = expectation.check else { continue }
            selections[i] = world.bodies.indices.filter { index in
                let body = world.bodies[index]
                switch selector {
                case .id(let id): return body.id == id
                case .prefix(let prefix): return body.id.hasPrefix(prefix)
                case .everyDynamic: return body.type == .dynamic
                }
            }
        }
    }

    private func check(
        _ condition: BodyCondition, body index: Int, step: Int, time: Double, states: UnsafeBufferPointer<Double>
    ) -> ExpectationFailure? {
        let base = index * BodyStateLayout.count
        let position = Vec2(states[base + BodyStateLayout.x], states[base + BodyStateLayout.y])
        let velocity = Vec2(states[base + BodyStateLayout.vx], states[base + BodyStateLayout.vy])
        let angle = states[base + BodyStateLayout.angle]
        // The text is made only for a failure: this runs for every selected body at every step.
        let describe: () -> String
        switch condition {
        case .inside(let region):
            let (low, high) = corners(region)
            let excess = max(low.x - position.x, position.x - high.x, low.y - position.y, position.y - high.y)
            guard !(excess <= 0) else { return nil }
            let name = region == .world ? "the world " : ""
            describe = { "is outside \(name)\(ExpectationText.box(low, high)) by \(ExpectationText.number(excess))" }
        case .near(let point, let within):
            let distance = (position - point).length
            guard !(distance <= within) else { return nil }
            describe = {
                "is \(ExpectationText.number(distance)) from \(ExpectationText.point(point)), more than \(ExpectationText.number(within))"
            }
        case .speedBelow(let bound):
            let speed = velocity.length
            guard !(speed < bound) else { return nil }
            describe = { "moves at \(ExpectationText.number(speed)), not below \(ExpectationText.number(bound))" }
        case .speedAbove(let bound):
            let speed = velocity.length
            guard !(speed > bound) else { return nil }
            describe = { "moves at \(ExpectationText.number(speed)), not above \(ExpectationText.number(bound))" }
        case .angle(let low, let high):
            guard !(angle >= low && angle <= high) else { return nil }
            describe = {
                "has angle \(ExpectationText.number(angle)), outside [\(ExpectationText.number(low)), \(ExpectationText.number(high))]"
            }
        case .yAbove(let bound):
            guard !(position.y > bound) else { return nil }
            describe = { "is not above y = \(ExpectationText.number(bound))" }
        case .yBelow(let bound):
            guard !(position.y < bound) else { return nil }
            describe = { "is not below y = \(ExpectationText.number(bound))" }
        }
        let id = world.bodyID(at: index)
        let detail = "body '\(id)' at \(ExpectationText.point(position)) \(describe())"
        return ExpectationFailure(step: step, time: time, bodyID: id, position: position, detail: detail)
    }

    /// The region's lower-left and upper-right corners.
    public func corners(_ region: ExpectationRegion) -> (Vec2, Vec2) {
        switch region {
        case .box(let low, let high): return (low, high)
        case .world: return (.zero, worldSize)
        }
    }

    private func kineticEnergy(_ states: UnsafeBufferPointer<Double>) -> Double {
        var energy = 0.0
        for (index, body) in world.bodies.enumerated() where body.type == .dynamic {
            let base = index * BodyStateLayout.count
            let vx = states[base + BodyStateLayout.vx], vy = states[base + BodyStateLayout.vy]
            let w = states[base + BodyStateLayout.w]
            energy += 0.5 * body.mass * (vx * vx + vy * vy) + 0.5 * body.moment * w * w
        }
        return energy
    }

    // MARK: - Contacts

    /// Reads the contacts that began in the `cpSpaceStep` just taken. The session calls it right
    /// after the step, before the post-step slot (rule actions, culling) changes the world, so a
    /// body a rule removes on its begin is still seen touching; the bodies are named then.
    public func stepTaken() {
        guard probe != nil else { return }
        pendingBegins = contactBegins().map { contact in
            NamedContact(a: named(contact.a), b: named(contact.b))
        }
    }

    private func named(_ end: ContactEnd) -> NamedContactEnd {
        NamedContactEnd(bodyID: end.bodyIndex.map { world.bodyID(at: $0) }, collisionType: end.collisionType)
    }

    /// The pairs touching now that did not at the previous step, sorted by their bodies
    /// (trace order, walls and segments last) so a report names the same pair every run.
    private func contactBegins() -> [ShapeContact] {
        guard let probe else { return [] }
        let touching = probe.touching()
        var begins = touching.filter { !touchingBefore.contains($0.key) }
        touchingBefore = Set(touching.map(\.key))
        func order(_ end: ContactEnd) -> (Int, UInt) { (end.bodyIndex ?? Int.max, end.collisionType) }
        begins.sort { x, y in
            let (x0, x1) = [order(x.a), order(x.b)].sorted { $0 < $1 }.pair
            let (y0, y1) = [order(y.a), order(y.b)].sorted { $0 < $1 }.pair
            return (x0.0, x0.1, x1.0, x1.1) < (y0.0, y0.1, y1.0, y1.1)
        }
        return begins
    }

    private func matches(_ a: ContactParty, _ b: ContactParty, _ contact: NamedContact) -> Bool {
        (matches(a, contact.a) && matches(b, contact.b)) || (matches(a, contact.b) && matches(b, contact.a))
    }

    private func matches(_ party: ContactParty, _ end: NamedContactEnd) -> Bool {
        switch party {
        case .any: return true
        case .body(let id): return end.bodyID == id
        case .collisionType(_, let number): return end.collisionType == number
        }
    }

    private func describe(_ end: NamedContactEnd) -> String {
        guard let id = end.bodyID else { return "a wall or segment" }
        return "body '\(id)'"
    }
}

/// One end of a contact that began, named when it was read (the body may be gone by the record).
private struct NamedContactEnd {
    /// The body's id, or `nil` for a box wall or a listed segment.
    var bodyID: String?
    var collisionType: UInt
}

/// A contact that began in a step, both ends named.
private struct NamedContact {
    var a: NamedContactEnd
    var b: NamedContactEnd
}

extension Array where Element == (Int, UInt) {
    fileprivate var pair: ((Int, UInt), (Int, UInt)) { (self[0], self[1]) }
}

/// Gives an `ExpectationEvaluator` every step of a run (`recordsEveryStep`), and keeps the
/// results once the run has ended. Pass it in a session's `sinks`; the session attaches it
/// to its world (`attach(to:)`).
public final class ExpectationSink: RecordSink {
    private let scenario: Scenario
    private let counters: (() -> [String: Int])?
    private var evaluator: ExpectationEvaluator?
    /// The results, once the run has finished (`finish(end:)`); empty before.
    public private(set) var results: [ExpectationResult] = []

    /// A sink for `scenario`'s expectations. `counters`, when given, replaces the collision
    /// rules' counters the session hands over in `attach(to:totalSteps:counters:)` (for tests).
    public init(scenario: Scenario, counters: (() -> [String: Int])? = nil) {
        self.scenario = scenario
        self.counters = counters
    }

    /// Every step, whatever the session's `every`.
    public var recordsEveryStep: Bool { true }

    /// Called by the session with the world it built, before step 0; `counters` gives the
    /// collision rules' counters at the step being checked.
    public func attach(to world: World, totalSteps: Int, counters sessionCounters: @escaping () -> [String: Int]) {
        evaluator = ExpectationEvaluator(
            scenario: scenario, world: world, totalSteps: totalSteps, counters: counters ?? sessionCounters)
    }

    /// Reads the contacts of the step just taken, before the post-step slot changes the world.
    public func stepTaken() {
        evaluator?.stepTaken()
    }

    /// Checks the step.
    public func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
        evaluator?.observe(step: step, time: time, states: states)
    }

    /// How many expectations have failed on the steps checked so far.
    public var failureCount: Int { evaluator?.failureCount ?? 0 }

    /// The first failure of each expectation on the steps checked so far (`failureCount` of them not `nil`).
    public var failuresSoFar: [ExpectationFailure?] { evaluator?.failuresSoFar ?? [] }

    /// Keeps the results.
    public func finish(end: TraceEnd) throws {
        results = evaluator?.results() ?? []
    }
}
