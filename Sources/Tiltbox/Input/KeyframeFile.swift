import Foundation

/// Reads `tiltbox-tilt/1` keyframe files:
///
/// ```json
/// {"format": "tiltbox-tilt/1", "units": "g",
///  "keyframes": [{"t": 0, "gravity": [0, -1]},
///                {"t": 2, "gravity": [0.7, -0.7], "curve": "easeInEaseOut"}]}
/// ```
///
/// `units` is `"g"` (the default: `gravity` is a device-frame reading in g, CoreMotion
/// convention, turned into world axes by the orientation and scaled by g) or `"world"`
/// (`gravity` is already in world units/s², y up; orientation and g are not applied).
/// `curve` (default `linear`) shapes the segment ending at its keyframe; `{"spring": {...}}`
/// takes the keys of `SpringParameters`. Keyframe times
/// are non-decreasing. Unknown keys are ignored so later versions can add optional ones,
/// except one or two edits from a known key (`"gravty"`), refused as a misspelling with a
/// "did you mean". Every error names the file, the line and column and the field path.
enum KeyframeFile {
    static let formatName = "tiltbox-tilt/1"
    static let fileKeys = ["format", "units", "keyframes"]
    static let keyframeKeys = ["t", "gravity", "curve"]

    static func load(_ data: Data, file: String, orientation: Orientation, g: Double)
        throws(InputError) -> KeyframeGravityTrack
    {
        let reader = FieldReader(file: file)
        let root = try parse(data, file: file)
        /// An error at `node` (the value at `path`, or the object missing it).
        func fail(_ node: JSONNode?, _ path: String?, _ reason: String) -> InputError {
            InputError(file: file, location: (node ?? root).location, path: path, reason: reason)
        }
        guard case .object = root.value else {
            throw fail(root, nil, "expected a JSON object with \"format\": \"\(formatName)\"")
        }
        // The format first: keys are named only in a file that is a keyframes file.
        switch root["format"]?.value {
        case .string(formatName): break
        case .string: throw fail(root["format"], "format", "unknown format, expected '\(formatName)'")
        case nil: throw fail(root, "format", "missing, expected '\(formatName)'")
        case let other?: throw fail(root["format"], "format", "expected a string, found \(other.typeName)")
        }
        try reader.refuseMisspeltKeys(root, "", keys: fileKeys)
        let worldUnits: Bool
        switch root["units"]?.value {
        case nil, .string("g"): worldUnits = false
        case .string("world"): worldUnits = true
        case .string(let other): throw fail(root["units"], "units", "unknown units '\(other)', expected 'g' or 'world'")
        case let other?: throw fail(root["units"], "units", "expected \"g\" or \"world\", found \(other.typeName)")
        }
        guard let keyframesNode = root["keyframes"], case .array(let items) = keyframesNode.value else {
            throw fail(root["keyframes"], "keyframes", root["keyframes"] == nil ? "missing" : "expected an array")
        }
        guard !items.isEmpty else { throw fail(keyframesNode, "keyframes", "no keyframes") }

        var keyframes: [Keyframe] = []
        keyframes.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let at = "keyframes[\(index)]"
            guard case .object = item.value else {
                throw fail(item, at, "expected an object, found \(item.value.typeName)")
            }
            try reader.refuseMisspeltKeys(item, at, keys: keyframeKeys)
            let t = try number(item["t"], in: item, path: at + ".t", fail: fail)
            guard let gravityNode = item["gravity"], case .array(let vector) = gravityNode.value else {
                throw fail(
                    item["gravity"] ?? item, at + ".gravity", item["gravity"] == nil ? "missing" : "expected [x, y]")
            }
            guard vector.count == 2 || vector.count == 3 else {
                throw fail(gravityNode, at + ".gravity", "expected [x, y], found \(vector.count) numbers")
            }
            let x = try number(vector[0], in: gravityNode, path: at + ".gravity[0]", fail: fail)
            let y = try number(vector[1], in: gravityNode, path: at + ".gravity[1]", fail: fail)
            var curve = TimingCurve.linear
            if let value = item["curve"] { curve = try reader.timingCurve(value, at + ".curve") }
            if let previous = keyframes.last, t < previous.t {
                throw fail(item["t"], at + ".t", "keyframes not sorted by time: \(t) after \(previous.t)")
            }
            let reading = Vec2(x, y)
            let gravity =
                worldUnits
                ? Vec2.zero + reading
                : SampledGravityTrack.worldValue(reading, orientation: orientation, g: g)
            if let reason = worldUnits
                ? GravityBound.violation(gravity).map({ "this value " + $0 })
                : GravityBound.readingViolation(reading, world: gravity, g: g)
            {
                throw fail(gravityNode, at + ".gravity", reason)
            }
            if let previous = keyframes.last {
                // The segment's values are previous + (gravity − previous)·s with |s| ≤ the curve's bound.
                let bound = curve.magnitudeBound
                let peak = Vec2(
                    abs(previous.gravity.x) + abs(gravity.x - previous.gravity.x) * bound,
                    abs(previous.gravity.y) + abs(gravity.y - previous.gravity.y) * bound)
                if bound > 1, let reason = GravityBound.violation(peak) {
                    throw InputError(
                        file: file, location: item["curve"]?.location, path: at + ".curve",
                        reason: "the curve \(curve) overshoots: at its peak it \(reason)")
                }
            }
            keyframes.append(Keyframe(t: t, gravity: gravity, curve: curve))
        }
        return KeyframeGravityTrack(keyframes: keyframes)
    }

    /// Parses `data` with the project's JSON parser (exact number rounding); a syntax
    /// error names the line and column.
    private static func parse(_ data: Data, file: String) throws(InputError) -> JSONNode {
        let parsed: Result<JSONNode, JSONSyntaxError> = data.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) in try JSONParser.parse(utf8: raw.bindMemory(to: UInt8.self)) }
        }
        switch parsed {
        case .success(let node): return node
        case .failure(let error):
            throw InputError(file: file, location: error.location, reason: "not valid JSON: \(error.reason)")
        }
    }

    /// The number at `node` (a member of `parent`, which is blamed when it is missing).
    private static func number(
        _ node: JSONNode?, in parent: JSONNode, path: String,
        fail: (JSONNode?, String?, String) -> InputError
    ) throws(InputError) -> Double {
        guard let node else { throw fail(parent, path, "missing") }
        switch node.value {
        case .number(let number):
            guard number.isFinite else { throw fail(node, path, "non-finite value \(number)") }
            return number
        case let other: throw fail(node, path, "expected a number, found \(other.typeName)")
        }
    }
}

extension TimingCurve {
    /// A curve from a command-line argument: a name, or JSON as a tilt file writes a
    /// curve (`{"spring": {...}}`, `{"cubicBezier": [...]}`). Errors name `file` (a
    /// description of the argument) and, for JSON, the line, column and field.
    public static func parse(argument: String, file: String) throws(InputError) -> TimingCurve {
        guard argument.hasPrefix("{") || argument.hasPrefix("\"") else {
            do { return try TimingCurve(name: argument) } catch {
                throw InputError(
                    file: file, reason: "\(error.description); names: \(TimingCurve.names.joined(separator: ", "))")
            }
        }
        let node: JSONNode
        do { node = try JSONParser.parse(argument) } catch {
            throw InputError(file: file, location: error.location, reason: "not valid JSON: \(error.reason)")
        }
        if let spring = node["spring"] { return .spring(try SpringParameters.read(spring, path: "spring", file: file)) }
        do { return try TimingCurve(jsonValue: node.plainValue) } catch {
            throw InputError(file: file, location: node.location, reason: error.description)
        }
    }
}
