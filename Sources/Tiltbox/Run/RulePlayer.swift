/// Runs a scenario's collision rules and culling after each step: parts (5) and (6) of the step
/// order of docs/formats.md §8.
///
/// After `cpSpaceStep` (`afterStep(world:)`):
/// 1. every handler call queued since the last drain, in the queue's order (Chipmunk's, with each
///    step's and each removal's `separate` calls in the order of their shapes: §8 "Order of the calls"), records a
///    `begin`/`separate` event and runs its rule's actions in order: `remove` (nothing if this
///    drain removed the body already), `impulse`, `set`, `count`. An action on a body that is gone,
///    or that it cannot move (an impulse on a body that is not dynamic, or that would change its
///    speed by more than `ScenarioLimits.maxSpeed`, a set or a remove of the
///    space's static body, a set of a static body, a set whose `type` would leave a joint of the
///    body without a dynamic end) records a `skipped` event instead. A removal
///    makes Chipmunk call `separate` for every contact the body had: those calls join the end of
///    the queue and are drained in turn, so the drain ends when the queue is empty;
/// 2. culling: every dynamic body farther than the margin outside `[0, w] × [0, h]`, in trace
///    order, is removed (a `remove` event, reason `cull`);
/// 3. the calls culling caused are drained as in 1.
/// Calls made while the timeline removed a body before the step wait in the queue and are drained
/// first. Every event the drain records belongs to the state after the step (step n + 1).
public struct RulePlayer {
    private let rules: [CollisionRule]
    private let cull: (size: Vec2, margin: Double)?
    /// Each counter's value, in the order of `Scenario.counters`.
    public private(set) var counts: [Int]
    /// The counters' names, in order of first appearance in the file.
    public let counterNames: [String]

    /// A player of `scenario`'s rules, counters and culling.
    public init(scenario: Scenario) {
        rules = scenario.rules
        cull = scenario.cullMargin.map { (scenario.world.size, $0) }
        counterNames = scenario.counters
        counts = Array(repeating: 0, count: scenario.counters.count)
    }

    /// Whether there is anything to do after a step (rules or culling).
    public var isActive: Bool { !rules.isEmpty || cull != nil }

    /// The counters with their values, in order of first appearance in the file.
    public var counters: [(name: String, value: Int)] {
        zip(counterNames, counts).map { ($0, $1) }
    }

    /// Runs the queued rule actions, then culling, then the actions culling caused (see the
    /// type's description), and returns the events in the order they happened (to be stamped
    /// with the step whose record follows).
    public mutating func afterStep(world: World) -> [TraceEvent.Change] {
        guard isActive else { return [] }
        var events: [TraceEvent.Change] = []
        drain(world, into: &events)
        if let cull {
            for serial in world.serialsOutside(size: cull.size, margin: cull.margin) {
                events.append(.remove(body: world.bodyID(serial: serial), reason: .cull))
                world.removeBody(serial: serial)
            }
            drain(world, into: &events)
        }
        return events
    }

    private mutating func drain(_ world: World, into events: inout [TraceEvent.Change]) {
        var removedHere = Set<Int>()
        while let call = world.takeCollisionCall() {
            events.append(
                .collision(
                    call.phase, a: world.bodyID(serial: call.a), b: world.bodyID(serial: call.b), rule: call.rule))
            for action in rules[call.rule].actions {
                if case .count(let counter) = action {
                    counts[counter] += 1
                    continue
                }
                let serial: Int
                switch action {
                case .remove(let side), .impulse(let side, _), .set(let side, _): serial = side == .a ? call.a : call.b
                case .count: continue
                }
                if case .remove = action, removedHere.contains(serial) { continue }
                guard let body = world.body(serial: serial), RulePlayer.canApply(action, to: body, world)
                else {
                    events.append(.skipped(action: "rules[\(call.rule)]", body: world.bodyID(serial: serial)))
                    continue
                }
                switch action {
                case .remove:
                    events.append(.remove(body: body.id, reason: .rule))
                    removedHere.insert(serial)
                    world.removeBody(serial: serial)
                case .impulse(_, let impulse):
                    world.applyImpulse(toBody: body.id, impulse: impulse.impulse, at: impulse.at)
                case .set(_, let s):
                    world.setBody(
                        body.id, position: s.position, angle: s.angle, velocity: s.velocity,
                        angularVelocity: s.angularVelocity, type: s.type)
                case .count:
                    break
                }
            }
        }
    }

    /// Whether `action` can act on a present body: an impulse moves only a dynamic body, and changes
    /// its velocity by at most the bound of a start velocity (`ScenarioLimits.maxSpeed`: an impulse of
    /// 1e12 on a mass of 1e-9 flung a body so far in one step that Chipmunk's spatial hash never
    /// finished it); a set never moves a static one (Chipmunk would not reindex its shapes).
    /// A set's `type` must leave the body's joints solvable (`World.canSetType(of:to:)`).
    private static func canApply(_ action: RuleAction, to body: Body, _ world: World) -> Bool {
        switch action {
        case .impulse(_, let impulse):
            return body.type == .dynamic && impulse.impulse.length / body.mass <= ScenarioLimits().maxSpeed
        case .set(_, let s):
            return body.type != .static && (s.type.map { world.canSetType(of: body.id, to: $0) } ?? true)
        case .remove, .count: return true
        }
    }
}
