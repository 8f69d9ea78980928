import Foundation

/// The easing functions of the AHEasing C library (Warren Moore), the ones the Core
/// Animation book uses, by their C names (`QuadraticEaseIn` is `quadraticEaseIn`), each
/// evaluated term for term as AHEasing's C code evaluates it, in double precision.
///
/// They differ from the classic Penner curves (`PennerEasing`, easings.net's names) in
/// elastic (AHEasing: a damped `sin(13π/2·p)`, no period or amplitude), back
/// (AHEasing: `p³ − p·sin(πp)`, no overshoot constant 1.70158) and bounce (AHEasing:
/// four parabolas through other points, so `bounceEaseOut(0.5)` is 0.71875, where
/// easings.net's `easeOutBounce(0.5)` is 0.765625).
public enum AHEasing: String, Sendable, CaseIterable {
    case quadraticEaseIn, quadraticEaseOut, quadraticEaseInOut
    case cubicEaseIn, cubicEaseOut, cubicEaseInOut
    case quarticEaseIn, quarticEaseOut, quarticEaseInOut
    case quinticEaseIn, quinticEaseOut, quinticEaseInOut
    case sineEaseIn, sineEaseOut, sineEaseInOut
    case circularEaseIn, circularEaseOut, circularEaseInOut
    case exponentialEaseIn, exponentialEaseOut, exponentialEaseInOut
    case elasticEaseIn, elasticEaseOut, elasticEaseInOut
    case backEaseIn, backEaseOut, backEaseInOut
    case bounceEaseIn, bounceEaseOut, bounceEaseInOut

    /// The eased value at progress `u`: 0 at or before the start, 1 at or after the end
    /// (so a segment ends exactly on its keyframe), AHEasing's formula in between.
    public func value(at u: Double) -> Double {
        if !(u > 0) { return 0 } // also catches NaN
        if u >= 1 { return 1 }
        return evaluate(u)
    }

    /// `M_PI_2` in C.
    private static let halfPi = Double.pi / 2

    /// AHEasing's formula at `p`, unclamped (any p; the tests probe [0, 1]).
    public func evaluate(_ p: Double) -> Double {
        let halfPi = Self.halfPi
        switch self {
        case .quadraticEaseIn: return p * p
        case .quadraticEaseOut: return -(p * (p - 2))
        case .quadraticEaseInOut: return p < 0.5 ? 2 * p * p : (-2 * p * p) + (4 * p) - 1

        case .cubicEaseIn: return p * p * p
        case .cubicEaseOut: let f = p - 1; return f * f * f + 1
        case .cubicEaseInOut:
            if p < 0.5 { return 4 * p * p * p }
            let f = (2 * p) - 2
            return 0.5 * f * f * f + 1

        case .quarticEaseIn: return p * p * p * p
        case .quarticEaseOut: let f = p - 1; return f * f * f * (1 - p) + 1
        case .quarticEaseInOut:
            if p < 0.5 { return 8 * p * p * p * p }
            let f = p - 1
            return -8 * f * f * f * f + 1

        case .quinticEaseIn: return p * p * p * p * p
        case .quinticEaseOut: let f = p - 1; return f * f * f * f * f + 1
        case .quinticEaseInOut:
            if p < 0.5 { return 16 * p * p * p * p * p }
            let f = (2 * p) - 2
            return 0.5 * f * f * f * f * f + 1

        case .sineEaseIn: return sin((p - 1) * halfPi) + 1
        case .sineEaseOut: return sin(p * halfPi)
        case .sineEaseInOut: return 0.5 * (1 - cos(p * Double.pi))

        case .circularEaseIn: return 1 - (1 - (p * p)).squareRoot()
        case .circularEaseOut: return ((2 - p) * p).squareRoot()
        case .circularEaseInOut:
            if p < 0.5 { return 0.5 * (1 - (1 - 4 * (p * p)).squareRoot()) }
            return 0.5 * ((-((2 * p) - 3) * ((2 * p) - 1)).squareRoot() + 1)

        case .exponentialEaseIn: return p == 0 ? p : pow(2, 10 * (p - 1))
        case .exponentialEaseOut: return p == 1 ? p : 1 - pow(2, -10 * p)
        case .exponentialEaseInOut:
            if p == 0 || p == 1 { return p }
            if p < 0.5 { return 0.5 * pow(2, (20 * p) - 10) }
            return -0.5 * pow(2, (-20 * p) + 10) + 1

        case .elasticEaseIn: return sin(13 * halfPi * p) * pow(2, 10 * (p - 1))
        case .elasticEaseOut: return sin(-13 * halfPi * (p + 1)) * pow(2, -10 * p) + 1
        case .elasticEaseInOut:
            if p < 0.5 { return 0.5 * sin(13 * halfPi * (2 * p)) * pow(2, 10 * ((2 * p) - 1)) }
            return 0.5 * (sin(-13 * halfPi * ((2 * p - 1) + 1)) * pow(2, -10 * (2 * p - 1)) + 2)

        case .backEaseIn: return p * p * p - p * sin(p * Double.pi)
        case .backEaseOut:
            let f = 1 - p
            return 1 - (f * f * f - f * sin(f * Double.pi))
        case .backEaseInOut:
            if p < 0.5 {
                let f = 2 * p
                return 0.5 * (f * f * f - f * sin(f * Double.pi))
            }
            let f = 1 - (2 * p - 1)
            return 0.5 * (1 - (f * f * f - f * sin(f * Double.pi))) + 0.5

        case .bounceEaseIn: return 1 - Self.bounceOut(1 - p)
        case .bounceEaseOut: return Self.bounceOut(p)
        case .bounceEaseInOut:
            if p < 0.5 { return 0.5 * (1 - Self.bounceOut(1 - p * 2)) }
            return 0.5 * Self.bounceOut(p * 2 - 1) + 0.5
        }
    }

    /// AHEasing's `BounceEaseOut`: four parabolas meeting at 4/11, 8/11 and 9/10.
    static func bounceOut(_ p: Double) -> Double {
        if p < 4 / 11.0 { return (121 * p * p) / 16.0 }
        if p < 8 / 11.0 { return (363 / 40.0 * p * p) - (99 / 10.0 * p) + 17 / 5.0 }
        if p < 9 / 10.0 { return (4356 / 361.0 * p * p) - (35442 / 1805.0 * p) + 16061 / 1805.0 }
        return (54 / 5.0 * p * p) - (513 / 25.0 * p) + 268 / 25.0
    }
}
