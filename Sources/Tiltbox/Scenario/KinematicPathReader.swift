extension ScenarioLimits {
    /// Most keyframes in one kinematic body's `path`.
    public var maxPathKeyframes: Int { 100_000 }
    /// Most cubic segments in one `bezierPath` (each is measured by
    /// `PacedBezierPath.chordsPerSegment` chords when the scenario loads).
    public var maxBezierSegments: Int { 10_000 }
}

/// Reads a kinematic body's `path` (docs/formats.md §5):
///
/// ```json
/// {"repeat": "pingpong", "keyframes": [{"t": 0, "position": [100, 80]},
///                                      {"t": 3, "position": [380, 80], "angle": 0, "curve": "easeInEaseOut"}]}
/// {"bezierPath": [[0, 0], [10, 20], [30, 20], [40, 0]], "duration": 2, "rotationMode": "auto", "repeat": "loop"}
/// ```
///
/// - `repeat`: `none` (default), `loop` or `pingpong`.
/// - `keyframes`: at least one; `t` (seconds, ≥ 0, strictly increasing) and `position`
///   required, `angle` (radians) default 0, `curve` default `linear` with the vocabulary of
///   tilt keyframes (`FieldReader.timingCurve`). `loop` and `pingpong` need two keyframes
///   or more (a positive period). Every pose a curve can reach, overshoot included, stays
///   within the coordinate and angle caps, so velocities derived from it stay finite.
/// - `bezierPath`: a start point and three points per cubic segment (1 + 3k points,
///   k ≥ 1) within the coordinate cap, with a non-zero length; `duration` required (> 0);
///   `rotationMode` `none` (default), `auto` or `autoReverse`.
/// - A path has either `keyframes` or `bezierPath`; `duration` and `rotationMode` belong
///   to `bezierPath` only.
extension FieldReader {
    static let kinematicPathKeys = ["repeat", "keyframes", "bezierPath", "duration", "rotationMode"]
    static let poseKeyframeKeys = ["t", "position", "angle", "curve"]

    /// The path at `node` (`bodies[i].path`), validated; errors name the field path under `path`.
    func kinematicPath(_ node: JSONNode, _ path: String) throws(InputError) -> KinematicPath {
        let object = try self.object(node, path, keys: FieldReader.kinematicPathKeys)
        var repeatMode = PathRepeat.none
        if let repeatNode = object["repeat"] { repeatMode = try enumeration(repeatNode, object.path("repeat")) }
        switch (object["keyframes"], object["bezierPath"]) {
        case (.some, .some(let bezierNode)):
            throw error(
                at: bezierNode, object.path("bezierPath"),
                "a path has either \"keyframes\" or \"bezierPath\", not both")
        case (nil, nil):
            throw error(at: node, path, "missing \"keyframes\" or \"bezierPath\"")
        case (.some(let keyframesNode), nil):
            for key in ["duration", "rotationMode"] {
                guard let extra = object[key] else { continue }
                throw error(
                    at: extra, object.path(key),
                    "\"\(key)\" belongs to a \"bezierPath\"; keyframes carry their own times and angles")
            }
            let keyframes = try poseKeyframes(keyframesNode, object.path("keyframes"))
            if repeatMode != .none, keyframes.count < 2, let repeatNode = object["repeat"] {
                throw error(
                    at: repeatNode, object.path("repeat"),
                    "\"\(repeatMode.rawValue)\" needs at least two keyframes (a period longer than zero)")
            }
            return .keyframes(keyframes, repeat: repeatMode)
        case (nil, .some(let bezierNode)):
            let points = try bezierPoints(bezierNode, object.path("bezierPath"))
            let duration = try object.number(
                "duration", default: nil, .positive(max: ScenarioLoader.limits.maxDuration))
            var rotationMode = PathRotationMode.none
            if let modeNode = object["rotationMode"] {
                rotationMode = try enumeration(modeNode, object.path("rotationMode"))
            }
            return .bezier(points: points, duration: duration, rotationMode: rotationMode, repeat: repeatMode)
        }
    }

    private func poseKeyframes(_ node: JSONNode, _ path: String) throws(InputError) -> [PoseKeyframe] {
        let limits = ScenarioLoader.limits
        let items = try array(node, path, maxCount: limits.maxPathKeyframes)
        guard !items.isEmpty else { throw error(at: node, path, "a path needs at least one keyframe") }
        var keyframes: [PoseKeyframe] = []
        keyframes.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let object = try self.object(item, FieldReader.element(path, index), keys: FieldReader.poseKeyframeKeys)
            let t = try object.number("t", default: nil, .nonNegative(max: limits.maxDuration))
            let position = try object.vec2("position", default: nil, .magnitude(limits.maxCoordinate))
            let angle = try object.number("angle", default: 0, .magnitude(limits.maxAngle))
            var curve = TimingCurve.linear
            if let curveNode = object["curve"] { curve = try timingCurve(curveNode, object.path("curve")) }
            let keyframe = PoseKeyframe(t: t, position: position, angle: angle, curve: curve)
            if let previous = keyframes.last {
                if !(t > previous.t), let tNode = object["t"] {
                    throw error(
                        at: tNode, object.path("t"),
                        "times must increase strictly: \(NumberFormat.shortest(t)) "
                            + "is not after the previous keyframe's \(NumberFormat.shortest(previous.t))")
                }
                try checkOvershoot(from: previous, to: keyframe, object)
            }
            keyframes.append(keyframe)
        }
        return keyframes
    }

    /// Refuses a curve whose overshoot (`TimingCurve.magnitudeBound`) could carry the pose
    /// beyond the coordinate or angle cap: the segment's values are `a + (b − a)·s` with `|s| ≤ bound`.
    private func checkOvershoot(from start: PoseKeyframe, to end: PoseKeyframe, _ object: ObjectReader)
        throws(InputError)
    {
        let bound = end.curve.magnitudeBound
        guard bound > 1, let curveNode = object["curve"] else { return }
        let limits = ScenarioLoader.limits
        let reaches: [(String, Double, Double, Double)] = [
            ("position[0]", start.position.x, end.position.x, limits.maxCoordinate),
            ("position[1]", start.position.y, end.position.y, limits.maxCoordinate),
            ("angle", start.angle, end.angle, limits.maxAngle),
        ]
        for (name, a, b, cap) in reaches {
            let peak = abs(a) + abs(b - a) * bound
            guard peak > cap else { continue }
            throw error(
                at: curveNode, object.path("curve"),
                "the curve \(end.curve) overshoots: \(name) could reach "
                    + "\(NumberFormat.shortest(peak)) in size, beyond the limit of \(NumberFormat.shortest(cap))")
        }
    }

    private func bezierPoints(_ node: JSONNode, _ path: String) throws(InputError) -> [Vec2] {
        let limits = ScenarioLoader.limits
        let items = try array(node, path, maxCount: 1 + 3 * limits.maxBezierSegments)
        guard items.count >= 4, (items.count - 1) % 3 == 0 else {
            throw error(
                at: node, path,
                "expected a start point then three points per cubic segment "
                    + "(1 + 3k points with k ≥ 1: 4, 7, 10, ...), got \(items.count)")
        }
        var points: [Vec2] = []
        points.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            points.append(try vec2(item, FieldReader.element(path, index), .magnitude(limits.maxCoordinate)))
        }
        guard PacedBezierPath(points: points).length > 0 else {
            throw error(at: node, path, "the path has zero length: a body on it could not move")
        }
        return points
    }
}
