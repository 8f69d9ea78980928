/// Reading `expect` (docs/formats.md, "Expectations"): each entry has one time key (`at`,
/// `from`, `between`, `always`) and one check, with the keys that check takes and no other.
///
/// Choices this loader makes:
/// - A time lies in `[0, duration]` (a later one "is after the end of the run"); `between` needs `t0 ≤ t1`; `always` must be `true`.
/// - `body` is an id of a crate or a body, `"prefix*"` (which must match at least one of them)
///   or `"*"`; `inside` a box `[[x0, y0], [x1, y1]]` with `x0 ≤ x1` and `y0 ≤ y1`, or `"world"`.
/// - `contact` and `noContact` name two parties, each a body id, a collision type name (a body
///   id first, when a name is both) or `"*"` (anything, walls included); not both `"*"`.
/// - `counter` names a counter that a rule of the file counts (`rules[i].do[j].count`); at
///   least one of `equals`, `atLeast`, `atMost`, whole numbers ≥ 0.
/// - Every bound is a finite number; speeds, `within` and `kineticEnergyBelow` are ≥ 0.
extension ScenarioLoader {
    static let expectationKeys = [
        "name", "at", "from", "between", "always", "body", "inside", "near", "within", "speedBelow",
        "speedAbove", "angle", "yAbove", "yBelow", "contact", "noContact", "counter", "equals", "atLeast",
        "atMost", "kineticEnergyBelow",
    ]
    static let windowKeys = ["at", "from", "between", "always"]
    static let bodyConditionKeys = ["inside", "near", "speedBelow", "speedAbove", "angle", "yAbove", "yBelow"]
    static let checkKeys = bodyConditionKeys + ["contact", "noContact", "counter", "kineticEnergyBelow"]

    static func expectations(_ top: ObjectReader, scenario: Scenario, collisionTypes: [String], root: JSONNode)
        throws(InputError) -> [Expectation]
    {
        let entries = try top.array("expect", maxCount: limits.maxExpectations)
        guard !entries.isEmpty else { return [] }
        let context = ExpectationContext(
            ids: scenario.crates.map(\.id) + scenario.bodies.map(\.id) + spawnedIDs(scenario.timeline),
            collisionTypes: collisionTypes,
            counters: countedNames(root), duration: scenario.duration)
        var result: [Expectation] = []
        for (index, node) in entries.enumerated() {
            let path = FieldReader.element("expect", index)
            let object = try top.reader.object(node, path, keys: expectationKeys)
            result.append(try expectation(object, index: index, context: context))
        }
        return result
    }

    /// What an expectation may name: the file's body ids, collision types and counters.
    struct ExpectationContext {
        var ids: [String]
        var collisionTypes: [String]
        var counters: [String]
        var duration: Double
    }

    /// The ids the timeline's spawns give their bodies (`ID`, or `ID#0`, `ID#1`, … when repeated), in file order.
    static func spawnedIDs(_ timeline: Timeline) -> [String] {
        timeline.entries.flatMap { entry in (0..<entry.count).compactMap { entry.spawnedID($0) } }
    }

    /// Every counter name a rule of the file counts: the string of each `count` action in
    /// `rules[i].do` (a file without rules counts nothing).
    static func countedNames(_ root: JSONNode) -> [String] {
        guard case .array(let rules)? = root["rules"]?.value else { return [] }
        var names: [String] = []
        for rule in rules {
            guard case .array(let actions)? = rule["do"]?.value else { continue }
            for action in actions {
                if let name = action["count"]?.stringValue, !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    private static func expectation(_ object: ObjectReader, index: Int, context: ExpectationContext)
        throws(InputError) -> Expectation
    {
        let name = try object["name"].map { (node) throws(InputError) in
            try object.reader.string(node, object.path("name"), allowEmpty: false)
        }
        let window = try expectationWindow(object, duration: context.duration)
        let checks = checkKeys.filter { object[$0] != nil }
        guard let checkKey = checks.first else {
            throw object.reader.error(
                at: object.node, object.path,
                "an expectation needs one check: " + checkKeys.joined(separator: ", "))
        }
        if checks.count > 1 {
            throw object.reader.error(
                at: object[checks[1]] ?? object.node, object.path(checks[1]),
                "one check per expectation: \"\(checks[0])\" and \"\(checks[1])\" are both given (write two entries)")
        }
        // The keys each check takes besides its own; any other is refused by name.
        let companions: [String]
        switch checkKey {
        case "near": companions = ["body", "within"]
        case "counter": companions = ["equals", "atLeast", "atMost"]
        case "contact", "noContact", "kineticEnergyBelow": companions = []
        default: companions = ["body"]
        }
        let allowed = ["name"] + windowKeys + [checkKey] + companions
        for member in object.members where !allowed.contains(member.key) {
            throw object.reader.error(
                at: member.node, object.path(member.key),
                "\"\(member.key)\" means nothing with \"\(checkKey)\"; that check takes "
                    + ([checkKey] + companions).map { "\"\($0)\"" }.joined(separator: ", "))
        }
        let check = try expectationCheck(checkKey, object, context: context)
        return Expectation(index: index, name: name, window: window, check: check)
    }

    private static func expectationWindow(_ object: ObjectReader, duration: Double) throws(InputError)
        -> ExpectationWindow
    {
        let given = windowKeys.filter { object[$0] != nil }
        guard let key = given.first else {
            throw object.reader.error(
                at: object.node, object.path, "an expectation needs one of \"at\", \"from\", \"between\", \"always\"")
        }
        if given.count > 1 {
            throw object.reader.error(
                at: object[given[1]] ?? object.node, object.path(given[1]),
                "one time key per expectation: \"\(given[0])\" and \"\(given[1])\" are both given")
        }
        let time = Bounds.nonNegative(max: .greatestFiniteMagnitude)
        /// A time after the run's end could never be checked.
        func within(_ t: Double, _ path: String, _ node: JSONNode?) throws(InputError) -> Double {
            guard t <= duration else {
                throw object.reader.error(
                    at: node ?? object.node, path,
                    "t = \(NumberFormat.shortest(t)) s is after the end of the run (duration \(NumberFormat.shortest(duration)) s)"
                )
            }
            return t
        }
        switch key {
        case "at": return .at(try within(object.number("at", default: nil, time), object.path("at"), object["at"]))
        case "from":
            return .from(try within(object.number("from", default: nil, time), object.path("from"), object["from"]))
        case "between":
            let pair = try object.vec2("between", default: nil, time)
            let node = object["between"]?.arrayValue
            _ = try within(pair.x, object.path("between") + "[0]", node?.first)
            _ = try within(pair.y, object.path("between") + "[1]", node?.last)
            guard pair.x <= pair.y else {
                throw object.reader.error(
                    at: object["between"] ?? object.node, object.path("between"),
                    "the window [\(NumberFormat.shortest(pair.x)), \(NumberFormat.shortest(pair.y))] ends before it starts"
                )
            }
            return .between(pair.x, pair.y)
        default:
            guard try object.bool("always", default: false) else {
                throw object.reader.error(
                    at: object["always"] ?? object.node, object.path("always"),
                    "\"always\" can only be true (leave it out and give \"at\", \"from\" or \"between\")")
            }
            return .always
        }
    }

    private static func expectationCheck(_ key: String, _ object: ObjectReader, context: ExpectationContext)
        throws(InputError) -> ExpectationCheck
    {
        let reader = object.reader
        let anyNumber = Bounds.magnitude(.greatestFiniteMagnitude)
        let nonNegative = Bounds.nonNegative(max: .greatestFiniteMagnitude)
        switch key {
        case "contact", "noContact":
            let node = try object.required(key)
            let path = object.path(key)
            let sides = try reader.array(node, path, maxCount: 2)
            guard sides.count == 2 else {
                throw reader.error(at: node, path, "expected two parties [A, B], got \(sides.count)")
            }
            var parties: [ContactParty] = []
            for (i, side) in sides.enumerated() {
                parties.append(try contactParty(side, FieldReader.element(path, i), reader: reader, context: context))
            }
            if parties[0] == .any && parties[1] == .any {
                throw reader.error(at: node, path, "[\"*\", \"*\"] names no one: give a body or a collision type")
            }
            return .contact(parties[0], parties[1], expected: key == "contact")
        case "counter":
            let name = try object.string("counter", default: nil, allowEmpty: false)
            guard context.counters.contains(name) else {
                let known =
                    context.counters.isEmpty
                    ? "no rule of this file counts anything"
                    : "the rules count " + context.counters.map { "\"\($0)\"" }.joined(separator: ", ")
                throw reader.error(
                    at: object["counter"] ?? object.node, object.path("counter"),
                    "no rule counts \"\(name)\" (\(known))")
            }
            let limit = Int(limits.maxTotalSteps) * 1000
            let bound = try CounterBound(
                equals: object.optionalInteger("equals", min: 0, max: limit),
                atLeast: object.optionalInteger("atLeast", min: 0, max: limit),
                atMost: object.optionalInteger("atMost", min: 0, max: limit))
            guard bound.equals != nil || bound.atLeast != nil || bound.atMost != nil else {
                throw reader.error(
                    at: object.node, object.path("counter"),
                    "a counter expectation needs \"equals\", \"atLeast\" or \"atMost\"")
            }
            return .counter(name, bound)
        case "kineticEnergyBelow":
            return .kineticEnergyBelow(try object.number(key, default: nil, nonNegative))
        default:
            break
        }
        let selector = try bodySelector(object, context: context, check: key)
        let condition: BodyCondition
        switch key {
        case "inside":
            let node = try object.required("inside")
            let path = object.path("inside")
            if case .string(let text) = node.value {
                guard text == "world" else {
                    throw reader.error(at: node, path, "expected \"world\" or a box [[x0, y0], [x1, y1]]")
                }
                condition = .inside(.world)
            } else {
                let corners = try reader.array(node, path, maxCount: 2)
                guard corners.count == 2 else {
                    throw reader.error(
                        at: node, path, "expected a box [[x0, y0], [x1, y1]], got \(corners.count) corners")
                }
                let low = try reader.vec2(corners[0], FieldReader.element(path, 0), anyNumber)
                let high = try reader.vec2(corners[1], FieldReader.element(path, 1), anyNumber)
                guard low.x <= high.x, low.y <= high.y else {
                    throw reader.error(
                        at: node, path, "the box's first corner must be its lower left: x0 ≤ x1 and y0 ≤ y1")
                }
                condition = .inside(.box(low, high))
            }
        case "near":
            guard object["within"] != nil else {
                throw reader.error(at: object.node, object.path("within"), "\"near\" needs \"within\" (a distance)")
            }
            condition = try .near(
                object.vec2("near", default: nil, anyNumber), within: object.number("within", default: nil, nonNegative)
            )
        case "speedBelow": condition = .speedBelow(try object.number(key, default: nil, nonNegative))
        case "speedAbove": condition = .speedAbove(try object.number(key, default: nil, nonNegative))
        case "angle":
            let range = try object.vec2("angle", default: nil, anyNumber)
            guard range.x <= range.y else {
                throw reader.error(
                    at: object["angle"] ?? object.node, object.path("angle"), "expected [min, max] with min ≤ max")
            }
            condition = .angle(range.x, range.y)
        case "yAbove": condition = .yAbove(try object.number(key, default: nil, anyNumber))
        default: condition = .yBelow(try object.number(key, default: nil, anyNumber))
        }
        return .body(selector, condition)
    }

    private static func bodySelector(_ object: ObjectReader, context: ExpectationContext, check: String)
        throws(InputError) -> BodySelector
    {
        guard let node = object["body"] else {
            throw object.reader.error(
                at: object.node, object.path("body"), "\"\(check)\" needs \"body\" (an id, \"prefix*\" or \"*\")")
        }
        let text = try object.reader.string(node, object.path("body"), allowEmpty: false)
        if text == "*" { return .everyDynamic }
        if text.hasSuffix("*") {
            let prefix = String(text.dropLast())
            guard !prefix.contains("*") else {
                throw object.reader.error(at: node, object.path("body"), "only a trailing \"*\" is a pattern")
            }
            guard context.ids.contains(where: { $0.hasPrefix(prefix) }) else {
                throw object.reader.error(at: node, object.path("body"), "no body id starts with \"\(prefix)\"")
            }
            return .prefix(prefix)
        }
        guard context.ids.contains(text) else {
            throw object.reader.error(at: node, object.path("body"), unknownID(text, context: context))
        }
        return .id(text)
    }

    private static func contactParty(
        _ node: JSONNode, _ path: String, reader: FieldReader, context: ExpectationContext
    ) throws(InputError) -> ContactParty {
        let text = try reader.string(node, path, allowEmpty: false)
        if text == "*" { return .any }
        if context.ids.contains(text) { return .body(text) }
        if let index = context.collisionTypes.firstIndex(of: text) { return .collisionType(text, UInt(index + 1)) }
        var reason = "\"\(text)\" is neither a body id nor a collision type of this file"
        if let near = FieldReader.nearest(to: text, in: context.ids + context.collisionTypes) {
            reason += " (did you mean \"\(near)\"?)"
        }
        throw reader.error(at: node, path, reason)
    }

    private static func unknownID(_ id: String, context: ExpectationContext) -> String {
        var reason = "no body has the id \"\(id)\""
        if let near = FieldReader.nearest(to: id, in: context.ids) { reason += " (did you mean \"\(near)\"?)" }
        return reason
    }
}
