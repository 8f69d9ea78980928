/// How a keyframe segment moves from its start value to its end value: maps progress
/// `u` ∈ [0, 1] (the fraction of the segment's time gone by) to an eased fraction of
/// the change, with f(0) = 0 and f(1) = 1.
///
/// In tilt files a curve is a name (`"easeInEaseOut"`, `"hold"`, `"bounceEaseOut"`) or
/// `{"cubicBezier": [x1, y1, x2, y2]}`.
public enum TimingCurve: Sendable, Equatable, CustomStringConvertible {
    /// f(u) = u.
    case linear
    /// A step: the segment's start value until the keyframe time is reached
    /// (f(u) = 0 for u < 1, f(1) = 1).
    case hold
    /// A Core Animation style cubic Bézier; the named curves `easeIn`, `easeOut`,
    /// `easeInEaseOut` and `default` are Béziers too.
    case bezier(CubicBezierTiming)
    /// One of Robert Penner's easings.
    case penner(PennerEasing)

    // MARK: - Core Animation's named timing functions

    /// `kCAMediaTimingFunctionEaseIn`: control points (0.42, 0), (1, 1).
    public static let easeIn = TimingCurve.bezier(CubicBezierTiming(uncheckedX1: 0.42, y1: 0, x2: 1, y2: 1))
    /// `kCAMediaTimingFunctionEaseOut`: control points (0, 0), (0.58, 1).
    public static let easeOut = TimingCurve.bezier(CubicBezierTiming(uncheckedX1: 0, y1: 0, x2: 0.58, y2: 1))
    /// `kCAMediaTimingFunctionEaseInEaseOut`: control points (0.42, 0), (0.58, 1).
    public static let easeInEaseOut = TimingCurve.bezier(
        CubicBezierTiming(uncheckedX1: 0.42, y1: 0, x2: 0.58, y2: 1))
    /// `kCAMediaTimingFunctionDefault`: control points (0.25, 0.1), (0.25, 1).
    public static let `default` = TimingCurve.bezier(CubicBezierTiming(uncheckedX1: 0.25, y1: 0.1, x2: 0.25, y2: 1))

    /// The names accepted by `init(name:)`, Core Animation's first, then Penner's.
    public static let names: [String] =
        ["linear", "easeIn", "easeOut", "easeInEaseOut", "default", "hold"] + PennerEasing.allCases.map(\.rawValue)

    /// A cubic Bézier with control points (x1, y1) and (x2, y2), like
    /// `CAMediaTimingFunction(controlPoints:)`.
    ///
    /// - Throws: `TimingCurveError` when `x1` or `x2` is outside [0, 1] or a value is not finite.
    public static func cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double) throws(TimingCurveError)
        -> TimingCurve
    {
        .bezier(try CubicBezierTiming(x1: x1, y1: y1, x2: x2, y2: y2))
    }

    /// The curve with this name (case-sensitive, as written in tilt files).
    ///
    /// - Throws: `TimingCurveError.unknownName` for any other string.
    public init(name: String) throws(TimingCurveError) {
        switch name {
        case "linear": self = .linear
        case "hold": self = .hold
        case "easeIn": self = .easeIn
        case "easeOut": self = .easeOut
        case "easeInEaseOut": self = .easeInEaseOut
        case "default": self = .default
        default:
            guard let easing = PennerEasing(rawValue: name) else { throw .unknownName(name) }
            self = .penner(easing)
        }
    }

    /// The curve a decoded JSON value describes: a `String` name or a dictionary
    /// `["cubicBezier": [x1, y1, x2, y2]]` of numbers (`Double` or `Int`).
    ///
    /// Takes plain Swift values so that any JSON reader can feed it.
    public init(jsonValue: Any) throws(TimingCurveError) {
        if let name = jsonValue as? String {
            try self.init(name: name)
            return
        }
        guard let object = jsonValue as? [String: Any], object.count == 1,
              let points = object["cubicBezier"] as? [Any]
        else {
            throw .malformed("expected a curve name or {\"cubicBezier\": [x1, y1, x2, y2]}")
        }
        let numbers = points.compactMap { Self.number($0) }
        guard points.count == 4, numbers.count == 4 else {
            throw .malformed("cubicBezier needs four numbers [x1, y1, x2, y2]")
        }
        self = try .cubicBezier(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3])
    }

    private static func number(_ value: Any) -> Double? {
        switch value {
        case let double as Double: return double
        case let int as Int: return Double(int)
        default: return nil
        }
    }

    /// The eased fraction at progress `u`, clamped to [0, 1].
    public func value(at u: Double) -> Double {
        switch self {
        case .linear: return u > 0 ? min(u, 1) : 0
        case .hold: return u >= 1 ? 1 : 0
        case .bezier(let curve): return curve.value(at: u)
        case .penner(let easing): return easing.value(at: u)
        }
    }

    /// A bound on `|value(at: u)|` over u ∈ [0, 1]: 1 for curves that stay in [0, 1];
    /// for a Bézier the largest `|y|` of its control points (the curve lies in their
    /// convex hull); 2 for Penner's easings (their back and elastic overshoots stay
    /// below 1.6). Loaders bound the gravity of a keyframe segment with it.
    public var magnitudeBound: Double {
        switch self {
        case .linear, .hold: return 1
        case .bezier(let curve): return max(1, abs(curve.y1), abs(curve.y2))
        case .penner: return 2
        }
    }

    /// The name as written in tilt files, or `cubicBezier(x1, y1, x2, y2)`.
    public var description: String {
        switch self {
        case .linear: return "linear"
        case .hold: return "hold"
        case .penner(let easing): return easing.rawValue
        case .bezier(let curve):
            for (name, named) in [("easeIn", Self.easeIn), ("easeOut", Self.easeOut),
                                  ("easeInEaseOut", Self.easeInEaseOut), ("default", Self.default)]
            where named == self {
                return name
            }
            return "cubicBezier(\(curve.x1), \(curve.y1), \(curve.x2), \(curve.y2))"
        }
    }
}
