/// How a keyframe segment moves from its start value to its end value: maps progress
/// `u` ∈ [0, 1] (the fraction of the segment's time gone by) to an eased fraction of
/// the change, with f(0) = 0 and f(1) = 1.
///
/// In tilt files a curve is a name (`"easeInEaseOut"`, `"hold"`, `"bounceEaseOut"`,
/// `"easeOutBounce"`), `{"cubicBezier": [x1, y1, x2, y2]}` or `{"spring": {...}}`.
/// A spring is the exception to "progress in, fraction out": it runs on seconds since
/// the segment's start (`value(progress:seconds:)`).
public enum TimingCurve: Sendable, Equatable, CustomStringConvertible {
    /// f(u) = u.
    case linear
    /// A step: the segment's start value until the keyframe time is reached
    /// (f(u) = 0 for u < 1, f(1) = 1).
    case hold
    /// A Core Animation style cubic Bézier; the named curves `easeIn`, `easeOut`,
    /// `easeInEaseOut` and `default` are Béziers too.
    case bezier(CubicBezierTiming)
    /// One of the AHEasing functions the Core Animation book uses (`bounceEaseOut`, ...).
    case ahEasing(AHEasing)
    /// One of the classic Penner curves under its easings.net name (`easeOutBounce`, ...).
    case penner(PennerEasing)
    /// A damped spring, on real seconds since the segment's start.
    case spring(SpringCurve)

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

    /// Core Animation's names and `hold`.
    public static let coreAnimationNames = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default", "hold"]

    /// The names accepted by `init(name:)`: Core Animation's, then AHEasing's, then easings.net's.
    public static let names: [String] =
        coreAnimationNames + AHEasing.allCases.map(\.rawValue) + PennerEasing.allCases.map(\.rawValue)

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
            if let easing = AHEasing(rawValue: name) {
                self = .ahEasing(easing)
            } else if let easing = PennerEasing(rawValue: name) {
                self = .penner(easing)
            } else {
                throw .unknownName(name)
            }
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
            throw .malformed("expected a curve name, {\"cubicBezier\": [x1, y1, x2, y2]} or {\"spring\": {...}}")
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

    /// The eased fraction at progress `u` (0 at or before the start, 1 at or after the end).
    /// A spring has no progress scale: here it reads `u` as seconds; keyframe tracks call
    /// `value(progress:seconds:)`.
    public func value(at u: Double) -> Double {
        value(progress: u, seconds: u)
    }

    /// The fraction of a segment's change reached at progress `u` ∈ [0, 1], `seconds`
    /// after the segment's start: springs use the seconds (and give 1 once `u` reaches 1,
    /// the keyframe's own value), every other curve the progress.
    public func value(progress u: Double, seconds: Double) -> Double {
        switch self {
        case .linear: return u > 0 ? min(u, 1) : 0
        case .hold: return u >= 1 ? 1 : 0
        case .bezier(let curve): return curve.value(at: u)
        case .ahEasing(let easing): return easing.value(at: u)
        case .penner(let easing): return easing.value(at: u)
        case .spring(let spring): return u >= 1 ? 1 : spring.value(atSeconds: seconds)
        }
    }

    /// A bound on `|value(at: u)|` over u ∈ [0, 1]: 1 for curves that stay in [0, 1];
    /// for a Bézier the largest `|y|` of its control points (the curve lies in their
    /// convex hull); 2 for Penner's and AHEasing's easings (their back and elastic
    /// overshoots stay below 1.6); for a spring 1 plus its largest deviation from 1.
    /// Loaders bound the gravity of a keyframe segment with it.
    public var magnitudeBound: Double {
        switch self {
        case .linear, .hold: return 1
        case .bezier(let curve): return max(1, abs(curve.y1), abs(curve.y2))
        case .penner, .ahEasing: return 2
        case .spring(let spring): return 1 + spring.largestDeviationBound
        }
    }

    /// The name as written in tilt files, or `cubicBezier(x1, y1, x2, y2)`.
    public var description: String {
        switch self {
        case .linear: return "linear"
        case .hold: return "hold"
        case .ahEasing(let easing): return easing.rawValue
        case .penner(let easing): return easing.rawValue
        case .spring(let spring): return spring.description
        case .bezier(let curve):
            for (name, named) in [
                ("easeIn", Self.easeIn), ("easeOut", Self.easeOut),
                ("easeInEaseOut", Self.easeInEaseOut), ("default", Self.default),
            ]
            where named == self {
                return name
            }
            return "cubicBezier(\(curve.x1), \(curve.y1), \(curve.x2), \(curve.y2))"
        }
    }
}
