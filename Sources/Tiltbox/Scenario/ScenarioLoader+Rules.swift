/// Reading the scenario's collision `rules` and `world.cull` (docs/formats.md §8) and checking
/// them before the run.
///
/// The choices this loader makes, beyond the format's contract:
/// - A rule has `on` (`"begin"` or `"separate"`, required), `between` (two names, required) and
///   `do` (a list of actions, default none: the rule then only records its events).
/// - `between`'s first name is a collision type; the second a collision type or `"*"` (any shape);
///   `"*"` first is refused (write the type first). Every name must be the `collisionType` of some
///   shape in the file (start bodies, crates, segments, walls or spawned bodies).
/// - At most `limits.maxRules` rules and `limits.maxRuleActions` actions per rule.
/// - An action has exactly one key: `{"remove": "a"|"b"}`, `{"impulse": {"body": "a"|"b",
///   "impulse": [x, y], "at": [x, y]}}`, `{"set": {"body": "a"|"b", …}}` (the timeline's keys and
///   bounds; `type` may be `kinematic` or `static`, never `dynamic`: a rule cannot know the body's
///   mass), `{"count": NAME}`.
/// - A `set` whose body could be a kinematic body that follows a `path` is refused: its side's
///   collision type is on a shape of such a body, or the side is the wildcard's and the file has one.
/// - A `set` with `type` is refused when bodies may sleep (`world.sleepTimeThreshold` finite): Chipmunk
///   7.0.3's `cpBodySetType` can leave a sleeping body in its sleeping group, then aborts.
/// - `world.cull.margin` is finite, ≥ 0 and at most `limits.maxCullMargin`; `world.cull` needs it.
extension ScenarioLoader {
    static let ruleKeys = ["on", "between", "do"]
    static let cullKeys = ["margin"]

    /// Reads `rules` into `scenario` (rules with their types numbered, and counters in order of
    /// first appearance); `collisionTypes` are the file's collision type names in numbering order.
    static func readRules(_ top: ObjectReader, into scenario: inout Scenario, collisionTypes: [String])
        throws(InputError)
    {
        let nodes = try top.array("rules", maxCount: limits.maxRules)
        guard !nodes.isEmpty else { return }
        let reader = top.reader
        var numbers: [String: UInt] = [:]
        for (index, name) in collisionTypes.enumerated() { numbers[name] = UInt(index + 1) }
        let driven = pathDrivenTypes(scenario)
        var counters: [String] = []
        var counterIndex: [String: Int] = [:]
        var counterBytes = 0
        var rules: [CollisionRule] = []
        rules.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() {
            let path = FieldReader.element(top.path("rules"), index)
            let object = try reader.object(node, path, keys: ruleKeys)
            let on = try reader.enumeration(object.required("on"), object.path("on"), as: CollisionPhase.self)
            let betweenNode = try object.required("between")
            let between = try reader.array(betweenNode, object.path("between"), maxCount: 2)
            guard between.count == 2 else {
                throw reader.error(
                    at: betweenNode, object.path("between"),
                    "expected two collision type names, or a name and \"*\" (got \(between.count))")
            }
            var names: [String] = []
            for (side, nameNode) in between.enumerated() {
                let namePath = FieldReader.element(object.path("between"), side)
                let name = try reader.string(nameNode, namePath, allowEmpty: false)
                if name == "*" {
                    guard side == 1 else {
                        throw reader.error(
                            at: nameNode, namePath, "\"*\" may only come second: write the collision type first")
                    }
                } else if numbers[name] == nil {
                    let known =
                        collisionTypes.isEmpty
                        ? "no shape in this file has a collisionType"
                        : "collision types in this file: \(collisionTypes.prefix(20).joined(separator: ", "))"
                            + (collisionTypes.count > 20 ? ", …" : "")
                    throw reader.error(
                        at: nameNode, namePath, "no shape has collisionType \"\(name)\" (\(known))")
                }
                names.append(name)
            }
            let typeB = names[1] == "*" ? nil : names[1]
            let doNodes = try object.array("do", maxCount: limits.maxRuleActions)
            var actions: [RuleAction] = []
            for (actionIndex, actionNode) in doNodes.enumerated() {
                let actionPath = FieldReader.element(object.path("do"), actionIndex)
                let (action, counter) = try ruleAction(actionNode, path: actionPath, reader: reader)
                switch action {
                case .count:
                    // Counters are numbered in order of first appearance in the file.
                    let name = counter ?? ""
                    let number = counterIndex[name] ?? counters.count
                    if number == counters.count {
                        counterIndex[name] = number
                        counters.append(name)
                        counterBytes += JSONLineBuffer.stringLength(name) + 22 // ":", 20 digits, ","
                        if counterBytes > limits.maxCounterBytes {
                            throw reader.error(
                                at: actionNode["count"] ?? actionNode, actionPath + ".count",
                                "the counters' names would make the trace's end line longer than its "
                                    + "\(limits.maxEndLineBytes >> 20) MiB bound (\(counters.count) counters, "
                                    + "more than \(limits.maxCounterBytes) bytes): use fewer or shorter names")
                        }
                    }
                    actions.append(.count(number))
                    continue
                case .set(let side, let setting):
                    if setting.type != nil, let sleep = scenario.world.sleepTimeThreshold, sleep.isFinite,
                        let typeNode = actionNode["set"]?["type"]
                    {
                        throw reader.error(
                            at: typeNode, actionPath + ".set.type",
                            "a rule cannot change a body's type when bodies may sleep (world.sleepTimeThreshold is "
                                + "set): Chipmunk 7.0.3 can leave the body in a sleeping group and abort")
                    }
                    let sideType = side == .a ? names[0] : typeB
                    if let reason = drivenReason(sideType, driven: driven) {
                        let bodyNode = actionNode["set"]?["body"] ?? actionNode
                        throw reader.error(
                            at: bodyNode, actionPath + ".set.body",
                            "body \"\(side.rawValue)\" \(reason): a set would fight its path")
                    }
                default:
                    break
                }
                actions.append(action)
            }
            var rule = CollisionRule(on: on, typeA: names[0], typeB: typeB, actions: actions)
            rule.typeNumberA = numbers[names[0]] ?? 0
            rule.typeNumberB = typeB.flatMap { numbers[$0] }
            rules.append(rule)
        }
        scenario.rules = rules
        scenario.counters = counters
    }

    /// `world.cull.margin`, or `nil` without `world.cull`.
    static func cullMargin(_ world: ObjectReader) throws(InputError) -> Double? {
        guard let cull = try world.object("cull", keys: cullKeys) else { return nil }
        return try cull.number("margin", default: nil, .nonNegative(max: limits.maxCullMargin))
    }

    // MARK: - Actions

    /// One action, and for a `count` its counter's name (the action's index is set by the caller).
    private static func ruleAction(_ node: JSONNode, path: String, reader: FieldReader) throws(InputError)
        -> (RuleAction, String?)
    {
        let object = try reader.object(node, path, keys: RuleAction.keys)
        guard object.members.count == 1, let member = object.members.first else {
            let got =
                object.members.isEmpty ? "none" : object.members.map { "\"\($0.key)\"" }.joined(separator: ", ")
            throw reader.error(
                at: node, path, "an action has exactly one key (\(RuleAction.keys.joined(separator: ", "))); got \(got)"
            )
        }
        let memberPath = object.path(member.key)
        switch member.key {
        case "remove":
            return (.remove(try reader.enumeration(member.node, memberPath, as: RuleSide.self)), nil)
        case "impulse":
            let impulse = try reader.object(member.node, memberPath, keys: impulseKeys)
            let side = try reader.enumeration(impulse.required("body"), impulse.path("body"), as: RuleSide.self)
            let action = RuleAction.impulse(
                side,
                TimelineImpulse(
                    body: side.rawValue,
                    impulse: try impulse.vec2("impulse", default: nil, .magnitude(limits.maxImpulse)),
                    at: try impulse["at"] == nil
                        ? nil : impulse.vec2("at", default: nil, .magnitude(limits.maxCoordinate))))
            return (action, nil)
        case "set":
            let set = try reader.object(member.node, memberPath, keys: setKeys)
            let side = try reader.enumeration(set.required("body"), set.path("body"), as: RuleSide.self)
            guard set.members.count > 1 else {
                throw reader.error(
                    at: member.node, memberPath,
                    "a set changes nothing: give at least one of position, angle, velocity, angularVelocity, type")
            }
            var type: BodyType?
            if let typeNode = set["type"] {
                type = try reader.enumeration(typeNode, set.path("type"), as: BodyType.self)
                if type == .dynamic {
                    throw reader.error(
                        at: typeNode, set.path("type"),
                        "a rule cannot make a body dynamic (Chipmunk would take its mass from shapes that may have "
                            + "none); use \"kinematic\" or \"static\"")
                }
                if type == .static { try refuseMovingWhileMadeStatic(set) }
            }
            let action = RuleAction.set(
                side,
                BodySetting(
                    body: side.rawValue,
                    position: try set["position"] == nil
                        ? nil : set.vec2("position", default: nil, .magnitude(limits.maxCoordinate)),
                    angle: try set.optionalNumber("angle", .magnitude(limits.maxAngle)),
                    velocity: try set["velocity"] == nil
                        ? nil : set.vec2("velocity", default: nil, .magnitude(limits.maxSpeed)),
                    angularVelocity: try set.optionalNumber("angularVelocity", .magnitude(limits.maxAngularVelocity)),
                    type: type))
            return (action, nil)
        default:
            return (.count(0), try reader.string(member.node, memberPath, allowEmpty: false))
        }
    }

    // MARK: - Path-driven bodies

    /// The ids of the kinematic bodies with a `path`, by each collision type name on their shapes.
    private static func pathDrivenTypes(_ scenario: Scenario) -> (any: String?, byType: [String: String]) {
        var first: String?
        var byType: [String: String] = [:]
        for body in scenario.bodies where body.path != nil {
            if first == nil { first = body.id }
            for shape in body.shapes {
                if let name = shape.collision.collisionTypeName, byType[name] == nil { byType[name] = body.id }
            }
        }
        return (first, byType)
    }

    /// Why a rule's body of collision type `type` (`nil`: the wildcard's, any shape) could be a
    /// path-driven body, or `nil` when it cannot.
    private static func drivenReason(_ type: String?, driven: (any: String?, byType: [String: String])) -> String? {
        if let type {
            return driven.byType[type].map {
                "has collisionType \"\(type)\", as has \"\($0)\", a kinematic body driven by its path"
            }
        }
        return driven.any.map { "is any shape (\"*\"), and \"\($0)\" is a kinematic body driven by its path" }
    }
}
