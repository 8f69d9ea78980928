/// Reading the scenario's `timeline` (docs/formats.md §8) and checking it before the run.
///
/// The choices this loader makes, beyond the format's contract:
/// - An entry has `t` (required), `every`, `count` and exactly one action key. `count` > 1
///   needs `every`; a spawn is "repeated" (ids `ID#k`) when its `count` is above 1.
/// - Every repetition must be due at a step of the run (at most `Scenario.totalSteps`).
/// - At most `limits.maxSpawns` spawns and `limits.maxTimelineActions` actions in all.
/// - The timeline is walked step by step before the run: every body or joint an action names
///   must be present at its step (`"static"` is never removed or set), spawned ids are unique
///   over the run, joint ids unique among joints, an `impulse` only on a dynamic body, a `set`
///   never on a kinematic body with a `path`, never moves a static body, and turns a body
///   dynamic only when its spec is a dynamic body whose mass comes from its shapes.
/// - A spawned body cannot have a `path` (its time base is not defined yet).
/// - An emitter (a dynamic spawn with `count` > 1) may not spawn into the body it spawned
///   just before: when repetitions k − 1 and k are due at the same step or at consecutive
///   steps and k − 1 is still present, body k at its spawn pose must not overlap body k − 1
///   at the pose its spawn velocity carries it to in one step (position + velocity·dt,
///   angle + angularVelocity·dt; at the same step, the spawn pose itself). Only shape pairs
///   Chipmunk would push apart count (`ShapeCollision.collide`), and touching is not
///   overlapping (`ShapeOverlap.depth`). Static and kinematic emitters are not checked:
///   Chipmunk never pushes two bodies apart that neither moves by its collisions.
extension ScenarioLoader {
    static let timelineEntryKeys = ["t", "every", "count"] + TimelineAction.keys
    static let impulseKeys = ["body", "impulse", "at"]
    static let setKeys = ["body", "position", "angle", "velocity", "angularVelocity", "type"]
    static let setJointKeys = ["joint"] + JointSetting.Parameter.allCases.map(\.rawValue)

    /// One body's state as the walk before the run sees it.
    private struct PresentBody {
        var type: BodyType
        var hasPath: Bool
        /// Dynamic in its spec with the mass from its shapes: `cpBodySetType` back to dynamic works.
        var massFromShapes: Bool
        /// Dynamic in its spec with a finite moment: while dynamic, a joint on rotation can turn it.
        var finiteMoment: Bool
        /// The mass Chipmunk gives it while dynamic (its spec's; infinity for a body that never is).
        var mass: Double

        /// Whether a joint on rotation (`JointKind.turnsBodies`) can turn it now.
        var turns: Bool { type == .dynamic && finiteMoment }
    }

    /// The `timeline` of `top`, read and walked step by step against `scenario`'s bodies and joints.
    static func timeline(_ top: ObjectReader, scenario: Scenario) throws(InputError) -> Timeline {
        let nodes = try top.array("timeline", maxCount: limits.maxTimelineActions)
        try checkStartJointIDs(top, scenario: scenario)
        guard !nodes.isEmpty else { return Timeline() }
        let reader = top.reader
        let dt = scenario.timestep.dt
        var entries: [TimelineEntry] = []
        var objects: [ObjectReader] = []
        var spawns = 0
        var actions = 0
        // What the file can make, counts included (`ScenarioLimits.maxShapes`, `maxShapeVertices`).
        var made = MadeCount(scenario: scenario)
        // Spawned bodies, read first so joints may name them (their poses at spawn).
        var spawnDefinitions: [BodyDefinition] = []
        for (index, node) in nodes.enumerated() {
            let path = FieldReader.element(top.path("timeline"), index)
            let object = try reader.object(node, path, keys: timelineEntryKeys)
            let t = try object.number("t", default: nil, .nonNegative(max: limits.maxDuration))
            let every = try object.optionalNumber("every", .positive(max: limits.maxDuration))
            let count = try object.integer("count", default: 1, min: 1, max: limits.maxTimelineActions)
            if count > 1, every == nil, let countNode = object["count"] {
                throw reader.error(
                    at: countNode, object.path("count"),
                    "a count above 1 needs \"every\" (the seconds between repetitions)")
            }
            actions += count
            if actions > limits.maxTimelineActions {
                throw reader.error(
                    at: node, path,
                    "the timeline makes more than \(limits.maxTimelineActions) actions in all (counts included)")
            }
            let actionKeys = object.members.filter { TimelineAction.keys.contains($0.key) }
            guard actionKeys.count == 1, let member = actionKeys.first else {
                let got = actionKeys.isEmpty ? "none" : actionKeys.map { "\"\($0.key)\"" }.joined(separator: ", ")
                throw reader.error(
                    at: node, path,
                    "an entry has exactly one action (\(TimelineAction.keys.joined(separator: ", "))); got \(got)")
            }
            if member.key == "spawn" {
                spawns += count
                if spawns > limits.maxSpawns {
                    throw reader.error(
                        at: member.node, object.path("spawn"),
                        "the timeline spawns more than \(limits.maxSpawns) bodies in all (counts included)")
                }
            }
            let entry = TimelineEntry(
                t: t, every: every, count: count,
                action: try action(member, object: object, scenario: scenario, spawned: spawnDefinitions))
            let last = entry.step(count - 1, dt: dt)
            if last > scenario.totalSteps {
                let (blame, key) =
                    count > 1 ? (object["every"] ?? node, "every") : (object["t"] ?? node, "t")
                throw reader.error(
                    at: blame, object.path(key),
                    "due at step \(last) (t = \(NumberFormat.shortest(entry.time(count - 1)))), after the run's last "
                        + "step \(scenario.totalSteps) (duration \(NumberFormat.shortest(scenario.duration)))")
            }
            if case .spawn(let body) = entry.action {
                if let exceeded = made.add(body.shapes, times: count) {
                    throw reader.error(
                        at: object["count"] ?? object["spawn"] ?? node,
                        object.path(object["count"] == nil ? "spawn" : "count"),
                        "the scenario would make more than \(exceeded) in all (its crates, bodies and segments, and "
                            + "each spawn's shapes times its count): spawn fewer or simpler bodies")
                }
                for k in 0..<count {
                    var definition = body
                    definition.id = entry.spawnedID(k) ?? body.id
                    spawnDefinitions.append(definition.definition)
                }
            }
            entries.append(entry)
            objects.append(object)
        }
        // Joints name spawned bodies too: read them now that every spawn is known.
        // (Only when an action needs them: a timeline of 100 000 spawns without joints skips the table.)
        let needsTargets = entries.contains {
            switch $0.action {
            case .joint, .setJoint: return true
            default: return false
            }
        }
        let targets = JointTargets(bodies: needsTargets ? scenario.bodyDefinitions + spawnDefinitions : [])
        for (index, object) in objects.enumerated() {
            guard case .joint = entries[index].action, let node = object["joint"] else { continue }
            entries[index].action = .joint(try timelineJoint(node, object: object, top: top, targets: targets, dt: dt))
        }
        let timeline = Timeline(entries: entries)
        try walk(timeline, objects: objects, scenario: scenario, targets: targets)
        try checkSpawnOverlaps(timeline, objects: objects)
        return timeline
    }

    /// At most `limits.maxOverlappingPairs` pairs of spawned bodies overlap at their spawn poses
    /// (`SpawnCensus`), blamed on the spawn that passes the cap.
    private static func checkSpawnOverlaps(_ timeline: Timeline, objects: [ObjectReader]) throws(InputError) {
        var spawns: [SpawnCensus.Spawn] = []
        for (index, entry) in timeline.entries.enumerated() {
            if case .spawn(let body) = entry.action {
                spawns.append(SpawnCensus.Spawn(entry: index, body: body, count: entry.count))
            }
        }
        guard spawns.count > 1 || (spawns.first?.count ?? 0) > 1 else { return }
        let census = SpawnCensus(spawns: spawns, stopAfter: limits.maxOverlappingPairs)
        guard let entry = census.overflowingEntry, let example = census.example else { return }
        let object = objects[entry]
        let first = "timeline[\(example.first)]", second = "timeline[\(example.second)]"
        let pair =
            example.first == example.second ? "the bodies of \(first) overlap each other" : "\(first) and \(second)"
        throw object.reader.error(
            at: object["spawn"] ?? object.node, object.path("spawn"),
            "more than \(limits.maxOverlappingPairs) pairs of spawned bodies overlap where they are spawned (the first: "
                + "\(pair)); the limit is \(limits.maxOverlappingPairs), as for crates at t = 0 (Chipmunk resolves every "
                + "overlapping pair on every step): spread the spawns out")
    }

    /// Ids given in `joints` are unique among joints.
    private static func checkStartJointIDs(_ top: ObjectReader, scenario: Scenario) throws(InputError) {
        var seen: [String: Int] = [:]
        for (index, joint) in scenario.joints.enumerated() {
            guard let id = joint.id else { continue }
            if let first = seen[id], let node = top["joints"]?.arrayValue?[index]["id"] {
                throw top.reader.error(
                    at: node, "joints[\(index)].id", "duplicate joint id \"\(id)\" (first used at joints[\(first)].id)")
            }
            seen[id] = index
        }
    }

    private static func action(
        _ member: (key: String, node: JSONNode), object: ObjectReader, scenario: Scenario, spawned: [BodyDefinition]
    ) throws(InputError) -> TimelineAction {
        let reader = object.reader
        let path = object.path(member.key)
        switch member.key {
        case "spawn":
            let body = try reader.object(member.node, path, keys: bodyKeys)
            let idNode = try body.required("id")
            let id = try reader.string(idNode, body.path("id"), allowEmpty: false)
            if id == "static" {
                throw reader.error(
                    at: idNode, body.path("id"), "\"static\" names the world's static body in joints; choose another id"
                )
            }
            if let pathNode = body["path"] {
                throw reader.error(
                    at: pathNode, body.path("path"),
                    "a spawned body cannot follow a path (not supported yet): give it at start in \"bodies\"")
            }
            return .spawn(try self.body(body, id: id, world: scenario.world))
        case "remove":
            if case .array = member.node.value {
                let items = try reader.array(member.node, path, maxCount: limits.maxCrates)
                guard !items.isEmpty else {
                    throw reader.error(at: member.node, path, "an empty list removes nothing: name at least one body")
                }
                var ids: [String] = []
                for (index, item) in items.enumerated() {
                    ids.append(try reader.string(item, FieldReader.element(path, index), allowEmpty: false))
                }
                return .remove(ids)
            }
            return .remove([try reader.string(member.node, path, allowEmpty: false)])
        case "impulse":
            let impulse = try reader.object(member.node, path, keys: impulseKeys)
            return .impulse(
                TimelineImpulse(
                    body: try impulse.string("body", default: nil, allowEmpty: false),
                    impulse: try impulse.vec2("impulse", default: nil, .magnitude(limits.maxImpulse)),
                    at: try impulse["at"] == nil
                        ? nil : impulse.vec2("at", default: nil, .magnitude(limits.maxCoordinate))
                ))
        case "set":
            let set = try reader.object(member.node, path, keys: setKeys)
            guard set.members.count > 1 else {
                throw reader.error(
                    at: member.node, path,
                    "a set changes nothing: give at least one of position, angle, velocity, angularVelocity, type")
            }
            var type: BodyType?
            if let typeNode = set["type"] {
                type = try reader.enumeration(typeNode, set.path("type"), as: BodyType.self)
                if type == .static { try refuseMovingWhileMadeStatic(set) }
            }
            return .set(
                BodySetting(
                    body: try set.string("body", default: nil, allowEmpty: false),
                    position: try set["position"] == nil
                        ? nil : set.vec2("position", default: nil, .magnitude(limits.maxCoordinate)),
                    angle: try set.optionalNumber("angle", .magnitude(limits.maxAngle)),
                    velocity: try set["velocity"] == nil
                        ? nil : set.vec2("velocity", default: nil, .magnitude(limits.maxSpeed)),
                    angularVelocity: try set.optionalNumber("angularVelocity", .magnitude(limits.maxAngularVelocity)),
                    type: type))
        case "joint":
            // Read once every spawn is known (`timelineJoint`); a placeholder until then.
            return .joint(JointSpec(parameters: .simpleMotor(rate: 0), a: .world, b: .world))
        case "removeJoint":
            return .removeJoint(try reader.string(member.node, path, allowEmpty: false))
        default:
            return .setJoint(try jointSetting(member.node, path: path, reader: reader))
        }
    }

    /// A `set` that makes a body static may not also move it (`position`, `angle`): Chipmunk
    /// 7.0.3's `cpBodySetType` moves the body's shapes into the static index where they were
    /// last updated, and a static shape is never updated again, so the body would be drawn and
    /// recorded at its new pose while it collides at its old one. Move it in an earlier step
    /// (while it is dynamic or kinematic, each step updates its shapes), then make it static.
    static func refuseMovingWhileMadeStatic(_ set: ObjectReader) throws(InputError) {
        for key in ["position", "angle"] {
            guard let node = set[key] else { continue }
            throw set.reader.error(
                at: node, set.path(key),
                "a set that makes a body static cannot also move it: Chipmunk keeps a body made static where its "
                    + "shapes were last updated, so it would collide at its old pose; move it in an earlier step, "
                    + "then make it static")
        }
    }

    private static func timelineJoint(
        _ node: JSONNode, object: ObjectReader, top: ObjectReader, targets: JointTargets, dt: Double
    ) throws(InputError) -> JointSpec {
        let path = object.path("joint")
        let joint = try jointSpec(node, path: path, top: top, targets: targets, dt: dt)
        guard joint.id != nil else {
            throw object.reader.error(
                at: node, path, "a joint added by the timeline needs an \"id\" (removeJoint and setJoint name it)")
        }
        return joint
    }

    private static func jointSetting(_ node: JSONNode, path: String, reader: FieldReader) throws(InputError)
        -> JointSetting
    {
        let object = try reader.object(node, path, keys: setJointKeys)
        let id = try object.string("joint", default: nil, allowEmpty: false)
        var values: [(parameter: JointSetting.Parameter, value: Double)] = []
        let spring = Bounds.nonNegative(max: limits.maxSpringConstant)
        for member in object.members where member.key != "joint" {
            guard let parameter = JointSetting.Parameter(rawValue: member.key) else { continue }
            let bounds: Bounds
            switch parameter {
            case .maxForce, .maxBias: bounds = .nonNegative(max: limits.maxJointForce)
            case .errorBias: bounds = .closed(0, 1)
            case .rate: bounds = .magnitude(limits.maxAngularVelocity)
            case .restLength: bounds = .nonNegative(max: limits.maxCoordinate)
            case .restAngle, .phase: bounds = .magnitude(limits.maxAngle)
            // A slide's distances or a rotaryLimit's angles: the joint's kind decides (`walk`).
            case .min, .max: bounds = .magnitude(limits.maxCoordinate)
            case .stiffness, .damping: bounds = spring
            case .ratio: bounds = .magnitude(limits.maxGearRatio)
            }
            let value = try reader.number(member.node, object.path(member.key), bounds)
            if parameter == .ratio, abs(value) < limits.minGearRatio {
                throw reader.error(
                    at: member.node, object.path("ratio"),
                    "a gear ratio must be at least \(NumberFormat.shortest(limits.minGearRatio)) in magnitude")
            }
            values.append((parameter, value))
        }
        guard !values.isEmpty else {
            throw reader.error(
                at: node, path,
                "a setJoint changes nothing: give at least one of "
                    + JointSetting.Parameter.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let given = Dictionary(values.map { ($0.parameter, $0.value) }, uniquingKeysWith: { $1 })
        if (given[.min] == nil) != (given[.max] == nil), let member = object["min"] ?? object["max"] {
            throw reader.error(
                at: member, object.path(given[.min] == nil ? "max" : "min"),
                "give \"min\" and \"max\" together (min ≤ max is checked on the pair)")
        }
        if let min = given[.min], let max = given[.max], max < min, let node = object["max"] {
            throw reader.error(
                at: node, object.path("max"),
                "must be ≥ min (\(NumberFormat.shortest(min))), got \(NumberFormat.shortest(max))")
        }
        return JointSetting(joint: id, values: values)
    }

    // MARK: - The walk before the run

    /// A joint added at a step where neither end is dynamic, or (a joint on rotation) neither can
    /// turn, with the types the walk says the bodies have then: Chipmunk could not solve it.
    private static func checkJointEndsNow(
        _ joint: JointSpec, bodies: [String: PresentBody], object: ObjectReader, when: String
    ) throws(InputError) {
        func now(_ end: JointBody) -> (type: BodyType, turns: Bool, text: String) {
            guard case .body(let id) = end, let body = bodies[id] else { return (.static, false, "\"static\"") }
            let infinite = body.type == .dynamic && !body.finiteMoment ? ", moment \"infinite\"" : ""
            return (body.type, body.turns, "\"\(id)\" (\(body.type.rawValue)\(infinite))")
        }
        let a = now(joint.a), b = now(joint.b)
        let node = object["joint"]?[joint.kind.rawValue]?["b"] ?? object["joint"] ?? object.node
        let path = object.path("joint") + "." + joint.kind.rawValue + ".b"
        if a.type != .dynamic, b.type != .dynamic {
            throw object.reader.error(
                at: node, path,
                "neither end is a dynamic body at \(when) (a is \(a.text), b is \(b.text)): Chipmunk cannot solve a joint "
                    + "between two bodies of infinite mass")
        }
        if joint.kind.turnsBodies, !a.turns, !b.turns {
            throw object.reader.error(
                at: node, path, "at \(when): " + turningEndReason(joint.kind, a: a.text, b: b.text))
        }
    }

    /// A `set` that takes body `id` out of dynamic leaves each of its joints an end Chipmunk can
    /// solve: a dynamic other end, and for a joint on rotation one that can turn.
    private static func checkJointsKeepAnEnd(
        of id: String, becoming type: BodyType, joints: JointCensus, bodies: [String: PresentBody],
        object: ObjectReader, when: String
    ) throws(InputError) {
        for joint in joints.present(of: id) {
            let other = joint.spec.a == .body(id) ? joint.spec.b : joint.spec.a
            var otherBody: PresentBody?
            if case .body(let otherID) = other { otherBody = bodies[otherID] }
            let dynamic = otherBody?.type == .dynamic
            guard !dynamic || (joint.kind.turnsBodies && otherBody?.turns != true) else { continue }
            let name: String
            if case .body(let otherID) = other { name = "\"\(otherID)\"" } else { name = "\"static\"" }
            let what = joint.id.map { "joint \"\($0)\"" } ?? "a joint"
            let reason =
                dynamic
                ? "\(name) has an infinite moment, so the \(joint.kind.rawValue) \(what) could turn neither end"
                : "\(name) is not dynamic either, so \(what) would hold two bodies of infinite mass"
            throw object.reader.error(
                at: object["set"]?["type"] ?? object.node, object.path("set") + ".type",
                "\"\(id)\" cannot become \(type.rawValue) at \(when): \(reason) (Chipmunk cannot solve it); remove the "
                    + "joint first")
        }
    }

    /// Applies every occurrence to a census of present bodies and joints, refusing the first
    /// action that names something absent or cannot work.
    private static func walk(
        _ timeline: Timeline, objects: [ObjectReader], scenario: Scenario, targets: JointTargets
    ) throws(InputError) {
        let dt = scenario.timestep.dt
        var bodies: [String: PresentBody] = [:]
        var everUsed = Set<String>(["static"])
        for body in scenario.bodyDefinitions {
            let fromShapes: Bool
            switch body.build {
            case .crate: fromShapes = true
            case .fromShapes: fromShapes = body.type == .dynamic && body.givenMass == nil
            }
            bodies[body.id] = PresentBody(
                type: body.type, hasPath: body.makeDriver != nil, massFromShapes: fromShapes,
                finiteMoment: body.type == .dynamic && (body.givenMass?.moment.isFinite ?? true), mass: body.mass)
            everUsed.insert(body.id)
        }
        // Joints present: id (or nil) and ends, in the order added.
        var joints = JointCensus()
        for joint in scenario.joints { joints.add(joint) }
        var everJoint = Set(scenario.joints.compactMap(\.id))
        // Where each body left or joint was removed, for messages.
        var gone: [String: String] = [:]
        // An emitter's overlap depth with its previous body, by entry, for repetitions due at
        // the same step ([0]) and at the next ([1]): every repetition of an entry is the same
        // body at the same pose, so each is asked of Chipmunk once.
        var emitterDepths: [Int: [Double?]] = [:]

        // Spawned ids unique over the run, whatever their steps.
        for (index, entry) in timeline.entries.enumerated() {
            guard case .spawn = entry.action else { continue }
            let object = objects[index]
            let idNode = object["spawn"]?["id"] ?? object.node
            for k in 0..<entry.count {
                let id = entry.spawnedID(k) ?? ""
                if everUsed.contains(id) {
                    throw object.reader.error(
                        at: idNode, object.path("spawn") + ".id",
                        "duplicate id \"\(id)\": ids are unique over the whole run (crates, bodies and spawned bodies)")
                }
                everUsed.insert(id)
            }
        }
        // Joint ids unique among joints, timeline ones included.
        for (index, entry) in timeline.entries.enumerated() {
            guard case .joint(let joint) = entry.action, let id = joint.id else { continue }
            if everJoint.contains(id) {
                let object = objects[index]
                let node = object["joint"]?["id"] ?? object.node
                throw object.reader.error(
                    at: node, object.path("joint") + ".id",
                    "duplicate joint id \"\(id)\": joint ids are unique over the run")
            }
            everJoint.insert(id)
        }

        for occurrence in timeline.occurrences(dt: dt) {
            let entry = timeline.entries[occurrence.entry]
            let object = objects[occurrence.entry]
            // Made only for a message: the walk may take a million actions.
            var when: String {
                "step \(occurrence.step) (t = \(NumberFormat.shortest(entry.time(occurrence.repetition))))"
            }
            var here: String { "timeline[\(occurrence.entry)]" }
            func absent(_ id: String, _ node: JSONNode, _ path: String, _ what: String = "body") -> InputError {
                var reason = "no \(what) \"\(id)\" is present at \(when)"
                if let left = gone[what + ":" + id] {
                    reason += ": \(left)"
                } else if what == "body", everUsed.contains(id) {
                    reason += ": it is spawned later"
                } else if what == "joint", everJoint.contains(id) {
                    reason += ": it is added later"
                }
                return object.reader.error(at: node, path, reason)
            }
            func removeJoints(of id: String) {
                for jointID in joints.removeJoints(of: id) {
                    gone["joint:" + jointID] = "removed with body \"\(id)\" at \(when) by \(here)"
                }
            }
            switch entry.action {
            case .spawn(let body):
                let id = entry.spawnedID(occurrence.repetition) ?? body.id
                let k = occurrence.repetition
                if k > 0, body.type == .dynamic, let previous = entry.spawnedID(k - 1), bodies[previous] != nil {
                    let gap = occurrence.step - entry.step(k - 1, dt: dt)
                    if gap <= 1 {
                        var depths = emitterDepths[occurrence.entry] ?? [nil, nil]
                        let depth = depths[gap] ?? emitterOverlap(body, stepsApart: gap, dt: dt)
                        depths[gap] = depth
                        emitterDepths[occurrence.entry] = depths
                        if depth > 0 {
                            let when = gap == 0 ? "at the same step" : "the step before"
                            throw object.reader.error(
                                at: object["spawn"] ?? object.node, object.path("spawn"),
                                "the emitter spawns \"\(id)\" into \"\(previous)\" spawned \(when) (they overlap by "
                                    + "\(overlapText(depth))): space the spawns out (every) or give them a velocity "
                                    + "that clears them")
                        }
                    }
                }
                bodies[id] = PresentBody(
                    type: body.type, hasPath: false, massFromShapes: body.type == .dynamic && body.givenMass == nil,
                    finiteMoment: body.type == .dynamic && (body.givenMass?.moment.isFinite ?? true),
                    mass: body.type == .dynamic ? body.massProperties.mass : .infinity)
                gone["body:" + id] = nil
            case .remove(let ids):
                let node = object["remove"] ?? object.node
                for (index, id) in ids.enumerated() {
                    let itemNode = node.arrayValue?[index] ?? node
                    let path = node.arrayValue == nil ? object.path("remove") : "\(object.path("remove"))[\(index)]"
                    if id == "static" {
                        throw object.reader.error(
                            at: itemNode, path, "\"static\" is the world's static body: it cannot be removed")
                    }
                    guard bodies[id] != nil else { throw absent(id, itemNode, path) }
                    removeJoints(of: id)
                    bodies[id] = nil
                    gone["body:" + id] = "removed at \(when) by \(here)"
                }
            case .impulse(let impulse):
                let node = object["impulse"]?["body"] ?? object.node
                let path = object.path("impulse") + ".body"
                guard let body = bodies[impulse.body] else { throw absent(impulse.body, node, path) }
                guard body.type == .dynamic else {
                    throw object.reader.error(
                        at: node, path,
                        "\"\(impulse.body)\" is \(body.type.rawValue) at \(when): an impulse moves only a dynamic body")
                }
                // The change of velocity meets the bound of a start velocity: 1e12 on a mass of 1e-9 flung a body
                // 1e19 units in one step, and Chipmunk's spatial hash then never finished the step.
                let change = impulse.impulse.length / body.mass
                if change > limits.maxSpeed {
                    throw object.reader.error(
                        at: object["impulse"]?["impulse"] ?? node, object.path("impulse") + ".impulse",
                        "gives \"\(impulse.body)\" (mass \(NumberFormat.shortest(body.mass))) a change of speed of "
                            + "\(NumberFormat.shortest(change)), more than \(NumberFormat.shortest(limits.maxSpeed)) (the bound of a "
                            + "velocity): a smaller impulse or a heavier body")
                }
            case .set(let setting):
                let node = object["set"]?["body"] ?? object.node
                let path = object.path("set") + ".body"
                guard var body = bodies[setting.body] else { throw absent(setting.body, node, path) }
                if body.hasPath {
                    throw object.reader.error(
                        at: node, path,
                        "\"\(setting.body)\" is a kinematic body driven by its path: a set would fight the path")
                }
                if body.type == .static,
                    setting.position != nil || setting.angle != nil || setting.velocity != nil
                        || setting.angularVelocity != nil, setting.type == nil
                {
                    throw object.reader.error(
                        at: node, path,
                        "\"\(setting.body)\" is static at \(when): a static body never moves; set \"type\" too or make it kinematic"
                    )
                }
                if let type = setting.type {
                    if type == .dynamic, !body.massFromShapes, body.type != .dynamic {
                        throw object.reader.error(
                            at: object["set"]?["type"] ?? node, object.path("set") + ".type",
                            "\"\(setting.body)\" cannot become dynamic: Chipmunk would take its mass from its shapes, "
                                + "and only a body that starts dynamic with massive shapes has any")
                    }
                    if body.type == .dynamic, type != .dynamic {
                        try checkJointsKeepAnEnd(
                            of: setting.body, becoming: type, joints: joints, bodies: bodies, object: object, when: when
                        )
                    }
                    body.type = type
                    bodies[setting.body] = body
                }
            case .joint(let joint):
                let node = object["joint"] ?? object.node
                for end in [joint.a, joint.b] {
                    guard case .body(let id) = end else { continue }
                    guard bodies[id] != nil else { throw absent(id, node, object.path("joint")) }
                }
                try checkJointEndsNow(joint, bodies: bodies, object: object, when: when)
                joints.add(joint)
                if let id = joint.id { gone["joint:" + id] = nil }
            case .removeJoint(let id):
                let node = object["removeJoint"] ?? object.node
                guard let index = joints.index(of: id) else {
                    throw absent(id, node, object.path("removeJoint"), "joint")
                }
                joints.remove(at: index)
                gone["joint:" + id] = "removed at \(when) by \(here)"
            case .setJoint(let setting):
                let node = object["setJoint"]?["joint"] ?? object.node
                guard let jointIndex = joints.index(of: setting.joint) else {
                    throw absent(setting.joint, node, object.path("setJoint") + ".joint", "joint")
                }
                let joint = joints.entries[jointIndex]
                for (parameter, _) in setting.values where !parameter.kinds.contains(joint.kind) {
                    let valueNode = object["setJoint"]?[parameter.rawValue] ?? node
                    throw object.reader.error(
                        at: valueNode, object.path("setJoint") + "." + parameter.rawValue,
                        "joint \"\(setting.joint)\" is a \(joint.kind.rawValue) joint, which has no \"\(parameter.rawValue)\""
                    )
                }
                // The same ranges as in `joints`: a slide's distances in [0, 1e7], a rotaryLimit's angles within ±1e6.
                let range = joint.kind == .slide ? (0.0, limits.maxCoordinate) : (-limits.maxAngle, limits.maxAngle)
                for (parameter, value) in setting.values
                where (parameter == .min || parameter == .max) && !(range.0...range.1).contains(value) {
                    let valueNode = object["setJoint"]?[parameter.rawValue] ?? node
                    throw object.reader.error(
                        at: valueNode, object.path("setJoint") + "." + parameter.rawValue,
                        "must be in [\(NumberFormat.shortest(range.0)), \(NumberFormat.shortest(range.1))] "
                            + "for a \(joint.kind.rawValue) joint (got \(NumberFormat.shortest(value)))")
                }
                // A new stiffness meets the spring step bound of `joints` (with the bodies' masses at start or spawn).
                guard let stiffness = setting.values.last(where: { $0.parameter == .stiffness })?.value,
                    let setObject = try objects[occurrence.entry].object("setJoint", keys: setJointKeys)
                else { continue }
                var spec = joint.spec
                switch spec.parameters {
                case .dampedSpring(let anchorA, let anchorB, let rest, _, let damping):
                    spec.parameters = .dampedSpring(
                        anchorA: anchorA, anchorB: anchorB, restLength: rest, stiffness: stiffness, damping: damping)
                case .dampedRotarySpring(let rest, _, let damping):
                    spec.parameters = .dampedRotarySpring(restAngle: rest, stiffness: stiffness, damping: damping)
                default:
                    break
                }
                try checkSpringStep(spec.parameters, setObject, a: targets[spec.a], b: targets[spec.b], dt: dt)
                joints.entries[jointIndex].spec = spec
            }
        }
    }
}

extension ScenarioLoader {
    /// How deep an emitter's next body, at its spawn pose, overlaps the one spawned
    /// `stepsApart` (0 or 1) steps before it, where that one is by then: its spawn pose
    /// moved by its spawn velocity for `stepsApart` steps of `dt` (no gravity, no contact:
    /// the one step the loader can know). 0 when they do not overlap.
    static func emitterOverlap(_ body: BodySpec, stepsApart: Int, dt: Double) -> Double {
        let time = Double(stepsApart) * dt
        let spawned = BodyPose(position: body.position, angle: body.angle)
        let moved = BodyPose(
            position: body.position + body.velocity * time, angle: body.angle + body.angularVelocity * time)
        return ShapeOverlap.depth(
            ShapeOverlap.Side(shapes: body.shapes, pose: spawned), ShapeOverlap.Side(shapes: body.shapes, pose: moved))
    }

    /// An overlap depth for a message, to a tenth of a pixel (`11 px`, `0.3 px`, `less than 0.1 px`).
    static func overlapText(_ depth: Double) -> String {
        let tenths = (depth * 10).rounded() / 10
        return tenths > 0 ? "\(NumberFormat.shortest(tenths)) px" : "less than 0.1 px"
    }
}

/// The shapes and polygon vertices a file makes, counted against `ScenarioLimits.maxShapes` and
/// `maxShapeVertices`: those at start (crates, bodies, segments and walls) and each spawn's times its count.
private struct MadeCount {
    var shapes: Int
    var vertices: Int

    init(scenario: Scenario) {
        shapes = scenario.crates.count + scenario.allSegments.count
        vertices = 0
        for body in scenario.bodies { add(body.shapes, times: 1) }
    }

    /// Adds `shapes` made `times` times; what passes its limit first (for a message), else `nil`.
    @discardableResult
    mutating func add(_ list: [ShapeSpec], times: Int) -> String? {
        let limits = ScenarioLimits()
        var polygonVertices = 0
        for shape in list {
            if case .polygon(let points, _) = shape.geometry { polygonVertices += points.count }
        }
        shapes += list.count * times
        vertices += polygonVertices * times
        if shapes > limits.maxShapes { return "\(limits.maxShapes) shapes" }
        if vertices > limits.maxShapeVertices { return "\(limits.maxShapeVertices) polygon vertices" }
        return nil
    }
}

/// The joints present during the walk before the run, by id and by the bodies they hold, so
/// each action costs the same however many joints there are.
private struct JointCensus {
    struct Entry {
        var spec: JointSpec
        var present = true
        var id: String? { spec.id }
        var kind: JointKind { spec.kind }
    }
    var entries: [Entry] = []
    private var byID: [String: Int] = [:]
    private var byBody: [String: [Int]] = [:]

    mutating func add(_ spec: JointSpec) {
        let index = entries.count
        entries.append(Entry(spec: spec))
        if let id = spec.id { byID[id] = index }
        for end in [spec.a, spec.b] {
            if case .body(let body) = end { byBody[body, default: []].append(index) }
        }
    }

    /// The present joints holding `body`, in the order they were added.
    func present(of body: String) -> [Entry] {
        (byBody[body] ?? []).map { entries[$0] }.filter(\.present)
    }

    /// The present joint `id`'s index in `entries`.
    func index(of id: String) -> Int? { byID[id] }

    mutating func remove(at index: Int) {
        entries[index].present = false
        if let id = entries[index].id { byID[id] = nil }
    }

    /// Removes every present joint holding `body`, in the order they were added; their ids.
    mutating func removeJoints(of body: String) -> [String] {
        guard let indices = byBody.removeValue(forKey: body) else { return [] }
        var ids: [String] = []
        for index in indices where entries[index].present {
            remove(at: index)
            if let id = entries[index].id { ids.append(id) }
        }
        return ids
    }
}
