/// Why a timing curve could not be made. Callers that know where the curve came from
/// (a keyframe index, a file) wrap the `description` in a located `InputError`.
public enum TimingCurveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A name that is neither a Core Animation name, `hold`, nor a Penner easing.
    case unknownName(String)
    /// A Bézier control point x outside [0, 1].
    case controlPointOutOfRange(name: String, value: Double)
    /// A NaN or infinite control point coordinate.
    case nonFinite(name: String, value: Double)
    /// A curve value of the wrong shape (not a name nor `{"cubicBezier": [x1, y1, x2, y2]}`).
    case malformed(String)

    /// One line saying what is wrong, without a location (callers add it).
    public var description: String {
        switch self {
        case .unknownName(let name):
            return "unknown curve '\(name)'"
        case .controlPointOutOfRange(let name, let value):
            return "cubicBezier \(name) = \(value) is outside [0, 1]"
        case .nonFinite(let name, let value):
            return "cubicBezier \(name) = \(value) is not a finite number"
        case .malformed(let reason):
            return reason
        }
    }
}
