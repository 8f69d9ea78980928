/// Applies a scenario's `timeline` to its world step by step: part (1) of the step order of
/// docs/formats.md §8 (the actions due at step n, in file order, before gravity, kinematic
/// poses and record n), and describes each change as the trace's event line (`TraceEvent`).
///
/// `RunSession` drives it; a caller stepping a `World` itself calls `apply(step:to:)` with
/// n = 0, 1, 2, … before the rest of step n.
public struct TimelinePlayer {
    private let timeline: Timeline
    private let occurrences: [TimelineOccurrence]
    private let dt: Double
    private var next = 0

    /// A player of `timeline` at steps of `dt` seconds (`Timeline.occurrences(dt:)`).
    public init(timeline: Timeline, dt: Double) {
        self.timeline = timeline
        self.dt = dt
        occurrences = timeline.occurrences(dt: dt)
    }

    /// Whether every action has been applied.
    public var isFinished: Bool { next == occurrences.count }

    /// The step the next action is due, `nil` when every action has been applied.
    public var nextStep: Int? { next < occurrences.count ? occurrences[next].step : nil }

    /// Applies every action due at step `n` or before and not applied yet, in order, and
    /// returns the events they make, in order (stamped with step `n`). The loader's walk has
    /// checked each against the bodies and joints present; an action that names a body (or
    /// joint) no longer present all the same (a rule or culling removed it) is skipped with a
    /// `skipped` event.
    @discardableResult
    public mutating func apply(step n: Int, to world: World) -> [TraceEvent] {
        var events: [TraceEvent] = []
        while next < occurrences.count, occurrences[next].step <= n {
            let occurrence = occurrences[next]
            next += 1
            let entry = timeline.entries[occurrence.entry]
            let action = "timeline[\(occurrence.entry)]"
            for change in TimelinePlayer.apply(entry, repetition: occurrence.repetition, to: world, action: action) {
                events.append(TraceEvent(step: n, t: Double(n) * dt, change: change))
            }
        }
        return events
    }

    private static func apply(_ entry: TimelineEntry, repetition k: Int, to world: World, action: String)
        -> [TraceEvent.Change]
    {
        func absent(_ ids: [String]) -> TraceEvent.Change? {
            ids.first { !world.hasBody($0) }.map { .skipped(action: action, body: $0) }
        }
        switch entry.action {
        case .spawn(var body):
            body.id = entry.spawnedID(k) ?? body.id
            let definition = body.definition
            world.addBody(definition)
            return [
                .spawn(
                    TraceEvent.Spawn(
                        body: definition.id, type: definition.type, shapes: definition.shapes.map(\.geometry),
                        size: definition.localSize, mass: TraceHeader.headerMass(definition)))
            ]
        case .remove(let ids):
            var changes: [TraceEvent.Change] = []
            for id in ids {
                if let skipped = absent([id]) {
                    changes.append(skipped)
                    continue
                }
                world.removeBody(id: id)
                changes.append(.remove(body: id, reason: .timeline))
            }
            return changes
        case .impulse(let impulse):
            if let skipped = absent([impulse.body]) { return [skipped] }
            world.applyImpulse(toBody: impulse.body, impulse: impulse.impulse, at: impulse.at)
            return []
        case .set(let setting):
            if let skipped = absent([setting.body]) { return [skipped] }
            // A rule may have changed the body's type since the walk before the run: a type change
            // Chipmunk could not simulate is skipped rather than left to abort.
            if let type = setting.type, !world.canSetType(of: setting.body, to: type) {
                return [.skipped(action: action, body: setting.body)]
            }
            // A rule may have made the body static: a static body is never moved (its shapes would
            // keep colliding where they were), so a set that does not change its type is skipped.
            if setting.type == nil, world.bodyType(setting.body) == .static {
                return [.skipped(action: action, body: setting.body)]
            }
            world.setBody(
                setting.body, position: setting.position, angle: setting.angle, velocity: setting.velocity,
                angularVelocity: setting.angularVelocity, type: setting.type)
            return []
        case .joint(let joint):
            let ends = [joint.a, joint.b].compactMap { end -> String? in
                if case .body(let id) = end { return id }
                return nil
            }
            if let skipped = absent(ends) { return [skipped] }
            // Both ends not dynamic (a rule made one kinematic or static), or a joint on rotation without
            // an end of finite moment: Chipmunk could not solve it.
            let names = [joint.a, joint.b].map { end -> String in
                if case .body(let id) = end { return id }
                return "static"
            }
            if !world.canJoin(names[0], names[1], kind: joint.kind) {
                return [.skipped(action: action, body: ends.first ?? "static")]
            }
            return [.joint(world.addJoint(joint))]
        case .removeJoint(let id):
            // A joint goes with either of its bodies: absent then, it was removed with one.
            guard world.hasJoint(id) else { return [.skipped(action: action, body: id)] }
            world.removeJoint(id: id)
            return [.removeJoint(id)]
        case .setJoint(let setting):
            guard world.hasJoint(setting.joint) else { return [.skipped(action: action, body: setting.joint)] }
            for (parameter, value) in setting.values { world.setJoint(setting.joint, parameter, to: value) }
            return []
        }
    }
}
