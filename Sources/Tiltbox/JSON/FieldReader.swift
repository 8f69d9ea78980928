/// Typed, range-checked reads from located JSON: the one reading layer of the scenario
/// loader, keyframe files (and their spring curves) and trace lines.
///
/// Every failure becomes an `InputError` naming the file, the line and column of the
/// offending value and its field path (`crates[3].size[1]`), so a loader reads as a list
/// of fields with their defaults and bounds. A misspelt key gets a "did you mean".
struct FieldReader {
    let file: String
    /// The file's line on which the parsed text starts: 1 for a whole document, the
    /// line number for one line of a JSON-lines file parsed on its own.
    var firstLine = 1

    init(file: String, firstLine: Int = 1) {
        self.file = file
        self.firstLine = firstLine
    }

    /// `location` (in the parsed text) as a place in the file.
    func fileLocation(_ location: SourceLocation) -> SourceLocation {
        SourceLocation(line: location.line + firstLine - 1, column: location.column)
    }

    func error(at node: JSONNode, _ path: String?, _ reason: String) -> InputError {
        InputError(file: file, location: fileLocation(node.location), path: path, reason: reason)
    }

    // MARK: - Paths

    static func member(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    static func element(_ path: String, _ index: Int) -> String {
        "\(path)[\(index)]"
    }

    // MARK: - Values at a path

    /// An object whose keys must all be in `keys` (typo protection: an unknown key is
    /// reported at the key itself, with the valid keys and the nearest one).
    func object(_ node: JSONNode, _ path: String, keys: [String]) throws(InputError) -> ObjectReader {
        guard case .object(let members) = node.value else {
            throw error(at: node, path, "expected an object, got \(node.value.typeName)")
        }
        for member in members where !keys.contains(member.key) {
            var reason = "unknown key \"\(member.key)\""
            if let near = FieldReader.nearest(to: member.key, in: keys) { reason += " (did you mean \"\(near)\"?)" }
            reason += "; valid keys: " + keys.joined(separator: ", ")
            throw InputError(
                file: file, location: fileLocation(member.node.keyLocation ?? member.node.location),
                path: FieldReader.member(path, member.key), reason: reason)
        }
        return ObjectReader(reader: self, node: node, path: path, members: members)
    }

    /// Refuses a key of the object `node` that is not in `keys` but one or two edits from
    /// one of them (`"gravty"`, `"Sizes"`): almost surely a typo that would otherwise be
    /// ignored. Other unknown keys pass, for formats whose later versions may add keys.
    /// The error stands at the key, with the key it is near.
    func refuseMisspeltKeys(_ node: JSONNode, _ path: String, keys: [String]) throws(InputError) {
        guard case .object(let members) = node.value else { return }
        for member in members where !keys.contains(member.key) {
            guard let near = FieldReader.misspelling(member.key, of: keys) else { continue }
            throw InputError(
                file: file, location: fileLocation(member.node.keyLocation ?? member.node.location),
                path: FieldReader.member(path, member.key),
                reason: "unknown key \"\(member.key)\" (did you mean \"\(near)\"?)")
        }
    }

    /// A string that must be the raw value of one of `T`'s cases; otherwise an error
    /// listing them (and the nearest, for a misspelling).
    func enumeration<T: RawRepresentable & CaseIterable>(_ node: JSONNode, _ path: String, as type: T.Type = T.self)
        throws(InputError) -> T where T.RawValue == String
    {
        guard case .string(let text) = node.value else {
            throw error(at: node, path, "expected a string, got \(node.value.typeName)")
        }
        if let value = T(rawValue: text) { return value }
        let names = T.allCases.map(\.rawValue)
        var reason = "unknown value \"\(text)\""
        if let near = FieldReader.nearest(to: text, in: names) { reason += " (did you mean \"\(near)\"?)" }
        throw error(at: node, path, reason + "; valid: " + names.joined(separator: ", "))
    }

    func array(_ node: JSONNode, _ path: String, maxCount: Int) throws(InputError) -> [JSONNode] {
        guard case .array(let elements) = node.value else {
            throw error(at: node, path, "expected an array, got \(node.value.typeName)")
        }
        guard elements.count <= maxCount else {
            throw error(at: node, path, "\(elements.count) entries, more than the limit of \(maxCount)")
        }
        return elements
    }

    func number(_ node: JSONNode, _ path: String, _ bounds: Bounds) throws(InputError) -> Double {
        guard case .number(let value) = node.value else {
            throw error(at: node, path, "expected a number, got \(node.value.typeName)")
        }
        if let problem = bounds.problem(with: value) { throw error(at: node, path, problem) }
        return value
    }

    func integer(_ node: JSONNode, _ path: String, min: Int, max: Int) throws(InputError) -> Int {
        guard case .number(let value) = node.value else {
            throw error(at: node, path, "expected an integer, got \(node.value.typeName)")
        }
        guard value.isFinite else { throw error(at: node, path, Bounds.nonFiniteReason(value)) }
        guard value.rounded(.towardZero) == value else {
            throw error(at: node, path, "expected an integer, got \(NumberFormat.shortest(value))")
        }
        // Compare as Double before converting, so 1e300 never reaches Int(_:).
        guard value >= Double(min) else {
            throw error(at: node, path, "must be ≥ \(min) (got \(NumberFormat.shortest(value)))")
        }
        guard value <= Double(max) else {
            throw error(at: node, path, "must be ≤ \(max) (got \(NumberFormat.shortest(value)))")
        }
        return Int(value)
    }

    func string(_ node: JSONNode, _ path: String, allowEmpty: Bool) throws(InputError) -> String {
        guard case .string(let value) = node.value else {
            throw error(at: node, path, "expected a string, got \(node.value.typeName)")
        }
        guard allowEmpty || !value.isEmpty else { throw error(at: node, path, "must not be empty") }
        return value
    }

    func bool(_ node: JSONNode, _ path: String) throws(InputError) -> Bool {
        guard case .bool(let value) = node.value else {
            throw error(at: node, path, "expected true or false, got \(node.value.typeName)")
        }
        return value
    }

    // MARK: - Suggestions

    /// The valid key closest to a misspelt one (edit distance ≤ 2), if any.
    static func nearest(to key: String, in keys: [String]) -> String? {
        var best: (key: String, distance: Int)?
        for candidate in keys {
            let d = editDistance(Array(key.lowercased()), Array(candidate.lowercased()))
            if d <= 2, d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.key
    }

    /// The known key that `key` is a misspelling of: the same but for case, or, for known
    /// keys of 4 letters or more, one edit away (two from 5 letters), so that a short new
    /// key of a later version (`"id"` beside `"dt"`) is not taken for a typo.
    static func misspelling(_ key: String, of keys: [String]) -> String? {
        var best: (key: String, distance: Int)?
        for candidate in keys {
            let d = editDistance(Array(key.lowercased()), Array(candidate.lowercased()))
            let allowed = candidate.count >= 5 ? 2 : candidate.count >= 4 ? 1 : 0
            if d <= allowed, d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.key
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        // Keys are short; a long hostile key is not worth comparing.
        guard a.count <= 64, b.count <= 64 else { return Int.max }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = row
        }
        return previous[b.count]
    }
}

/// The members of one JSON object at a known path, read by key with defaults.
struct ObjectReader {
    let reader: FieldReader
    let node: JSONNode
    let path: String
    let members: [(key: String, node: JSONNode)]

    subscript(key: String) -> JSONNode? {
        members.first(where: { $0.key == key })?.node
    }

    func path(_ key: String) -> String { FieldReader.member(path, key) }

    /// The member `key`, or an error at this object when it is missing.
    func required(_ key: String) throws(InputError) -> JSONNode {
        guard let node = self[key] else {
            throw InputError(
                file: reader.file, location: reader.fileLocation(node.location), path: path(key),
                reason: "missing required key \"\(key)\"")
        }
        return node
    }

    /// The member `key`; when `required`, its absence is an error at this object.
    func member(_ key: String, required: Bool) throws(InputError) -> JSONNode? {
        if required { return try self.required(key) }
        return self[key]
    }

    func number(_ key: String, default fallback: Double?, _ bounds: Bounds) throws(InputError) -> Double {
        guard let node = try member(key, required: fallback == nil) else { return fallback ?? 0 }
        return try reader.number(node, path(key), bounds)
    }

    func optionalNumber(_ key: String, _ bounds: Bounds) throws(InputError) -> Double? {
        guard let node = self[key] else { return nil }
        return try reader.number(node, path(key), bounds)
    }

    func optionalInteger(_ key: String, min: Int, max: Int) throws(InputError) -> Int? {
        guard let node = self[key] else { return nil }
        return try reader.integer(node, path(key), min: min, max: max)
    }

    func integer(_ key: String, default fallback: Int?, min: Int, max: Int) throws(InputError) -> Int {
        guard let node = try member(key, required: fallback == nil) else { return fallback ?? 0 }
        return try reader.integer(node, path(key), min: min, max: max)
    }

    func string(_ key: String, default fallback: String?, allowEmpty: Bool) throws(InputError) -> String {
        guard let node = try member(key, required: fallback == nil) else { return fallback ?? "" }
        return try reader.string(node, path(key), allowEmpty: allowEmpty)
    }

    func bool(_ key: String, default fallback: Bool) throws(InputError) -> Bool {
        guard let node = self[key] else { return fallback }
        return try reader.bool(node, path(key))
    }

    func object(_ key: String, keys: [String]) throws(InputError) -> ObjectReader? {
        guard let node = self[key] else { return nil }
        return try reader.object(node, path(key), keys: keys)
    }

    func array(_ key: String, maxCount: Int) throws(InputError) -> [JSONNode] {
        guard let node = self[key] else { return [] }
        return try reader.array(node, path(key), maxCount: maxCount)
    }
}

/// An allowed numeric range: `min` (inclusive or not) to `max` (inclusive); never NaN or infinite.
struct Bounds {
    var min: Double
    var minInclusive: Bool
    var max: Double

    /// `(0, max]`: sizes, masses, rates.
    static func positive(max: Double) -> Bounds { Bounds(min: 0, minInclusive: false, max: max) }
    /// `[0, max]`: friction, elasticity, radii.
    static func nonNegative(max: Double) -> Bounds { Bounds(min: 0, minInclusive: true, max: max) }
    /// `[-cap, cap]`: gravity, velocities, coordinates.
    static func magnitude(_ cap: Double) -> Bounds { Bounds(min: -cap, minInclusive: true, max: cap) }
    /// `[min, max]`.
    static func closed(_ min: Double, _ max: Double) -> Bounds { Bounds(min: min, minInclusive: true, max: max) }

    static func nonFiniteReason(_ value: Double) -> String {
        // JSON has no inf or nan literal, but a number like 1e999 overflows to infinity.
        "number is too large to represent (overflows to \(value))"
    }

    /// Why `value` is out of range, or `nil` when it is fine.
    func problem(with value: Double) -> String? {
        guard value.isFinite else { return Bounds.nonFiniteReason(value) }
        let shown = NumberFormat.shortest(value)
        let range: String
        if min == -max {
            range = "between \(NumberFormat.shortest(min)) and \(NumberFormat.shortest(max))"
        } else {
            range = (minInclusive ? "≥ " : "> ") + NumberFormat.shortest(min) + " and ≤ " + NumberFormat.shortest(max)
        }
        let below = minInclusive ? value < min : value <= min
        if below || value > max { return "must be \(range) (got \(shown))" }
        return nil
    }
}
