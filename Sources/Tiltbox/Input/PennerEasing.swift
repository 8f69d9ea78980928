import Foundation

/// Robert Penner's easing equations in normalized form: progress `u` ∈ [0, 1] to a
/// value with f(0) = 0 and f(1) = 1 (Penner's `(t, b, c, d)` with b = 0, c = 1, d = 1).
///
/// The raw value is the curve's name in tilt files (`quadraticEaseIn`, `bounceEaseOut`, ...).
/// Constants are the classic ones: back overshoot s = 1.70158 (×1.525 for in-out);
/// elastic amplitude 1 with period 0.3 (0.45 for in-out), as in Penner's ActionScript
/// and easings.net, rather than AHEasing's `sin(13π/2·u)` variant.
/// Back and elastic leave [0, 1] between the ends; that is their point.
public enum PennerEasing: String, Sendable, CaseIterable {
    case quadraticEaseIn, quadraticEaseOut, quadraticEaseInOut
    case cubicEaseIn, cubicEaseOut, cubicEaseInOut
    case quarticEaseIn, quarticEaseOut, quarticEaseInOut
    case quinticEaseIn, quinticEaseOut, quinticEaseInOut
    case sineEaseIn, sineEaseOut, sineEaseInOut
    case exponentialEaseIn, exponentialEaseOut, exponentialEaseInOut
    case circularEaseIn, circularEaseOut, circularEaseInOut
    case backEaseIn, backEaseOut, backEaseInOut
    case elasticEaseIn, elasticEaseOut, elasticEaseInOut
    case bounceEaseIn, bounceEaseOut, bounceEaseInOut

    /// The eased value at progress `u`, clamped to [0, 1] so the ends are exact.
    public func value(at u: Double) -> Double {
        if !(u > 0) { return 0 }   // also catches NaN
        if u >= 1 { return 1 }
        return Self.evaluate(self, u)
    }

    // MARK: - The equations (u strictly inside (0, 1))

    private static let backOvershoot = 1.70158

    private static func evaluate(_ easing: PennerEasing, _ p: Double) -> Double {
        switch easing {
        case .quadraticEaseIn: return p * p
        case .quadraticEaseOut: return -(p * (p - 2))
        case .quadraticEaseInOut: return p < 0.5 ? 2 * p * p : -2 * p * p + 4 * p - 1

        case .cubicEaseIn: return p * p * p
        case .cubicEaseOut: let f = p - 1; return f * f * f + 1
        case .cubicEaseInOut:
            if p < 0.5 { return 4 * p * p * p }
            let f = 2 * p - 2
            return 0.5 * f * f * f + 1

        case .quarticEaseIn: return p * p * p * p
        case .quarticEaseOut: let f = p - 1; return 1 - f * f * f * f
        case .quarticEaseInOut:
            if p < 0.5 { return 8 * p * p * p * p }
            let f = p - 1
            return 1 - 8 * f * f * f * f

        case .quinticEaseIn: return p * p * p * p * p
        case .quinticEaseOut: let f = p - 1; return f * f * f * f * f + 1
        case .quinticEaseInOut:
            if p < 0.5 { return 16 * p * p * p * p * p }
            let f = 2 * p - 2
            return 0.5 * f * f * f * f * f + 1

        case .sineEaseIn: return 1 - cos(p * .pi / 2)
        case .sineEaseOut: return sin(p * .pi / 2)
        case .sineEaseInOut: return 0.5 * (1 - cos(p * .pi))

        case .exponentialEaseIn: return pow(2, 10 * (p - 1))
        case .exponentialEaseOut: return 1 - pow(2, -10 * p)
        case .exponentialEaseInOut:
            if p < 0.5 { return 0.5 * pow(2, 20 * p - 10) }
            return 1 - 0.5 * pow(2, -20 * p + 10)

        case .circularEaseIn: return 1 - (1 - p * p).squareRoot()
        case .circularEaseOut: return ((2 - p) * p).squareRoot()
        case .circularEaseInOut:
            if p < 0.5 { return 0.5 * (1 - (1 - 4 * p * p).squareRoot()) }
            return 0.5 * ((-(2 * p - 3) * (2 * p - 1)).squareRoot() + 1)

        case .backEaseIn:
            let s = backOvershoot
            return p * p * ((s + 1) * p - s)
        case .backEaseOut:
            let s = backOvershoot, f = p - 1
            return f * f * ((s + 1) * f + s) + 1
        case .backEaseInOut:
            let s = backOvershoot * 1.525
            if p < 0.5 {
                let f = 2 * p
                return 0.5 * (f * f * ((s + 1) * f - s))
            }
            let f = 2 * p - 2
            return 0.5 * (f * f * ((s + 1) * f + s) + 2)

        case .elasticEaseIn:
            let period = 0.3, shift = period / 4
            return -(pow(2, 10 * (p - 1)) * sin((p - 1 - shift) * 2 * .pi / period))
        case .elasticEaseOut:
            let period = 0.3, shift = period / 4
            return pow(2, -10 * p) * sin((p - shift) * 2 * .pi / period) + 1
        case .elasticEaseInOut:
            let period = 0.45, shift = period / 4
            let f = 2 * p - 1
            if f < 0 {
                return -0.5 * (pow(2, 10 * f) * sin((f - shift) * 2 * .pi / period))
            }
            return pow(2, -10 * f) * sin((f - shift) * 2 * .pi / period) * 0.5 + 1

        case .bounceEaseIn: return 1 - bounceOut(1 - p)
        case .bounceEaseOut: return bounceOut(p)
        case .bounceEaseInOut:
            if p < 0.5 { return 0.5 * (1 - bounceOut(1 - 2 * p)) }
            return 0.5 * bounceOut(2 * p - 1) + 0.5
        }
    }

    /// The classic piecewise bounce: four parabolas of height 1, 0.25, 0.0625, 0.015625.
    private static func bounceOut(_ p: Double) -> Double {
        if p < 1 / 2.75 {
            return 7.5625 * p * p
        } else if p < 2 / 2.75 {
            let f = p - 1.5 / 2.75
            return 7.5625 * f * f + 0.75
        } else if p < 2.5 / 2.75 {
            let f = p - 2.25 / 2.75
            return 7.5625 * f * f + 0.9375
        } else {
            let f = p - 2.625 / 2.75
            return 7.5625 * f * f + 0.984375
        }
    }
}
