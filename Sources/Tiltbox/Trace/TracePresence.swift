/// The bodies and joints present at a point of a trace: the header's, changed by the event
/// lines read so far (docs/formats.md §8, "Trace"). The records' `s` list `bodies`, in this
/// order: those at start as the header lists them, then spawned bodies in the order they appeared.
///
/// The writer, the reader, `diff` and everything that follows bodies from spawn to removal keep
/// one, so they agree on which body each state belongs to.
public struct TracePresence: Hashable, Sendable {
    /// The ids of the bodies present, in the records' order.
    public private(set) var bodies: [String]
    /// The same ids, for lookups.
    public private(set) var bodySet: Set<String>
    /// The joints present, in the order they were added (the header's first).
    public private(set) var joints: [JointOutline]
    /// The bodies spawned so far, by id, as their spawn events describe them (removed ones too).
    public private(set) var spawned: [String: TraceEvent.Spawn] = [:]
    /// Whether any event has changed the bodies since the header.
    public private(set) var changed = false

    /// What is present at step 0, before any event: the header's bodies and joints.
    public init(header: TraceHeader) {
        bodies = header.bodies
        bodySet = Set(header.bodies)
        joints = header.joints ?? []
    }

    /// Whether a body of this id is present.
    public func contains(_ id: String) -> Bool { bodySet.contains(id) }

    /// Whether a joint of this id is present.
    public func hasJoint(_ id: String) -> Bool { joints.contains { $0.id == id } }

    /// How many doubles a record of the present bodies holds, `fields` per body.
    public func valuesPerRecord(fields: Int) -> Int { bodies.count * fields }

    /// Applies `event`: a spawned body joins the end, a removed one leaves with its joints, a
    /// joint joins or leaves. The event must fit what is present (`TraceLineReader.event` checks).
    public mutating func apply(_ event: TraceEvent) {
        switch event.change {
        case .spawn(let spawn):
            bodies.append(spawn.body)
            bodySet.insert(spawn.body)
            spawned[spawn.body] = spawn
            changed = true
        case .remove(let id, _):
            guard bodySet.remove(id) != nil else { return }
            if let index = bodies.lastIndex(of: id) { bodies.remove(at: index) }
            if !joints.isEmpty { joints.removeAll { $0.a == id || $0.b == id } }
            changed = true
        case .joint(let outline):
            joints.append(outline)
        case .removeJoint(let id):
            joints.removeAll { $0.id == id }
        case .skipped:
            break
        }
    }
}
