/// The bodies and joints present at a point of a trace: the header's, changed by the event
/// lines read so far (docs/formats.md §8, "Trace"). The records' `s` list `bodies`, in this
/// order: those at start as the header lists them, then spawned bodies in the order they appeared.
///
/// The writer, the reader, `diff` and everything that follows bodies from spawn to removal keep
/// one, so they agree on which body each state belongs to.
///
/// A removal leaves a hole in the list rather than moving every body after it, and the holes are
/// closed once they are half the list, so thousands of removals in a row cost time in proportion
/// to their number (removing each from an array cost the square of it).
public struct TracePresence: Hashable, Sendable {
    /// The ids of the bodies present, in the records' order.
    public var bodies: [String] { holes == 0 ? slots.map { $0 ?? "" } : slots.compactMap { $0 } }
    /// How many bodies are present (`bodies.count`, without making the list).
    public var bodyCount: Int { slots.count - holes }
    /// The same ids, for lookups.
    public private(set) var bodySet: Set<String>
    /// The joints present, in the order they were added (the header's first).
    public private(set) var joints: [JointOutline]
    /// The bodies spawned so far, by id, as their spawn events describe them (removed ones too).
    public private(set) var spawned: [String: TraceEvent.Spawn] = [:]
    /// Whether any event has changed the bodies since the header.
    public private(set) var changed = false

    /// The bodies in the records' order, `nil` where one was removed.
    private var slots: [String?]
    /// Each present body's place in `slots` (the last one, should a hand-made header repeat an id).
    private var slotOf: [String: Int] = [:]
    /// The `nil`s in `slots`.
    private var holes = 0

    /// What is present at step 0, before any event: the header's bodies and joints.
    public init(header: TraceHeader) {
        slots = header.bodies
        for (index, id) in header.bodies.enumerated() { slotOf[id] = index }
        bodySet = Set(header.bodies)
        joints = header.joints ?? []
    }

    /// Whether a body of this id is present.
    public func contains(_ id: String) -> Bool { bodySet.contains(id) }

    /// Whether a joint of this id is present.
    public func hasJoint(_ id: String) -> Bool { joints.contains { $0.id == id } }

    /// How many doubles a record of the present bodies holds, `fields` per body.
    public func valuesPerRecord(fields: Int) -> Int { bodyCount * fields }

    /// Applies `event`: a spawned body joins the end, a removed one leaves with its joints, a
    /// joint joins or leaves. The event must fit what is present (`TraceLineReader.event` checks).
    public mutating func apply(_ event: TraceEvent) {
        switch event.change {
        case .spawn(let spawn):
            slotOf[spawn.body] = slots.count
            slots.append(spawn.body)
            bodySet.insert(spawn.body)
            spawned[spawn.body] = spawn
            changed = true
        case .remove(let id, _):
            guard bodySet.remove(id) != nil else { return }
            if let index = slotOf.removeValue(forKey: id) {
                slots[index] = nil
                holes += 1
                if holes >= 64 && 2 * holes >= slots.count { closeHoles() }
            }
            if !joints.isEmpty { joints.removeAll { $0.a == id || $0.b == id } }
            changed = true
        case .joint(let outline):
            joints.append(outline)
        case .removeJoint(let id):
            joints.removeAll { $0.id == id }
        case .skipped, .collision:
            break
        }
    }

    /// Drops the holes and renumbers the places.
    private mutating func closeHoles() {
        let kept: [String] = slots.compactMap { $0 }
        slots = kept
        slotOf.removeAll(keepingCapacity: true)
        for (index, id) in kept.enumerated() { slotOf[id] = index }
        holes = 0
    }

    /// Two presences are equal when the same bodies and joints are present, however they got there.
    public static func == (a: TracePresence, b: TracePresence) -> Bool {
        a.bodies == b.bodies && a.bodySet == b.bodySet && a.joints == b.joints && a.spawned == b.spawned
            && a.changed == b.changed
    }

    /// Hashes what `==` compares (the bodies in order, the joints, whether anything changed).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bodies)
        hasher.combine(joints)
        hasher.combine(changed)
    }
}
