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
/// `curve` (default `linear`) shapes the segment ending at its keyframe. Keyframe times
/// are non-decreasing. Unknown keys are ignored so later versions can add optional ones.
enum KeyframeFile {
    static let formatName = "tiltbox-tilt/1"

    static func load(_ data: Data, file: String, orientation: Orientation, g: Double)
        throws(InputError) -> KeyframeGravityTrack
    {
        func fail(_ path: String?, _ reason: String) -> InputError {
            InputError(file: file, path: path, reason: reason)
        }
        let root = try parse(data, file: file)
        guard case .object = root.value else {
            throw fail(nil, "expected a JSON object with \"format\": \"\(formatName)\"")
        }
        switch root["format"]?.value {
        case .string(formatName): break
        case .string(let other): throw fail("format", "unknown format '\(other)', expected '\(formatName)'")
        case nil: throw fail("format", "missing, expected '\(formatName)'")
        case let other?: throw fail("format", "expected a string, found \(other.typeName)")
        }
        let worldUnits: Bool
        switch root["units"]?.value {
        case nil, .string("g"): worldUnits = false
        case .string("world"): worldUnits = true
        case .string(let other): throw fail("units", "unknown units '\(other)', expected 'g' or 'world'")
        case let other?: throw fail("units", "expected \"g\" or \"world\", found \(other.typeName)")
        }
        guard case .array(let items)? = root["keyframes"]?.value else {
            throw fail("keyframes", root["keyframes"] == nil ? "missing" : "expected an array")
        }
        guard !items.isEmpty else { throw fail("keyframes", "no keyframes") }

        var keyframes: [Keyframe] = []
        keyframes.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let at = "keyframes[\(index)]"
            guard case .object = item.value else {
                throw fail(at, "expected an object, found \(item.value.typeName)")
            }
            let t = try number(item["t"], path: at + ".t", fail: fail)
            guard case .array(let vector)? = item["gravity"]?.value else {
                throw fail(at + ".gravity", item["gravity"] == nil ? "missing" : "expected [x, y]")
            }
            guard vector.count == 2 || vector.count == 3 else {
                throw fail(at + ".gravity", "expected [x, y], found \(vector.count) numbers")
            }
            let x = try number(vector[0], path: at + ".gravity[0]", fail: fail)
            let y = try number(vector[1], path: at + ".gravity[1]", fail: fail)
            var curve = TimingCurve.linear
            if let value = item["curve"] {
                do {
                    curve = try TimingCurve(jsonValue: value.plainValue)
                } catch {
                    throw fail(at + ".curve", error.description)
                }
            }
            if let previous = keyframes.last, t < previous.t {
                throw fail(at + ".t", "keyframes not sorted by time: \(t) after \(previous.t)")
            }
            let reading = Vec2(x, y)
            let gravity = worldUnits ? Vec2.zero + reading
                : SampledGravityTrack.worldValue(reading, orientation: orientation, g: g)
            let gravityNode = item["gravity"]
            if let reason = worldUnits ? GravityBound.violation(gravity).map({ "this value " + $0 })
                : GravityBound.readingViolation(reading, world: gravity, g: g) {
                throw InputError(file: file, location: gravityNode?.location, path: at + ".gravity", reason: reason)
            }
            if let previous = keyframes.last {
                // The segment's values are previous + (gravity − previous)·s with |s| ≤ the curve's bound.
                let bound = curve.magnitudeBound
                let peak = Vec2(abs(previous.gravity.x) + abs(gravity.x - previous.gravity.x) * bound,
                                abs(previous.gravity.y) + abs(gravity.y - previous.gravity.y) * bound)
                if bound > 1, let reason = GravityBound.violation(peak) {
                    throw InputError(file: file, location: item["curve"]?.location, path: at + ".curve",
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

    private static func number(_ node: JSONNode?, path: String, fail: (String?, String) -> InputError)
        throws(InputError) -> Double
    {
        switch node?.value {
        case .number(let number)?:
            guard number.isFinite else { throw fail(path, "non-finite value \(number)") }
            return number
        case nil: throw fail(path, "missing")
        case let other?: throw fail(path, "expected a number, found \(other.typeName)")
        }
    }
}
