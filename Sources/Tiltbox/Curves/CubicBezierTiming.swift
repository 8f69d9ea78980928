/// A cubic Bézier timing function, like Core Animation's
/// `CAMediaTimingFunction(controlPoints:)`: the curve runs from P0 = (0, 0) to
/// P3 = (1, 1) with control points P1 = (x1, y1) and P2 = (x2, y2).
///
/// Given progress `u` (the x axis, fraction of the segment's time), `value(at:)` finds
/// the curve parameter `s` with x(s) = u and returns y(s). Both control x values lie
/// in [0, 1], which makes x(s) monotonic, so the solution is unique.
public struct CubicBezierTiming: Sendable, Equatable {
    /// x of the first control point P1, in [0, 1] (progress).
    public let x1: Double
    /// y of the first control point P1 (fraction of the change; may leave [0, 1] to overshoot).
    public let y1: Double
    /// x of the second control point P2, in [0, 1] (progress).
    public let x2: Double
    /// y of the second control point P2 (fraction of the change; may leave [0, 1] to overshoot).
    public let y2: Double

    /// How close x(s) must come to `u` (in units of progress). Tighter than the
    /// 1e-9 the rest of the project relies on.
    static let tolerance = 1e-14

    /// Creates the curve, refusing control points that would make it ambiguous.
    ///
    /// - Throws: `TimingCurveError.controlPointOutOfRange` when `x1` or `x2` is outside
    ///   [0, 1] (x(s) would not be monotonic, so one time could map to several values),
    ///   `TimingCurveError.nonFinite` for NaN or infinite coordinates.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) throws(TimingCurveError) {
        for (name, value) in [("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)] where !value.isFinite {
            throw .nonFinite(name: name, value: value)
        }
        if !(0...1).contains(x1) { throw .controlPointOutOfRange(name: "x1", value: x1) }
        if !(0...1).contains(x2) { throw .controlPointOutOfRange(name: "x2", value: x2) }
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// Control points already known to be valid (the named Core Animation curves).
    init(uncheckedX1 x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// The eased value at progress `u` (clamped to [0, 1]): y(s) where x(s) = u.
    public func value(at u: Double) -> Double {
        if !(u > 0) { return 0 } // also catches NaN
        if u >= 1 { return 1 }
        return Self.coordinate(parameter(forProgress: u), c1: y1, c2: y2)
    }

    /// The curve parameter `s` ∈ [0, 1] with x(s) = u, within `tolerance`.
    ///
    /// Newton's method from s = u converges in a few steps on ordinary curves; where
    /// the slope is flat or an iterate leaves [0, 1] it falls back to bisection,
    /// which always converges because x is monotonic.
    func parameter(forProgress u: Double) -> Double {
        var s = u
        for _ in 0..<8 {
            let error = Self.coordinate(s, c1: x1, c2: x2) - u
            if abs(error) < Self.tolerance { return s }
            let slope = Self.derivative(s, c1: x1, c2: x2)
            if abs(slope) < 1e-9 { break }
            let next = s - error / slope
            if !(0...1).contains(next) { break }
            s = next
        }
        var low = 0.0, high = 1.0
        s = u
        for _ in 0..<200 {
            let x = Self.coordinate(s, c1: x1, c2: x2)
            if abs(x - u) < Self.tolerance { return s }
            if x < u { low = s } else { high = s }
            let mid = (low + high) / 2
            if mid == s { break }
            s = mid
        }
        return s
    }

    /// One coordinate of the curve: B(s) = 3(1−s)²s·c1 + 3(1−s)s²·c2 + s³,
    /// evaluated in Horner form.
    static func coordinate(_ s: Double, c1: Double, c2: Double) -> Double {
        let c = 3 * c1
        let b = 3 * (c2 - c1) - c
        let a = 1 - c - b
        return ((a * s + b) * s + c) * s
    }

    /// dB/ds for `coordinate`.
    static func derivative(_ s: Double, c1: Double, c2: Double) -> Double {
        let c = 3 * c1
        let b = 3 * (c2 - c1) - c
        let a = 1 - c - b
        return (3 * a * s + 2 * b) * s + c
    }
}
