/// Applies a scenario's `timeline` to its world step by step: part (1) of the step order of
/// docs/formats.md §8 (the actions due at step n, in file order, before gravity, kinematic
/// poses and record n).
///
/// Not yet driven by `RunSession` (which reads a fixed number of bodies per record until the
/// trace follows changing bodies); a caller stepping a `World` itself calls `apply(step:to:)`
/// with n = 0, 1, 2, … before the rest of step n.
public struct TimelinePlayer {
    private let timeline: Timeline
    private let occurrences: [TimelineOccurrence]
    private var next = 0

    /// A player of `timeline` at steps of `dt` seconds (`Timeline.occurrences(dt:)`).
    public init(timeline: Timeline, dt: Double) {
        self.timeline = timeline
        occurrences = timeline.occurrences(dt: dt)
    }

    /// Whether every action has been applied.
    public var isFinished: Bool { next == occurrences.count }

    /// Applies every action due at step `n` or before and not applied yet, in order, and
    /// returns them. The loader's walk has checked each against the bodies and joints present.
    @discardableResult
    public mutating func apply(step n: Int, to world: World) -> [TimelineOccurrence] {
        var applied: [TimelineOccurrence] = []
        while next < occurrences.count, occurrences[next].step <= n {
            let occurrence = occurrences[next]
            next += 1
            TimelinePlayer.apply(timeline.entries[occurrence.entry], repetition: occurrence.repetition, to: world)
            applied.append(occurrence)
        }
        return applied
    }

    private static func apply(_ entry: TimelineEntry, repetition k: Int, to world: World) {
        switch entry.action {
        case .spawn(var body):
            body.id = entry.spawnedID(k) ?? body.id
            world.addBody(body.definition)
        case .remove(let ids):
            for id in ids { world.removeBody(id: id) }
        case .impulse(let impulse):
            world.applyImpulse(toBody: impulse.body, impulse: impulse.impulse, at: impulse.at)
        case .set(let setting):
            world.setBody(
                setting.body, position: setting.position, angle: setting.angle, velocity: setting.velocity,
                angularVelocity: setting.angularVelocity, type: setting.type)
        case .joint(let joint):
            world.addJoint(joint)
        case .removeJoint(let id):
            world.removeJoint(id: id)
        case .setJoint(let setting):
            for (parameter, value) in setting.values { world.setJoint(setting.joint, parameter, to: value) }
        }
    }
}
