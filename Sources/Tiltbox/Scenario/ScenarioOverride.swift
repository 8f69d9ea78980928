/// One scenario override, `--set PATH=JSON`: a value put into the parsed scenario
/// before the loader validates it (docs/formats.md §3 `source.overrides`).
///
/// `PATH` is a field path as error messages write it: keys separated by dots, each
/// optionally followed by `[N]` (an array element, which must exist) or `[*]` (every
/// element of an array): `world.gravity`, `crates[2].size`, `crates[*].friction`,
/// `timestep.hz`. A missing last key is added; a missing object on the way is created
/// (`timestep.hz` in a scenario without `timestep`). Keys are checked against the keys the
/// loader knows for that object, so a typo is refused here with the nearest valid key.
/// `JSON` is one JSON value, read by the project's JSON parser (a string needs its quotes).
///
/// The value itself is checked by the loader's usual checks; `ScenarioLoader.load(path:overrides:)`
/// then names the `--set` that put the offending value there.
public struct ScenarioOverride: Hashable, Sendable {
    /// One step of a path.
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
        case each

        var isKey: Bool {
            if case .key = self { return true }
            return false
        }
    }

    /// The path in canonical form (as parsed and written back).
    public let path: String
    /// The value as compact JSON text (shortest round-trip numbers).
    public let json: String
    let components: [Component]
    let value: JSONNode

    /// How messages name it: `--set PATH=JSON`.
    public var argument: String { "--set \(path)=\(json)" }

    /// Equal when the canonical path and the compact JSON are equal.
    public static func == (a: ScenarioOverride, b: ScenarioOverride) -> Bool { a.path == b.path && a.json == b.json }
    /// Hashes the canonical path and the compact JSON, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(json)
    }

    /// Parses a command-line argument `PATH=JSON`.
    /// - Throws: `InputError` naming `--set ARGUMENT` for a bad path or a value that is not JSON.
    public init(argument: String) throws(InputError) {
        let name = "--set \(argument)"
        guard let equals = argument.firstIndex(of: "=") else {
            throw InputError(
                file: name, reason: "expected PATH=JSON, such as world.gravity=[0,-500] or 'crates[*].friction=0.3'")
        }
        try self.init(
            path: String(argument[..<equals]), json: String(argument[argument.index(after: equals)...]), name: name)
    }

    /// An override from its path and JSON text (as a trace header records them).
    public init(path: String, json: String) throws(InputError) {
        try self.init(path: path, json: json, name: "--set \(path)=\(json)")
    }

    private init(path: String, json: String, name: String) throws(InputError) {
        components = try Self.parsePath(path, name: name)
        do {
            value = try JSONParser.parse(json)
        } catch {
            var reason = "the value is not JSON (\(error.location): \(error.reason))"
            if let first = json.first, first.isLetter, json != "true", json != "false", json != "null" {
                reason += "; a string needs its quotes, as in \(path)='\"\(json)\"'"
            }
            throw InputError(file: name, reason: reason)
        }
        self.path = Self.text(of: components)
        self.json = JSONText.of(value)
    }

    // MARK: - Paths

    private static func parsePath(_ path: String, name: String) throws(InputError) -> [Component] {
        func bad(_ why: String) -> InputError {
            InputError(
                file: name,
                reason: "bad path \"\(path)\": \(why) (expected keys separated by dots, each "
                    + "optionally followed by [N] or [*], such as crates[*].friction)")
        }
        var components: [Component] = []
        let chars = Array(path)
        var i = 0
        while true {
            // A key: letters, digits and underscores, not starting with a digit.
            let start = i
            while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" { i += 1 }
            guard i > start else { throw bad(i < chars.count ? "unexpected \"\(chars[i])\"" : "a key is missing") }
            guard !chars[start].isNumber else { throw bad("a key cannot start with a digit") }
            components.append(.key(String(chars[start..<i])))
            while i < chars.count, chars[i] == "[" {
                guard let close = chars[i...].firstIndex(of: "]") else { throw bad("\"[\" without \"]\"") }
                let inside = String(chars[(i + 1)..<close])
                if inside == "*" {
                    components.append(.each)
                } else if let index = Int(inside), index >= 0, inside.allSatisfy(\.isNumber) {
                    components.append(.index(index))
                } else {
                    throw bad("[\(inside)] is not an index or [*]")
                }
                i = close + 1
            }
            if i == chars.count { return components }
            guard chars[i] == "." else { throw bad("unexpected \"\(chars[i])\"") }
            i += 1
        }
    }

    static func text(of components: some Collection<Component>) -> String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            case .each: text += "[*]"
            }
        }
        return text
    }

    // MARK: - Lists

    /// `base` then `later`, where an entry of `later` replaces any entry of `base` with the same
    /// path and, within `later`, the last of several with one path wins; the result keeps the
    /// order given, `base` first (the rule `verify` applies to a header's overrides and its own `--set`).
    /// Linear in the number of overrides: each path's last position is looked up, not searched
    /// for (16 000 `--set` took 17.7 s when every one searched the list so far).
    public static func merged(_ base: [ScenarioOverride], _ later: [ScenarioOverride]) -> [ScenarioOverride] {
        let all = base + later
        // A lookup table only: the result's order is the list's.
        var lastPosition: [String: Int] = [:]
        lastPosition.reserveCapacity(all.count)
        for (position, override) in all.enumerated() { lastPosition[override.path] = position }
        return all.indices.filter { lastPosition[all[$0].path] == $0 }.map { all[$0] }
    }

    // MARK: - Applying

    /// `root` with every override applied in order, and for each field path it set
    /// (concrete, `crates[0].friction`), the override that set it last.
    static func apply(_ overrides: [ScenarioOverride], to root: JSONNode) throws(InputError)
        -> (root: JSONNode, setBy: [(path: String, override: ScenarioOverride)])
    {
        var root = root
        var setBy: [(path: String, override: ScenarioOverride)] = []
        for override in overrides {
            var touched: [String] = []
            try override.set(&root, at: override.components[...], schema: [], concrete: "", touched: &touched)
            setBy += touched.map { (path: $0, override: override) }
        }
        return (root, setBy)
    }

    /// Sets the value at `rest` below `node`, whose path is `concrete` and whose place in the
    /// scenario's layout (keys only) is `schema`.
    private func set(
        _ node: inout JSONNode, at rest: ArraySlice<Component>, schema: [String], concrete: String,
        touched: inout [String]
    ) throws(InputError) {
        guard let component = rest.first else {
            node = value
            touched.append(concrete)
            return
        }
        let here = concrete.isEmpty ? "the scenario" : concrete
        switch component {
        case .key(let key):
            guard case .object(var members) = node.value else {
                throw InputError(
                    file: argument, reason: "\(here) is \(node.value.typeName), not an object with a key \"\(key)\"")
            }
            // Take the members out of the node while they change, so they are not copied
            // (one copy per `--set` made thousands of them quadratic); put back on every exit.
            node.value = .null
            defer { node.value = .object(members) }
            if let known = Self.knownKeys(for: schema), !known.contains(key) {
                var reason = "unknown key \"\(key)\" in \(here)"
                if let near = FieldReader.nearest(to: key, in: known) { reason += " (did you mean \"\(near)\"?)" }
                throw InputError(file: argument, reason: reason + "; valid keys: " + known.joined(separator: ", "))
            }
            let path = FieldReader.member(concrete, key)
            if let i = members.firstIndex(where: { $0.key == key }) {
                try set(
                    &members[i].node, at: rest.dropFirst(), schema: schema + [key], concrete: path, touched: &touched)
            } else {
                // A missing object on the way is created; a missing array cannot be indexed.
                if let next = rest.dropFirst().first, !next.isKey {
                    throw InputError(
                        file: argument, reason: "\(path) is not in the scenario: there is no array to index")
                }
                var child = JSONNode(value: .object([]), location: value.location)
                try set(&child, at: rest.dropFirst(), schema: schema + [key], concrete: path, touched: &touched)
                members.append((key: key, node: child))
            }
        case .index(let index):
            guard case .array(var elements) = node.value else {
                throw InputError(
                    file: argument, reason: "\(here) is \(node.value.typeName), not an array: [\(index)] cannot apply")
            }
            node.value = .null // as for members: no copy per override
            defer { node.value = .array(elements) }
            guard index < elements.count else {
                throw InputError(
                    file: argument,
                    reason: "index \(index) is out of range: \(here) has "
                        + "\(elements.count) \(elements.count == 1 ? "element" : "elements")")
            }
            try set(
                &elements[index], at: rest.dropFirst(), schema: schema, concrete: FieldReader.element(concrete, index),
                touched: &touched)
        case .each:
            guard case .array(var elements) = node.value else {
                throw InputError(
                    file: argument, reason: "\(here) is \(node.value.typeName), not an array: [*] cannot apply")
            }
            node.value = .null
            defer { node.value = .array(elements) }
            for index in elements.indices {
                try set(
                    &elements[index], at: rest.dropFirst(), schema: schema,
                    concrete: FieldReader.element(concrete, index),
                    touched: &touched)
            }
        }
    }

    /// The keys the loader accepts in the object at `schema` (keys from the top, array
    /// indices left out), or `nil` where it has no fixed list.
    private static func knownKeys(for schema: [String]) -> [String]? {
        switch schema {
        case []: return ScenarioLoader.topKeys
        case ["world"]: return ScenarioLoader.worldKeys
        case ["world", "spatialIndex"]: return ["hash"]
        case ["world", "spatialIndex", "hash"]: return ScenarioLoader.hashKeys
        case ["timestep"]: return ScenarioLoader.timestepKeys
        case ["walls"]: return ScenarioLoader.wallKeys
        case ["segments"]: return ScenarioLoader.segmentKeys
        case ["crates"]: return ScenarioLoader.crateKeys
        case ["grids"]: return ScenarioLoader.gridKeys
        case ["bodies"]: return ScenarioLoader.bodyKeys
        case ["bodies", "shapes"]: return ScenarioLoader.shapeKeys
        case ["grids", "crate"]: return ScenarioLoader.crateBodyKeys
        case ["tilt"]: return ScenarioLoader.tiltKeys
        default: return nil
        }
    }

    /// `error` named after the override that set its field (or a field it lies in), when
    /// one did; otherwise `error` unchanged. Its line and column, in the value text, are dropped.
    static func attribute(_ error: InputError, setBy: [(path: String, override: ScenarioOverride)]) -> InputError {
        guard let errorPath = error.path else { return error }
        for entry in setBy.reversed()
        where errorPath == entry.path
            || errorPath.hasPrefix(entry.path + ".") || errorPath.hasPrefix(entry.path + "[")
        {
            return InputError(file: entry.override.argument, path: errorPath, reason: error.reason)
        }
        return error
    }
}
