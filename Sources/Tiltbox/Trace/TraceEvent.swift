/// One event line of a trace (docs/formats.md §8, "Trace"): a change of the world's bodies or
/// joints between steps, written before the first record that shows it (with `--every` too:
/// events are never skipped). Event lines are not records: the digest does not cover them.
///
/// - `{"event":"spawn","step":n,"t":T,"body":ID,"type":"dynamic","shapes":[...],"size":[w,h],"mass":m}`
///   (`shapes`, `size` and `mass` as the header's `shapes`, `sizes` and `masses` give them for a body
///   present at start); the body joins the end of the records' `s`;
/// - `{"event":"remove","step":n,"t":T,"body":ID,"reason":"timeline"|"rule"|"cull"}`; the body leaves
///   `s`, and the joints that hold it go with it;
/// - `{"event":"joint","step":n,"t":T,"joint":{"id":ID,"kind":K,"a":ID,"b":ID,"anchorA":[x,y],"anchorB":[x,y]}}`
///   (the header's joint outline, with its `id`);
/// - `{"event":"removeJoint","step":n,"t":T,"joint":ID}`;
/// - `{"event":"skipped","step":n,"t":T,"action":"timeline[3]","body":ID}`: an action that named a
///   body no longer present, skipped.
public struct TraceEvent: Hashable, Sendable, CustomStringConvertible {
    /// Why a body left the world.
    public enum RemovalReason: String, Hashable, Sendable, CaseIterable {
        /// A `remove` of the timeline.
        case timeline
        /// A rule's `remove` action, after the step whose collision fired it.
        case rule
        /// Culling: the body left the world's rectangle by more than the margin.
        case cull
    }

    /// A body that joined the world: what a renderer needs to draw it.
    public struct Spawn: Hashable, Sendable {
        /// The body's id.
        public var body: String
        /// Its type when spawned.
        public var type: BodyType
        /// Its shapes in its own coordinates (as the header's `shapes`).
        public var shapes: [ShapeGeometry]
        /// The size of its shapes' bounding box, radii included (as the header's `sizes`).
        public var size: Vec2
        /// Its mass for a dynamic body, 0 for kinematic and static ones (as the header's `masses`).
        public var mass: Double

        /// Creates a spawn event's body.
        public init(body: String, type: BodyType, shapes: [ShapeGeometry], size: Vec2, mass: Double) {
            self.body = body
            self.type = type
            self.shapes = shapes
            self.size = size
            self.mass = mass
        }
    }

    /// What happened.
    public enum Change: Hashable, Sendable {
        /// A body joined the end of the records' `s`.
        case spawn(Spawn)
        /// A body left (its joints with it).
        case remove(body: String, reason: RemovalReason)
        /// A joint was added: its outline, with its `id`.
        case joint(JointOutline)
        /// The joint of this id was removed.
        case removeJoint(String)
        /// An action (`timeline[3]`, `rules[1]`) named a body that was no longer present.
        case skipped(action: String, body: String)

        /// The line's `event` value.
        public var name: String {
            switch self {
            case .spawn: return "spawn"
            case .remove: return "remove"
            case .joint: return "joint"
            case .removeJoint: return "removeJoint"
            case .skipped: return "skipped"
            }
        }
    }

    /// The step whose record first shows the change (the actions due at step n come before record n).
    public var step: Int
    /// `step · dt`, seconds.
    public var t: Double
    /// What happened.
    public var change: Change

    /// Creates an event.
    public init(step: Int, t: Double, change: Change) {
        self.step = step
        self.t = t
        self.change = change
    }

    /// Every `event` value a trace may hold.
    public static let names = ["spawn", "remove", "joint", "removeJoint", "skipped"]

    /// The event as its line says it, without its newline (for messages).
    public var description: String {
        var buffer = JSONLineBuffer()
        append(to: &buffer, newline: false)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    // MARK: - Writing

    /// Appends the event line (with its newline unless `newline` is false).
    func append(to out: inout JSONLineBuffer, newline: Bool = true) {
        out.append("{\"event\":")
        out.append(string: change.name)
        out.append(",\"step\":")
        out.append(integer: step)
        out.append(",\"t\":")
        out.append(number: t)
        switch change {
        case .spawn(let spawn):
            out.append(",\"body\":")
            out.append(string: spawn.body)
            out.append(",\"type\":")
            out.append(string: spawn.type.rawValue)
            out.append(",\"shapes\":")
            TraceHeaderValue<[ShapeGeometry]>.list(.shapeGeometry).write(spawn.shapes, &out)
            out.append(",\"size\":")
            out.append(pair: spawn.size)
            out.append(",\"mass\":")
            out.append(number: spawn.mass)
        case .remove(let body, let reason):
            out.append(",\"body\":")
            out.append(string: body)
            out.append(",\"reason\":")
            out.append(string: reason.rawValue)
        case .joint(let outline):
            out.append(",\"joint\":")
            TraceHeaderKey.writeObject(outline, JointOutline.keys(bodies: Set<String>()), to: &out)
        case .removeJoint(let id):
            out.append(",\"joint\":")
            out.append(string: id)
        case .skipped(let action, let body):
            out.append(",\"action\":")
            out.append(string: action)
            out.append(",\"body\":")
            out.append(string: body)
        }
        out.append(newline ? "}\n" : "}")
    }

    /// The line's bytes, newline included.
    public var line: [UInt8] {
        var buffer = JSONLineBuffer()
        append(to: &buffer)
        return buffer.bytes
    }
}

// MARK: - Reading

extension TraceLineReader {
    /// Reads an event line (an object with `"event"`), checking it against the bodies and joints
    /// present before it: a spawned id must be new, a removed body or joint present, a joint's ends present.
    func event(_ node: JSONNode, present: TracePresence) throws(InputError) -> TraceEvent {
        let bodies = present
        let nameNode = try member(node, "event")
        let name = try string(nameNode, "event")
        let step = try integer(try member(node, "step"), "step", minimum: 0)
        let t = try number(try member(node, "t"), "t")
        func presentBody(_ key: String) throws(InputError) -> String {
            let bodyNode = try member(node, key)
            let id = try string(bodyNode, key)
            guard bodies.contains(id) else {
                throw error(at: bodyNode, path: key, reason: "no body \"\(id)\" is present at this event")
            }
            return id
        }
        let change: TraceEvent.Change
        switch name {
        case "spawn":
            let bodyNode = try member(node, "body")
            let id = try string(bodyNode, "body")
            if bodies.contains(id) || id == "static" {
                throw error(at: bodyNode, path: "body", reason: "a body \"\(id)\" is already present")
            }
            let typeNode = try member(node, "type")
            let typeName = try string(typeNode, "type")
            guard let type = BodyType(rawValue: typeName) else {
                throw error(
                    at: typeNode, path: "type",
                    reason: "unknown body type \"\(typeName)\" (expected dynamic, kinematic or static)")
            }
            let shapes = try TraceHeaderValue<[ShapeGeometry]>.list(.shapeGeometry).read(
                try member(node, "shapes"), "shapes", self)
            change = .spawn(
                TraceEvent.Spawn(
                    body: id, type: type, shapes: shapes ?? [], size: try pair(try member(node, "size"), "size"),
                    mass: try number(try member(node, "mass"), "mass")))
        case "remove":
            let id = try presentBody("body")
            let reasonNode = try member(node, "reason")
            let reasonText = try string(reasonNode, "reason")
            guard let reason = TraceEvent.RemovalReason(rawValue: reasonText) else {
                throw error(
                    at: reasonNode, path: "reason",
                    reason: "unknown reason \"\(reasonText)\" (expected timeline, rule or cull)")
            }
            change = .remove(body: id, reason: reason)
        case "joint":
            let jointNode = try member(node, "joint")
            let object = TraceHeaderValue<JointOutline>.object(
                JointOutline.keys(bodies: present.bodySet), empty: JointOutline(kind: "", a: "", b: ""))
            guard let joint = try object.read(jointNode, "joint", self), let id = joint.id else {
                throw error(at: jointNode, path: "joint", reason: "expected a joint with an \"id\"")
            }
            if present.hasJoint(id) {
                throw error(at: jointNode["id"], path: "joint.id", reason: "a joint \"\(id)\" is already present")
            }
            change = .joint(joint)
        case "removeJoint":
            let jointNode = try member(node, "joint")
            let id = try string(jointNode, "joint")
            guard present.hasJoint(id) else {
                throw error(at: jointNode, path: "joint", reason: "no joint \"\(id)\" is present at this event")
            }
            change = .removeJoint(id)
        case "skipped":
            change = .skipped(
                action: try string(try member(node, "action"), "action"),
                body: try string(try member(node, "body"), "body"))
        default:
            throw error(
                at: nameNode, path: "event",
                reason: "unknown event \"\(name)\" (expected \(TraceEvent.names.joined(separator: ", ")))")
        }
        return TraceEvent(step: step, t: t, change: change)
    }
}
