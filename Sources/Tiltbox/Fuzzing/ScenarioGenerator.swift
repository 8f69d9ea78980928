/// Turns fuzz bytes into a scenario text for the `generated-scenario` fuzz target: bodies of
/// every shape kind, joints of every kind, space settings, each value picked from a short
/// list of extreme but loader-accepted values (each key's bounds, the smallest and largest
/// sizes, masses, speeds, stiffnesses), so that what the loader accepts reaches the engine
/// at the edges of what it allows.
///
/// The bytes are read as choices, one byte each (0 once they run out): a byte string is a
/// path through the lists below, so libFuzzer's mutations move between scenes. The text
/// always parses as JSON; whether the loader accepts it is the point of the exercise.
@_spi(Tools) public struct ScenarioGenerator {
    private var bytes: [UInt8]
    private var next = 0
    /// The collision type names the shapes so far were given, for rules to name.
    private var usedTypes: [String] = []

    /// A generator reading `bytes` as choices.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func byte() -> Int {
        defer { next += 1 }
        return next < bytes.count ? Int(bytes[next]) : 0
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[byte() % choices.count] }

    private mutating func number(_ choices: [Double]) -> String { NumberFormat.shortest(pick(choices)) }

    private mutating func vector(_ choices: [Double]) -> String { "[\(number(choices)), \(number(choices))]" }

    /// A point inside a world of `size`: one of a few fractions of it, edges included.
    private mutating func inside(_ size: (Double, Double)) -> String {
        let fractions = [0.5, 0.25, 0.75, 1e-9, 1 - 1e-9, 0.5000001]
        return
            "[\(NumberFormat.shortest(size.0 * pick(fractions))), \(NumberFormat.shortest(size.1 * pick(fractions)))]"
    }

    static let sizes = [1e-3, 0.01, 1, 30, 1e3, 1e5]
    static let masses = [1e-9, 1e-6, 1, 1e3, 1e12]
    static let speeds = [0, 1, -1e3, 1e7, -1e7]
    static let spins = [0, 1, 1e6, -1e6]
    static let angles = [0, 0.5, -3.2, 1e6]
    static let materials = [0, 0.7, 1, 1e3]
    static let coordinates = [0, 1, -1, 10, -30, 1e3, 1e5, -1e5]
    static let springConstants = [0, 1, 1e3, 1e6, 1e9, 1e15]

    /// The scenario text the bytes describe.
    public mutating func scenarioText() -> String {
        let size = pick([(100.0, 100.0), (480.0, 320.0), (1.0, 1.0), (1e6, 1e6), (1e6, 10.0)])
        var world = [
            "\"size\": [\(NumberFormat.shortest(size.0)), \(NumberFormat.shortest(size.1))]",
            "\"gravity\": \(vector([0, -980, 980, -9.8, 1e6, -1e6]))",
        ]
        let settings: [(String, [Double])] = [
            ("iterations", [1, 10, 1000]), ("damping", [0, 0.5, 1]), ("collisionSlop", [0, 0.1, 1e5]),
            ("collisionBias", [0, 0.5, 1]), ("collisionPersistence", [0, 3, 1000]),
            ("sleepTimeThreshold", [0, 0.5, 1e6]), ("idleSpeedThreshold", [0, 1, 1e7]),
        ]
        for (key, values) in settings where byte() % 3 == 0 { world.append("\"\(key)\": \(number(values))") }
        if byte() % 2 == 1 {
            world.append(
                "\"spatialIndex\": {\"hash\": {\"cellSize\": \(number([1e-3, 0.05, 1, 20, 1e6])), "
                    + "\"count\": \(number([1, 10, 4000, 1e6]))}}")
        }
        var top = [
            "\"format\": \"tiltbox-scenario/1\"", "\"world\": {\(world.joined(separator: ", "))}",
            "\"duration\": \(number([1, 1e-3, 1e6]))",
            byte() % 3 == 0
                ? "\"timestep\": {\"dt\": \(number([1, 1.0 / 30 / 5, 1e-5, 0.1]))}"
                : "\"timestep\": {\"hz\": \(number([120, 60, 1, 1e-3, 1e5]))}",
            "\"walls\": {\"box\": \(byte() % 4 != 0), \"radius\": \(number([1, 0, 1e5])), "
                + "\"friction\": \(number(Self.materials)), \"elasticity\": \(number(Self.materials))}",
        ]
        var ids: [String] = []
        var crates: [String] = []
        for k in 0..<(byte() % 5) {
            let id = "c\(k)"
            ids.append(id)
            crates.append(
                "{\"id\": \"\(id)\", \"position\": \(inside(size)), \"size\": \(vector(Self.sizes)), "
                    + "\"mass\": \(number(Self.masses)), \"angle\": \(number(Self.angles)), "
                    + "\"velocity\": \(vector(Self.speeds)), \"angularVelocity\": \(number(Self.spins)), "
                    + "\"friction\": \(number(Self.materials)), \"elasticity\": \(number(Self.materials))"
                    + "\(shapeKeys())}")
        }
        if !crates.isEmpty { top.append("\"crates\": [\(crates.joined(separator: ", "))]") }
        var bodies: [String] = []
        for k in 0..<(byte() % 4) {
            let id = "b\(k)"
            ids.append(id)
            bodies.append(body(id, size: size))
        }
        if !bodies.isEmpty { top.append("\"bodies\": [\(bodies.joined(separator: ", "))]") }
        var joints: [String] = []
        if !ids.isEmpty {
            for _ in 0..<(byte() % 4) { joints.append(joint(ids: ids)) }
        }
        if !joints.isEmpty { top.append("\"joints\": [\(joints.joined(separator: ", "))]") }
        // Rules and culling last, read from bytes past the rest (an input that ends before has neither).
        if byte() % 2 == 1, !usedTypes.isEmpty {
            var rules: [String] = []
            for _ in 0..<(1 + byte() % 3) { rules.append(rule()) }
            top.append("\"rules\": [\(rules.joined(separator: ", "))]")
        }
        if byte() % 3 == 1 {
            world.append("\"cull\": {\"margin\": \(number([0, 10, 1e7]))}")
            top[1] = "\"world\": {\(world.joined(separator: ", "))}"
        }
        // The timeline last of all, from the bytes past the rules (so earlier inputs keep their meaning).
        if byte() % 2 == 1 {
            top.append("\"timeline\": [\(timeline(ids: ids, size: size).joined(separator: ", "))]")
        }
        return "{\(top.joined(separator: ",\n "))}"
    }

    /// A body of `bodies` (or a timeline's `spawn`): any type, one to three shapes, at times its own
    /// mass and moment (its shapes then carry none).
    private mutating func body(_ id: String, size: (Double, Double)) -> String {
        let type = pick(["dynamic", "dynamic", "kinematic", "static"])
        // A dynamic body gives its own mass and moment one time in four; its shapes then carry none.
        let givenMass = type == "dynamic" && byte() % 4 == 0
        var shapes: [String] = []
        for _ in 0..<(1 + byte() % 3) { shapes.append(shape(dynamic: type == "dynamic" && !givenMass)) }
        var body =
            "{\"id\": \"\(id)\", \"type\": \"\(type)\", \"position\": \(inside(size)), "
            + "\"angle\": \(number(Self.angles)), \"shapes\": [\(shapes.joined(separator: ", "))]"
        if givenMass {
            body +=
                ", \"mass\": \(number(Self.masses)), \"moment\": "
                + (byte() % 3 == 0 ? "\"infinite\"" : number([1e-9, 1, 1e3, 1e12, 1e30]))
                + ", \"centerOfGravity\": \(vector(Self.coordinates))"
        }
        if type != "static" {
            body += ", \"velocity\": \(vector(Self.speeds)), \"angularVelocity\": \(number(Self.spins))"
        }
        return body + "}"
    }

    /// One to four `timeline` entries of docs/formats.md §8: spawns (at times repeated), sets of
    /// position, angle, velocity and type, joints between bodies present or spawned, impulses and
    /// removals, early in the run, naming the bodies at start and those spawned before.
    private mutating func timeline(ids start: [String], size: (Double, Double)) -> [String] {
        var ids = start
        var entries: [String] = []
        for k in 0..<(1 + byte() % 4) {
            let t = "\"t\": \(number([0, 1e-3, 0.05, 0.5]))"
            switch byte() % 5 {
            case 0:
                let id = "s\(k)"
                let count = pick([1, 1, 3, 50])
                let repeated = count > 1 ? ", \"every\": \(number([1e-3, 0.02, 0.1])), \"count\": \(count)" : ""
                entries.append("{\(t)\(repeated), \"spawn\": \(body(id, size: size))}")
                ids.append(count > 1 ? "\(id)#0" : id)
            case 1 where !ids.isEmpty:
                var keys = ["\"body\": \"\(pick(ids))\""]
                if byte() % 2 == 0 { keys.append("\"position\": \(inside(size))") }
                if byte() % 2 == 0 { keys.append("\"angle\": \(number(Self.angles))") }
                if byte() % 2 == 0 { keys.append("\"velocity\": \(vector(Self.speeds))") }
                if byte() % 2 == 0 { keys.append("\"type\": \"\(pick(["dynamic", "kinematic", "static"]))\"") }
                entries.append("{\(t), \"set\": {\(keys.joined(separator: ", "))}}")
            case 2 where !ids.isEmpty:
                // `joint` gives `{"kind": {...}}`: the timeline's needs an id beside the kind.
                entries.append("{\(t), \"joint\": {\"id\": \"tj\(k)\", \(joint(ids: ids).dropFirst())}")
            case 3 where !ids.isEmpty:
                entries.append(
                    "{\(t), \"impulse\": {\"body\": \"\(pick(ids))\", \"impulse\": \(vector([0, 1, -1e12, 1e12]))}}")
            case 4 where !ids.isEmpty:
                entries.append("{\(t), \"remove\": \"\(pick(ids))\"}")
            default:
                continue
            }
        }
        return entries
    }

    /// A rule between collision types the shapes have (or `"*"`), with up to three actions of
    /// docs/formats.md §8 at the edges of their bounds.
    private mutating func rule() -> String {
        let between = "[\"\(pick(usedTypes))\", \"\(pick(usedTypes + ["*"]))\"]"
        var actions: [String] = []
        for _ in 0..<(byte() % 4) {
            let side = pick(["a", "b"])
            switch byte() % 4 {
            case 0: actions.append("{\"remove\": \"\(side)\"}")
            case 1:
                actions.append(
                    "{\"impulse\": {\"body\": \"\(side)\", \"impulse\": \(vector([0, 1, -1e12, 1e12]))"
                        + (byte() % 2 == 0 ? "" : ", \"at\": \(vector(Self.coordinates))") + "}}")
            case 2:
                let velocity = vector(Self.speeds), angle = number(Self.angles)
                let type = byte() % 2 == 0 ? nil : pick(["kinematic", "static"])
                // A set that makes a body static cannot also turn it (the loader refuses it), so such a
                // set keeps only the velocity; the bytes read are the same either way.
                actions.append(
                    "{\"set\": {\"body\": \"\(side)\", \"velocity\": \(velocity)"
                        + (type == "static" ? "" : ", \"angle\": \(angle)")
                        + (type.map { ", \"type\": \"\($0)\"" } ?? "") + "}}")
            default: actions.append("{\"count\": \"\(pick(["n", "m"]))\"}")
            }
        }
        return "{\"on\": \"\(pick(["begin", "separate"]))\", \"between\": \(between), "
            + "\"do\": [\(actions.joined(separator: ", "))]}"
    }

    private mutating func shape(dynamic: Bool) -> String {
        let geometry: String
        switch byte() % 4 {
        case 0:
            geometry = "\"circle\": {\"radius\": \(number(Self.sizes)), \"offset\": \(vector(Self.coordinates))}"
        case 1:
            geometry = "\"box\": {\"size\": \(vector(Self.sizes)), \"radius\": \(number([0, 1e-3, 1, 1e5]))}"
        case 2:
            let r = pick(Self.sizes)
            let c = pick(Self.coordinates)
            let corners = [(c, c), (c + r, c), (c + r, c + r), (c, c + r)]
            let vertices = corners.map { "[\(NumberFormat.shortest($0.0)), \(NumberFormat.shortest($0.1))]" }
            geometry =
                "\"polygon\": {\"vertices\": [\(vertices.joined(separator: ", "))], \"radius\": \(number([0, 1e-3, 1]))}"
        default:
            geometry =
                "\"segment\": {\"from\": \(vector(Self.coordinates)), \"to\": \(vector(Self.coordinates)), "
                + "\"radius\": \(number([0, 1e-300, 1e-3, 1, 1e5]))}"
        }
        var text = "{\(geometry), \"friction\": \(number(Self.materials)), \"elasticity\": \(number(Self.materials))"
        if dynamic {
            switch byte() % 3 {
            case 0: text += ", \"mass\": \(number(Self.masses))"
            case 1: text += ", \"density\": \(number([1e-12, 1, 1e12]))"
            default: break
            }
        }
        return text + shapeKeys() + "}"
    }

    /// Each shape key of docs/formats.md §8 one time in three, at the edges of its bounds.
    private mutating func shapeKeys() -> String {
        var text = ""
        if byte() % 3 == 0 {
            text +=
                ", \"filter\": {\"group\": \(number([0, 1, 9_223_372_036_854_774_784])), "
                + "\"categories\": \(number([0, 1, 4_294_967_295])), \"mask\": \(number([0, 2, 4_294_967_295]))}"
        }
        if byte() % 3 == 0 { text += ", \"sensor\": \(byte() % 2 == 0)" }
        if byte() % 3 == 0 {
            let name = pick(["a", "b", "goal"])
            if !usedTypes.contains(name) { usedTypes.append(name) }
            text += ", \"collisionType\": \"\(name)\""
        }
        if byte() % 3 == 0 { text += ", \"surfaceVelocity\": \(vector(Self.speeds))" }
        return text
    }

    private mutating func joint(ids: [String]) -> String {
        let a = pick(ids), b = pick(ids + ["static"])
        let point = { (g: inout ScenarioGenerator) in g.vector(Self.coordinates) }
        let parameters: String
        // Every kind, a pivot twice: by one world anchor, then by two local ones.
        let (kind, worldPivot) = pick(
            JointKind.allCases.flatMap { kind in
                kind == .pivot ? [(kind, true), (kind, false)] : [(kind, false)]
            })
        switch kind {
        case .pin: parameters = "\"anchorA\": \(point(&self)), \"anchorB\": \(point(&self))"
        case .pivot where worldPivot: parameters = "\"anchor\": \(point(&self))"
        case .pivot: parameters = "\"anchorA\": \(point(&self)), \"anchorB\": \(point(&self))"
        case .slide:
            parameters =
                "\"anchorA\": \(point(&self)), \"anchorB\": \(point(&self)), \"min\": \(number([0, 1, 10])), "
                + "\"max\": \(number([1, 10, 1e7]))"
        case .groove:
            parameters = "\"grooveA\": \(point(&self)), \"grooveB\": \(point(&self)), \"anchorB\": \(point(&self))"
        case .dampedSpring:
            parameters =
                "\"anchorA\": \(point(&self)), \"anchorB\": \(point(&self)), \"restLength\": \(number([0, 10, 1e7])), "
                + "\"stiffness\": \(number(Self.springConstants)), \"damping\": \(number(Self.springConstants))"
        case .dampedRotarySpring:
            parameters =
                "\"restAngle\": \(number(Self.angles)), \"stiffness\": \(number(Self.springConstants)), "
                + "\"damping\": \(number(Self.springConstants))"
        case .rotaryLimit: parameters = "\"min\": \(number([-1e6, -1, 0])), \"max\": \(number([0, 1, 1e6]))"
        case .ratchet: parameters = "\"phase\": \(number(Self.angles)), \"ratchet\": \(number([1e-6, 0.5, -1e6]))"
        case .gear: parameters = "\"phase\": \(number(Self.angles)), \"ratio\": \(number([1e-6, 1, -1e6]))"
        case .simpleMotor: parameters = "\"rate\": \(number(Self.spins))"
        }
        var settings = ""
        if byte() % 3 == 0 { settings += ", \"maxForce\": \(number([0, 1, 1e30]))" }
        if byte() % 3 == 0 { settings += ", \"errorBias\": \(number([0, 0.5, 1]))" }
        if byte() % 3 == 0 { settings += ", \"maxBias\": \(number([0, 1, 1e30]))" }
        if byte() % 3 == 0 { settings += ", \"collideBodies\": \(byte() % 2 == 0)" }
        return "{\"\(kind.rawValue)\": {\"a\": \"\(a)\", \"b\": \"\(b)\", \(parameters)\(settings)}}"
    }
}
